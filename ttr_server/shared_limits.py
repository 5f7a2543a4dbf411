"""Limits that every server process on one database shares, counted in the database.

With several ``ttr serve`` processes behind a load balancer, a count kept in one process's memory
lets a client N times as much as the limit says. These count in the database instead:

- ``SharedRateLimit``: at most ``count`` events per ``period`` seconds per client address (games
  created per minute), one ``limit_events`` row per event, rows older than the window removed as
  the client's count is read;
- ``SharedSlots``: at most so many event streams open per client address and per game, one
  ``stream_slots`` row per open stream. A stream refreshes its row while it is open
  (``refresh``, every ``REFRESH_EVERY`` seconds); a row not refreshed for ``STALE_AFTER`` seconds
  belongs to a process that died and no longer counts.

A decision reads the counts and adds its row in one transaction; on PostgreSQL an advisory lock
per counted key makes two processes deciding at once for one client take turns (SQLite has one
writer at a time anyway). Times are the clock's seconds since the epoch: the processes of one
server share a clock closely enough for windows of seconds to minutes.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ttr_server import db
from ttr_server.identifiers import new_identifier

#: seconds between two refreshes of an open stream's row
REFRESH_EVERY = 10.0
#: seconds after which a row not refreshed no longer counts (its process is gone)
STALE_AFTER = 3 * REFRESH_EVERY


def _lock(conn: sa.Connection, keys: Iterable[str]) -> None:
    """On PostgreSQL, hold an advisory lock per key until the transaction ends (in one order)."""
    if conn.dialect.name != "postgresql":
        return
    for key in sorted(set(keys)):
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(zlib.crc32(key.encode()))))


class SharedRateLimit:
    """At most ``count`` events of ``kind`` per ``period`` seconds per client (0: no limit)."""

    def __init__(self, engine: Engine, kind: str, count: int, period: float = 60.0):
        self.engine, self.kind, self.count, self.period = engine, kind, count, period

    def take(self, client: str) -> float:
        """Count one event for ``client``; 0.0 if allowed, else the seconds until it would be."""
        if self.count <= 0:
            return 0.0
        e = db.limit_events
        now = time.time()
        with self.engine.begin() as conn:
            _lock(conn, [f"rate:{self.kind}:{client}"])
            mine = (e.c.kind == self.kind) & (e.c.client == client)
            conn.execute(sa.delete(e).where(mine, e.c.at <= now - self.period))
            times = conn.execute(sa.select(e.c.at).where(mine).order_by(e.c.at)).scalars().all()
            if len(times) >= self.count:
                return max(times[0] + self.period - now, 0.001)
            conn.execute(sa.insert(e).values(kind=self.kind, client=client, at=now))
        return 0.0



class SharedSlots:
    """Event streams open at once: at most ``per_client`` per client address and ``per_game`` per
    game (0: no limit), across every process of the server."""

    def __init__(self, engine: Engine, per_client: int, per_game: int):
        self.engine, self.per_client, self.per_game = engine, per_client, per_game

    def acquire(self, client: str, game_id: str) -> tuple[str | None, str | None]:
        """``(slot id, None)`` for a new stream of ``client`` on ``game_id``, or ``(None, full)``
        where ``full`` says which limit is reached: ``"client"`` or ``"game"``."""
        s = db.stream_slots
        now = time.time()
        with self.engine.begin() as conn:
            _lock(conn, [f"streams-client:{client}", f"streams-game:{game_id}"])
            # a write first: on SQLite it takes the write lock (waiting its turn) before the counts
            # are read, so the insert below cannot find the snapshot stale and fail at once
            conn.execute(sa.delete(s).where((s.c.client == client) | (s.c.game_id == game_id),
                                            s.c.seen_at <= now - STALE_AFTER))
            live = s.c.seen_at > now - STALE_AFTER
            for limit, column, key, which in ((self.per_client, s.c.client, client, "client"),
                                              (self.per_game, s.c.game_id, game_id, "game")):
                if limit:
                    held = conn.execute(sa.select(sa.func.count()).select_from(s).where(column == key, live)).scalar()
                    if held >= limit:
                        return None, which
            slot = new_identifier(16)
            conn.execute(sa.insert(s).values(id=slot, client=client, game_id=game_id, seen_at=now))
        return slot, None

    def refresh(self, slot: str) -> None:
        """Say that the stream of ``slot`` is still open."""
        s = db.stream_slots
        with self.engine.begin() as conn:
            conn.execute(sa.update(s).where(s.c.id == slot).values(seen_at=time.time()))

    def release(self, slot: str) -> None:
        s = db.stream_slots
        with self.engine.begin() as conn:
            conn.execute(sa.delete(s).where(s.c.id == slot))



#: events older than this count for no limit (every window is shorter) and are removed
FORGET_EVENTS_AFTER = 3600.0


def forget_expired(engine: Engine) -> int:
    """Remove what no limit counts any more (the server's periodic sweep): events of clients that
    did not come back within the longest window, rows of streams whose process is gone."""
    e, s = db.limit_events, db.stream_slots
    now = time.time()
    with engine.begin() as conn:
        events = conn.execute(sa.delete(e).where(e.c.at <= now - FORGET_EVENTS_AFTER)).rowcount
        streams = conn.execute(sa.delete(s).where(s.c.seen_at <= now - STALE_AFTER)).rowcount
    return events + streams
