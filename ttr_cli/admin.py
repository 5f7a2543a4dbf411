"""``ttr admin``: a game server's database, as its host looks after it: list games, abort or
delete one, issue a new token for a person's seat, back the database up.

It works on the database directly (``--db`` or ``TTR_DATABASE_URL``, as ``ttr serve``), so it
runs beside the servers; they see its changes at once (an aborted game refuses actions, an old
token stops working).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from ttr_cli.preflight import require_extra
from ttr_core.errors import TTRError

SERVE = ("fastapi", "sqlalchemy", "alembic")

_db_option = click.option(
    "--db", "db_url", default=None, metavar="URL", envvar="TTR_DATABASE_URL", show_envvar=True,
    help="The server's database URL (as ttr serve --db); default ./ttr-games.sqlite3.")


def register(main: click.Group) -> None:
    from ttr_cli.main import guarded

    for command in admin.commands.values():
        command.callback = guarded(command.callback)
    main.add_command(admin)


@click.group()
def admin():
    """Look after a game server's database: games, tokens, backups.

    Pass a game id after -- (ttr admin token --db URL -- GAME 0): ids made before
    identifiers were kept from starting with "-" may still start with it, and would otherwise be
    read as an option."""


class _Service:
    """``with _Service(db_url) as service:`` a GameService on the database, without bots."""

    def __init__(self, db_url: str | None):
        require_extra("serve", SERVE, "ttr admin")
        if db_url and db_url.startswith("postgres"):
            require_extra("serve", ("psycopg",), "ttr admin with PostgreSQL")
        self.db_url = db_url

    def __enter__(self):
        from ttr_server import db
        from ttr_server.service import GameService

        url = self.db_url or db.default_url()
        path = db.sqlite_path(url)
        if path is not None and not Path(path).is_file():
            raise TTRError(f"no SQLite database at {path} (give --db, or set TTR_DATABASE_URL)")
        try:
            self.engine = db.make_engine(url)
            self.service = GameService(self.engine, run_bots=False)
            self.service.check_database()
        except Exception as exc:  # noqa: BLE001 - an unreachable or foreign database: say so
            raise TTRError(f"cannot use the database {db.redact(url)}: {type(exc).__name__}: {str(exc)[:300]}") \
                from None
        return self.service

    def __exit__(self, kind, exc, tb):
        from ttr_server.errors import ServiceError

        self.service.close()
        self.engine.dispose()
        if isinstance(exc, ServiceError):
            raise TTRError(exc.reason) from None
        return False


@admin.command("list")
@_db_option
@click.option("--limit", type=click.IntRange(1, 100_000), default=50, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line instead of a table.")
def list_games(db_url, limit, as_json):
    """The most recently changed games, newest first."""
    with _Service(db_url) as service:
        games = service.list_games(limit)
    for g in games:
        if as_json:
            click.echo(json.dumps(g))
            continue
        state = g["ended"] or ("over" if g["over"] else g["phase"])
        seats = ", ".join(s["name"] + (f" ({s['bot']})" if s["bot"] else "") for s in g["seats"])
        click.echo(f"{g['game']}  {g['variant']} v{g['rules_version']}  {state:8}  {g['version']:5} actions  "
                   f"changed {g['updated_at']}  {seats}")
    if not as_json:
        click.echo(f"{len(games)} games")


@admin.command("abort")
@_db_option
@click.argument("game")
def abort(db_url, game):
    """End an unfinished GAME: it takes no more actions (its record stays)."""
    with _Service(db_url) as service:
        ended = service.end(game, "aborted")
    click.echo(f"{game}: aborted" if ended else f"{game}: already over or ended; nothing changed")


@admin.command("delete")
@_db_option
@click.argument("game")
@click.option("--yes", is_flag=True, help="Confirm: the game and its log are removed for good.")
def delete(db_url, game, yes):
    """Remove GAME and its action log for good."""
    if not yes:
        raise TTRError(f"deleting {game} cannot be undone: add --yes")
    with _Service(db_url) as service:
        service.delete(game)
    click.echo(f"{game}: deleted")


@admin.command("token")
@_db_option
@click.argument("game")
@click.argument("seat", type=click.IntRange(0))
def token(db_url, game, seat):
    """Issue a new token for a person's SEAT of GAME (a lost link); the old one stops working."""
    with _Service(db_url) as service:
        new = service.reissue_token(game, seat)
    click.echo(f"seat {seat} of {game}: token {new}")
    click.echo(f"link: /play/{game}#{new}")


@admin.command("backup")
@_db_option
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
def backup(db_url, out):
    """Back the database up to OUT while servers run: SQLite's online backup (never a plain file
    copy, which misses what is still in the write-ahead log), or pg_dump for PostgreSQL."""
    require_extra("serve", ("sqlalchemy",), "ttr admin backup")
    from ttr_server import db
    from ttr_server.backup import BackupError, backup as take

    try:
        click.echo(take(db_url or db.default_url(), out))
    except BackupError as exc:
        raise TTRError(str(exc)) from None
