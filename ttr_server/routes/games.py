"""Games: created, read as a seat or a spectator, followed as events, and their records."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response, StreamingResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from ttr_core import record as records
from ttr_server.errors import Rejected, TooMany
from ttr_server.limits import client_address
from ttr_server.names import PlayerName, clashing_names
from ttr_server.routes.common import Admit, GameId, HubDep, In, NewGameIn, Service, Token, errors
from ttr_server.service import GameService, Snapshot
from ttr_server.shared_limits import REFRESH_EVERY
from ttr_server.storage import Status

router = APIRouter(prefix="/api/games", tags=["games"])


class SeatIn(In):
    name: PlayerName = Field(description="The player's name, shown to everybody; unique in the game (compared "
                                         "without case); trimmed; no control or invisible characters.")
    bot: str | None = Field(None, max_length=40, description="An installed bot to play this seat in the server "
                                                             "(GET /api/variants: `bots`; `ttr bots`); null for a person.")


class CreateGameIn(NewGameIn):
    seats: list[SeatIn] = Field(min_length=1, max_length=10)


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
    can_resign: bool = Field(description="Whether your seat may resign now (POST /api/games/{id}/resign).")

    @classmethod
    def of(cls, s: Snapshot) -> SnapshotOut:
        return cls(game=s.meta.id, variant=s.meta.variant, rules_version=s.meta.rules_version, version=s.version,
                   seat=s.seat, seats=[SeatInfoOut(name=x.name, bot=x.bot) for x in s.meta.seats],
                   view=s.view, legal=s.legal, can_resign=s.can_resign)


class StatusOut(BaseModel):
    game: str
    version: int
    phase: str
    to_act: list[int]
    over: bool
    ended: str | None = Field(None, description='"aborted" or "expired": the game takes no more actions.')

    @classmethod
    def of(cls, game_id: str, st: Status) -> StatusOut:
        return cls(game=game_id, version=st.version, phase=st.phase, to_act=list(st.to_act), over=st.over,
                   ended=st.ended)


@router.post("", status_code=201, response_model=CreatedOut, responses=errors(403, 404, 413, 422, 429))
def create_game(body: CreateGameIn, request: Request, service: Service, admit: Admit) -> CreatedOut:
    """Create a game. Each person's seat gets a secret token (shown only here) and a page link;
    bot seats are played by the server. Anybody with the spectator link sees the public view."""
    names = [s.name for s in body.seats]
    if clashing_names(names):
        raise Rejected(f"player names must differ (without regard to case): {clashing_names(names)}")
    admit(request, body.seed, all(s.bot for s in body.seats))
    created = service.create(body.variant, body.version, [(s.name, s.bot) for s in body.seats], body.seed)
    meta = created.meta
    return CreatedOut(
        game=meta.id, variant=meta.variant, rules_version=meta.rules_version, version=created.status.version,
        seats=[SeatOut(seat=i, name=s.name, bot=s.bot, token=t, url=None if t is None else f"/play/{meta.id}#{t}")
               for i, (s, t) in enumerate(zip(meta.seats, created.tokens))],
        spectator_url=f"/watch/{meta.id}",
    )


@router.get("/{game_id}", response_model=SnapshotOut, responses=errors(401, 404))
def read_game(game_id: GameId, token: Token, service: Service) -> SnapshotOut:
    """The game as your seat sees it (with a token: your hand, your tickets, your legal actions),
    or as a spectator (without one)."""
    seat = service.seat_of(game_id, token)
    return SnapshotOut.of(service.snapshot(game_id, seat))


@router.get("/{game_id}/record", responses={
    200: {"description": "The game record (ttr-record/1), as `ttr replay` reads it.",
          "content": {"application/json": {"schema": {"type": "object"}}}},
    **errors(404, 409),
})
def game_record(game_id: GameId, service: Service):
    """The full record of a finished game (every action, the digest, the result)."""
    return Response(records.dumps(service.record(game_id)), media_type="application/json")


@router.get("/{game_id}/events", response_class=StreamingResponse, responses={
    200: {"description": "Server-sent events: `change` with the public status (version, phase, to_act, "
                         "over) on every change; a client then reads its own view.",
          "content": {"text/event-stream": {"schema": {"type": "string"}}}},
    **errors(404),
})
async def events(game_id: GameId, request: Request, service: Service, hub: HubDep):
    """Follow a game: an event on every change, and one at once with the current status."""
    settings, streams = request.app.state.settings, request.app.state.streams
    first = await run_in_threadpool(service.status, game_id)
    slot, full = await run_in_threadpool(streams.acquire, client_address(request), game_id)
    if full == "client":
        raise TooMany(f"at most {settings.streams_per_client} event streams open from one address", retry_after=5)
    if full == "game":
        raise TooMany(f"at most {settings.streams_per_game} event streams open on one game", retry_after=5)

    async def release() -> None:
        await run_in_threadpool(streams.release, slot)

    async def refresh() -> None:
        await run_in_threadpool(streams.refresh, slot)

    changes = _changes(request, service, hub, settings, game_id, first, refresh)
    return _HeldStream(changes, release, media_type="text/event-stream", headers={"Cache-Control": "no-store"})


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


async def _changes(request: Request, service: GameService, hub, settings, game_id: str, first: Status,
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
            data = json.dumps(StatusOut.of(game_id, status).model_dump())
            yield f"event: change\nid: {status.version}\ndata: {data}\n\n"
            if status.over:
                return
        elif loop.time() - quiet_since > 15:
            quiet_since = loop.time()
            yield ": still here\n\n"  # a comment: keeps proxies from closing an idle stream
        if loop.time() >= deadline or await request.is_disconnected():
            return
        await hub.wait(game_id, settings.poll)
        status = await run_in_threadpool(service.status, game_id)
