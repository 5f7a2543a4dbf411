"""Games listed: for the administrator (``ttr admin list``), for the limit on games without a
person, and the games whose bots are to move (resumed after a restart). Read from the database,
so every server process sees the same lists."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

from ttr_server import db
from ttr_server.storage import GameStore, iso


class GameListing:
    def __init__(self, store: GameStore):
        self.store = store

    def recent(self, limit: int = 100) -> list[dict[str, Any]]:
        """The most recently changed games, newest first, as an administrator sees them (no tokens)."""
        g = db.games
        with self.store.reads.connect() as conn:
            rows = conn.execute(
                sa.select(g.c.id, g.c.variant, g.c.rules_version, g.c.seats, g.c.version, g.c.phase, g.c.over,
                          g.c.ended, g.c.created_at, g.c.updated_at).order_by(g.c.updated_at.desc()).limit(limit)
            ).all()
        return [{
            "game": r.id, "variant": r.variant, "rules_version": r.rules_version, "version": r.version,
            "phase": r.phase, "over": bool(r.over), "ended": r.ended,
            "seats": [{"name": x["name"], "bot": x["bot"]} for x in json.loads(r.seats)],
            "created_at": iso(r.created_at), "updated_at": iso(r.updated_at),
        } for r in rows]

    def running_bot_only(self) -> int:
        """Unfinished games in which no seat is a person still playing: every seat a bot, or every
        person resigned (they take server CPU with nobody playing)."""
        g = db.games
        with self.store.reads.connect() as conn:
            return conn.execute(
                sa.select(sa.func.count()).select_from(g)
                .where(g.c.over.is_(False), g.c.ended.is_(None), g.c.people_playing == 0)
            ).scalar_one()

    def waiting_for_a_bot(self) -> list[str]:
        """Games waiting for a bot (to resume them after a restart)."""
        with self.store.reads.connect() as conn:
            rows = conn.execute(
                sa.select(db.games.c.id).where(db.games.c.bot_turn.is_(True), db.games.c.over.is_(False))
            ).all()
        return [r.id for r in rows]

    def idle_since(self, cutoff) -> list[str]:
        """Unfinished games with no change since ``cutoff`` (a UTC datetime)."""
        g = db.games
        with self.store.reads.connect() as conn:
            return [r.id for r in conn.execute(sa.select(g.c.id).where(
                g.c.over.is_(False), g.c.ended.is_(None), g.c.updated_at < cutoff)).all()]
