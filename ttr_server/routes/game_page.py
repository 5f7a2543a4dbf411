"""What the game page shows beside the board: the move log, what the plugins mark on the board at
the end (the highlights; the trails, their older form), claim refusals (``moves.GamePageData``
reads them from the stored actions)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, Field

from ttr_server.moves import GamePageData
from ttr_server.routes.common import GameId, Service, Token, errors

router = APIRouter(prefix="/api/games", tags=["games"])


def _page_data(request: Request) -> GamePageData:
    return request.app.state.game_page


PageData = Annotated[GamePageData, Depends(_page_data)]


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


class HighlightOut(BaseModel):
    seat: int
    name: str = Field(description='The answering plugin\'s key for it: "longest-path", "stations".')
    title: str = Field(description='In players\' words, after the owner\'s name: "longest trail: 12 spaces".')
    routes: list[str] = Field(description="Route ids; in walking order for a trail.")
    shape: Literal["trail", "routes"] = Field(
        description="trail: the routes join end to end, drawn as one line; routes: each marked on its own.")


class HighlightsOut(BaseModel):
    game: str
    version: int
    highlights: list[HighlightOut] = Field(description="Seat by seat, each seat's in the variant's plugin order.")


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


@router.get("/{game_id}/moves", response_model=MovesOut, responses=errors(404))
def moves(game_id: GameId, data: PageData, since: Annotated[int, Query(ge=0, le=10**9)] = 0) -> MovesOut:
    """The move log: every turn in words, for seats and spectators alike (cards drawn blind and
    tickets are never named). `since`: only the turns whose last action came after it."""
    return MovesOut.model_validate(data.moves(game_id, since))


@router.get("/{game_id}/highlights", response_model=HighlightsOut, responses=errors(404, 409))
def highlights(game_id: GameId, data: PageData) -> HighlightsOut:
    """What the variant's rules mark on the board of the final position, once the game is over:
    each player's longest trail route by route (R-BON-1), the routes stations borrow (R-STA-3), a
    house rule's own. A variant whose rules mark nothing gives none."""
    return HighlightsOut.model_validate(data.highlights(game_id))


@router.get("/{game_id}/trails", response_model=TrailsOut, responses=errors(404, 409))
def trails(game_id: GameId, data: PageData) -> TrailsOut:
    """The trails among the highlights (each player's longest trail, route by route, R-BON-1,
    where the variant has that bonus), once the game is over; `highlights` says more."""
    return TrailsOut.model_validate(data.trails(game_id))


@router.get("/{game_id}/claim-check", response_model=ClaimCheckOut, responses=errors(401, 404))
def claim_check(game_id: GameId, token: Token, service: Service, data: PageData,
                route: Annotated[str, Query(min_length=1, max_length=100)]) -> ClaimCheckOut:
    """Whether your hand could claim `route` now and, if not, why: the engine's refusal
    (taken, closed by a rule, too few trains, or the cards the hand lacks)."""
    seat = service.acting_seat(game_id, token)
    return ClaimCheckOut.model_validate(data.claim_check(game_id, seat, route))
