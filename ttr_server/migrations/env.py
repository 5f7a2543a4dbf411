"""Alembic environment for the game server's database.

The server runs the migrations itself on start-up (``ttr_server.db.migrate``), handing over an
open connection. A new migration is a new file in ``versions/`` (from ``script.py.mako``) whose
``down_revision`` names the previous head; the tables in ``ttr_server/db.py`` follow the head.
"""

from __future__ import annotations

from alembic import context
import sqlalchemy as sa

from ttr_server.db import make_engine, metadata

config = context.config
target_metadata = metadata


def run_migrations_offline() -> None:
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata,
                      literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def _run(connection: sa.Connection) -> None:
    # render_as_batch: SQLite cannot ALTER most things in place; batch mode rebuilds the table.
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(config.get_main_option("sqlalchemy.url"))
    with engine.begin() as conn:
        _run(conn)
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
