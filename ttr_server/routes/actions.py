"""A seat's actions: playing one (checked against the version it was chosen at), and resigning."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header
from pydantic import Field

from ttr_server.routes.common import GameId, In, Service, Token, errors
from ttr_server.routes.games import StatusOut

router = APIRouter(prefix="/api/games", tags=["games"])


class ActionIn(In):
    version: int = Field(ge=0, le=10**9, strict=True,
                         description="The game version this action was chosen at; a stale one is refused (409).")
    action: dict[str, Any] = Field(description='An action as in a record, e.g. {"kind": "draw-card", "slot": null}; '
                                               "the seat's legal ones are listed by GET /api/games/{id}.")


class ResignIn(In):
    version: int | None = Field(None, ge=0, le=10**9, strict=True,
                                description="If given, refused (409) unless the game is still at this version.")


IdempotencyKey = Annotated[str | None, Header(
    min_length=1, max_length=200, pattern=r"^[\x21-\x7e]+$",
    description="Any unique string per action: resending the same request with it (its answer "
                "was lost) gets the first answer and applies nothing twice.")]


@router.post("/{game_id}/actions", response_model=StatusOut, responses=errors(401, 404, 409, 413, 422))
def act(game_id: GameId, body: ActionIn, token: Token, service: Service,
        idempotency_key: IdempotencyKey = None) -> StatusOut:
    """Play an action for your seat. It is applied only if the game is still at `version`, and it
    is stored before this answers: an acknowledged action is never lost. While the players choose
    their starting tickets, the others' choices do not make yours stale (they are independent)."""
    seat = service.acting_seat(game_id, token)
    return StatusOut.of(game_id, service.act(game_id, seat, body.version, body.action, key=idempotency_key))


@router.post("/{game_id}/resign", response_model=StatusOut, responses=errors(401, 404, 409, 413, 422))
def resign(game_id: GameId, token: Token, service: Service, body: ResignIn | None = None) -> StatusOut:
    """Leave the game, if its rules have a resign action (422 otherwise)."""
    seat = service.acting_seat(game_id, token)
    return StatusOut.of(game_id, service.resign(game_id, seat, body.version if body else None))
