"""Games as the database holds them (``db.py`` has the tables): a row per game, an append-only
action log, and the reads and writes the server makes of them.

The database holds the truth: every other module's picture of a game (a live ``Game`` in memory,
a replica for the game page) is brought level with what is read here. Writes go through one
``db.GroupCommit``, reads through the read pool (``db.reader``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from typing import Any

import attrs
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ttr_core import record as records
from ttr_core.game import Game
from ttr_core.state import digest
from ttr_server import db
from ttr_server.errors import NotFound, NotOver, StaleVersion


@attrs.frozen
class Seat:
    name: str
    bot: str | None  # an installed bot's name (``ttr bots``), played by the server; None: a person
    token_hash: str | None  # sha256 of the seat's token (the token itself is never stored)


@attrs.frozen
class GameMeta:
    """What a game was created with; never changes."""

    id: str
    variant: str
    rules_version: int
    seed: int
    seats: tuple[Seat, ...]


@attrs.frozen
class Status:
    """Where a game stands, as anybody may know it (read from the database, so it is current
    across server processes)."""

    version: int
    phase: str
    to_act: tuple[int, ...]
    over: bool
    ended: str | None = None  # "aborted" or "expired": the game may not go on (see ``db.games.ended``)

    def answer(self) -> dict[str, Any]:
        """What an idempotency key stores of it (``idempotency.py``)."""
        return {"version": self.version, "phase": self.phase, "to_act": list(self.to_act), "over": self.over}


def now() -> datetime:
    return datetime.now(timezone.utc)


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(timespec="seconds")


def status_of(game: Game) -> Status:
    return Status(len(game.log), game.phase, tuple(game.to_act()), game.over)


def summary(meta: GameMeta, game: Game) -> dict[str, Any]:
    """The games-row columns that follow the state, written with every action."""
    to_act = game.to_act()
    result = records.make_record(game)["result"] if game.over else None
    return {
        "digest": digest(game.dump()),
        "phase": game.phase,
        "to_act": json.dumps(to_act),
        "bot_turn": any(meta.seats[s].bot for s in to_act),
        "people_playing": sum(1 for s in game.active_seats() if meta.seats[s].bot is None),
        "over": game.over,
        "result": None if result is None else json.dumps(result),
        "updated_at": now(),
    }


def new_row(meta: GameMeta, game: Game) -> dict[str, Any]:
    """The ``games`` row of a game just created (no action yet)."""
    state = summary(meta, game)
    return dict(id=meta.id, variant=meta.variant, rules_version=meta.rules_version, seed=meta.seed,
                seats=seats_json(meta.seats), version=0, created_at=state["updated_at"], **state)


def seats_json(seats: Sequence[Seat]) -> str:
    return json.dumps([attrs.asdict(s) for s in seats])


def seats_from_json(text: str) -> tuple[Seat, ...]:
    return tuple(Seat(s["name"], s["bot"], s["token_hash"]) for s in json.loads(text))


def meta_from_row(row) -> GameMeta:
    return GameMeta(row.id, row.variant, row.rules_version, row.seed, seats_from_json(row.seats))


def _record(meta: GameMeta, row, rows) -> dict[str, Any]:
    # The same keys in the same order as ttr_core.record.make_record, so that dumps() of a stored
    # record and of a replayed game compare byte for byte.
    out = {
        "format": records.FORMAT,
        "variant": meta.variant,
        "version": meta.rules_version,
        "seed": meta.seed,
        "players": [s.name for s in meta.seats],
        "actions": [{"seat": seat, **json.loads(data)} for seat, data in rows],
        "digest": row.digest,
        "over": bool(row.over),
    }
    if row.result is not None:
        out["result"] = json.loads(row.result)
    return out


class GameStore:
    """The reads and writes of games; thread-safe (each call takes its own connection)."""

    def __init__(self, engine: Engine):
        self.engine = engine
        #: the SQLite file as it was at the start (None on PostgreSQL): writes stop if it is moved
        self.sqlite_file = db.guard_sqlite_file(engine)
        self.reads = db.reader(engine)
        self.commits = db.GroupCommit(engine)

    def close(self) -> None:
        self.commits.close()
        if self.reads.pool is not self.engine.pool:
            self.reads.dispose()

    def check(self) -> None:
        """Raise unless the database answers (in a transaction: its statement timeout is local to it)."""
        db.check(self.engine, sqlite_file=self.sqlite_file)

    # --- reading ----------------------------------------------------------------------------

    def status_row(self, game_id: str, with_digest: bool = False):
        cols = [db.games.c.version, db.games.c.phase, db.games.c.to_act, db.games.c.over, db.games.c.ended]
        if with_digest:
            cols.append(db.games.c.digest)
        with self.reads.connect() as conn:
            row = conn.execute(sa.select(*cols).where(db.games.c.id == game_id)).first()
        if row is None:
            raise NotFound(f"no game {game_id!r}")
        return row

    def status(self, game_id: str) -> Status:
        row = self.status_row(game_id)
        return Status(row.version, row.phase, tuple(json.loads(row.to_act)), bool(row.over), row.ended)

    def meta(self, game_id: str) -> GameMeta:
        """What the game was created with, as stored now (with the seats' current token hashes)."""
        with self.reads.connect() as conn:
            row = conn.execute(sa.select(db.games).where(db.games.c.id == game_id)).first()
        if row is None:
            raise NotFound(f"no game {game_id!r}")
        return meta_from_row(row)

    def seats(self, game_id: str) -> tuple[Seat, ...]:
        """A game's seats as stored now (with their token hashes)."""
        with self.reads.connect() as conn:
            row = conn.execute(sa.select(db.games.c.seats).where(db.games.c.id == game_id)).first()
        if row is None:
            raise NotFound(f"no game {game_id!r}")
        return seats_from_json(row.seats)

    def actions(self, game_id: str, after: int, upto: int) -> list:
        """The logged actions ``after`` < n <= ``upto`` as rows ``(n, seat, data)``, in order."""
        a = db.actions
        with self.reads.connect() as conn:
            return conn.execute(sa.select(a.c.n, a.c.seat, a.c.data).where(
                a.c.game_id == game_id, a.c.n > after, a.c.n <= upto).order_by(a.c.n)).all()

    def record(self, game_id: str, over_only: bool) -> dict[str, Any]:
        """The game's record, built from what is stored (the log, the digest, the result);
        ``over_only``: refused (``NotOver``) while the game goes on."""
        with self.reads.connect() as conn:
            row = conn.execute(sa.select(db.games).where(db.games.c.id == game_id)).first()
            if row is None:
                raise NotFound(f"no game {game_id!r}")
            if over_only and not row.over:
                raise NotOver("the record is published once the game is over (it shows every hand)")
            # up to the version read with the digest: the log may grow between the two reads
            rows = conn.execute(
                sa.select(db.actions.c.seat, db.actions.c.data)
                .where(db.actions.c.game_id == game_id, db.actions.c.n <= row.version).order_by(db.actions.c.n)
            ).all()
        return _record(meta_from_row(row), row, rows)

    # --- writing ----------------------------------------------------------------------------

    def insert(self, row: dict[str, Any]) -> None:
        """Store a new game's row (``new_row``)."""
        def write(conn: sa.Connection) -> None:
            conn.execute(sa.insert(db.games).values(**row))

        self.commits.run(row["id"], write)

    def append(self, game_id: str, before: int, seat: int, data: str, state: dict[str, Any],
               also: Callable[[sa.Connection], None] | None = None) -> None:
        """Log action ``before + 1`` (``data``, JSON) with the row's new ``state`` (``summary``),
        if the game is still at version ``before`` and not ended; else raise ``StaleVersion`` and
        write nothing. ``also`` writes in the same transaction (an idempotency key's answer)."""
        def write(conn: sa.Connection):
            # The version check and the log entry in one transaction: the log only ever grows
            # by the action that was applied to the state it was checked against.
            moved = conn.execute(
                sa.update(db.games).where(db.games.c.id == game_id, db.games.c.version == before,
                                          db.games.c.ended.is_(None))
                .values(version=before + 1, **state)
            ).rowcount
            if moved != 1:
                return StaleVersion("another server process advanced or ended this game first: nothing was applied")
            conn.execute(sa.insert(db.actions).values(
                game_id=game_id, n=before + 1, seat=seat, data=data, created_at=state["updated_at"]))
            if also is not None:
                also(conn)
            return None

        self.commits.run(game_id, write)

    def set_seats(self, game_id: str, seats: Sequence[Seat]) -> None:
        def write(conn: sa.Connection) -> None:
            conn.execute(sa.update(db.games).where(db.games.c.id == game_id).values(seats=seats_json(seats)))

        self.commits.run(game_id, write)

    def end(self, game_id: str, why: str) -> bool:
        """Mark an unfinished game ended (``why``); False if it was over or ended already."""
        def write(conn: sa.Connection) -> int:
            return conn.execute(
                sa.update(db.games).where(db.games.c.id == game_id, db.games.c.over.is_(False),
                                          db.games.c.ended.is_(None))
                .values(ended=why, bot_turn=False, updated_at=now())
            ).rowcount

        return self.commits.run(game_id, write) == 1

    def delete(self, game_id: str) -> None:
        """Remove a game, its log and what else is kept of it, for good."""
        def write(conn: sa.Connection) -> None:
            for table in (db.idempotency_keys, db.actions, db.lobby_seats):
                conn.execute(sa.delete(table).where(table.c.game_id == game_id))
            conn.execute(sa.delete(db.games).where(db.games.c.id == game_id))
            conn.execute(sa.delete(db.lobby_games).where(db.lobby_games.c.id == game_id))

        self.commits.run(game_id, write)
