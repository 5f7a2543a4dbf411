"""The web application: the HTTP API (documented at ``/api/openapi.json``) and the pages.

Errors are JSON ``{"error": code, "reason": sentence}`` with a 4xx status: 400 a malformed
request, 401 a missing or wrong seat token, 403 an invitation that is not the game's (the lobby,
``lobby_api.py``), 404 an unknown game or variant, 409 a stale state version (nothing applied), a
record asked for before the end, a used invitation or a full game, 413 a body over the size limit,
422 a request that is well formed but that the rules refuse (with the engine's reason).
A seat's token travels in ``Authorization: Bearer <token>``; without one a reader is a spectator.
"""

from __future__ import annotations

import asyncio
import json
import logging
import traceback
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path as FilePath
from collections.abc import Callable
from typing import Annotated, Any

import attrs
import sqlalchemy as sa
from fastapi import Depends, FastAPI, Header, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

import ttr_bots as bot_kinds
from ttr_core import record as records
from ttr_core import variant
from ttr_core.errors import TTRError, VariantError
from ttr_core.files import read_toml
from ttr_server import db, lobby_api
from ttr_server.events import ChangeListener, Hub
from ttr_server.limits import BodyLimit, HeaderLimit, NoStore, SecurityHeaders
from ttr_server.lobby import Lobby
from ttr_server.plugin_words import RulesWordsOut, rules_words
from ttr_server.names import PlayerName, clashing_names
from ttr_server import shared_limits
from ttr_server.shared_limits import REFRESH_EVERY, SharedRateLimit, SharedSlots
from ttr_server.service import GameService, Rejected, ServiceError, Snapshot, Status, Unauthorized


class TooMany(ServiceError):
    """A limit against abuse: too many games, streams or bot-only games for now."""

    status, code = 429, "too-many"


class SeedRefused(ServiceError):
    status, code = 403, "seed-not-allowed"

log = logging.getLogger("ttr_server")

#: seconds a client is told to wait when the database cannot be used (``Retry-After``)
DATABASE_RETRY_AFTER = 5

STATIC = files("ttr_server") / "static"
GAME_ID = r"^[A-Za-z0-9_-]{1,40}$"
MAX_VERSIONS = 100


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


# --- request and response bodies (their schemas are the OpenAPI document's) ------------------


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SeatIn(_In):
    name: PlayerName = Field(description="The player's name, shown to everybody; unique in the game (compared "
                                         "without case); trimmed; no control or invisible characters.")
    bot: str | None = Field(None, max_length=40, description="An installed bot to play this seat in the server "
                                                             "(GET /api/variants: `bots`; `ttr bots`); null for a person.")


class CreateGameIn(_In):
    variant: str = Field("usa", max_length=64, description="A variant id from GET /api/variants.")
    version: int | None = Field(None, ge=1, le=10_000, strict=True,
                                description="Rules version; default: the variant's current one. The game keeps it.")
    seats: list[SeatIn] = Field(min_length=1, max_length=10)
    seed: int | None = Field(None, ge=0, le=2**63 - 1, strict=True,
                             description="Shuffle seed; default: a random one. Whoever knows it knows the deck.")


class ActionIn(_In):
    version: int = Field(ge=0, le=10**9, strict=True,
                         description="The game version this action was chosen at; a stale one is refused (409).")
    action: dict[str, Any] = Field(description='An action as in a record, e.g. {"kind": "draw-card", "slot": null}; '
                                               "the seat's legal ones are listed by GET /api/games/{id}.")


class ResignIn(_In):
    version: int | None = Field(None, ge=0, le=10**9, strict=True,
                                description="If given, refused (409) unless the game is still at this version.")


class ErrorOut(BaseModel):
    error: str
    reason: str


class PlayerRangeOut(BaseModel):
    min: int
    max: int


class VariantOut(BaseModel):
    id: str
    title: str
    description: str = ""
    version: int = Field(description="The current rules version: new games get it unless they ask for another.")
    versions: list[int]
    map: str
    players: PlayerRangeOut
    plugins: list[str]


class VariantsOut(BaseModel):
    variants: list[VariantOut]
    bots: list[str]


class CityOut(BaseModel):
    name: str
    lat: float
    lon: float
    x: float | None = None  # where the map's own board draws it (board units), if it has one
    y: float | None = None


class RouteOut(BaseModel):
    id: str
    a: str
    b: str
    length: int
    color: str
    tunnel: bool
    ferry: int


class TicketOut(BaseModel):
    id: str
    a: str
    b: str
    points: int
    kind: str


class BoardOut(BaseModel):
    variant: str
    version: int
    map: str
    title: str
    trains: int
    cities: list[CityOut]
    routes: list[RouteOut]
    tickets: list[TicketOut]
    rules: RulesWordsOut = Field(description="The rules in players' words, from the plugins: titles, parameters, bonus names.")


class SeatOut(BaseModel):
    seat: int
    name: str
    bot: str | None
    token: str | None = Field(description="The seat's secret; shown once, never stored. None for a bot.")
    url: str | None = Field(description="The page to play this seat (the token rides in the fragment).")


class CreatedOut(BaseModel):
    game: str
    variant: str
    rules_version: int
    version: int
    seats: list[SeatOut]
    spectator_url: str


class SeatInfoOut(BaseModel):
    name: str
    bot: str | None


class SnapshotOut(BaseModel):
    game: str
    variant: str
    rules_version: int
    version: int = Field(description="How many actions the game has had; send it with the next action.")
    seat: int | None = Field(description="Your seat; null for a spectator.")
    seats: list[SeatInfoOut]
    view: dict[str, Any] = Field(description="game.view(seat): public state plus your own hand and tickets.")
    legal: list[dict[str, Any]] | None = Field(description="Your legal actions now (a seat only).")
    can_resign: bool


class StatusOut(BaseModel):
    game: str
    version: int
    phase: str
    to_act: list[int]
    over: bool
    ended: str | None = Field(None, description='"aborted" or "expired": the game takes no more actions.')


class HealthOut(BaseModel):
    ok: bool
    database: str


_ERRORS = {
    status: {"model": ErrorOut, "description": text}
    for status, text in (
        (400, "malformed request (a body that is not UTF-8 JSON, a bad Content-Length)"),
        (401, "missing or wrong seat token"),
        (404, "unknown game or variant"),
        (403, "a client-chosen seed, on a server started without --allow-seed"),
        (409, "stale version (nothing applied), the game is not over yet, or it was aborted or expired"),
        (413, "request body too large"),
        (422, "refused: invalid request, or an action or setup the rules do not allow"),
        (429, "a limit against abuse: too many games created, streams open or bot-only games running"),
        (431, "too many request header fields"),
        (503, "the database does not answer"),
    )
}


# --- the application --------------------------------------------------------------------------


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
        sweeper = asyncio.create_task(_expire_games(service, lobby, settings.expire_after)) if settings.expire_after else None
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
        docs_url=None,  # served by _pages from the package's own copy of Swagger UI: it works offline
        redoc_url=None,
        lifespan=lifespan,
        # what any request may get, whatever its route: the body checks run before routing
        responses={k: _ERRORS[k] for k in (400, 413, 422)},
    )
    app.state.service = service
    app.state.settings = settings
    app.add_middleware(BodyLimit, max_body=settings.max_body)
    app.add_middleware(GZipMiddleware, minimum_size=settings.gzip_min)
    app.add_middleware(NoStore)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(HeaderLimit, max_headers=settings.max_headers)
    _errors(app)
    admit = _admission(service, settings)
    _api(app, service, hub, settings, engine, admit)
    _game_page_api(app, service)
    app.include_router(lobby_api.router(lobby, token=_token, errors=_ERRORS, admit=admit))
    _pages(app)
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


_bearer = HTTPBearer(auto_error=False, description="A seat's token, from the game's creation.")


def _token(request: Request, creds: HTTPAuthorizationCredentials | None = Depends(_bearer)) -> str | None:
    if creds is None:
        if request.headers.get("authorization") is not None:
            raise Unauthorized("the Authorization header must be 'Bearer <seat token>'")
        return None
    if not 1 <= len(creds.credentials) <= 200:
        raise Unauthorized("this token is not a seat of this game")
    return creds.credentials


GameId = Annotated[str, Path(pattern=GAME_ID, description="The game id from its creation.")]
Token = Annotated[str | None, Depends(_token)]


def _client(request: Request) -> str:
    # the peer's address; behind a reverse proxy, the one it forwards (uvicorn's --forwarded-allow-ips)
    return request.client.host if request.client else "unknown"


def _admission(service: GameService, settings: Settings) -> Callable[[Request, int | None, bool], None]:
    """The check every new game passes (``POST /api/games`` and the lobby's): a client's seed only
    with --allow-seed, games per client per minute, the cap on games without a person."""
    creations = SharedRateLimit(service.engine, "create-game", settings.games_per_minute, 60.0)

    def admit(request: Request, seed: int | None, bots_only: bool) -> None:
        if seed is not None and not settings.allow_seed:
            raise SeedRefused("this server does not take a client's seed (whoever knows it knows every hand); "
                              "it was not started with --allow-seed")
        wait = creations.take(_client(request))
        if wait:
            raise TooMany(f"at most {settings.games_per_minute} new games per minute from one address",
                          retry_after=int(wait) + 1)
        if bots_only:
            running = service.running_bot_only_games()
            if running >= settings.max_bot_games:
                raise TooMany(f"{running} games without a person are running; this server allows "
                              f"{settings.max_bot_games}: seat a person, or try again later", retry_after=60)

    return admit


def _api(app: FastAPI, service: GameService, hub: Hub, settings: Settings, engine,
         admit: Callable[[Request, int | None, bool], None]) -> None:
    streams = SharedSlots(engine, settings.streams_per_client, settings.streams_per_game)

    @app.get("/api/health", response_model=HealthOut, tags=["server"], responses={503: _ERRORS[503]})
    def health():
        """Whether the server can serve: it asks the database (503 if it does not answer)."""
        try:
            service.check_database()
        except db.DatabaseUnavailable as exc:
            log.warning("health: %s", exc)
            return JSONResponse({"ok": False, "database": engine.dialect.name, "reason": str(exc)}, status_code=503,
                                headers={"Retry-After": str(DATABASE_RETRY_AFTER)})
        except Exception as exc:  # noqa: BLE001 - any failure to answer is "not healthy"
            log.warning("health: the database does not answer: %s", type(exc).__name__)
            return JSONResponse({"ok": False, "database": engine.dialect.name,
                                 "reason": f"the database does not answer ({type(exc).__name__})"}, status_code=503,
                                headers={"Retry-After": str(DATABASE_RETRY_AFTER)})
        return {"ok": True, "database": engine.dialect.name}

    @app.get("/api/variants", response_model=VariantsOut, tags=["variants"])
    def list_variants():
        """The installed variants (those that load), with their rules versions, and the bot kinds."""
        out = []
        for vid in sorted(variant.available()):
            try:
                rs = variant.load(vid)
            except TTRError:
                continue  # a broken file: `ttr variants` reports it; the server offers the others
            out.append({
                "id": vid, "title": rs.title, "version": rs.version, "versions": _versions(vid),
                "map": rs.board.id, "players": {"min": rs.players.min, "max": rs.players.max},
                "plugins": list(rs.plugins),
                "description": _description(rs),
            })
        return {"variants": out, "bots": bot_kinds.names()}

    @app.get("/api/variants/{variant_id}/board", response_model=BoardOut, tags=["variants"],
             responses={k: _ERRORS[k] for k in (404, 422)})
    def board(variant_id: Annotated[str, Path(max_length=64)],
              version: Annotated[int | None, Query(ge=1, le=10_000)] = None):
        """The map of a variant at a rules version: cities (with coordinates, to draw it), routes, tickets."""
        rs = service.ruleset(variant_id, version)
        b = rs.board
        return {
            "variant": rs.variant, "version": rs.version, "map": b.id, "title": b.title, "trains": b.trains,
            "cities": [{"name": c.name, "lat": c.lat, "lon": c.lon, "x": c.x, "y": c.y} for c in b.cities],
            "routes": [{"id": r.id, "a": r.a, "b": r.b, "length": r.length, "color": r.color,
                        "tunnel": r.tunnel, "ferry": r.ferry} for r in b.routes],
            "tickets": [{"id": t.id, "a": t.a, "b": t.b, "points": t.points, "kind": t.kind} for t in b.tickets],
            "rules": rules_words(rs),
        }

    @app.post("/api/games", status_code=201, response_model=CreatedOut, tags=["games"],
              responses={k: _ERRORS[k] for k in (403, 404, 413, 422, 429)})
    def create_game(body: CreateGameIn, request: Request):
        """Create a game. Each person's seat gets a secret token (shown only here) and a page link;
        bot seats are played by the server. Anybody with the spectator link sees the public view."""
        names = [s.name for s in body.seats]
        if clashing_names(names):
            raise Rejected(f"player names must differ (without regard to case): {clashing_names(names)}")
        admit(request, body.seed, all(s.bot for s in body.seats))
        created = service.create(body.variant, body.version, [(s.name, s.bot) for s in body.seats], body.seed)
        meta = created.meta
        return JSONResponse({
            "game": meta.id, "variant": meta.variant, "rules_version": meta.rules_version,
            "version": created.status.version,
            "seats": [
                {"seat": i, "name": s.name, "bot": s.bot, "token": t, "url": None if t is None else f"/play/{meta.id}#{t}"}
                for i, (s, t) in enumerate(zip(meta.seats, created.tokens))
            ],
            "spectator_url": f"/watch/{meta.id}",
        }, status_code=201)

    @app.get("/api/games/{game_id}", response_model=SnapshotOut, tags=["games"],
             responses={k: _ERRORS[k] for k in (401, 404)})
    def read_game(game_id: GameId, token: Token):
        """The game as your seat sees it (with a token: your hand, your tickets, your legal actions),
        or as a spectator (without one)."""
        seat = service.seat_of(game_id, token)
        return JSONResponse(_snapshot(service.snapshot(game_id, seat)))

    @app.post("/api/games/{game_id}/actions", response_model=StatusOut, tags=["games"],
              responses={k: _ERRORS[k] for k in (401, 404, 409, 413, 422)})
    def act(game_id: GameId, body: ActionIn, token: Token, idempotency_key: Annotated[str | None, Header(
            min_length=1, max_length=200, pattern=r"^[\x21-\x7e]+$",
            description="Any unique string per action: resending the same request with it (its answer "
                        "was lost) gets the first answer and applies nothing twice.")] = None):
        """Play an action for your seat. It is applied only if the game is still at `version`, and it
        is stored before this answers: an acknowledged action is never lost. While the players choose
        their starting tickets, the others' choices do not make yours stale (they are independent)."""
        seat = _seat(service, game_id, token)
        status = service.act(game_id, seat, body.version, body.action, key=idempotency_key)
        return JSONResponse(_status(game_id, status))

    @app.post("/api/games/{game_id}/resign", response_model=StatusOut, tags=["games"],
              responses={k: _ERRORS[k] for k in (401, 404, 409, 413, 422)})
    def resign(game_id: GameId, token: Token, body: ResignIn | None = None):
        """Leave the game, if its rules have a resign action (422 otherwise)."""
        seat = _seat(service, game_id, token)
        return JSONResponse(_status(game_id, service.resign(game_id, seat, body.version if body else None)))

    @app.get("/api/games/{game_id}/record", tags=["games"], responses={
        200: {"description": "The game record (ttr-record/1), as `ttr replay` reads it.",
              "content": {"application/json": {"schema": {"type": "object"}}}},
        **{k: _ERRORS[k] for k in (404, 409)},
    })
    def game_record(game_id: GameId):
        """The full record of a finished game (every action, the digest, the result)."""
        return Response(records.dumps(service.record(game_id)), media_type="application/json")

    @app.get("/api/games/{game_id}/events", tags=["games"], response_class=StreamingResponse, responses={
        200: {"description": "Server-sent events: `change` with the public status (version, phase, to_act, "
                             "over) on every change; a client then reads its own view.",
              "content": {"text/event-stream": {"schema": {"type": "string"}}}},
        404: _ERRORS[404],
    })
    async def events(game_id: GameId, request: Request):
        """Follow a game: an event on every change, and one at once with the current status."""
        first = await run_in_threadpool(service.status, game_id)
        slot, full = await run_in_threadpool(streams.acquire, _client(request), game_id)
        if full == "client":
            raise TooMany(f"at most {settings.streams_per_client} event streams open from one address", retry_after=5)
        if full == "game":
            raise TooMany(f"at most {settings.streams_per_game} event streams open on one game", retry_after=5)

        async def release() -> None:
            await run_in_threadpool(streams.release, slot)

        async def refresh() -> None:
            await run_in_threadpool(streams.refresh, slot)

        return _HeldStream(_stream(request, service, hub, settings, game_id, first, refresh), release,
                           media_type="text/event-stream", headers={"Cache-Control": "no-store"})


class _HeldStream(StreamingResponse):
    """A stream that gives its places back (``release``) however it ends: finished, cut off by the
    client, or never started because the client left first."""

    def __init__(self, content, release, **kwargs):
        super().__init__(content, **kwargs)
        self._release = release

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._release()


def _warm_variants() -> None:
    # Load every variant once before serving: the loads are cached, and a burst of first
    # requests would otherwise each build the same rulesets at once, in every worker thread.
    for vid in variant.available():
        try:
            variant.load(vid)
        except TTRError:
            pass  # a broken file is reported where it is used


def _versions(vid: str) -> list[int]:
    found = []
    for v in range(1, MAX_VERSIONS + 1):
        try:
            variant.load(vid, v)
        except VariantError:
            break
        found.append(v)
    return found


def _description(rs) -> str:
    # The Ruleset does not carry the file's description; it is read from the file it came from.
    try:
        return str(read_toml(FilePath(rs.path)).get("description", ""))
    except Exception:  # noqa: BLE001 - a description is decoration; never fail a listing for it
        return ""


def _seat(service: GameService, game_id: str, token: str | None) -> int:
    if token is None:
        service.meta(game_id)  # an unknown game is a 404 before it is a 401
        raise Unauthorized("acting needs a seat token: Authorization: Bearer <token>")
    seat = service.seat_of(game_id, token)
    assert seat is not None
    return seat


def _snapshot(s: Snapshot) -> dict[str, Any]:
    return {
        "game": s.meta.id, "variant": s.meta.variant, "rules_version": s.meta.rules_version,
        "version": s.version, "seat": s.seat,
        "seats": [{"name": x.name, "bot": x.bot} for x in s.meta.seats],
        "view": s.view, "legal": s.legal, "can_resign": s.can_resign,
    }


def _status(game_id: str, st: Status) -> dict[str, Any]:
    return {"game": game_id, "version": st.version, "phase": st.phase, "to_act": list(st.to_act), "over": st.over,
            "ended": st.ended}


async def _expire_games(service: GameService, lobby: Lobby, idle_seconds: float) -> None:
    """End unfinished games with no move for ``idle_seconds`` (and release their bots), and remove
    lobby games nobody joined for as long, looking every few minutes (every quarter of
    ``idle_seconds`` when that is shorter)."""
    every = max(min(idle_seconds / 4, 300.0), 0.05)
    while True:
        await asyncio.sleep(every)
        try:
            ended = await run_in_threadpool(service.expire, idle_seconds)
            unfilled = await run_in_threadpool(lobby.expire, idle_seconds)
            await run_in_threadpool(shared_limits.forget_expired, service.engine)
        except Exception as exc:  # noqa: BLE001 - the sweep tries again later; the server goes on
            log.warning("the expiry sweep failed: %s", type(exc).__name__)
            continue
        if ended or unfilled:
            log.info("expired %d games with no move and %d lobby games nobody joined for %.0f s",
                     len(ended), len(unfilled), idle_seconds)


async def _stream(request: Request, service: GameService, hub: Hub, settings: Settings, game_id: str, first: Status,
                  refresh: Callable[[], Any]):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings.stream_seconds
    status, sent, quiet_since = first, None, loop.time()
    refreshed = loop.time()
    while True:
        if loop.time() - refreshed > REFRESH_EVERY:  # this stream still counts against the limits
            refreshed = loop.time()
            await refresh()
        if status.version != sent:
            sent, quiet_since = status.version, loop.time()
            yield f"event: change\nid: {status.version}\ndata: {json.dumps(_status(game_id, status))}\n\n"
            if status.over:
                return
        elif loop.time() - quiet_since > 15:
            quiet_since = loop.time()
            yield ": still here\n\n"  # a comment: keeps proxies from closing an idle stream
        if loop.time() >= deadline or await request.is_disconnected():
            return
        await hub.wait(game_id, settings.poll)
        status = await run_in_threadpool(service.status, game_id)


def _pages(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.get("/", include_in_schema=False)
    def index():
        return FileResponse(str(STATIC / "index.html"), media_type="text/html")

    @app.get("/play/{game_id}", include_in_schema=False)
    @app.get("/watch/{game_id}", include_in_schema=False)
    def play(game_id: GameId):
        return FileResponse(str(STATIC / "play.html"), media_type="text/html")

    @app.get("/join/{game_id}", include_in_schema=False)
    def join(game_id: GameId):
        return FileResponse(str(STATIC / "join.html"), media_type="text/html")

    @app.get("/api/docs", include_in_schema=False)
    def docs():
        return FileResponse(str(STATIC / "docs.html"), media_type="text/html")

# --- what the game page shows beside the board: the move log, the trails, claim refusals --------


class MoveOut(BaseModel):
    first: int = Field(description="The number of the turn's first action (from 1).")
    last: int = Field(description="The number of its last action so far.")
    seat: int
    name: str
    turn: int | None = Field(description="The game's turn number; null in the setup.")
    text: str = Field(description='The turn in words: "Bob claimed Denver-Omaha with 4 red".')
    over: bool = Field(description="False for the turn still going on (a second card, a tunnel's extra cards).")
    routes: list[str] = Field(description="The routes the turn claimed or freed.")
    cities: list[str] = Field(description="The cities where it built.")
    final_round: str | None = Field(description="Set when the final round began with this turn: what it means.")


class MovesOut(BaseModel):
    game: str
    version: int
    moves: list[MoveOut] = Field(description="Oldest first; the same for every reader (nothing hidden is named).")


class TrailOut(BaseModel):
    seat: int
    length: int
    routes: list[str]


class TrailsOut(BaseModel):
    game: str
    version: int
    trails: list[TrailOut]


class RefusalOut(BaseModel):
    code: str
    reason: str
    words: str = Field("", description="The reason without the rule ids it cites, for players.")
    rules: list[str] = Field([], description="The rules the reason cites (docs/rules.md#R-ROUTE-2).")


class ClaimCheckOut(BaseModel):
    route: str
    possible: bool
    refusal: RefusalOut | None = Field(description="Why not: the engine's code and reason (with its rule id).")
    missing: dict[str, int] | None = Field(description="When the hand is short: the fewest cards it lacks.")


def _game_page_api(app: FastAPI, service: GameService) -> None:
    from ttr_server.moves import GamePageData

    data = GamePageData(service)
    app.state.game_page = data

    @app.get("/api/games/{game_id}/moves", response_model=MovesOut, tags=["games"],
             responses={k: _ERRORS[k] for k in (404,)})
    def moves(game_id: GameId, since: Annotated[int, Query(ge=0, le=10**9)] = 0):
        """The move log: every turn in words, for seats and spectators alike (cards drawn blind and
        tickets are never named). `since`: only the turns whose last action came after it."""
        return JSONResponse(data.moves(game_id, since))

    @app.get("/api/games/{game_id}/trails", response_model=TrailsOut, tags=["games"],
             responses={k: _ERRORS[k] for k in (404, 409)})
    def trails(game_id: GameId):
        """Each player's longest trail, route by route (R-BON-1), once the game is over."""
        return JSONResponse(data.trails(game_id))

    @app.get("/api/games/{game_id}/claim-check", response_model=ClaimCheckOut, tags=["games"],
             responses={k: _ERRORS[k] for k in (401, 404)})
    def claim_check(game_id: GameId, token: Token, route: Annotated[str, Query(min_length=1, max_length=100)]):
        """Whether your hand could claim `route` now and, if not, why: the engine's refusal
        (taken, closed by a rule, too few trains, or the cards the hand lacks)."""
        seat = _seat(service, game_id, token)
        return JSONResponse(data.claim_check(game_id, seat, route))
