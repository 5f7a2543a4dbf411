"""``ttr serve``: the game server (``ttr_server``), registered into the ``ttr`` command line.

The server's libraries come with the ``serve`` extra; without them the command says how to get
them instead of failing on an import.
"""

from __future__ import annotations

import errno
import socket
import sys

import click

from ttr_cli.failures import PORT_IN_USE, Failure
from ttr_cli.preflight import MissingExtra, require_extra
from ttr_core.errors import TTRError

#: what ``ttr serve`` imports from the ``serve`` extra (psycopg only for PostgreSQL: checked on use)
SERVE = ("uvicorn", "fastapi", "starlette", "sqlalchemy", "alembic")


def check_address(host: str, port: int) -> None:
    """The server can listen on ``host:port``: else exit code 3 if something listens there, or
    bad input (2) for an address this machine does not have. Checked by binding it as uvicorn will
    (``SO_REUSEADDR``), then letting it go."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise Failure([f"--port {port}: {host}:{port} is in use already (another ttr serve?): "
                               "give another --port, or stop what listens there"], PORT_IN_USE, "port-in-use") from None
            raise TTRError(f"--host {host}: cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def register(main: click.Group) -> None:
    from ttr_cli.main import guarded  # the cli module is loading us: import what it has defined

    serve.callback = guarded(serve.callback)
    main.add_command(serve)


@click.command()
@click.option("--db", "db_url", default=None, metavar="URL", envvar="TTR_DATABASE_URL", show_envvar=True,
              help="Database URL: sqlite:///FILE (the default is ./ttr-games.sqlite3) or postgresql://user:pw@host/db "
                   "for several server processes behind a load balancer. Prefer the environment variable for a "
                   "URL with a password (the command line shows in `ps`).")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option("--bot-delay", type=click.FloatRange(0, 60), default=0.5, show_default=True,
              help="Seconds between two bot actions, so that people can follow them.")
@click.option("--log-level", type=click.Choice(["critical", "error", "warning", "info", "debug"]), default="info",
              show_default=True)
@click.option("--allow-seed", is_flag=True,
              help="Take a seed chosen by the client when a game is created (for tests and tournaments: whoever "
                   "knows the seed knows every hand). Off by default: such a request is refused (403).")
@click.option("--forwarded-allow-ips", default=None, metavar="IPS",
              help="Behind a reverse proxy: the proxy's addresses (comma-separated, or *), whose X-Forwarded-For "
                   "names the client that the per-client limits count (default: 127.0.0.1, uvicorn's).")
@click.option("--games-per-minute", type=click.IntRange(0), default=20, show_default=True,
              help="Games one client address may create per minute (429 beyond).")
@click.option("--streams-per-client", type=click.IntRange(0), default=16, show_default=True,
              help="Event streams one client address may hold open (429 beyond).")
@click.option("--streams-per-game", type=click.IntRange(0), default=200, show_default=True,
              help="Event streams open on one game (429 beyond).")
@click.option("--max-bot-games", type=click.IntRange(0), default=4, show_default=True,
              help="Unfinished games without a person at once (429 beyond); 0 requires a person in every game.")
@click.option("--expire-after", type=click.FloatRange(0), default=7 * 24.0, show_default=True, metavar="HOURS",
              help="An unfinished game with no move for this long ends (expired) and its bots are released.")
@click.option("--max-headers", type=click.IntRange(1, 1000), default=64, show_default=True,
              help="Header fields in a request (431 beyond).")
@click.option("--max-header-bytes", type=click.IntRange(1024, 1024 * 1024), default=8 * 1024, show_default=True,
              help="Size of a request's line and headers together (400 and closed beyond).")
@click.option("--request-timeout", type=click.FloatRange(0), default=10.0, show_default=True, metavar="SECONDS",
              help="A request's headers and body must arrive within this (slow senders are cut off).")
@click.option("--idle-timeout", type=click.FloatRange(0.1), default=5.0, show_default=True, metavar="SECONDS",
              help="A kept-alive connection is closed after this long without a request.")
@click.option("--connections-per-client", type=click.IntRange(0), default=64, show_default=True,
              help="Connections open at once from one address (closed at once beyond); 0 behind a reverse proxy, "
                   "where every connection comes from the proxy.")
@click.option("--max-connections", type=click.IntRange(0), default=None,
              help="Connections open at once (503 and closed beyond). Default: what the process's file limit "
                   "allows, after raising its soft limit to the hard one, less descriptors kept for the "
                   "database, files and logs.")
@click.option("--stream-poll", type=click.FloatRange(0.05, 600), default=1.0, show_default=True, metavar="SECONDS",
              help="How often an event stream looks at the stored game besides being woken by changes (on "
                   "PostgreSQL every process hears every change at once; this bounds how late one is seen if a "
                   "notification is lost).")
@click.option("--http", "parser", type=click.Choice(["auto", "httptools", "h11"]), default="auto", show_default=True,
              help="The HTTP parser: httptools (faster; auto picks it where it is installed) or h11.")
def serve(db_url, host, port, bot_delay, log_level, allow_seed, forwarded_allow_ips, games_per_minute,
          streams_per_client, streams_per_game, max_bot_games, expire_after, max_headers, max_header_bytes,
          request_timeout, idle_timeout, connections_per_client, max_connections, stream_poll, parser):
    """Serve games over HTTP: the API (/api/docs) and a page to play in (/).

    Exit code 3 when the address is in use already (another server listens there)."""
    require_extra("serve", SERVE, "ttr serve")
    check_address(host, port)  # before the database is opened or made
    if db_url and db_url.startswith("postgres"):
        require_extra("serve", ("psycopg",), "ttr serve with PostgreSQL")
    try:
        import uvicorn

        from ttr_server import db
        from ttr_server.app import Settings, create_app
        from ttr_server.connections import ConnectionLimits, connections_for, raise_file_limit, uvicorn_options
    except ImportError as exc:  # something the extra brings that the list above misses
        raise MissingExtra(f"ttr serve needs the 'serve' extra ({exc.name or exc} cannot be imported): "
                           'pip install "ttr-engine[serve]"') from None
    settings = Settings(
        db_url=db_url or db.default_url(), bot_delay=bot_delay, allow_seed=allow_seed,
        games_per_minute=games_per_minute, streams_per_client=streams_per_client, streams_per_game=streams_per_game,
        max_bot_games=max_bot_games, expire_after=expire_after * 3600, max_headers=max_headers, poll=stream_poll,
    )
    file_limit = raise_file_limit()
    if max_connections is None:
        max_connections = connections_for(file_limit)
    limits = ConnectionLimits(max_header_bytes=max_header_bytes, request_timeout=request_timeout,
                              idle_timeout=idle_timeout, per_client=connections_per_client,
                              max_connections=max_connections)
    try:
        app = create_app(settings)
    except Exception as exc:  # noqa: BLE001 - a bad URL or an unreachable database: say so, exit 2
        click.echo(f"error: cannot open the database {db.redact(settings.db_url)}: {type(exc).__name__}: "
                   f"{str(exc)[:500]}", err=True)
        sys.exit(2)
    click.echo(f"ttr serve: http://{host}:{port}/ (database: {db.redact(settings.db_url)}; "
               f"at most {max_connections} connections, {file_limit} open files)")
    proxy = {"proxy_headers": True, "forwarded_allow_ips": forwarded_allow_ips} if forwarded_allow_ips else {}
    # timeout_graceful_shutdown: event streams stay open until the client leaves; on a stop they
    # are cut after a few seconds instead of holding the shutdown.
    uvicorn.run(app, host=host, port=port, log_level=log_level, timeout_graceful_shutdown=3,
                **uvicorn_options(limits, parser), **proxy)
