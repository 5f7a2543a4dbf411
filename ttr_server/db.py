"""The database: the games and their logs (and the lobby's two tables), the engine, and migrations.

``games`` holds one row per game: what it was created with (variant id and rules version, seed,
seats) and a summary of where it stands (version, digest, who is to act), kept in step with the
log. ``actions`` is the append-only action log: row ``n`` of a game is its ``n``-th action, and
a game's ``version`` is the number of actions in its log. The state itself is never stored: it is
rebuilt by replaying the log, as ``ttr replay`` does with a record.

The schema is managed by the Alembic migrations in ``migrations/`` (run on start-up); the table
definitions below describe the head revision for queries and must stay in step with them.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from importlib.resources import files
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine, make_url

metadata = sa.MetaData()

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("variant", sa.String(100), nullable=False),
    sa.Column("rules_version", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("seats", sa.Text, nullable=False),  # JSON: [{"name", "bot", "token_hash"}, ...]
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("digest", sa.String(64), nullable=False),
    sa.Column("phase", sa.String(20), nullable=False),
    sa.Column("to_act", sa.Text, nullable=False),  # JSON list of seats
    sa.Column("bot_turn", sa.Boolean, nullable=False),
    sa.Column("over", sa.Boolean, nullable=False),
    sa.Column("result", sa.Text, nullable=True),  # JSON, the record's "result" once over
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    # None while the game may go on; "aborted" (by an administrator) or "expired" (no move for
    # longer than the server's --expire-after) once it may not: its actions are then refused
    sa.Column("ended", sa.String(20), nullable=True),
    # seats that are a person who has not resigned: 0 makes a game "without a person" (--max-bot-games)
    sa.Column("people_playing", sa.Integer, nullable=False, server_default="0"),
    # the server resumes bots that were to move when it stopped: find those games quickly
    sa.Index("ix_games_bot_turn", "bot_turn", "over"),
    # the expiry sweep looks for unfinished games by their last change
    sa.Index("ix_games_updated_at", "updated_at"),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("data", sa.Text, nullable=False),  # JSON, as in a record: {"kind": ..., fields...}
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

# Limits that several server processes share (``shared_limits.py``): one row per game a client
# created within the rate limit's window, and one per event stream open, refreshed while it is
# (a process that dies leaves rows that go stale and stop counting).
limit_events = sa.Table(
    "limit_events",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("client", sa.String(100), nullable=False),
    sa.Column("at", sa.Float, nullable=False),  # seconds since the epoch
    sa.Index("ix_limit_events_client", "kind", "client", "at"),
)

stream_slots = sa.Table(
    "stream_slots",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("client", sa.String(100), nullable=False),
    sa.Column("game_id", sa.String(40), nullable=False),
    sa.Column("seen_at", sa.Float, nullable=False),  # seconds since the epoch, refreshed while open
    sa.Index("ix_stream_slots_client", "client"),
    sa.Index("ix_stream_slots_game", "game_id"),
)

# The lobby (``lobby.py``): a game whose seats are filled by invitation waits here until every
# seat is taken; then its ``games`` row is written, in the same transaction as the last seat.
lobby_games = sa.Table(
    "lobby_games",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),  # the id its game gets in ``games``
    sa.Column("variant", sa.String(100), nullable=False),
    sa.Column("rules_version", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("listed", sa.Boolean, nullable=False),  # shown in the lobby; anybody may take a free seat
    sa.Column("host_hash", sa.String(64), nullable=False),  # sha256 of the creator's token
    sa.Column("joins", sa.Integer, nullable=False),  # bumped by every join: the row lock that orders them
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
    sa.Index("ix_lobby_games_open", "started_at", "listed", "created_at"),
)

lobby_seats = sa.Table(
    "lobby_seats",
    metadata,
    sa.Column("game_id", sa.String(40), sa.ForeignKey("lobby_games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(40), nullable=True),  # null while the seat is open
    sa.Column("bot", sa.String(40), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),  # the seat's token, once taken (sha256)
    sa.Column("invite_hash", sa.String(64), nullable=True),  # the seat's invitation (sha256), kept once used
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True),
)

idempotency_keys = sa.Table(
    "idempotency_keys",
    metadata,
    # An action sent with an Idempotency-Key: a resend of the same request gets the stored answer
    # instead of being applied again. Written in the same transaction as the action itself.
    sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("key", sa.String(200), primary_key=True),
    sa.Column("request_hash", sa.String(64), nullable=False),  # sha256 of the request body, canonical JSON
    sa.Column("response", sa.Text, nullable=False),  # JSON: the status answered the first time
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

MIGRATIONS = files("ttr_server") / "migrations"

# The lock key every server process takes before migrating a PostgreSQL database, so that
# several processes starting at once do not run the same migration twice.
_MIGRATION_LOCK = 0x7472_5F73  # "tr_s"


def normalise_url(url: str) -> str:
    """``postgresql://`` means psycopg 3 here (the one driver the ``serve`` extra installs)."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return url


#: the environment variable a database URL may come from (a password in argv shows in ``ps``)
URL_VARIABLE = "TTR_DATABASE_URL"


def default_url() -> str:
    return os.environ.get(URL_VARIABLE) or "sqlite:///ttr-games.sqlite3"


def sqlite_path(url: str) -> str | None:
    """The file of a SQLite URL; None for another database."""
    parsed = make_url(normalise_url(url))
    return parsed.database if parsed.get_backend_name() == "sqlite" else None


class DatabaseUnavailable(Exception):
    """The database cannot be used now (the API answers 503 with ``Retry-After``): the SQLite file
    the server opened was moved, replaced or made read-only (a database server that does not
    answer raises SQLAlchemy's own errors, which the API answers alike)."""


class SqliteFile:
    """The SQLite file of a server, as it was when the server started: a file moved away,
    replaced by another, or made read-only while the server runs is noticed (``problem``), and
    the writer's transactions are refused from then on, so that nothing is written where nobody
    will look for it (a moved file keeps taking writes through the connections already open)."""

    def __init__(self, path: str):
        self.path = path
        st = os.stat(path)
        self.opened = (st.st_dev, st.st_ino)

    def problem(self) -> str | None:
        """What is wrong with the file now, in words, or None."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return f"the database file {self.path} is gone (moved or deleted)"
        except OSError as exc:
            return f"the database file {self.path} cannot be read: {exc.strerror}"
        if (st.st_dev, st.st_ino) != self.opened:
            return f"the database file {self.path} was replaced by another file"
        if not st.st_mode & 0o222 or not os.access(self.path, os.W_OK):
            return f"the database file {self.path} is read-only"
        return None

    def check(self) -> None:
        problem = self.problem()
        if problem is not None:
            raise DatabaseUnavailable(problem)


def guard_sqlite_file(engine: Engine) -> SqliteFile | None:
    """For a SQLite engine on a file (migrated, so the file exists): its ``SqliteFile``, checked
    before every transaction of ``engine`` from now on. None for another database."""
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    if not path or path == ":memory:":
        return None
    guard = SqliteFile(os.path.abspath(path))
    # first among the "begin" listeners: refused before BEGIN is sent
    sa.event.listen(engine, "begin", lambda conn: guard.check(), insert=True)
    return guard


def make_engine(url: str) -> Engine:
    url = normalise_url(url)
    if make_url(url).get_backend_name() == "sqlite":
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        sa.event.listen(engine, "connect", _sqlite_pragmas)
        # pysqlite opens transactions lazily and never for SELECT; take them explicitly instead,
        # so that a transaction is what SQLAlchemy says it is (the documented recipe).
        sa.event.listen(engine, "begin", lambda conn: conn.exec_driver_sql("BEGIN"))
        return engine
    # connect_timeout: an unreachable server is an error after 10 s (the health check says so), not a hang
    return sa.create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True,
                            connect_args={"connect_timeout": 10})


def reader(engine: Engine) -> Engine:
    """An engine for reads that need no transaction around them (one SELECT each): in autocommit,
    so a read is one statement, not BEGIN, SELECT and ROLLBACK."""
    if engine.dialect.name == "sqlite":
        # The writer's engine opens explicit transactions (its "begin" listener); readers of the
        # same file get their own engine and pool without it.
        reads = sa.create_engine(engine.url, connect_args={"check_same_thread": False, "timeout": 30})
        sa.event.listen(reads, "connect", _sqlite_pragmas)
        return reads
    return engine.execution_options(isolation_level="AUTOCOMMIT")


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    dbapi_conn.isolation_level = None  # see the "begin" listener above
    cur = dbapi_conn.cursor()
    # WAL lets readers go on while one writer commits; synchronous=FULL syncs the WAL on every
    # commit, so an acknowledged action survives a killed process and a lost machine alike.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


def migrate(engine: Engine, script_location: str | None = None) -> None:
    """Bring the schema to the head revision (idempotent; safe with several processes).

    On SQLite the migration runs in its own connection, with foreign keys off (a batch migration
    rebuilds a table by copying it, dropping the old one and renaming the copy: with foreign
    keys on, dropping ``games`` would fail or cascade into ``actions``) and checked before the
    commit, inside ``BEGIN IMMEDIATE`` (a second process starting on the same fresh file waits
    for the write lock instead of failing with "database is locked")."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", script_location or str(MIGRATIONS))
    if engine.dialect.name == "sqlite":
        _migrate_sqlite(engine, cfg)
        return
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def _migrate_sqlite(engine: Engine, cfg) -> None:
    from alembic import command

    def pragmas(dbapi_conn, _record) -> None:
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA foreign_keys=OFF")  # only outside a transaction does this take effect
        cur.close()

    migrator = sa.create_engine(engine.url, poolclass=sa.pool.NullPool, connect_args={"timeout": 30})
    sa.event.listen(migrator, "connect", pragmas)
    sa.event.listen(migrator, "begin", lambda conn: conn.exec_driver_sql("BEGIN IMMEDIATE"))
    try:
        _wal(migrator)
        with migrator.begin() as conn:
            before = _revision(conn)
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
            # The check reads every row of the database: only after a migration ran, not at every start.
            broken = conn.exec_driver_sql("PRAGMA foreign_key_check").all() if _revision(conn) != before else []
            if broken:
                raise RuntimeError(f"the migration left {len(broken)} rows whose reference is gone: {broken[:5]}")
    finally:
        migrator.dispose()


def _revision(conn: sa.Connection) -> str | None:
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(conn).get_current_revision()


def _wal(engine: Engine, patience: float = 30.0) -> None:
    """Switch the file to WAL. The switch needs the file to itself and SQLite does not wait for
    it (no busy handler), so another process opening the same fresh file at that moment makes
    it fail at once: it is tried again, for up to ``patience`` seconds."""
    import sqlite3
    import time

    deadline = time.monotonic() + patience
    raw = engine.raw_connection()
    try:
        while True:
            try:
                raw.cursor().execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
    finally:
        raw.close()


def check(engine: Engine, timeout: float = 3.0, sqlite_file: SqliteFile | None = None) -> None:
    """Raise unless the database answers a query and, on SQLite, ``sqlite_file`` is still the file
    opened and writable (for the health check)."""
    if sqlite_file is not None:
        sqlite_file.check()
    with engine.connect() as conn:
        if engine.dialect.name == "postgresql":
            conn.exec_driver_sql(f"SET LOCAL statement_timeout = {int(timeout * 1000)}")
        conn.execute(sa.select(sa.func.count()).select_from(games).where(games.c.id == "")).scalar()


#: the PostgreSQL channel on which every commit names the games it changed (``events.ChangeListener``)
CHANGES_CHANNEL = "ttr_game_changes"


class GroupCommit:
    """One writer thread that commits the writes of many requests together.

    A durable commit costs a flush to disk (milliseconds), whatever it holds. Requests hand their
    writes here and wait; the thread takes every write waiting at that moment and commits them
    in one transaction, so under load one flush acknowledges many actions (the group commit of
    database servers, done for SQLite, which has none, and for PostgreSQL alike).

    A write is a function of the open connection. It returns its result, or an exception
    *instance* for a refusal that concerns it alone (a stale version): the others in the batch
    still commit, and the refusal is raised in its caller. A write that raises fails the whole
    batch: nothing of it is committed and every caller gets the error.
    """

    def __init__(self, engine: Engine, max_batch: int = 256):
        self.engine = engine
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._closed = False
        self._closing = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="ttr-commit", daemon=True)
        self._thread.start()

    def run(self, key: str, write: Callable[[sa.Connection], Any]) -> Any:
        """Commit ``write`` (with others) and return its result; ``key`` orders a batch's writes
        (a game id), so that concurrent batches of several processes lock rows in one order."""
        done: Future = Future()
        with self._closing:  # a write is queued before the stop mark, or refused: never stranded
            if self._closed:
                raise RuntimeError("the server is stopping; nothing was written")
            self._queue.put((key, write, done))
        return done.result()

    def close(self) -> None:
        with self._closing:
            if self._closed:
                return
            self._closed = True
            self._queue.put(None)
        self._thread.join(30)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            self._commit(sorted(batch, key=lambda item: item[0]))
            if stop:
                return

    def _commit(self, batch: list) -> None:
        outcomes = []
        try:
            with self.engine.begin() as conn:
                for _key, write, _done in batch:
                    outcomes.append(write(conn))
                if conn.dialect.name == "postgresql":  # delivered to every listening process on commit
                    for key in sorted({key for key, _write, _done in batch}):
                        conn.execute(sa.select(sa.func.pg_notify(CHANGES_CHANNEL, key)))
        except BaseException as exc:  # noqa: BLE001 - handed to every waiting caller, not swallowed
            for _key, _write, done in batch:
                done.set_exception(exc)
            return
        for (_key, _write, done), outcome in zip(batch, outcomes):
            if isinstance(outcome, BaseException):
                done.set_exception(outcome)
            else:
                done.set_result(outcome)


def redact(url: str) -> str:
    """The URL without its password, for messages."""
    try:
        return make_url(normalise_url(url)).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - an unparsable URL is shown as the user typed it, cut short
        return url[:60]
