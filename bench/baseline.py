"""This tree against an earlier commit, side by side: ``python -m bench.run --baseline COMMIT``.

The earlier commit is installed once, non-editable, into its own virtual environment under
``build/bench-baselines/<commit>/`` (ignored by git; delete it to rebuild): ``git archive`` of
the commit, ``python -m venv``, ``pip install`` (so the first run needs what ``pip install .``
needs: the package index or a wheelhouse).

Both engines then run the same cases, this tree's ``bench`` code, in two child processes: this
interpreter and the baseline's. Each child runs with its working folder set to a temporary copy
of the ``bench`` package and nothing else: ``python -m`` puts the working folder first on
``sys.path``, so run from a checkout, the baseline's child would import this checkout's
``ttr_core`` instead of its own. Each child says which ``ttr_core`` it imported, and the table
header repeats it.

The machine kind is a shared VM on which the same work varies by a third from minute to minute,
so the two engines are measured in interleaved rounds (case by case, alternating which goes
first, never both at once), and each figure is the fastest of its rounds: both sides see the
same disturbances, and their ratio means more than either figure.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
#: inside ``build/``, which git ignores (and outside ``bench/``, whose files are checked by tests)
BASELINES = ROOT / "build" / "bench-baselines"


# --- the baseline's environment ----------------------------------------------------------------


def resolve(commit: str) -> str:
    """The full hash of ``commit`` in this repository; SystemExit with git's message if unknown."""
    done = subprocess.run(["git", "rev-parse", "--verify", f"{commit}^{{commit}}"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"--baseline {commit}: not a commit of {ROOT}: {done.stderr.strip()}")
    return done.stdout.strip()


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def baseline_python(commit: str, say=print) -> Path:
    """The interpreter of a virtual environment with ``commit`` installed (built on first use)."""
    sha = resolve(commit)
    home = BASELINES / sha[:12]
    python = _venv_python(home / "venv")
    if (home / "ready.json").exists() and python.exists():
        return python
    say(f"building the baseline environment for {sha[:12]} in {home} (once)...")
    shutil.rmtree(home, ignore_errors=True)  # a build that was interrupted
    src = home / "src"
    src.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", "--format=tar", sha], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        try:
            tar.extractall(src, filter="data")
        except TypeError:  # Python 3.11 before 3.11.4 has no extraction filters (our own commit's files)
            tar.extractall(src)
    subprocess.run([sys.executable, "-m", "venv", str(home / "venv")], check=True)
    # the env extra too, for the environment-step rows (a commit from before the extra ignores it)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", f"{src}[env]"], check=True)
    shutil.rmtree(src)
    (home / "ready.json").write_text(json.dumps({"commit": sha, "built": time.strftime("%Y-%m-%d %H:%M:%S")}), encoding="utf-8")
    return python


# --- the cases, as the children run them -------------------------------------------------------

#: (name, kind, parameters); sizes for a full run, divided for --quick (``scaled``)
CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("usa 4p, random bots", "games", {"variant": "usa", "players": 4, "bot": "random", "games": 60}),
    ("europe 4p, random bots", "games", {"variant": "europe", "players": 4, "bot": "random", "games": 40}),
    ("usa 4p, ticket-seeking bots", "games", {"variant": "usa", "players": 4, "bot": "ticket", "games": 16}),
    ("wor 4p, ticket-seeking bots", "games", {"variant": "wor", "players": 4, "bot": "ticket", "games": 16}),
    ("ttr compare wor vs wor-legacy, ticket bots 4p, run twice", "compare", {"games": 16}),
    ("replay, usa 4p records", "replay", {"games": 40}),
    ("ttr replay FOLDER, usa 4p records", "replay_files", {"count": 1000}),
    ("usa 4p random with a deterministic plugin from outside the package", "outside_plugin",
     {"games": 40, "deterministic": True}),
    ("usa 4p random with a plugin from outside the package, not deterministic", "outside_plugin",
     {"games": 40, "deterministic": False}),
    ("longest path, Europe, random networks ≤ 45 cars", "longest", {"networks": 1000}),
    ("end-of-game scoring, europe 4p × 3 stations", "scoring", {}),
    ("memory per live game, usa 4p after 100 actions", "memory", {}),
    ("ttr_env AEC step, usa 4p, random agents", "env", {"variant": "usa", "players": 4, "games": 20}),
    ("ttr_env AEC step, europe 4p, random agents", "env", {"variant": "europe", "players": 4, "games": 20}),
]


def scaled(params: dict[str, Any], quick: bool) -> dict[str, Any]:
    if not quick:
        return params
    return {k: max(4, v // 5) if isinstance(v, int) and k in ("games", "count", "networks") else v for k, v in params.items()}


class Child:
    """What a child keeps between rounds: prepared inputs, by case."""

    def __init__(self) -> None:
        self.prepared: dict[str, Any] = {}
        self.exit = contextlib.ExitStack()

    def run(self, name: str, kind: str, params: dict[str, Any]) -> dict[str, Any]:
        return getattr(self, kind)(name, **params)

    def games(self, name, variant, players, bot, games):
        from ttr_bots import play_game
        from ttr_core import variant as variants

        rs = variants.load(variant)
        if name not in self.prepared:  # the ruleset's first games build what its games share
            played = [play_game(rs, players, seed, (bot,)) for seed in range(games)]
            self.prepared[name] = (sum(g.state.turn for g in played), sum(len(g.log) for g in played))
        turns, actions = self.prepared[name]
        t0 = time.perf_counter()
        for seed in range(games):
            play_game(rs, players, seed, (bot,))
        return {"seconds": time.perf_counter() - t0, "games": games, "turns": turns, "actions": actions}

    def compare(self, name, games):
        from ttr_analysis import compare
        from ttr_analysis.rescore import Target

        try:
            from ttr_analysis.game_cache import GameCache
        except ImportError:  # an engine without the cache plays the games again
            GameCache = None
        with tempfile.TemporaryDirectory() as folder:
            extra = {"cache": GameCache(Path(folder))} if GameCache else {}
            times, reused = [], 0
            for _ in range(2):
                t0 = time.perf_counter()
                c = compare.compare(Target("wor"), Target("wor-legacy"), games, 1, 4, ("ticket",), workers=1, **extra)
                times.append(time.perf_counter() - t0)
                reused = sum(1 for g in c.games if getattr(g, "reused", False))
        return {"first": times[0], "again": times[1], "games": games, "reused": reused}

    def replay(self, name, games):
        from ttr_bots import play_game
        from ttr_core import record, variant

        if name not in self.prepared:
            rs = variant.load("usa")
            self.prepared[name] = [record.make_record(play_game(rs, 4, seed)) for seed in range(games)]
        recs = self.prepared[name]
        t0 = time.perf_counter()
        for r in recs:
            record.replay(r)
        return {"seconds": time.perf_counter() - t0, "actions": sum(len(r["actions"]) for r in recs)}

    def replay_files(self, name, count):
        from ttr_bots import play_game
        from ttr_core import record, variant

        if name not in self.prepared:
            folder = Path(self.exit.enter_context(tempfile.TemporaryDirectory(prefix="ttr-bench-records-")))
            rs = variant.load("usa")
            for seed in range(count):
                record.save(play_game(rs, 4, seed), folder / f"{seed:05d}.json")
            self.prepared[name] = folder
        folder = self.prepared[name]
        t0 = time.perf_counter()
        for path in sorted(folder.glob("*.json")):
            data = record.load(path)
            assert record.dumps(record.make_record(record.replay(data, str(path)))) == record.dumps(data)
        inside = time.perf_counter() - t0
        ttr = Path(sys.executable).with_name("ttr")
        t0 = time.perf_counter()
        done = subprocess.run([str(ttr), "replay", str(folder), "--json"], capture_output=True, text=True)
        command = time.perf_counter() - t0
        try:
            ok = done.returncode == 0 and json.loads(done.stdout)["reproduced"] == count
        except (ValueError, KeyError, TypeError):
            ok = False
        return {"inside": inside, "command": command, "ok": ok, "count": count}

    def outside_plugin(self, name, games, deterministic):
        from ttr_bots import play_game
        from ttr_core import variant

        if name not in self.prepared:
            from bench.run import HOUSE_RULES, house_rule_variant
            from ttr_core.manager import local_plugins

            folder = Path(self.exit.enter_context(tempfile.TemporaryDirectory()))
            if "house rules" not in self.prepared:  # offered once for both cases
                self.prepared["house rules"] = self.exit.enter_context(local_plugins(HOUSE_RULES))
            rulesets = (variant.load("usa"), variant.load(str(house_rule_variant(folder, deterministic))))
            for rs in rulesets:
                play_game(rs, 4, 0)
            self.prepared[name] = rulesets
        # game by game, each seed with and without the plugin, taking turns at going first: whatever
        # slows the first or the second of two runs (caches, the collector) weighs on both sides
        seconds = [0.0, 0.0]
        for seed in range(games):
            for side in (0, 1) if seed % 2 else (1, 0):
                t0 = time.perf_counter()
                play_game(self.prepared[name][side], 4, seed)
                seconds[side] += time.perf_counter() - t0
        return {"builtin": seconds[0], "outside": seconds[1]}

    def longest(self, name, networks):
        import random

        from bench.run import _edges, _pct, _time_once, random_network
        from ttr_core import variant

        if name not in self.prepared:
            board = variant.load("europe").board
            rng = random.Random(7)
            self.prepared[name] = [_edges(board, random_network(board, rng)) for _ in range(networks)]
        times = [_time_once(edges, 1) for edges in self.prepared[name]]
        return {"p99": _pct(times, 99), "median": statistics.median(times), "times": times}

    def scoring(self, name):
        from bench.run import station_position
        from ttr_core.position import score_position
        from ttr_core.scoring import score_game

        game = score_position(station_position())
        times = []
        for _ in range(50):
            t0 = time.perf_counter()
            score_game(game)
            times.append(time.perf_counter() - t0)
        return {"max": max(times), "median": statistics.median(times)}

    def env(self, name, variant, players, games):
        from bench.env_steps import env_step_times

        return env_step_times(variant, players, games)

    def memory(self, name):
        from bench.run import memory_per_game

        per_game, _ = memory_per_game()
        return {"bytes": per_game}


def serve() -> None:
    """A child: one JSON request per line on standard input, one JSON answer per line."""
    child = Child()
    out = sys.stdout
    sys.stdout = sys.stderr  # anything a case prints must not garble the answers
    from importlib.metadata import PackageNotFoundError, version as installed_version

    import ttr_core

    try:
        version = installed_version("ttr-engine")
    except PackageNotFoundError:
        version = "?"
    out.write(json.dumps({"ttr_core": str(Path(ttr_core.__file__).parent), "version": version}) + "\n")
    out.flush()
    with child.exit:
        for line in sys.stdin:
            request = json.loads(line)
            try:
                answer = {"result": child.run(request["name"], request["kind"], request["params"])}
            except Exception as exc:  # noqa: BLE001 - a case this engine cannot run is reported, not fatal
                answer = {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc(limit=3)}
            out.write(json.dumps(answer) + "\n")
            out.flush()


# --- the parent --------------------------------------------------------------------------------


class Side:
    """One engine: a child process running the cases on request."""

    def __init__(self, label: str, python: Path | str, workdir: Path):
        self.label = label
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        self.log = (workdir / f"{label.split()[0]}.log").open("w")
        self.proc = subprocess.Popen([str(python), "-m", "bench.baseline", "--serve"], cwd=workdir, env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log)
        self.about = self._read()

    def _read(self) -> dict[str, Any]:
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the {self.label} benchmark process ended; see {self.log.name}")
        return json.loads(line)

    def ask(self, name: str, kind: str, params: dict[str, Any]) -> dict[str, Any]:
        self.proc.stdin.write(json.dumps({"name": name, "kind": kind, "params": params}) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


def compare_with(
    commit: str, rounds: int, quick: bool, say=print, only: str | None = None,
) -> tuple[list[dict[str, str]], dict[str, Any]]:
    """Run every case (or those whose name contains ``only``) in both engines, ``rounds``
    interleaved rounds; the table rows and the header facts."""
    cases = [case for case in CASES if only is None or only in case[0]]
    if not cases:
        raise SystemExit(f"--only {only!r}: no case name contains it (cases: {'; '.join(c[0] for c in CASES)})")
    python = baseline_python(commit, say)
    sha = resolve(commit)[:7]
    with tempfile.TemporaryDirectory(prefix="ttr-bench-") as tmp:
        workdir = Path(tmp)
        shutil.copytree(BENCH, workdir / "bench", ignore=shutil.ignore_patterns("results", "__pycache__"))
        sides = [Side("this tree", sys.executable, workdir), Side(f"baseline {sha}", python, workdir)]
        try:
            for side in sides:
                say(f"{side.label}: ttr-engine {side.about['version']} from {side.about['ttr_core']}")
            results: dict[str, list[list[dict]]] = {name: [[], []] for name, _, _ in cases}
            for r in range(rounds):
                for i, (name, kind, params) in enumerate(cases):
                    order = (0, 1) if (r + i) % 2 == 0 else (1, 0)  # who goes first alternates
                    for s in order:
                        results[name][s].append(sides[s].ask(name, kind, scaled(params, quick)))
                say(f"round {r + 1} of {rounds} done")
        finally:
            for side in sides:
                side.close()
    rows = [row(name, kind, scaled(params, quick), *results[name]) for name, kind, params in cases]
    return rows, {"baseline": sha, "this": [s.about for s in sides]}


def _fastest(answers: list[dict], key: str) -> float | None:
    values = [a["result"][key] for a in answers if "result" in a]
    return min(values) if values else None


def _error(answers: list[dict]) -> str:
    errors = [a["error"] for a in answers if "error" in a]
    return f"n/a ({errors[0][:60]})" if errors else "n/a"


def row(name: str, kind: str, params: dict[str, Any], mine: list[dict], base: list[dict]) -> dict[str, str]:
    """A table row: the figure of each side (fastest round), the ratio baseline ÷ this tree for
    times (above 1: faster now), the target and whether it is met."""
    return {"case": name, **ROWS[kind](params, mine, base)}


def _games_text(answers, params) -> tuple[str, float | None]:
    seconds = _fastest(answers, "seconds")
    if seconds is None:
        return _error(answers), None
    r = answers[0]["result"]
    return (f"{_n(seconds / r['turns'] * 1e6)} µs/turn, {_n(seconds / r['actions'] * 1e6)} µs/action, "
            f"{_n(r['games'] / seconds)} games/s"), seconds


def _row_games(params, mine, base):
    (this, t_this), (that, t_that) = _games_text(mine, params), _games_text(base, params)
    ratio = t_that / t_this if t_this and t_that else None
    r = mine[0].get("result", {})
    want = 3.0 if params["bot"] == "ticket" else 2.0
    return {"this tree": this, "baseline": that, "ratio": _ratio(ratio),
            "target": f"≥ {want:.0f}× (per turn)" if params["bot"] == "random" else f"≥ {want:.0f}× games/s",
            "met": _met(ratio is not None and ratio >= want),
            "note": f"{r.get('actions', 0) / max(1, r.get('turns', 1)):.2f} actions/turn, {params['games']} games"}


def _row_compare(params, mine, base):
    first, again = _fastest(mine, "first"), _fastest(mine, "again")
    b_first, b_again = _fastest(base, "first"), _fastest(base, "again")
    if first is None or again is None:
        return {"this tree": _error(mine)}
    reused = mine[0]["result"]["reused"]
    this = f"first {first:.2f} s, re-run {again:.2f} s ({reused} of {params['games']} games reused)"
    that = f"first {b_first:.2f} s, re-run {b_again:.2f} s" if b_again else _error(base)
    inside = first / again
    return {"this tree": this, "baseline": that, "ratio": _ratio(b_again / again if b_again else None) + " (re-run)",
            "target": "re-run ≥ 5× faster than the first run", "met": _met(inside >= 5) + f" ({inside:.1f}×)",
            "note": "one process, in-process games (workers=1)"}


def _row_replay(params, mine, base):
    def text(answers):
        s = _fastest(answers, "seconds")
        return (None, _error(answers)) if s is None else (answers[0]["result"]["actions"] / s, f"{answers[0]['result']['actions'] / s:,.0f} actions/s")

    (r_this, this), (r_that, that) = text(mine), text(base)
    return {"this tree": this, "baseline": that, "ratio": _ratio(r_this / r_that if r_this and r_that else None),
            "target": "", "met": "", "note": f"{params['games']} games, digest, over and result checked"}


def _row_replay_files(params, mine, base):
    def figures(answers):
        inside, command = _fastest(answers, "inside"), _fastest(answers, "command")
        ok = bool(answers) and all(a.get("result", {}).get("ok") for a in answers)
        return inside, command, ok

    def text(inside, command, ok, answers):
        if inside is None:
            return _error(answers)
        if not ok:
            return f"the command failed; {inside:.2f} s in-process"
        return f"{command:.2f} s for the command, {inside:.2f} s in-process: {command / inside:.2f}×"

    (i_this, c_this, ok_this), (i_that, c_that, ok_that) = figures(mine), figures(base)
    ratio = c_that / c_this if ok_this and ok_that else None
    return {"this tree": text(i_this, c_this, ok_this, mine), "baseline": text(i_that, c_that, ok_that, base),
            "ratio": _ratio(ratio) + (" (command)" if ratio else ""), "target": "command ≤ 1.5× in-process",
            "met": _met(bool(ok_this and c_this / i_this <= 1.5)),
            "note": f"{params['count']:,} files, one `ttr replay` process, start-up included"}


def _row_outside_plugin(params, mine, base):
    def text(answers):
        b, o = _fastest(answers, "builtin"), _fastest(answers, "outside")
        return (None, _error(answers)) if b is None else (o / b, f"{o / b:.2f}× a built-in-only game")

    (r_this, this), (r_that, that) = text(mine), text(base)
    return {"this tree": this, "baseline": that, "ratio": _ratio(r_that / r_this if r_this and r_that else None),
            "target": "≤ 1.25×", "met": _met(r_this is not None and r_this <= 1.25), "note": f"{params['games']} games each"}


def _row_longest(params, mine, base):
    """p99 over the networks of each network's fastest time in the rounds: a call slowed because
    the process was descheduled on the loaded machine (the same call's CPU time stays small) is
    slow in one round, not in all of them."""
    (p_this, med), (p_that, _) = _network_p99(mine), _network_p99(base)
    return {"this tree": f"p99 {p_this * 1e6:,.0f} µs (median {med * 1e6:,.0f})" if p_this else _error(mine),
            "baseline": f"p99 {p_that * 1e6:,.0f} µs" if p_that else _error(base),
            "ratio": _ratio(p_that / p_this if p_this and p_that else None),
            "target": "p99 ≤ 1 ms", "met": _met(p_this is not None and p_this <= 1e-3),
            "note": f"{params['networks']:,} networks, each network's fastest of the rounds"}


def _network_p99(answers: list[dict]) -> tuple[float | None, float | None]:
    from bench.run import _pct

    rounds = [a["result"]["times"] for a in answers if "result" in a]
    if not rounds:
        return None, None
    fastest = [min(ts) for ts in zip(*rounds)]
    return _pct(fastest, 99), statistics.median(fastest)


def _row_scoring(params, mine, base):
    m_this, m_that = _fastest(mine, "max"), _fastest(base, "max")
    return {"this tree": f"max {m_this * 1e3:.2f} ms" if m_this else _error(mine),
            "baseline": f"max {m_that * 1e3:.2f} ms" if m_that else _error(base),
            "ratio": _ratio(m_that / m_this if m_this and m_that else None),
            "target": "≤ 5 ms", "met": _met(m_this is not None and m_this <= 5e-3), "note": "slowest of 50 scorings"}


def _row_memory(params, mine, base):
    b_this, b_that = _fastest(mine, "bytes"), _fastest(base, "bytes")
    return {"this tree": f"{b_this / 1024:,.0f} KB" if b_this else _error(mine),
            "baseline": f"{b_that / 1024:,.0f} KB" if b_that else _error(base),
            "ratio": _ratio(b_that / b_this if b_this and b_that else None),
            "target": "≤ 200 KB", "met": _met(b_this is not None and b_this <= 200 * 1024), "note": "tracemalloc"}


def _row_env(params, mine, base):
    """The environment's overhead per step: the step's time less an engine action's, each side's
    two measured in the same games of the same round (the fastest round's)."""
    def figures(answers):
        rounds = [a["result"] for a in answers if "result" in a]
        if not rounds:
            return None
        best = min(rounds, key=lambda r: r["env_seconds"] / r["env_steps"] - r["engine_seconds"] / r["engine_actions"])
        engine, step = best["engine_seconds"] / best["engine_actions"], best["env_seconds"] / best["env_steps"]
        return engine, step, step - engine

    def text(f, answers):
        if f is None:
            return _error(answers)
        return f"step {_n(f[1] * 1e6)} µs, engine action {_n(f[0] * 1e6)} µs: overhead {_n(f[2] * 1e6)} µs"

    f_this, f_that = figures(mine), figures(base)
    ratio = f_that[2] / f_this[2] if f_this and f_that else None
    return {"this tree": text(f_this, mine), "baseline": text(f_that, base), "ratio": _ratio(ratio) + " (overhead)",
            "target": "overhead ≥ 2× less", "met": _met(ratio is not None and ratio >= 2),
            "note": f"{params['games']} games each way, game by game in turn"}


#: how each kind of case becomes a row
ROWS = {"games": _row_games, "compare": _row_compare, "replay": _row_replay, "replay_files": _row_replay_files,
        "outside_plugin": _row_outside_plugin, "longest": _row_longest, "scoring": _row_scoring, "memory": _row_memory,
        "env": _row_env}


def _n(x: float) -> str:
    """Three significant figures or so: 1,234 / 123 / 12.3 / 1.23."""
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def _ratio(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}×"


def _met(ok: bool) -> str:
    return "yes" if ok else "no"


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        serve()
    else:
        raise SystemExit("run the comparison with: python -m bench.run --baseline COMMIT")
