"""The lobby's HTTP endpoints (``ttr_server/lobby.py`` has the rules): open games listed, a game opened with
seats left for invitations, joining, and the host's re-issue of a seat's link.

A secret is only ever in the response of the one who gets it: the creator's (the host token, the
tokens of the seats they named, the invitations), the joiner's (their own token), the host's
re-issue (the new secret). Reading the lobby shows names and open seats, never a secret.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, Response
from pydantic import BaseModel, Field

from ttr_core import variant
from ttr_core.errors import TTRError
from ttr_server.lobby import LobbyGame
from ttr_server.names import PlayerName
from ttr_server.routes.common import ERROR_TEXTS, Admit, GameId, In, LobbyDep, NewGameIn, Token, errors

SECRET = MappingProxyType({"Cache-Control": "no-store"})  # a response with a secret in it is kept by no cache
Seat = Annotated[int, Path(ge=0, le=9, description="A seat, from 0.")]

router = APIRouter(prefix="/api/lobby", tags=["lobby"])


class LobbySeatIn(In):
    name: PlayerName | None = Field(None,
                             description="A person's name (their token is in the response), a bot's name, or "
                                         "null with no bot: an open seat, taken by invitation.")
    bot: str | None = Field(None, max_length=40, description="An installed bot to play this seat in the server.")


class OpenGameIn(NewGameIn):
    seats: list[LobbySeatIn] = Field(min_length=1, max_length=10)
    listed: bool = Field(False, description="Show the game in GET /api/lobby, where anybody may take a free seat.")


class JoinIn(In):
    name: PlayerName = Field(
                      description="Your name, shown to everybody; unique in the game.")
    invitation: str | None = Field(None, min_length=1, max_length=200,
                                   description="The invitation from your link; none to take a free seat of a listed game.")


class CheckIn(In):
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


_REFUSALS = MappingProxyType({
    401: "missing or wrong host token",
    403: "an invitation that is not this game's (or was replaced), or no invitation for a game that is not listed",
    404: "unknown game (in the lobby), variant or seat",
    409: "the invitation was used already, or every seat is taken",
})


def lobby_game(g: LobbyGame) -> LobbyGameOut:
    return LobbyGameOut(
        game=g.id, variant=g.variant, title=_title(g.variant, g.rules_version), rules_version=g.rules_version,
        listed=g.listed, created=g.created_at.isoformat(timespec="seconds"), started=g.started, free=g.free,
        seats=[LobbySeatOut(seat=s.seat, name=s.name, bot=s.bot, open=s.open) for s in g.seats],
    )


def _title(vid: str, version: int) -> str:
    try:
        return variant.load(vid, version).title
    except TTRError:
        return vid


def invitation_url(game_id: str, invitation: str) -> str:
    return f"/join/{game_id}#{invitation}"  # a fragment: never sent to a server or in a referrer


def _play_url(game_id: str, token: str | None) -> str | None:
    return None if token is None else f"/play/{game_id}#{token}"


def _refusals(*codes: int) -> dict[int, dict[str, Any]]:
    return {k: {**error, "description": _REFUSALS.get(k) or ERROR_TEXTS[k]} for k, error in errors(*codes).items()}


@router.get("", response_model=LobbyOut)
def listing(lobby: LobbyDep) -> LobbyOut:
    """The listed games that have a free seat, newest first (no secrets)."""
    return LobbyOut(games=[lobby_game(g) for g in lobby.listing()])


@router.post("", status_code=201, response_model=OpenedOut,
             responses={**_refusals(404, 422), **errors(403, 429)})
def open_game(body: OpenGameIn, request: Request, response: Response, lobby: LobbyDep, admit: Admit) -> OpenedOut:
    """Open a game: named people get their tokens here, bots play in the server, and each open seat
    (no name, no bot) an invitation link, taken once by whoever opens it. The game starts when
    every seat is taken. The host token re-issues a seat's link."""
    admit(request, body.seed, all(s.bot for s in body.seats))
    opened = lobby.open(body.variant, body.version, [(s.name, s.bot) for s in body.seats], body.seed, body.listed)
    g = opened.game
    shown = lobby_game(g)
    seats = [OpenedSeatOut(**s.model_dump(), token=tok, url=_play_url(g.id, tok),
                           invitation_url=None if inv is None else invitation_url(g.id, inv))
             for s, tok, inv in zip(shown.seats, opened.tokens, opened.invitations)]
    response.headers.update(SECRET)
    return OpenedOut(game=shown, host_token=opened.host_token, seats=seats, join_url=f"/join/{g.id}",
                     spectator_url=f"/watch/{g.id}")


@router.get("/{game_id}", response_model=LobbyGameOut, responses=_refusals(404))
def read(game_id: GameId, lobby: LobbyDep) -> LobbyGameOut:
    """A game of the lobby: its seats, taken (by whom) or open, and whether it has started."""
    return lobby_game(lobby.get(game_id))


@router.post("/{game_id}/check", response_model=CheckedOut, responses=_refusals(403, 404, 409, 422))
def check(game_id: GameId, body: CheckIn, lobby: LobbyDep) -> CheckedOut:
    """Whether a join would get a seat now, and which (nothing is taken): refused as the join would be."""
    return CheckedOut(seat=lobby.check(game_id, body.invitation))


@router.post("/{game_id}/join", response_model=JoinedOut, responses=_refusals(403, 404, 409, 422))
def join(game_id: GameId, body: JoinIn, response: Response, lobby: LobbyDep) -> JoinedOut:
    """Take a seat: the one of your invitation (403 if it is not this game's, 409 once used), or
    without one a free seat of a listed game (409 when none is left)."""
    joined = lobby.join(game_id, body.name, body.invitation)
    response.headers.update(SECRET)
    return JoinedOut(game=joined.game_id, seat=joined.seat, token=joined.token,
                     url=_play_url(joined.game_id, joined.token), started=joined.started)


@router.post("/{game_id}/seats/{seat}/reissue", response_model=ReissuedOut, responses=_refusals(401, 404, 422))
def reissue(game_id: GameId, seat: Seat, host: Token, response: Response, lobby: LobbyDep) -> ReissuedOut:
    """The host's recovery of a lost link (Authorization: Bearer <host token>): a taken seat gets
    a new token and its old one is refused from now on; an open seat gets a new invitation."""
    r = lobby.reissue(game_id, host, seat)
    response.headers.update(SECRET)
    return ReissuedOut(seat=r.seat, token=r.token, url=_play_url(game_id, r.token),
                       invitation_url=None if r.invitation is None else invitation_url(game_id, r.invitation))
