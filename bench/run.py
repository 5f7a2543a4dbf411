"""ttr-engine benchmarks: ``python -m bench.run`` (``--quick`` for a short run).

Prints one table: full games per second and µs per action with bots, longest path, end-of-game
scoring with stations, replay speed and record size, memory per live game. Targets live here
and in the README, never as timing asserts in tests.

This machine kind is a shared VM: the same games vary by a third from run to run. Game and
replay figures are the fastest of 3 rounds of the same games (the least disturbed, as ``timeit``
takes its minimum), with the slowest round beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ttr_core import record, variant
from ttr_bots import bot_class, names as bot_names, play_game
from ttr_core.errors import TTRError
from ttr_core.network import longest_trail
from ttr_core.plugin import Plugin, hookimpl

try:
    from ttr_bots import ask
except ImportError:  # a baseline from before bots were handed a seat's view (e9672d8, say)
    def ask(bot, game, seat):
        return bot.choose(game, seat)

ROOT = Path(__file__).resolve().parents[1]
# The benchmark's inputs are part of the repository, so that any clone can run it.
DATA = Path(__file__).resolve().parent / "data"

GAME_CASES = [("usa", 2), ("usa", 4), ("europe", 4), ("wor", 6), ("ussr", 4)]
TARGETS = {("usa", 4): 60.0, ("europe", 4): 90.0}  # µs per action (issue: "per turn" = one player action)


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"


def bench_games(variant_id: str, players: int, games: int, bot: str, rounds: int) -> dict:
    try:
        rs = variant.load(variant_id)
    except TTRError:
        return {"case": f"{variant_id} {players}p {bot}", "note": "variant not available"}
    if bot not in bot_names():
        return {"case": f"{variant_id} {players}p {bot}", "note": f"no {bot} bot yet"}
    play_game(rs, players, 0, (bot,))  # the ruleset's first game builds what its games share
    actions = sum(len(play_game(rs, players, seed, (bot,)).log) for seed in range(games))
    times = []
    for _ in range(rounds):  # the same games again: the fastest round is the least disturbed one
        t0 = time.perf_counter()
        for seed in range(games):
            play_game(rs, players, seed, (bot,))
        times.append(time.perf_counter() - t0)
    dt = min(times)
    us = dt / actions * 1e6
    target = TARGETS.get((variant_id, players)) if bot == "random" else None
    return {
        "case": f"{variant_id} {players}p {bot}",
        "games/s": f"{games / dt:.1f}",
        "µs/action": f"{us:.0f}",
        "slowest round": f"{max(times) / actions * 1e6:.0f}",
        "actions/game": f"{actions / games:.0f}",
        "target": f"≤ {target:.0f} µs" if target else "",
        "met": "" if not target else ("yes" if us <= target else f"no ({us / target:.2f}×)"),
    }


class _HouseRule(Plugin):
    """A plugin from outside this package that changes nothing and does not declare itself
    deterministic: what it costs a game to have one (such games copy their state after each action
    that consults the plugin, here once per turn, see ``Game.apply``)."""

    @hookimpl
    def ttr_turn_ended(self, game):
        return None


class _DeterministicHouseRule(_HouseRule):
    """The same, declaring what a house rule usually is: deterministic (no copies)."""

    deterministic = True


def house_rule_variant(folder: Path, deterministic: bool) -> Path:
    """A variant file: usa and one of the house rules above (``local_plugins`` must offer it)."""
    name = "bench-house-rule-deterministic" if deterministic else "bench-house-rule"
    path = folder / f"usa-{name}.toml"
    path.write_text(f'id = "usa-{name}"\ntitle = "usa and a house rule"\nextends = "usa"\n'
                    f'[versions.1]\nadd_plugins = ["{name}"]\n', encoding="utf-8")
    return path


HOUSE_RULES = {"bench-house-rule": _HouseRule, "bench-house-rule-deterministic": _DeterministicHouseRule}


def bench_outside_plugin(games: int, rounds: int, deterministic: bool) -> dict:
    import tempfile

    from ttr_core.manager import local_plugins

    with tempfile.TemporaryDirectory() as tmp, local_plugins(HOUSE_RULES):
        path = house_rule_variant(Path(tmp), deterministic)
        variant.load(str(path))
        row = bench_games(str(path), 4, games, "random", rounds)
    row["case"] = f"usa 4p random, with a plugin from outside the package ({'' if deterministic else 'not '}deterministic)"
    return row


def bench_copies(rounds: int) -> list[dict]:
    """What a search bot pays to copy a mid-game position (usa 4p, 120 random-bot actions in)."""
    import timeit

    from ttr_core.game import Game

    rows = []
    for variant_id in ("usa", "europe"):
        game = Game(variant.load(variant_id), ["P1", "P2", "P3", "P4"], 5)
        bots = [bot_class("random")(5, s) for s in range(4)]
        for _ in range(120):
            seat = game.to_act()[0]
            game.apply(seat, ask(bots[seat], game, seat))
        rng = random.Random(1)
        for name, fn, n, target in (("clone()", game.clone, 5000, 50.0), ("determinize(seat, rng)", lambda: game.determinize(0, rng), 2000, None)):
            times = timeit.repeat(fn, number=n, repeat=max(rounds, 3))
            us = min(times) / n * 1e6
            rows.append({
                "case": f"{variant_id} 4p mid-game: {name}", "µs": f"{us:.1f}", "slowest round": f"{max(times) / n * 1e6:.1f}",
                "target": f"≤ {target:.0f} µs" if target and variant_id == "usa" else "",
                "met": ("yes" if us <= target else "no") if target and variant_id == "usa" else "",
            })
    return rows


def _edges(board, routes):
    return [(board.routes[r].ai, board.routes[r].bi, board.routes[r].length) for r in routes]


def random_network(board, rng: random.Random, cars: int = 45) -> list[int]:
    """A network a player could build: grown route by route from a random start, up to ``cars``."""
    by_city: dict[int, list[int]] = {}
    for r in board.routes:
        by_city.setdefault(r.ai, []).append(r.index)
        by_city.setdefault(r.bi, []).append(r.index)
    chosen: list[int] = []
    used = 0
    touched = {rng.randrange(len(board.cities))}
    for _ in range(200):
        frontier = [r for c in touched for r in by_city.get(c, []) if r not in chosen
                    and not any(p in chosen for p in board.routes[r].parallel)]
        if rng.random() < 0.15:  # players also build disconnected pieces
            frontier = [r.index for r in board.routes if r.index not in chosen]
        frontier = [r for r in frontier if used + board.routes[r].length <= cars]
        if not frontier:
            break
        r = rng.choice(frontier)
        chosen.append(r)
        used += board.routes[r].length
        touched |= {board.routes[r].ai, board.routes[r].bi}
    return chosen


def worst_network(board, rng: random.Random, tries: int = 300) -> tuple[float, list[int]]:
    """Search for the slowest network: short routes packed into one region make the most cycles."""
    worst = (0.0, [])
    for _ in range(tries):
        center = rng.randrange(len(board.cities))
        chosen, used, touched = [], 0, {center}
        while True:
            frontier = sorted(
                (r.index for r in board.routes if (r.ai in touched or r.bi in touched) and r.index not in chosen
                 and not any(p in chosen for p in r.parallel) and used + r.length <= 45),
                key=lambda i: (board.routes[i].length, rng.random()),
            )
            if not frontier:
                break
            pick = frontier[0] if rng.random() < 0.8 else rng.choice(frontier)
            chosen.append(pick)
            used += board.routes[pick].length
            touched |= {board.routes[pick].ai, board.routes[pick].bi}
        t = _time_once(_edges(board, chosen))
        if t > worst[0]:
            worst = (t, chosen)
    return worst


def _time_once(edges, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        longest_trail(edges)
        best = min(best, time.perf_counter() - t0)
    return best


def realistic_edges(board) -> list[tuple[int, int, int]]:
    """The realistic USA player network (bench/data), as (city, city, length) on ``board``."""
    data = json.loads((DATA / "longest-realistic-usa.json").read_text(encoding="utf-8"))
    return [(board.city_index[r["from"]], board.city_index[r["to"]], r["length"]) for r in data["routes"]]


def bench_longest(quick: bool) -> list[dict]:
    rows = []
    board = variant.load("usa").board
    edges = realistic_edges(board)
    times = [_time_once(edges, 1) for _ in range(200 if quick else 2000)]
    rows.append({"case": "realistic USA network (15 routes)", "median": _us(statistics.median(times)),
                 "p99": _us(_pct(times, 99)), "max": _us(max(times)), "target": "median ≤ 170 µs",
                 "met": "yes" if statistics.median(times) <= 170e-6 else "no", "value": longest_trail(edges)})
    for map_variant in ("usa", "europe", "ussr"):
        try:
            board = variant.load(map_variant).board
        except TTRError:
            continue
        rng = random.Random(7)
        nets = [random_network(board, rng) for _ in range(200 if quick else 1000)]
        times = [_time_once(_edges(board, n), 1) for n in nets]
        rows.append({"case": f"{board.id}: random networks ≤ 45 cars", "median": _us(statistics.median(times)),
                     "p99": _us(_pct(times, 99)), "max": _us(max(times)), "target": "p99 ≤ 1 ms",
                     "met": "yes" if _pct(times, 99) <= 1e-3 else "no"})
        worst, net = worst_network(board, rng, 60 if quick else 300)
        rows.append({"case": f"{board.id}: worst network found ({len(net)} routes)", "median": "", "p99": "",
                     "max": _us(worst), "target": "≤ 20 ms", "met": "yes" if worst <= 20e-3 else "no"})
    return rows


def station_position() -> dict:
    """4 players, 3 stations each in the busiest Europe cities, everything else claimed."""
    board = variant.load("europe").board
    degree = sorted(board.cities, key=lambda c: -sum(1 for r in board.routes if c.index in (r.ai, r.bi)))
    busiest = [c.name for c in degree[:12]]
    rng = random.Random(3)
    routes = list(board.routes)
    rng.shuffle(routes)
    players = [{"name": f"P{i + 1}", "routes": [], "tickets": [], "stations": busiest[3 * i: 3 * i + 3]} for i in range(4)]
    cars = [0] * 4
    owned: list[set[int]] = [set() for _ in range(4)]
    for r in routes:
        i = min(range(4), key=lambda k: cars[k])
        if cars[i] + r.length <= 45 and not owned[i] & set(r.parallel):  # both of a double: R-PAR-1
            players[i]["routes"].append(r.id)
            owned[i].add(r.index)
            cars[i] += r.length
    tickets = [t.id for t in board.tickets]
    for i, p in enumerate(players):
        p["tickets"] = tickets[i * 8: i * 8 + 8]
    return {"variant": "europe", "players": players}


def bench_station_scoring() -> list[dict]:
    """4 players, 3 stations each in the busiest Europe cities, everything else claimed."""
    try:
        from ttr_core.position import score_position
        from ttr_core.scoring import score_game
        data = station_position()
    except (TTRError, ImportError):
        return [{"case": "end-of-game scoring, 4p × 3 stations", "note": "europe/stations not available"}]
    game = score_position(data)  # also warms the variant cache: loading files is not scoring
    times = []
    for _ in range(50):
        t0 = time.perf_counter()
        score_game(game)  # what the end of a game runs: tickets with stations, bonuses, winners
        times.append(time.perf_counter() - t0)
    worst = max(times)
    whole = []
    for _ in range(20):
        t0 = time.perf_counter()
        score_position(data)
        whole.append(time.perf_counter() - t0)
    return [
        {"case": "end-of-game scoring, 4p × 3 stations (busiest cities)", "median": _us(statistics.median(times)),
         "max": _us(worst), "target": "≤ 5 ms", "met": "yes" if worst <= 5e-3 else "no"},
        {"case": "the same position through `ttr score` (checked, built, scored)",
         "median": _us(statistics.median(whole)), "max": _us(max(whole)), "target": "", "met": ""},
    ]


def bench_compare_rerun(games: int, rounds: int) -> dict:
    """The same ``ttr compare`` twice on one cache folder (in this process, workers=1): the
    re-run reads the games the first run played and only scores them under the second rule set."""
    import tempfile

    from ttr_analysis import compare
    from ttr_analysis.game_cache import GameCache
    from ttr_analysis.rescore import Target

    first, again, reused = [], [], 0
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as folder:
            cache = GameCache(Path(folder))
            for times in (first, again):
                t0 = time.perf_counter()
                c = compare.compare(Target("wor"), Target("wor-legacy"), games, 1, 4, ("ticket",), workers=1, cache=cache)
                times.append(time.perf_counter() - t0)
            reused = c.reused()
    ratio = min(first) / min(again)
    return {"case": f"ttr compare wor vs wor-legacy, {games} games of 4 ticket bots, run twice", "first run": f"{min(first):.2f} s",
            "re-run": f"{min(again):.3f} s ({reused} games reused)", "ratio": f"{ratio:.1f}×",
            "target": "re-run ≥ 5× faster", "met": "yes" if ratio >= 5 else "no"}


def bench_replay(games: int, rounds: int) -> dict:
    rs = variant.load("usa")
    recs = [record.make_record(play_game(rs, 4, seed)) for seed in range(games)]
    n = sum(len(r["actions"]) for r in recs)
    size = statistics.mean(len(record.dumps(r).encode()) for r in recs)
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for r in recs:
            record.replay(r)
        times.append(time.perf_counter() - t0)
    rate = n / min(times)
    return {"case": "replay usa 4p (digest, over and result checked)", "actions/s": f"{rate:,.0f}",
            "slowest round": f"{n / max(times):,.0f}", "bytes/game": f"{size:,.0f}",
            "target": "≥ 50,000 actions/s", "met": "yes" if rate >= 50_000 else f"no ({50_000 / rate:.1f}×)"}


def bench_replay_files(count: int) -> dict:
    """``ttr replay FOLDER`` (one process, start-up included) against the same records replayed and
    checked in this process: what many files cost beyond the replays themselves."""
    import shutil
    import tempfile

    rs = variant.load("usa")
    folder = Path(tempfile.mkdtemp(prefix="ttr-bench-records-"))
    try:
        for seed in range(count):
            record.save(play_game(rs, 4, seed), folder / f"{seed:05d}.json")
        t0 = time.perf_counter()
        for path in sorted(folder.glob("*.json")):
            data = record.load(path)
            assert record.dumps(record.make_record(record.replay(data, str(path)))) == record.dumps(data)
        inside = time.perf_counter() - t0
        ttr = str(Path(sys.executable).with_name("ttr")) if Path(sys.executable).with_name("ttr").exists() else "ttr"
        t0 = time.perf_counter()
        done = subprocess.run([ttr, "replay", str(folder), "--json"], capture_output=True, text=True)
        command = time.perf_counter() - t0
        ok = done.returncode == 0 and json.loads(done.stdout)["reproduced"] == count
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    ratio = command / inside
    return {"case": f"ttr replay of a folder of {count:,} usa 4p records, one process", "in this process": f"{inside:.2f} s",
            "ttr replay": f"{command:.2f} s" + ("" if ok else " (FAILED)"), "ratio": f"{ratio:.2f}×",
            "target": "≤ 1.5×", "met": "yes" if ok and ratio <= 1.5 else "no"}


def memory_per_game() -> tuple[float, float]:
    """Bytes per live usa 4p game after 100 actions, and bytes of what a ruleset's games share."""
    from ttr_core.game import Game

    variant.clear_caches()
    rs = variant.load("usa")
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    kept = [Game(rs, ["A", "B", "C", "D"], 0)]  # builds what every game of the ruleset shares
    shared = _grown(before)
    before = tracemalloc.take_snapshot()
    games = []
    for seed in range(20):
        g = Game(rs, ["A", "B", "C", "D"], seed)
        bot_rng = random.Random(seed)
        while not g.over and len(g.log) < 100:
            seat = g.to_act()[0]
            g.apply(seat, bot_rng.choice(g.legal_actions(seat)))
        games.append(g)
    per_game = _grown(before) / len(games)
    tracemalloc.stop()
    kept.clear()
    return per_game, shared


def bench_memory() -> list[dict]:
    per_game, shared = memory_per_game()
    return [
        {"case": "memory per live game (usa 4p, after 100 actions)", "bytes": f"{per_game / 1024:,.0f} KB",
         "target": "≤ 200 KB", "met": "yes" if per_game <= 200 * 1024 else "no"},
        {"case": "a ruleset's first game, new (with what its games share: plugins, hooks, registry)",
         "bytes": f"{shared / 1024:,.0f} KB", "target": "", "met": ""},
    ]


def bench_env(games: int, rounds: int) -> list[dict]:
    from bench.env_steps import env_step_times

    rows = []
    for variant_id, players in (("usa", 4), ("europe", 4)):
        runs = [env_step_times(variant_id, players, games) for _ in range(rounds)]
        engine = min(r["engine_seconds"] / r["engine_actions"] for r in runs)
        step = min(r["env_seconds"] / r["env_steps"] for r in runs)
        rows.append({"case": f"{variant_id} {players}p, random agents, AEC step", "engine action": _us(engine),
                     "env step": _us(step), "overhead": _us(step - engine), "step / action": f"{step / engine:.2f}×",
                     "note": f"{games} games, fastest of {rounds}"})
    return rows


def _grown(before) -> int:
    return sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(before, "filename"))


def _reference_loop() -> tuple[float, float]:
    """A fixed pure-Python loop, fastest and slowest of 5: how fast this machine is right now, so
    that runs made at different times (or on different machines) can be compared."""
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        x = 0
        for i in range(1_000_000):
            x += i
        times.append(time.perf_counter() - t0)
    return min(times), max(times)


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:,.0f} µs"


def _pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))]


def _table(title: str, rows: list[dict]) -> Table:
    cols: list[str] = []
    for r in rows:
        cols += [k for k in r if k not in cols]
    t = Table(title=title)
    for c in cols:
        t.add_column(c, justify="left" if c in ("case", "note") else "right")
    for r in rows:
        t.add_row(*(str(r.get(c, "")) for c in cols))
    return t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="fewer games and networks (about a minute)")
    ap.add_argument("--baseline", metavar="COMMIT",
                    help="run the targets' cases side by side with COMMIT (installed once into build/bench-baselines/)")
    ap.add_argument("--rounds", type=int, default=None, help="interleaved rounds with --baseline (default 5, 1 with --quick)")
    ap.add_argument("--markdown", action="store_true", help="with --baseline: also print the table as Markdown (the README's)")
    ap.add_argument("--only", metavar="TEXT",
                    help="with --baseline: only the cases whose name contains TEXT (e.g. 'random bots')")
    args = ap.parse_args()
    if args.baseline:
        return main_baseline(args)
    games = 10 if args.quick else 100
    rounds = 1 if args.quick else 3
    con = Console(width=160)
    con.print(f"ttr-engine benchmarks — commit {_commit()}, Python {platform.python_version()}, "
              f"{platform.machine()} {platform.processor() or ''}, {_cpus()} cores, {time.strftime('%Y-%m-%d')}")
    fast, slow = _reference_loop()
    con.print(f"reference loop (1,000,000 additions in Python): {fast * 1e3:.0f} ms fastest of 5, {slow * 1e3:.0f} ms slowest")
    con.print(_table("Full games, random bots, 1 process", [bench_games(v, p, games, "random", rounds) for v, p in GAME_CASES]
                           + [bench_outside_plugin(games, rounds, d) for d in (True, False)]))
    con.print(_table("Full games, ticket-seeking bots", [bench_games(v, p, max(games // 5, 4), "ticket", rounds) for v, p in GAME_CASES]))
    con.print(_table("Longest path", bench_longest(args.quick)))
    con.print(_table("End-of-game scoring with stations", bench_station_scoring()))
    con.print(_table("Re-running a comparison (played games kept between runs)", [bench_compare_rerun(max(games // 5, 4), rounds)]))
    con.print(_table("Replay and records", [bench_replay(games // 2 or 5, rounds)]))
    con.print(_table("Replaying many record files", [bench_replay_files(100 if args.quick else 1000)]))
    con.print(_table("Memory", bench_memory()))
    con.print(_table("Copies for search bots", bench_copies(rounds)))
    try:
        con.print(_table("The environment (ttr_env): an AEC step against an engine action", bench_env(max(games // 10, 4), rounds)))
    except ImportError as exc:
        con.print(f"the environment: not measured ({exc})")


def main_baseline(args) -> None:
    from bench import baseline

    con = Console(width=200)
    rounds = args.rounds or (1 if args.quick else 5)
    fast, slow = _reference_loop()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    rows, facts = baseline.compare_with(args.baseline, rounds, args.quick, say=con.print, only=args.only)
    header = (f"ttr-engine {_commit()} (this tree) against {facts['baseline']}, side by side: {rounds} interleaved round(s), "
              f"fastest of each; {time.strftime('%Y-%m-%d %H:%M %Z')}, Python {platform.python_version()}, "
              f"{platform.machine()}, {_cpus()} cores; reference loop {fast * 1e3:.0f} ms (slowest {slow * 1e3:.0f}); "
              f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after")
    con.print(header)
    con.print(_table("This tree against the baseline (ratio: baseline ÷ this tree for times; above 1 is faster now)", rows))
    if args.markdown:
        cols = ["case", "this tree", "baseline", "ratio", "target", "met"]
        print("\n" + header + "\n")
        print("| " + " | ".join(c if c != "baseline" else f"baseline {facts['baseline']}" for c in cols) + " |")
        print("|" + "---|" * len(cols))
        for r in rows:
            print("| " + " | ".join(str(r.get(c, "")).replace("|", "\\|") for c in cols) + " |")


def _cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


if __name__ == "__main__":
    sys.exit(main())
