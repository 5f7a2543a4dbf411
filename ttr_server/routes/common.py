"""What every router shares: the error responses documented per route, the game id and token
parameters, and the app's parts handed to a handler as dependencies (``app.state``)."""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field

from ttr_server.errors import Unauthorized
from ttr_server.events import Hub
from ttr_server.lobby import Lobby
from ttr_server.service import GameService

#: seconds a client is told to wait when the database cannot be used (``Retry-After``)
DATABASE_RETRY_AFTER = 5

GAME_ID = r"^[A-Za-z0-9_-]{1,40}$"


class ErrorOut(BaseModel):
    error: str
    reason: str


#: what each error status of the API means, as the routes document it (:func:`errors`)
ERROR_TEXTS = MappingProxyType(dict((
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
    )))


def errors(*codes: int) -> dict[int, dict]:
    """The documented error responses of a route: new dicts, as FastAPI takes them."""
    return {k: {"model": ErrorOut, "description": ERROR_TEXTS[k]} for k in codes}


class In(BaseModel):
    """A request body: no unknown fields, nothing changed after reading."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class NewGameIn(In):
    """What every new game is asked with (``POST /api/games``, ``POST /api/lobby``)."""

    variant: str = Field("usa", max_length=64, description="A variant id from GET /api/variants.")
    version: int | None = Field(None, ge=1, le=10_000, strict=True,
                                description="Rules version; default: the variant's current one. The game keeps it.")
    seed: int | None = Field(None, ge=0, le=2**63 - 1, strict=True,
                             description="Shuffle seed; default: a random one. Whoever knows it knows the deck.")


_bearer = HTTPBearer(auto_error=False, description="A seat's token, from the game's creation.")


def bearer_token(request: Request, creds: HTTPAuthorizationCredentials | None = Depends(_bearer)) -> str | None:
    """The token of ``Authorization: Bearer <token>``; None without the header."""
    if creds is None:
        if request.headers.get("authorization") is not None:
            raise Unauthorized("the Authorization header must be 'Bearer <seat token>'")
        return None
    if not 1 <= len(creds.credentials) <= 200:
        raise Unauthorized("this token is not a seat of this game")
    return creds.credentials


def _service(request: Request) -> GameService:
    return request.app.state.service


def _lobby(request: Request) -> Lobby:
    return request.app.state.lobby


def _hub(request: Request) -> Hub:
    return request.app.state.hub


def _admit(request: Request) -> Callable[[Request, int | None, bool], None]:
    return request.app.state.admit


GameId = Annotated[str, Path(pattern=GAME_ID, description="The game id from its creation.")]
Token = Annotated[str | None, Depends(bearer_token)]
Service = Annotated[GameService, Depends(_service)]
LobbyDep = Annotated[Lobby, Depends(_lobby)]
HubDep = Annotated[Hub, Depends(_hub)]
#: the check every new game passes (``limits.Admission``)
Admit = Annotated[Callable[[Request, int | None, bool], None], Depends(_admit)]
