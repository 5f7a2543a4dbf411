"""The benchmark's data are part of the repository (bench/data/), so that any clone can run it."""

from __future__ import annotations

import importlib.util
import json
import re

import pytest
from usa_kit import ROOT

from ttr_core import variant
from ttr_core.network import longest_trail

BENCH = ROOT / "bench"


def _bench_run():
    spec = importlib.util.spec_from_file_location("bench_run", BENCH / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_reads_its_network_from_bench_data():
    run = _bench_run()
    assert run.DATA == BENCH / "data"
    board = variant.load("usa").board
    edges = run.realistic_edges(board)
    assert len(edges) == 15 and sum(length for _, _, length in edges) == 47
    assert longest_trail(edges) > 0


def test_no_benchmark_reads_a_folder_outside_the_repository():
    for path in sorted(BENCH.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r'/\s*"shared"|\bshared/|\.\./', text), f"{path.relative_to(ROOT)} reads ../shared"


def test_bench_data_is_the_shared_copy():
    shared = ROOT.parent / "shared" / "bench"
    if not shared.is_dir():
        pytest.skip("../shared/bench is not beside the repository")
    for source in sorted(shared.glob("*.json")):
        assert (BENCH / "data" / source.name).read_bytes() == source.read_bytes(), source.name


def test_bench_data_keeps_summaries_not_game_logs():
    """One line per experiment: the games of a run are reproduced by its command, not kept."""
    files = sorted((BENCH / "data").iterdir())
    assert sum(len(p.read_text(encoding="utf-8").splitlines()) for p in files) <= 1000
    runs = [json.loads(line) for line in (BENCH / "data" / "bot-strength-runs.jsonl").read_text(encoding="utf-8").splitlines()]
    for run in runs:
        assert run["command"].startswith("python -m bench.bot_strength --search") and run["commit"], run["log"]
        assert f"--games {run['games']} " in run["command"] and f"--players {run['players']} " in run["command"]
        assert round(run["wins"] / run["games"], 4) == run["win_rate"], run["log"]
        low, high = run["win_rate_ci95"]
        assert low <= run["win_rate"] <= high
    assert not (BENCH / "data" / runs[0]["log"]).exists()
