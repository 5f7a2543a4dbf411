"""Idempotency keys: a client's ``Idempotency-Key`` makes a resent action safe.

The first request with a key is applied and its answer stored with the key, in the transaction
that logs the action (``IdempotencyKeys.storing``); a resend with the same key and the same request
gets that answer again and changes nothing; the same key with another request is refused.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import attrs
import sqlalchemy as sa

from ttr_server import db
from ttr_server.errors import KeyReused
from ttr_server.storage import GameStore, Status


def request_hash(version: int, data: Any) -> str:
    """What a key's request was: the version it was based on and the action, canonically."""
    canonical = json.dumps({"version": version, "action": data}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


@attrs.frozen
class Keyed:
    """A request sent with an idempotency key."""

    key: str
    request_hash: str


class IdempotencyKeys:
    def __init__(self, store: GameStore):
        self.store = store

    def answered(self, game_id: str, seat: int, keyed: Keyed) -> Status | None:
        """The stored answer to this key's first request, or None if it is new; refused
        (``KeyReused``) if the key came with another request."""
        t = db.idempotency_keys
        with self.store.reads.connect() as conn:
            row = conn.execute(sa.select(t.c.request_hash, t.c.response).where(
                t.c.game_id == game_id, t.c.seat == seat, t.c.key == keyed.key)).first()
        if row is None:
            return None
        if row.request_hash != keyed.request_hash:
            raise KeyReused("this Idempotency-Key was used for another request in this game; "
                            "use a new key for every new action")
        answer = json.loads(row.response)
        return Status(answer["version"], answer["phase"], tuple(answer["to_act"]), answer["over"])

    @staticmethod
    def storing(game_id: str, seat: int, keyed: Keyed, status: Status,
                at: Any) -> Callable[[sa.Connection], None]:
        """The write that keeps ``status`` as the key's answer (in the action's transaction)."""
        def write(conn: sa.Connection) -> None:
            conn.execute(sa.insert(db.idempotency_keys).values(
                game_id=game_id, seat=seat, key=keyed.key, request_hash=keyed.request_hash,
                response=json.dumps(status.answer()), created_at=at))

        return write
