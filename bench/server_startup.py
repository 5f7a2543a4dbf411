"""How long a restart of ``ttr serve`` keeps its games away: ``python -m bench.server_startup``
(needs the ``serve`` extra).

Starts the server, as an operating-system process with its default settings, on an empty
database and on one holding 10,000 finished and 200 live games, in turn, several rounds, and
prints for each the median time from the process's start to the first health check answered 200,
and their ratio (the target: the populated database ready within 2× the empty one's time). Beside
it, the first read of a live game once ready: live games are loaded (their logs replayed) when
first used, not at start, so that read pays for one replay.

The populated database is made quickly, by inserting rows: the action logs of a few seeded games
played here, copied under new ids. A quarter of the live games wait for a bot, which the server
resumes in the background after start. ``--postgres URL`` (a server's admin URL) measures on two
new PostgreSQL databases instead of SQLite files. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone
from pathlib import Path

import attrs
import sqlalchemy as sa

from ttr_bots import ask, bot_class
from ttr_core import record, variant
from ttr_core.game import Game
from ttr_core.state import digest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from server_kit import server_process  # noqa: E402 - the suite's server process, as bench/server_capacity.py

BOT = "ticket"
# (variant, players, seed, actions): None plays to the end
FINISHED = [("usa", 2, 1, None), ("usa", 4, 2, None), ("europe", 3, 3, None), ("europe", 5, 4, None)]
LIVE = [("usa", 3, 5, 40), ("usa", 4, 6, 90), ("europe", 4, 7, 60), ("europe", 2, 8, 30)]


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True).stdout.strip()
    except OSError:
        return "?"


# --- the populated database -----------------------------------------------------------------------


def _played(variant_id: str, players: int, seed: int, actions: int | None) -> Game:
    game = Game(variant.load(variant_id), [f"P{i + 1}" for i in range(players)], seed)
    bots = [bot_class("random")(seed, seat) for seat in range(players)]
    while not game.over and (actions is None or len(game.log) < actions):
        seat = game.to_act()[0]
        game.apply(seat, ask(bots[seat], game, seat))
    return game


def _template(game: Game, bot_to_act: bool) -> tuple[dict, list[tuple[int, str]]]:
    """A games row (without its id and times) and the log of ``game``; the seats are people but
    one bot, which is the seat to act when ``bot_to_act`` and the next seat otherwise."""
    to_act = game.to_act()
    players = len(game.state.players)
    acting = to_act[0] if to_act else 0
    bot_seat = acting if bot_to_act else (acting + 1) % players
    seats = [{"name": f"P{s + 1}", "bot": BOT if s == bot_seat else None,
              "token_hash": None if s == bot_seat else f"{s:064x}"} for s in range(players)]
    rec = record.make_record(game)
    row = {"variant": rec["variant"], "rules_version": rec["version"], "seed": rec["seed"], "seats": json.dumps(seats),
           "version": len(game.log), "digest": digest(game.dump()), "phase": game.state.phase,
           "to_act": json.dumps(to_act), "bot_turn": bot_seat in to_act, "over": game.over,
           "result": json.dumps(rec["result"]) if game.over else None, "ended": None,
           "people_playing": players - 1}
    log = [(seat, json.dumps(game.registry.to_data(action), separators=(",", ":"))) for seat, action in game.log]
    return row, log


def populate(url: str, finished: int, live: int) -> None:
    from ttr_server import db

    done = [_template(_played(*case), False) for case in FINISHED]
    going = [_template(_played(*case), bot) for case in LIVE for bot in (True, False, False, False)]
    templates = done + going
    long_ago = datetime.now(timezone.utc) - timedelta(days=30)
    recently = datetime.now(timezone.utc) - timedelta(minutes=5)
    games = [(f"done{k:05d}", k % len(done), long_ago) for k in range(finished)]
    games += [(f"live{k:05d}", len(done) + k % len(going), recently) for k in range(live)]
    # The logs are copied by the database itself (INSERT ... SELECT from the templates' logs), not
    # sent row by row: millions of rows would take minutes through the driver.
    scratch = sa.MetaData()
    logs = sa.Table("bench_logs", scratch, sa.Column("template", sa.Integer), sa.Column("n", sa.Integer),
                    sa.Column("seat", sa.Integer), sa.Column("data", sa.Text))
    copies = sa.Table("bench_copies", scratch, sa.Column("game_id", sa.String(40)), sa.Column("template", sa.Integer),
                      sa.Column("at", sa.DateTime(timezone=True)))
    engine = db.make_engine(url)
    db.migrate(engine)
    try:
        with engine.begin() as conn:
            scratch.create_all(conn)
            conn.execute(sa.insert(db.games), [{"id": gid, **templates[t][0], "created_at": at, "updated_at": at}
                                               for gid, t, at in games])
            conn.execute(sa.insert(logs), [{"template": t, "n": n, "seat": seat, "data": data}
                                           for t, (_, log) in enumerate(templates)
                                           for n, (seat, data) in enumerate(log, 1)])
            conn.execute(sa.insert(copies), [{"game_id": gid, "template": t, "at": at} for gid, t, at in games])
            conn.execute(sa.insert(db.actions).from_select(
                ["game_id", "n", "seat", "data", "created_at"],
                sa.select(copies.c.game_id, logs.c.n, logs.c.seat, logs.c.data, copies.c.at)
                .join(logs, logs.c.template == copies.c.template)))
            scratch.drop_all(conn)
    finally:
        engine.dispose()


# --- a server's start -----------------------------------------------------------------------------


def _get(base: str, path: str) -> int:
    try:
        with urllib.request.urlopen(base + path, timeout=5) as r:
            r.read()
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code


def _cpu_seconds(pid: int) -> float:
    """The processor time a process has used so far (Linux), which on a shared machine varies
    less than the time on the clock."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


@attrs.frozen
class Start:
    ready: float  # seconds from the process's start to its first health 200
    cpu: float  # processor seconds the server had used by then
    first_read: float | None  # milliseconds of the first read of a live game, once ready


def start(url: str, cwd: Path, first_read: str | None) -> Start:
    """Start ``ttr serve`` on ``url`` (its default settings) and time it to its first health 200;
    then the first read of the game ``first_read``, unless None."""
    t0 = time.perf_counter()
    with server_process(url, cwd, bot_delay=0.5, options=(), up_within=300.0, poll=0.01) as server:
        ready = time.perf_counter() - t0
        cpu = _cpu_seconds(server.proc.pid)
        read_ms = None
        if first_read is not None:
            t = time.perf_counter()
            status = _get(server.base, f"/api/games/{first_read}")
            read_ms = (time.perf_counter() - t) * 1000
            assert status == 200, status
        return Start(ready, cpu, read_ms)


def _databases(tmp: Path, postgres: str | None) -> tuple[str, str]:
    if postgres is None:
        return f"sqlite:///{tmp / 'empty.sqlite3'}", f"sqlite:///{tmp / 'populated.sqlite3'}"
    import psycopg

    stamp = int(time.time())
    urls = []
    with psycopg.connect(postgres, autocommit=True) as conn:
        for what in ("empty", "populated"):
            name = f"ttr_bench_{what}_{stamp}"
            conn.execute(f'CREATE DATABASE "{name}"')
            urls.append(postgres.rsplit("/", 1)[0] + f"/{name}")
    return urls[0], urls[1]


def measure(args: argparse.Namespace, tmp: Path, empty: str, populated: str) -> None:
    t = time.perf_counter()
    populate(populated, args.finished, args.live)
    made = time.perf_counter() - t
    start(empty, tmp, None)  # the first start of all migrates the empty database: not measured
    starts: dict[str, list[Start]] = {"empty": [], "populated": []}
    for _ in range(args.rounds):
        starts["empty"].append(start(empty, tmp, None))
        starts["populated"].append(start(populated, tmp, "live00001"))  # waits for a person: not resumed
    backend = "PostgreSQL" if args.postgres else "SQLite"
    print(f"ttr serve start-up, {backend}: commit {_commit()}, {time.strftime('%Y-%m-%d %H:%M %Z')}, "
          f"Python {platform.python_version()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; "
          f"{args.rounds} rounds in turn (the populated database made in {made:.0f} s)")
    median = {what: (statistics.median(s.ready for s in runs), statistics.median(s.cpu for s in runs))
              for what, runs in starts.items()}
    for what, label in (("empty", "empty database"), ("populated", f"{args.finished:,} finished + {args.live} live")):
        runs = starts[what]
        print(f"  {label:<28} ready in {median[what][0]:5.2f} s ({min(s.ready for s in runs):.2f}-"
              f"{max(s.ready for s in runs):.2f}), {median[what][1]:.2f} s of processor time (medians)")
    first = statistics.median(s.first_read for s in starts["populated"])
    ratio, cpu_ratio = (median["populated"][k] / median["empty"][k] for k in (0, 1))
    print(f"  ratio {ratio:.2f}× on the clock, {cpu_ratio:.2f}× in processor time (target ≤ 2×: "
          f"{'met' if ratio <= 2 else 'NOT met'}); first read of a live game once ready {first:.0f} ms")


def _drop(admin: str, *urls: str) -> None:
    import psycopg

    with psycopg.connect(admin, autocommit=True) as conn:
        for url in urls:
            conn.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}"')


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--finished", type=int, default=10_000, help="finished games in the populated database")
    parser.add_argument("--live", type=int, default=200, help="live games in the populated database")
    parser.add_argument("--rounds", type=int, default=5, help="starts of each, in turn")
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL server's admin URL: measure there")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="ttr-startup-") as folder:
        tmp = Path(folder)
        empty, populated = _databases(tmp, args.postgres)
        try:
            measure(args, tmp, empty, populated)
        finally:
            if args.postgres:
                _drop(args.postgres, empty, populated)


if __name__ == "__main__":
    main()
