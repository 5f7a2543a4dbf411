"""The lobby's HTTP endpoints (``lobby.py`` has the rules): open games listed, a game opened with
seats left for invitations, joining, and the host's re-issue of a seat's link.

A secret is only ever in the response of the one who gets it: the creator's (the host token, the
tokens of the seats they named, the invitations), the joiner's (their own token), the host's
re-issue (the new secret). Reading the lobby shows names and open seats, never a secret.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ttr_core import variant
from ttr_core.errors import TTRError
from ttr_server.lobby import Lobby, LobbyGame
from ttr_server.names import PlayerName

SECRET = {"Cache-Control": "no-store"}  # a response with a secret in it is kept by no cache
GameId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,40}$", description="The game id.")]  # as app.GAME_ID
Seat = Annotated[int, Path(ge=0, le=9, description="A seat, from 0.")]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class LobbySeatIn(_In):
    name: PlayerName | None = Field(None,
                             description="A person's name (their token is in the response), a bot's name, or "
                                         "null with no bot: an open seat, taken by invitation.")
    bot: str | None = Field(None, max_length=40, description="An installed bot to play this seat in the server.")


class OpenGameIn(_In):
    variant: str = Field("usa", max_length=64, description="A variant id from GET /api/variants.")
    version: int | None = Field(None, ge=1, le=10_000, strict=True,
                                description="Rules version; default: the variant's current one.")
    seats: list[LobbySeatIn] = Field(min_length=1, max_length=10)
    seed: int | None = Field(None, ge=0, le=2**63 - 1, strict=True,
                             description="Shuffle seed; default: a random one. Whoever knows it knows the deck.")
    listed: bool = Field(False, description="Show the game in GET /api/lobby, where anybody may take a free seat.")


class JoinIn(_In):
    name: PlayerName = Field(
                      description="Your name, shown to everybody; unique in the game.")
    invitation: str | None = Field(None, min_length=1, max_length=200,
                                   description="The invitation from your link; none to take a free seat of a listed game.")


class CheckIn(_In):
    invitation: str | None = Field(None, min_length=1, max_length=200, description="As for joining.")


class CheckedOut(BaseModel):
    seat: int = Field(description="The seat a join would take now.")


class LobbySeatOut(BaseModel):
    seat: int
    name: str | None
    bot: str | None
    open: bool


class LobbyGameOut(BaseModel):
    game: str
    variant: str
    title: str
    rules_version: int
    listed: bool
    created: str = Field(description="When the game was opened (ISO 8601, UTC).")
    started: bool = Field(description="Every seat is taken and the game is on: GET /api/games/{id}.")
    free: int
    seats: list[LobbySeatOut]


class LobbyOut(BaseModel):
    games: list[LobbyGameOut]


class OpenedSeatOut(LobbySeatOut):
    token: str | None = Field(description="A seat named here: its secret, shown once.")
    url: str | None = Field(description="A seat named here: the page to play it (the token rides in the fragment).")
    invitation_url: str | None = Field(description="An open seat: the link to send, good for one join.")


class OpenedOut(BaseModel):
    game: LobbyGameOut
    host_token: str = Field(description="Yours alone: re-issues a seat's lost link (POST .../seats/{seat}/reissue).")
    seats: list[OpenedSeatOut]
    join_url: str
    spectator_url: str


class JoinedOut(BaseModel):
    game: str
    seat: int
    token: str = Field(description="Your seat's secret; keep it (the page keeps it in this browser).")
    url: str
    started: bool


class ReissuedOut(BaseModel):
    seat: int
    token: str | None
    url: str | None
    invitation_url: str | None


_REFUSALS = {
    401: "missing or wrong host token",
    403: "an invitation that is not this game's (or was replaced), or no invitation for a game that is not listed",
    404: "unknown game (in the lobby), variant or seat",
    409: "the invitation was used already, or every seat is taken",
}


def lobby_game(g: LobbyGame) -> dict[str, Any]:
    return {
        "game": g.id, "variant": g.variant, "title": _title(g.variant, g.rules_version), "rules_version": g.rules_version,
        "listed": g.listed, "created": g.created_at.isoformat(timespec="seconds"), "started": g.started, "free": g.free,
        "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot, "open": s.open} for s in g.seats],
    }


def _title(vid: str, version: int) -> str:
    try:
        return variant.load(vid, version).title
    except TTRError:
        return vid


def invitation_url(game_id: str, invitation: str) -> str:
    return f"/join/{game_id}#{invitation}"  # a fragment: never sent to a server or in a referrer


def router(lobby: Lobby, *, token: Callable, errors: dict[int, dict],
           admit: Callable[[Request, int | None, bool], None]) -> APIRouter:
    """The endpoints; ``token`` is the app's bearer-token dependency, ``errors`` its error responses,
    ``admit`` the app's check of every new game (seed, games per client, games without a person)."""
    api = APIRouter(prefix="/api/lobby", tags=["lobby"])

    model = errors[404]["model"]

    def refusals(*codes: int) -> dict:
        return {k: {"model": model, "description": _REFUSALS.get(k) or errors[k]["description"]} for k in codes}

    @api.get("", response_model=LobbyOut)
    def listing():
        """The listed games that have a free seat, newest first (no secrets)."""
        return JSONResponse({"games": [lobby_game(g) for g in lobby.listing()]})

    @api.post("", status_code=201, response_model=OpenedOut, responses={**refusals(404, 422), 403: errors[403], 429: errors[429]})
    def open_game(body: OpenGameIn, request: Request):
        """Open a game: named people get their tokens here, bots play in the server, and each open seat
        (no name, no bot) an invitation link, taken once by whoever opens it. The game starts when
        every seat is taken. The host token re-issues a seat's link."""
        admit(request, body.seed, all(s.bot for s in body.seats))
        opened = lobby.open(body.variant, body.version, [(s.name, s.bot) for s in body.seats], body.seed, body.listed)
        g = opened.game
        seats = []
        for s, tok, inv in zip(lobby_game(g)["seats"], opened.tokens, opened.invitations):
            seats.append({**s, "token": tok, "url": None if tok is None else f"/play/{g.id}#{tok}",
                          "invitation_url": None if inv is None else invitation_url(g.id, inv)})
        return JSONResponse({"game": lobby_game(g), "host_token": opened.host_token, "seats": seats,
                             "join_url": f"/join/{g.id}", "spectator_url": f"/watch/{g.id}"},
                            status_code=201, headers=SECRET)

    @api.get("/{game_id}", response_model=LobbyGameOut, responses=refusals(404))
    def read(game_id: GameId):
        """A game of the lobby: its seats, taken (by whom) or open, and whether it has started."""
        return JSONResponse(lobby_game(lobby.get(game_id)))

    @api.post("/{game_id}/check", response_model=CheckedOut, responses=refusals(403, 404, 409, 422))
    def check(game_id: GameId, body: CheckIn):
        """Whether a join would get a seat now, and which (nothing is taken): refused as the join would be."""
        return JSONResponse({"seat": lobby.check(game_id, body.invitation)})

    @api.post("/{game_id}/join", response_model=JoinedOut, responses=refusals(403, 404, 409, 422))
    def join(game_id: GameId, body: JoinIn):
        """Take a seat: the one of your invitation (403 if it is not this game's, 409 once used), or
        without one a free seat of a listed game (409 when none is left)."""
        joined = lobby.join(game_id, body.name, body.invitation)
        return JSONResponse({"game": joined.game_id, "seat": joined.seat, "token": joined.token,
                             "url": f"/play/{joined.game_id}#{joined.token}", "started": joined.started},
                            headers=SECRET)

    @api.post("/{game_id}/seats/{seat}/reissue", response_model=ReissuedOut, responses=refusals(401, 404, 422))
    def reissue(game_id: GameId, seat: Seat, host: str | None = Depends(token)):
        """The host's recovery of a lost link (Authorization: Bearer <host token>): a taken seat gets
        a new token and its old one is refused from now on; an open seat gets a new invitation."""
        r = lobby.reissue(game_id, host, seat)
        return JSONResponse({"seat": r.seat, "token": r.token,
                             "url": None if r.token is None else f"/play/{game_id}#{r.token}",
                             "invitation_url": None if r.invitation is None else invitation_url(game_id, r.invitation)},
                            headers=SECRET)

    return api
