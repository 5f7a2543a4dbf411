"""The refusals of the server, each with the HTTP status and the code the web layer answers with
(``app.py`` writes them as ``{"error": code, "reason": sentence, ...}``)."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A request the server refuses, with the HTTP status and a reason meant for the client;
    ``extra`` fields go into the answer too (``retry_after`` also becomes a Retry-After header)."""

    status = 400
    code = "bad-request"

    def __init__(self, reason: str, **extra: Any):
        super().__init__(reason)
        self.reason = reason
        self.extra = extra


class NotFound(ServiceError):
    """No such game, variant or seat."""

    status, code = 404, "not-found"


class Unauthorized(ServiceError):
    """A token missing where one is needed, or one that is no seat's (or host's) of this game."""

    status, code = 401, "unauthorized"


class StaleVersion(ServiceError):
    """The action was based on an older state than the game's: nothing was applied."""

    status, code = 409, "stale-version"


class NotOver(ServiceError):
    """A record asked for while the game goes on (it shows every hand)."""

    status, code = 409, "not-over"


class Ended(ServiceError):
    """The game was aborted or expired: it takes no more actions."""

    status, code = 409, "game-ended"


class KeyReused(ServiceError):
    """An Idempotency-Key sent again with a different request."""

    status, code = 422, "idempotency-key-reused"


class Rejected(ServiceError):
    """The rules do not allow this (an illegal action, a setup the variant does not take)."""

    status, code = 422, "rejected"


class EngineFailure(ServiceError):
    """A plugin failed while checking or applying an action: a bug, reported without details
    (they could name hidden cards); the game is unchanged and the details are in the log."""

    status, code = 500, "engine-failure"


class TooMany(ServiceError):
    """A limit against abuse: too many games, streams or bot-only games for now."""

    status, code = 429, "too-many"


class SeedRefused(ServiceError):
    """A client-chosen seed, on a server started without ``--allow-seed``."""

    status, code = 403, "seed-not-allowed"
