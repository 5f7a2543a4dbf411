"""Comparing two rule sets on the same games (``ttr_analysis.compare``), its statistics and plots."""

from __future__ import annotations

import json
import math
import statistics

import pytest

from ttr_core import record
from ttr_analysis import compare, stats
from ttr_analysis.rescore import Target


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """3 games of wor (4 ticket bots), rescored under wor-legacy, with records and plots."""
    out = tmp_path_factory.mktemp("compare")
    c = compare.compare(Target("wor"), Target("wor-legacy"), games=3, seed=7, records=True)
    folder = compare.write_records(c, out)
    return c, compare.report(c), folder, out


def _legacy_by_hand(result: dict, games: list) -> tuple[list[int], list[str]]:
    """wor-legacy totals and winners from a wor game's final scores, computed without the engine's
    scoring: remove the ticket-leader bonus (the single player with the most completed tickets,
    at least one), then the highest totals share the win (wor has no tie-breakers)."""
    scores = result["scores"]
    done = [len(s["tickets_completed"]) for s in scores]
    top = max(done)
    leader = done.index(top) if top > 0 and done.count(top) == 1 else None
    totals = [s["total"] - (10 if i == leader else 0) for i, s in enumerate(scores)]
    best = max(totals)
    return totals, [scores[i]["name"] for i, t in enumerate(totals) if t == best]


def test_a_small_comparison_matches_totals_computed_from_the_records(small):
    c, rep, folder, _ = small
    files = sorted(folder.glob("*.json"), key=lambda p: int(p.stem.rsplit("seed", 1)[1]))
    assert [p.name for p in files] == ["wor-v2-seed7.json", "wor-v2-seed8.json", "wor-v2-seed9.json"]
    changed = []
    per_game_delta = []
    tl_a = []
    for path in files:
        data = record.load(path)
        game = record.replay(data, str(path))  # the record replays (digest checked) under wor version 2
        from cattrs import unstructure

        result = unstructure(game.result)
        wor_totals = [s["total"] for s in result["scores"]]
        assert wor_totals == [data["result"]["scores"][n] for n in data["players"]]
        legacy_totals, legacy_winners = _legacy_by_hand(result, data["players"])
        if set(legacy_winners) != set(data["result"]["winners"]):
            changed.append(data["seed"])
        per_game_delta.append(statistics.fmean(b - a for a, b in zip(wor_totals, legacy_totals)))
        tl_a += [sum(b["points"] for b in s["bonuses"] if b["name"] == "ticket-leader") for s in result["scores"]]
    assert rep["winner_changes"]["seeds"] == changed
    assert rep["winner_changes"]["games"] == len(changed)
    total = rep["lines"]["total"]
    assert total["delta"]["mean"] == pytest.approx(statistics.fmean(per_game_delta), abs=1e-4)
    assert rep["lines"]["ticket-leader"]["mean_a"] == pytest.approx(statistics.fmean(tl_a), abs=1e-4)
    assert rep["lines"]["ticket-leader"]["mean_b"] == 0
    for line in ("routes", "tickets", "longest-path"):
        assert rep["lines"][line]["delta"]["mean"] == 0 and rep["lines"][line]["player_games_changed"] == 0
    assert rep["export_mismatches"] == []
    assert (rep["a"], rep["b"], rep["players"], rep["seeds"]) == ("wor@2", "wor-legacy@1", 4, [7, 9])


def test_the_numbers_and_the_plot_are_the_same_on_a_rerun(small, tmp_path):
    c, rep, _, out = small
    again = compare.compare(Target("wor"), Target("wor-legacy"), games=3, seed=7, workers=2)
    assert json.dumps(compare.report(again), sort_keys=True) == json.dumps(rep, sort_keys=True)
    first = compare.write_plots(c, out)
    second = compare.write_plots(again, tmp_path)
    assert [p.name for p in first] == ["compare-wor-v2-vs-wor-legacy-v1.png", "compare-wor-v2-vs-wor-legacy-v1.svg"]
    assert first[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert first[1].read_text().lstrip().startswith("<?xml") and "<svg" in first[1].read_text()
    assert first[1].read_bytes() == second[1].read_bytes()


def test_mean_ci_by_hand():
    e = stats.mean_ci([1, 2, 3, 4])
    sd = math.sqrt(5 / 3)  # squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5, over n - 1 = 3
    assert (e.mean, e.n) == (2.5, 4) and e.sd == pytest.approx(sd)
    assert (e.low, e.high) == pytest.approx((2.5 - 1.96 * sd / 2, 2.5 + 1.96 * sd / 2), abs=1e-3)
    one = stats.mean_ci([7])
    assert (one.mean, one.low, one.high) == (7, 7, 7)


def test_wilson_interval_by_hand():
    # 5 of 10: centre 0.5, half-width 1.96·sqrt(0.025 + 0.0096)/1.384 = 0.2634
    e = stats.proportion_ci(5, 10)
    assert (e.low, e.high) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    zero = stats.proportion_ci(0, 20)
    assert zero.low == 0 and 0.15 < zero.high < 0.17  # not the degenerate [0, 0] of mean ± 1.96·se


def test_line_deltas_use_per_game_means(small):
    c, rep, _, _ = small
    pairs = c.pairs()
    per_game = [statistics.fmean(b.line("total") - a.line("total") for a, b in zip(pa.seats, pb.seats)) for pa, pb in pairs]
    assert rep["lines"]["total"]["delta"]["n"] == 3
    assert rep["lines"]["total"]["delta"]["sd"] == pytest.approx(statistics.stdev(per_game), abs=1e-4)


def test_rule_sets_on_different_maps_are_refused_before_any_game(monkeypatch):
    from ttr_core.errors import TTRError

    def no_games(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr(compare, "run", no_games)
    with pytest.raises(TTRError, match="different maps.*wor@2 on map 'usa'; europe@1 on map 'europe'"):
        compare.compare(Target("wor"), Target("europe"), games=1)
