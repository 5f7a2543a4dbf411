"""Rescoring finished games under other variants and rules versions (``ttr_analysis.rescore``)."""

from __future__ import annotations

import pytest

import ttr_bots as bots
from ttr_core import record, variant
from ttr_analysis.rescore import (
    Target, differences, rescore_game, rescore_position, rescore_record, scored_of, winner_changes,
)
from ttr_core.errors import TTRError

#: wor, by hand: P1 joins Denver-El Paso (4 + 4 points of routes and ticket), the only ticket
#: completed (ticket-leader +10 under wor version 2); P2 has the longest path (Denver-Phoenix, 5 spaces:
#: 10 points, +10) and fails Kansas City-Houston (-5).
#: wor: P1 4 + 4 + 10 = 18, P2 10 - 5 + 10 = 15, P1 wins. wor-legacy: P1 8, P2 15, P2 wins.
HAND = {
    "variant": "wor",
    "players": [
        {"name": "P1", "routes": ["Denver-Santa Fe", "El Paso-Santa Fe"], "tickets": ["Denver-El Paso"]},
        {"name": "P2", "routes": ["Denver-Phoenix"], "tickets": ["Kansas City-Houston"]},
    ],
}


def test_targets_name_a_variant_and_optionally_a_version():
    assert Target.parse("wor@1") == Target("wor", 1)
    assert Target.parse("wor") == Target("wor", None)
    assert str(Target("wor", 1)) == "wor@1"
    assert Target("wor").resolved() == Target("wor", variant.load("wor").version)
    for bad in ("wor@", "wor@x", "@1", ""):
        with pytest.raises(TTRError):
            Target.parse(bad)


def test_a_hand_made_position_rescored_line_by_line():
    current = rescore_position(HAND, Target("wor"))
    legacy = rescore_position(HAND, Target("wor-legacy"))
    assert (current.label, legacy.label) == ("wor@2", "wor-legacy@1")
    p1, p2 = current.seats
    assert [p1.line(k) for k in ("routes", "tickets", "ticket-leader", "longest-path", "total")] == [4, 4, 10, 0, 18]
    assert [p2.line(k) for k in ("routes", "tickets", "ticket-leader", "longest-path", "total")] == [10, -5, 0, 10, 15]
    assert legacy.seats[0].total == 8 and legacy.seats[1].total == 15
    assert (current.winners, legacy.winners) == (("P1",), ("P2",))
    diffs = differences([current, legacy])
    assert [(d.player, d.line, d.values) for d in diffs] == [("P1", "ticket-leader", (10, 0)), ("P1", "total", (18, 8))]
    assert winner_changes([current, legacy])
    assert not winner_changes([current, rescore_position(HAND, Target("wor", 2))])


@pytest.mark.parametrize("variant_id", sorted(variant.available()))
def test_rescoring_a_game_under_its_own_rules_gives_the_played_score(variant_id):
    # the exported position holds everything the rules score (stations included): what makes a
    # rescoring under other rules trustworthy
    rs = variant.load(variant_id)
    for seed in range(3):
        game = bots.play_game(rs, 4, seed, ("ticket", "random"))
        again = rescore_game(game, [Target(variant_id, rs.version)])
        assert again.results == (scored_of(game),)
        assert again.diffs == () and not again.winner_changes


def test_wor_against_wor_legacy_differs_by_the_ticket_leader_bonus_only():
    rs = variant.load("wor")
    for seed in range(4):
        game = bots.play_game(rs, 4, seed, ("ticket",))
        g = rescore_game(game, [Target("wor"), Target("wor-legacy")])
        current, legacy = g.results
        for d in g.diffs:
            assert d.line in ("ticket-leader", "total")
            assert d.values[0] - d.values[1] == 10
        # the bonus, computed independently: the single player with the most completed tickets
        done = [s.tickets_completed for s in current.seats]
        leaders = [i for i, n in enumerate(done) if n == max(done)]
        expected = leaders[0] if len(leaders) == 1 and max(done) > 0 else None
        assert [s.line("ticket-leader") for s in current.seats] == [10 if i == expected else 0 for i in range(4)]
        assert all(s.line("ticket-leader") == 0 for s in legacy.seats)


def test_records_of_both_rules_versions_in_one_folder(tmp_path):
    for version in (1, 2):
        for seed in (1, 2):
            game = bots.play_game(variant.load("wor", version), 3, seed, ("ticket",))
            record.save(game, tmp_path / f"wor-v{version}-{seed}.json")
    from ttr_analysis.rescore import record_paths

    found = [rescore_record(p, []) for p in record_paths([tmp_path])]
    assert [g.version for g in found] == [1, 1, 2, 2]
    for g in found:
        # without targets: the recorded rules, then the current ones; each says which version it used
        assert [r.label for r in g.results] == [f"wor@{g.version}", "wor@2"]
        assert g.results[0].winners == tuple(record.load(tmp_path / f"wor-v{g.version}-{g.seed}.json")["result"]["winners"])
    versions_1 = [g for g in found if g.version == 1]
    assert all(d.line in ("ticket-leader", "total") for g in versions_1 for d in g.diffs)


def test_a_rule_set_on_another_map_is_reported_not_raised():
    game = bots.play_game(variant.load("wor"), 3, 1, ("ticket",))
    g = rescore_game(game, [Target("wor"), Target("europe")])
    assert g.results[1] is None and "cannot score under europe" in g.errors[1]
    assert g.results[0] is not None and g.diffs == ()


def test_one_target_is_compared_with_the_result_the_game_ended_with():
    """A wor version 1 game rescored under version 2 only: what version 2 changes is the
    ticket-leader bonus of the single player with the most completed tickets (+10)."""
    game = bots.play_game(variant.load("wor", 1), 4, 4, ("ticket",))
    g = rescore_game(game, [Target("wor", 2)])
    assert g.against_record and g.recorded == scored_of(game) and g.compared == [g.recorded, g.results[0]]
    done = [len(s.tickets_completed) for s in game.result.scores]
    leader = game.result.scores[done.index(max(done))]
    assert done.count(max(done)) == 1
    assert [(d.player, d.line, d.values) for d in g.diffs] == [
        (leader.name, "ticket-leader", (0, 10)), (leader.name, "total", (leader.total, leader.total + 10)),
    ]
    # two targets are compared with each other, as before
    both = rescore_game(game, [Target("wor", 1), Target("wor", 1)])
    assert not both.against_record and both.diffs == ()
