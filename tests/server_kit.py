"""Helpers for the game server's tests (imported by them and by ``conftest.py``): running a server
process, a PostgreSQL server, and the rule for missing system pieces.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
ARTIFACTS = HERE / "apps" / "server" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


def need(what: str, available: bool) -> None:
    """Skip (developer machine) or fail (CI) when a system piece is missing."""
    if available:
        return
    reason = f"{what} is not installed (python tools/ensure_test_services.py installs it, as root)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI: {reason}", pytrace=False)
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]




def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def get_json(base: str, path: str, token: str | None = None):
    """GET ``base + path`` as a browser's script would (with the seat's token if given): the JSON."""
    req = urllib.request.Request(base + path, headers=bearer(token) if token else {})
    with urllib.request.urlopen(req) as r:
        return json.load(r)


def post_json(base: str, path: str, body, token: str | None = None):
    """POST ``body`` as JSON to ``base + path``: the JSON answered."""
    headers = {"Content-Type": "application/json", **(bearer(token) if token else {})}
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req) as r:
        return json.load(r)


HURRY = ("claim-route", "pay-tunnel", "draw-card", "keep-tickets", "draw-tickets")


def wait_in_page(page, js: str, arg=None, timeout: float = 30.0) -> None:
    """Poll ``js`` (a function of ``arg``) in a browser page until it is true. Playwright's
    ``wait_for_function`` evaluates its later polls with eval, which the page's policy
    (script-src 'self') refuses, so it fails whenever the first poll is false; page.evaluate does not."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if page.evaluate(js, arg):
            return
        time.sleep(0.05)
    raise AssertionError(f"the page never got to: {js} ({arg})")


def hurried_choice(legal: list[dict]) -> dict:
    """A player in a hurry, from a seat's legal actions over the API: claims whenever it can, else
    draws; keeps the most tickets (games reach their end quickly)."""
    for kind in HURRY:
        options = [a for a in legal if a["kind"] == kind]
        if kind == "keep-tickets" and options:
            return max(options, key=lambda a: len(a["tickets"]))
        if options:
            return options[0]
    return legal[0]


def tunnel_opening(tries: int = 300) -> tuple[int, dict]:
    """A seed of a two-player ``europe`` game in which seat 0's first turn can be a tunnel claim that
    turns up extra cards (the deck's order depends on the seed alone), with that claim as record data."""
    from ttr_kit import testing

    for seed in range(tries):
        game = testing.new_game("europe", 2, seed)
        for seat in (0, 1):
            game.apply(seat, max(game.legal_actions(seat), key=lambda a: len(a.tickets)))
        for claim in game.legal_actions(0):
            if claim.kind != "claim-route" or not game.board.routes[game.board.route_index[claim.route]].tunnel:
                continue
            trial = testing.new_game("europe", 2, seed)
            for seat, action in game.log:
                trial.apply(seat, action)
            trial.apply(0, claim)
            decision = trial.state.players[0].decision
            if decision is not None and decision.kind == "tunnel-extra" and decision.extra >= 1:
                return seed, game.registry.to_data(claim)
    pytest.fail("no seed opens with a tunnel that asks for extra cards")


# --- a server process --------------------------------------------------------------------------


def python_command() -> list[str]:
    """How the tests start Python for a server: this interpreter, so the installed package it sees."""
    return [sys.executable]


def work_dir(under: Path, name: str) -> Path:
    """A fresh working directory for a server process, outside the repository: Python puts the
    working directory first on ``sys.path``, so run from the repository the server would import
    ``ttr_cli`` and ``ttr_server`` from the source tree instead of the installed package."""
    folder = under / name
    folder.mkdir()
    return folder


@dataclass
class Server:
    base: str
    proc: subprocess.Popen
    log: Path
    cwd: Path

    def kill(self) -> None:
        """SIGKILL: no shutdown of any kind, as when a machine or a container dies."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


#: what the suite's servers allow beyond the defaults: seeded games, and as many games, bot-only
#: games and connections from the one test client as a test makes (the limits have their own tests)
TEST_SETTINGS = {"allow_seed": True, "games_per_minute": 0, "max_bot_games": 1000}
TEST_OPTIONS = ("--allow-seed", "--games-per-minute", "0", "--max-bot-games", "1000", "--connections-per-client", "0")


@contextlib.contextmanager
def server_process(db_url: str, log_dir: Path, bot_delay: float = 0.0, options=TEST_OPTIONS,
                   preexec_fn=None, *, up_within: float = 60.0, poll: float = 0.1) -> Iterator[Server]:
    """A ``ttr serve`` process on ``db_url``, yielded once its health check answers ok (within
    ``up_within`` seconds, looked at every ``poll`` seconds); stopped at the end of the block."""
    port = free_port()
    log = log_dir / f"server-{port}.log"
    cwd = work_dir(log_dir, f"server-{port}")
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*python_command(), "-m", "ttr_cli.main", "serve", "--db", db_url, "--host", "127.0.0.1",
             "--port", str(port), "--bot-delay", str(bot_delay), "--log-level", "warning", *options],
            stdout=out, stderr=subprocess.STDOUT, cwd=cwd, preexec_fn=preexec_fn,
        )
    server = Server(f"http://127.0.0.1:{port}", proc, log, cwd)
    try:
        deadline = time.monotonic() + up_within
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited with {proc.returncode}:\n{log.read_text()}")
            try:
                with urllib.request.urlopen(server.base + "/api/health", timeout=2) as r:
                    if json.load(r)["ok"]:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not come up in {up_within:.0f} s:\n{log.read_text()}")
            time.sleep(poll)
        yield server
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


# --- PostgreSQL ----------------------------------------------------------------------------------


def _pg_bin() -> Path | None:
    for candidate in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (candidate / "initdb").exists() and (candidate / "pg_ctl").exists():
            return candidate
    found = shutil.which("pg_ctl")
    return Path(found).parent if found and (Path(found).parent / "initdb").exists() else None


@dataclass
class Postgres:
    port: int
    admin_url: str
    _made: int = 0

    def new_database(self) -> str:
        """A fresh empty database on this server; its URL."""
        import psycopg

        self._made += 1
        name = f"ttr_test_{os.getpid()}_{self._made}"
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"




@contextlib.contextmanager
def postgres_server() -> Iterator[Postgres]:
    """A real PostgreSQL server (Debian's), in a temporary folder, on a loopback port."""
    bindir = _pg_bin()
    need("PostgreSQL (Debian package postgresql)", bindir is not None)
    base = Path(tempfile.mkdtemp(prefix="ttr-pg-"))
    data = base / "data"
    as_owner: list[str] = []
    if os.geteuid() == 0:
        # PostgreSQL refuses to run as root: the cluster belongs to the postgres user.
        shutil.chown(base, "postgres", "postgres")
        as_owner = ["runuser", "-u", "postgres", "--"]
    port = free_port()

    def run(*cmd: str) -> None:
        done = subprocess.run([*as_owner, *cmd], capture_output=True, text=True, cwd=base)
        if done.returncode:
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")

    try:
        run(str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
        # fsync stays on (the default): the SIGKILL test is about acknowledged commits.
        run(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(base / "server.log"), "-w", "-t", "60", "start",
            "-o", f"-c listen_addresses=127.0.0.1 -p {port} -k {base} -c max_connections=200")
        yield Postgres(port, f"postgresql://postgres@127.0.0.1:{port}/postgres")
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run([*as_owner, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                           capture_output=True, cwd=base)
        shutil.rmtree(base, ignore_errors=True)


# --- checking what the database holds ----------------------------------------------------------


def check_stored(db_url: str, games, acks) -> int:
    """Every game's stored record replays to its stored state (digest), byte for byte, and holds
    every acknowledged action at the place it was acknowledged. Returns the actions checked."""
    from collections import defaultdict

    from ttr_core import record
    from ttr_server import db
    from ttr_server.service import GameService

    engine = db.make_engine(db_url)
    service = GameService(engine, run_bots=False)
    by_game = defaultdict(list)
    for ack in acks:
        by_game[ack.game].append(ack)
    checked = 0
    try:
        for gid in games:
            stored = service.stored_record(gid)
            replayed = record.replay(stored, where=gid)  # raises if the log does not reach the stored digest
            assert record.dumps(record.make_record(replayed)) == record.dumps(stored), gid
            for ack in by_game[gid]:
                assert len(stored["actions"]) >= ack.version, f"{gid}: acknowledged action {ack.version} is lost"
                assert stored["actions"][ack.version - 1] == {"seat": ack.seat, **ack.action}, (gid, ack)
                checked += 1
    finally:
        engine.dispose()
    return checked


# --- migrations ----------------------------------------------------------------------------------

_MIGRATION = '''"""{doc}"""
from alembic import op
{imports}
revision = "9001"
down_revision = {head!r}
branch_labels = None
depends_on = None


def upgrade():
{body}


def downgrade():
    pass
'''


def migrations_head(scripts: str | Path | None = None) -> str:
    """The head revision of the migrations at ``scripts`` (the server's own by default)."""
    from importlib.resources import files

    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(scripts or files("ttr_server") / "migrations"))
    return ScriptDirectory.from_config(cfg).get_current_head()


def with_migration(folder: Path, doc: str, upgrade: str, imports: str = "") -> Path:
    """A copy of the server's migrations in ``folder``, with one more after their head (revision
    9001): ``doc`` its docstring, ``upgrade`` the source of its ``upgrade()``'s body, after ``imports``."""
    from importlib.resources import files

    import textwrap

    shutil.copytree(files("ttr_server") / "migrations", folder, ignore=shutil.ignore_patterns("__pycache__"))
    body = textwrap.indent(textwrap.dedent(upgrade).strip(), "    ")
    (folder / "versions" / "9001_test.py").write_text(
        _MIGRATION.format(doc=doc, imports=imports, head=migrations_head(), body=body), encoding="utf-8")
    return folder
