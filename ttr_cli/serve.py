"""``ttr serve``: the game server (``ttr_server``), registered into the ``ttr`` command line.

The server's libraries come with the ``serve`` extra; without them the command says how to get
them instead of failing on an import.
"""

from __future__ import annotations

import sys

import click

from ttr_cli.preflight import MissingExtra, require_extra

#: what ``ttr serve`` imports from the ``serve`` extra (psycopg only for PostgreSQL: checked on use)
SERVE = ("uvicorn", "fastapi", "starlette", "sqlalchemy", "alembic")


def register(main: click.Group) -> None:
    from ttr_cli.main import guarded  # the cli module is loading us: import what it has defined

    serve.callback = guarded(serve.callback)
    main.add_command(serve)


@click.command()
@click.option("--db", "db_url", default=None, metavar="URL",
              help="Database URL: sqlite:///FILE (the default is ./ttr-games.sqlite3) or postgresql://user:pw@host/db "
                   "for several server processes behind a load balancer.")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option("--bot-delay", type=click.FloatRange(0, 60), default=0.5, show_default=True,
              help="Seconds between two bot actions, so that people can follow them.")
@click.option("--log-level", type=click.Choice(["critical", "error", "warning", "info", "debug"]), default="info",
              show_default=True)
def serve(db_url, host, port, bot_delay, log_level):
    """Serve games over HTTP: the API (/api/docs) and a page to play in (/)."""
    require_extra("serve", SERVE, "ttr serve")
    if db_url and db_url.startswith("postgres"):
        require_extra("serve", ("psycopg",), "ttr serve with PostgreSQL")
    try:
        import uvicorn

        from ttr_server import db
        from ttr_server.app import Settings, create_app
    except ImportError as exc:  # something the extra brings that the list above misses
        raise MissingExtra(f"ttr serve needs the 'serve' extra ({exc.name or exc} cannot be imported): "
                           'pip install "ttr-engine[serve]"') from None
    settings = Settings(db_url=db_url or db.default_url(), bot_delay=bot_delay)
    try:
        app = create_app(settings)
    except Exception as exc:  # noqa: BLE001 - a bad URL or an unreachable database: say so, exit 2
        click.echo(f"error: cannot open the database {db.redact(settings.db_url)}: {type(exc).__name__}: {exc}", err=True)
        sys.exit(2)
    click.echo(f"ttr serve: http://{host}:{port}/ (database: {db.redact(settings.db_url)})")
    # timeout_graceful_shutdown: event streams stay open until the client leaves; on a stop they
    # are cut after a few seconds instead of holding the shutdown.
    uvicorn.run(app, host=host, port=port, log_level=log_level, timeout_graceful_shutdown=3)
