"""Backups of a running server's database, taken while games go on.

SQLite: the online backup API of SQLite (``sqlite3.Connection.backup``) copies the database as
one consistent snapshot, including what is still in the write-ahead log. A plain copy of the
``.sqlite3`` file during play is not a backup: the acknowledged actions not yet checkpointed
from ``-wal`` into the main file are missing from it (the issue measured 247 of 64,813).

PostgreSQL: ``pg_dump --format=custom``, a consistent snapshot taken in one transaction while
the server writes; restore with ``pg_restore``. The connection details go to pg_dump in its
environment (``PGPASSWORD``...), not on its command line, where ``ps`` would show them.

Either way the backup is written to a new file beside ``out`` and renamed to ``out`` once whole
(``ttr_core.files.atomic_path``): a failure (a full disk, a folder that is not writable) leaves no
file, and says which file could not be written.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy.engine import make_url

from ttr_core.files import WriteError, atomic_path
from ttr_server.db import normalise_url


class BackupError(Exception):
    """A backup that could not be taken; the message says why."""


def backup(db_url: str, out: Path) -> str:
    """Write a backup of the database at ``db_url`` to ``out`` (which must not exist yet);
    return a sentence saying what was written."""
    if out.exists():
        raise BackupError(f"{out} exists already; a backup never overwrites a file")
    url = make_url(normalise_url(db_url))
    backend = url.get_backend_name()
    if backend == "sqlite":
        return _sqlite(url.database or "", out)
    if backend == "postgresql":
        return _postgres(url, out)
    raise BackupError(f"no backup for {backend} databases (SQLite and PostgreSQL only)")


def _sqlite(path: str, out: Path) -> str:
    if not path or path == ":memory:" or not Path(path).is_file():
        raise BackupError(f"no SQLite database file at {path!r}")
    try:
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot read the database {path}: {exc}") from None
    try:
        with _written(out) as partial:
            games, actions = _sqlite_copy(source, partial, path, out)
    finally:
        source.close()
    return f"{out}: {games} games, {actions} actions (SQLite online backup)"


def _sqlite_copy(source: sqlite3.Connection, partial: Path, path: str, out: Path) -> tuple[int, int]:
    """Copy ``source`` into the new file ``partial`` and check the copy; its games and actions."""
    try:
        target = sqlite3.connect(partial)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot write {out}: {exc}") from None
    try:
        source.backup(target)  # one snapshot: readers do not block the server's writes in WAL mode
        problems = target.execute("PRAGMA integrity_check").fetchone()[0]
        games = target.execute("SELECT count(*) FROM games").fetchone()[0]
        actions = target.execute("SELECT count(*) FROM actions").fetchone()[0]
    except sqlite3.Error as exc:
        # the source is open read-only: what fails here is writing the copy (a full disk...)
        raise BackupError(f"cannot write {out}: {exc} (SQLite, backing up {path})") from None
    finally:
        target.close()
    if problems != "ok":
        raise BackupError(f"the copy of {path} does not pass SQLite's integrity check: {problems}")
    return games, actions


@contextmanager
def _written(out: Path) -> Iterator[Path]:
    """A new file beside ``out`` to write the backup into, renamed to ``out`` once it is whole;
    removed on any failure. A file that cannot be written is a ``BackupError`` naming ``out``."""
    try:
        with atomic_path(out) as partial:
            yield partial
    except WriteError as exc:
        raise BackupError(str(exc)) from None


def _postgres(url, out: Path) -> str:
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise BackupError("pg_dump is not installed (Debian: apt install postgresql-client)")
    env = {**os.environ, "PGHOST": url.host or "", "PGPORT": str(url.port or 5432), "PGUSER": url.username or "",
           "PGDATABASE": url.database or ""}
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    with _written(out) as partial:
        done = subprocess.run([pg_dump, "--format=custom", "--no-owner", "--file", str(partial)], env=env,
                              capture_output=True, text=True)
        if done.returncode:
            raise BackupError(f"pg_dump failed: {done.stderr.strip()[:1000]}")
    return f"{out}: pg_dump of {url.database} (restore with pg_restore --dbname=...)"
