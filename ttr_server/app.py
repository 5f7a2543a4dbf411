"""The web application: the HTTP API (documented at ``/api/openapi.json``; its routers, by
resource, are in ``routes/``) and the pages.

Errors are JSON ``{"error": code, "reason": sentence}`` with a 4xx status: 400 a malformed
request, 401 a missing or wrong seat token, 403 an invitation that is not the game's (the lobby,
``routes/lobby.py``), 404 an unknown game or variant, 409 a stale state version (nothing applied), a
record asked for before the end, a used invitation or a full game, 413 a body over the size limit,
422 a request that is well formed but that the rules refuse (with the engine's reason).
A seat's token travels in ``Authorization: Bearer <token>``; without one a reader is a spectator.
"""

from __future__ import annotations

import asyncio
import logging
import traceback
from contextlib import asynccontextmanager
from typing import Any

import attrs
import sqlalchemy as sa
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

from ttr_core import variant
from ttr_core.errors import TTRError
from ttr_server import db, expiry
from ttr_server.errors import ServiceError
from ttr_server.events import ChangeListener, Hub
from ttr_server.limits import Admission, BodyLimit, HeaderLimit, NoStore, SecurityHeaders
from ttr_server.lobby import Lobby
from ttr_server.moves import GamePageData
from ttr_server.routes import actions, game_page, games, lobby as lobby_routes, pages, server, variants
from ttr_server.routes.common import DATABASE_RETRY_AFTER, errors
from ttr_server.service import GameService
from ttr_server.shared_limits import SharedSlots

log = logging.getLogger("ttr_server")


@attrs.frozen
class Settings:
    db_url: str = attrs.field(factory=db.default_url)  # read when made: TTR_DATABASE_URL or ./ttr-games.sqlite3
    bot_delay: float = 0.5  # seconds between two bot actions, so that people can follow them
    poll: float = 1.0  # seconds between a stream's looks at the database (other processes' changes)
    stream_seconds: float = 300.0  # a stream ends after this; EventSource reconnects by itself
    max_body: int = 16 * 1024  # bytes; the largest legal request is well under 2 KiB
    cache_size: int = 2000  # live games kept in memory
    run_bots: bool = True
    # --- limits against abuse (``ttr serve --help``; README "Deployment"); 0: no limit ---------
    allow_seed: bool = False  # a client-chosen seed lets anybody predict every hand offline
    games_per_minute: int = 20  # games one client address may create per minute
    streams_per_client: int = 16  # event streams one client address may hold open
    streams_per_game: int = 200  # event streams open on one game
    max_bot_games: int = 4  # unfinished games without a person (bots take CPU); 0: every game needs one
    max_headers: int = 64  # header fields in a request
    expire_after: float = 7 * 24 * 3600.0  # seconds without a move before an unfinished game expires
    gzip_min: int = 1024  # bytes: responses from this size are compressed for clients that accept gzip


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    engine = db.make_engine(settings.db_url)
    db.migrate(engine)
    _warm_variants()
    hub = Hub()
    service = GameService(engine, bot_delay=settings.bot_delay, cache_size=settings.cache_size,
                          notify=hub.notify, run_bots=settings.run_bots)
    lobby = Lobby(service)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        hub.bind(asyncio.get_running_loop())
        listener = ChangeListener(engine, hub).start() if engine.dialect.name == "postgresql" else None
        if service.bots is not None:
            for game_id in await run_in_threadpool(service.bot_games):
                service.bots.kick(game_id)
        sweeper = asyncio.create_task(expiry.sweep(service, lobby, settings.expire_after)) if settings.expire_after else None
        try:
            yield
        finally:
            if sweeper is not None:
                sweeper.cancel()
            if listener is not None:
                await run_in_threadpool(listener.stop)
            await run_in_threadpool(service.close)
            engine.dispose()

    app = FastAPI(
        title="ttr-engine game server",
        version="1",
        summary="Ticket to Ride games over HTTP: create, read as a seat or a spectator, act, follow, resign, records.",
        openapi_url="/api/openapi.json",
        docs_url=None,  # served by routes/pages.py from the package's own copy of Swagger UI: it works offline
        redoc_url=None,
        lifespan=lifespan,
        # what any request may get, whatever its route: the body checks run before routing
        responses=errors(400, 413, 422),
    )
    # what the routers' dependencies hand their handlers (``routes/common.py``)
    app.state.settings = settings
    app.state.service = service
    app.state.lobby = lobby
    app.state.hub = hub
    app.state.game_page = GamePageData(service)
    app.state.streams = SharedSlots(engine, settings.streams_per_client, settings.streams_per_game)
    app.state.admit = Admission(service, allow_seed=settings.allow_seed, games_per_minute=settings.games_per_minute,
                                max_bot_games=settings.max_bot_games)
    app.add_middleware(BodyLimit, max_body=settings.max_body)
    app.add_middleware(GZipMiddleware, minimum_size=settings.gzip_min)
    app.add_middleware(NoStore)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(HeaderLimit, max_headers=settings.max_headers)
    _errors(app)
    for router in (server.router, variants.router, games.router, actions.router, game_page.router,
                   lobby_routes.router, pages.router):
        app.include_router(router)
    pages.mount_static(app)
    return app


def _printable(value: Any, limit: int = 2000) -> Any:
    """``value`` with every string made encodable (a lone surrogate such as "\\ud800" written out
    as its escape) and cut to ``limit`` characters: a reason quotes what the client sent, and it
    must neither break the JSON encoder nor grow with the request."""
    if isinstance(value, str):
        text = value.encode("utf-8", "backslashreplace").decode("utf-8")
        return text if len(text) <= limit else text[:limit] + "…"
    if isinstance(value, dict):
        return {_printable(k, 100): _printable(v, limit) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_printable(v, limit) for v in value]
    return value


def _errors(app: FastAPI) -> None:
    def error(status: int, code: str, reason: str, **extra: Any) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if status == 401 else {}
        if "retry_after" in extra:
            headers["Retry-After"] = str(extra["retry_after"])
        body = _printable({"error": code, "reason": reason, **extra})
        return JSONResponse(body, status_code=status, headers=headers or None)

    @app.exception_handler(ServiceError)
    async def _service(request: Request, exc: ServiceError):
        return error(exc.status, exc.code, exc.reason, **exc.extra)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        parts = []
        for e in exc.errors():
            where = ".".join(str(p) for p in e.get("loc", ()))
            parts.append(f"{where}: {e.get('msg', 'invalid')}")
        return error(422, "invalid-request", "; ".join(parts) or "invalid request")

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        code = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "bad-request")
        return error(exc.status_code, code, str(exc.detail))

    @app.exception_handler(db.DatabaseUnavailable)
    @app.exception_handler(sa.exc.OperationalError)
    @app.exception_handler(sa.exc.InterfaceError)
    @app.exception_handler(sa.exc.TimeoutError)
    async def _database(request: Request, exc: Exception):
        # the database does not answer (a stopped server, a full pool, a moved SQLite file): the
        # request did nothing, and a client may try again
        log.warning("the database cannot be used on %s %s: %s", request.method,
                    _printable(request.url.path, 200), _printable(str(exc), 300))
        return error(503, "database-unavailable", "the database cannot be used now; try again shortly",
                     retry_after=DATABASE_RETRY_AFTER)

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception):
        # the last frames only, cut short: a request must not be able to fill the log
        where = "".join(traceback.format_exception(exc, limit=-6))[-4000:]
        log.error("unhandled error on %s %s:\n%s", request.method, _printable(request.url.path, 200), _printable(where))
        return error(500, "internal", "internal error; it was logged")


def _warm_variants() -> None:
    # Load every variant once before serving: the loads are cached, and a burst of first
    # requests would otherwise each build the same rulesets at once, in every worker thread.
    for vid in variant.available():
        try:
            variant.load(vid)
        except TTRError:
            pass  # a broken file is reported where it is used
