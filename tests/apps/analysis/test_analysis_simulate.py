"""Simulating seeded games in bulk (``ttr_analysis.simulate``) and summarising them (``stats``):
the same games whatever runs them (this process, a process pool, a Dask cluster)."""

from __future__ import annotations

import multiprocessing

import pytest

import ttr_bots as bots
from ttr_core import record, variant
from ttr_analysis import simulate, stats
from ttr_analysis.rescore import Scored, SeatScore, scored_of
from ttr_core.errors import TTRError

SPEC = simulate.SimSpec("wor", None, 3, ("ticket", "random"), records=True)


@pytest.fixture(scope="module")
def in_process():
    return simulate.run(SPEC, range(10, 14), workers=1)


def test_game_i_is_seed_s_plus_i_and_is_the_game_play_game_plays(in_process):
    assert [g.seed for g in in_process] == [10, 11, 12, 13]
    for g in in_process:
        game = bots.play_game(variant.load("wor"), 3, g.seed, ("ticket", "random"))
        assert g.played == scored_of(game)
        assert g.record == record.dumps(record.make_record(game))
        assert g.bots == ("ticket", "random", "ticket")
        assert (g.turns, g.actions) == (game.state.turn, len(game.log))


def test_a_process_pool_plays_the_same_games(in_process):
    seen = []
    assert simulate.run(SPEC, range(10, 14), workers=2, on_progress=seen.append) == in_process
    assert sum(seen) == 4


def test_a_dask_local_cluster_plays_the_same_games(in_process):
    # the distributed path end to end, on a LocalCluster the library starts itself (threads, so
    # that the test does not pay for starting worker processes)
    assert simulate.run(SPEC, range(10, 14), workers=2, scheduler="local", local_processes=False) == in_process


def test_tasks_cover_every_seed_once_in_order():
    for n, workers in ((1, 1), (7, 2), (100, 2), (2000, 2), (2000, 8)):
        tasks = simulate.chunked(list(range(n)), workers)
        assert [s for t in tasks for s in t] == list(range(n))
        assert all(1 <= len(t) <= simulate.MAX_CHUNK for t in tasks)
        # enough tasks to keep every worker busy to the end
        assert len(tasks) >= min(n, 4 * workers)


def test_bad_specs_fail_before_any_game():
    for spec in (
        simulate.SimSpec("wor", None, 7, ("ticket",)),
        simulate.SimSpec("wor", None, 4, ("clever",)),
        simulate.SimSpec("nowhere", None, 4, ("ticket",)),
        simulate.SimSpec("wor", 9, 4, ("ticket",)),
    ):
        with pytest.raises(TTRError):
            simulate.run(spec, range(3))


def _game(seed: int, totals: list[int], winners: tuple[str, ...], decided: str, bonus: dict[int, int], turns: int):
    seats = tuple(
        SeatScore(f"P{i + 1}", (("routes", t), ("tickets", 0), *((("longest-path", bonus[i]),) if i in bonus else ()), ("total", t)), i, 1)
        for i, t in enumerate(totals)
    )
    return simulate.GameSummary(seed, ("ticket", "random"), turns, 2 * turns, "the end",
                                Scored("usa", 1, seats, winners, decided))


def test_the_summary_by_hand():
    games = [
        _game(1, [10, 20], ("P2",), "score", {1: 10}, 100),
        _game(2, [30, 30], ("P1",), "tickets", {0: 10, 1: 10}, 120),
        _game(3, [50, 10], ("P1",), "score", {}, 140),
    ]
    s = stats.summarize(games)
    assert s["games"] == 3 and s["seeds"] == [1, 3]
    p1, p2 = s["seats"]
    assert p1["score"]["mean"] == 30 and p1["min"] == 10 and p1["max"] == 50
    assert p1["wins"] == 2 and p2["wins"] == 1 and p1["win_rate"] == round(2 / 3, 4)
    assert (p1["tickets_completed"], p2["tickets_completed"]) == (0, 1)
    assert s["turns"]["mean"] == 120 and s["turns"]["sd"] == 20
    lp = s["bonuses"]["longest-path"]
    assert lp["games_with_it"] == round(2 / 3, 4) and lp["holders_per_game"] == 1 and lp["by_seat"] == [round(1 / 3, 4), round(2 / 3, 4)]
    assert s["decided_by"] == {"score": {"games": 2, "share": round(2 / 3, 4)}, "tickets": {"games": 1, "share": round(1 / 3, 4)}}


class _Broken:
    def __init__(self, seed, seat):
        self.seed = seed

    def choose(self, view):
        raise RuntimeError(f"broken bot in game {self.seed}")


def test_a_failing_game_fails_the_run():
    # (the pool's workers are forked from this process, so they see the local bot)
    spec = simulate.SimSpec("usa", None, 2, ("broken",))
    forked = multiprocessing.get_start_method() == "fork"
    with bots.local_bots({"broken": _Broken}):
        for workers in (1, 2) if forked else (1,):
            with pytest.raises(RuntimeError, match="broken bot in game"):
                simulate.run(spec, range(3), workers=workers)
