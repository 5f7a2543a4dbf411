"""The house rules, tested only with the fixtures of ttr-engine's house-rule kit (pytest finds them
through the ``pytest11`` entry point of ttr-engine: there is nothing to import)."""

from __future__ import annotations

import pytest

SIX = "Helena-Seattle"  # a route of length 6 on the usa map


def test_the_variant_is_installed_with_both_house_rules(ttr_variant):
    rules = ttr_variant("usa-house")
    assert {"no-ticket-penalty", "six-scores-18"} <= set(rules.plugins)
    assert {"tickets", "route-points"} <= set(rules.plugins)  # wrapped, not replaced


def test_an_unfinished_ticket_costs_nothing(ttr_position, ttr_breakdown):
    game = ttr_position("usa-house", tickets={0: ["Denver-El Paso"], 1: []})
    score = ttr_breakdown(game, 0)
    assert score["failed"] == ["Denver-El Paso"]
    assert score["tickets"] == 0


def test_under_the_published_rules_it_costs_its_points(ttr_position, ttr_breakdown):
    game = ttr_position("usa", tickets={0: ["Denver-El Paso"], 1: []})
    assert ttr_breakdown(game, 0)["tickets"] == -4


def test_a_completed_ticket_still_scores(ttr_position, ttr_breakdown):
    game = ttr_position("usa-house", tickets={0: ["Denver-El Paso", "Boston-Miami"], 1: []},
                        routes={0: ["Denver-Santa Fe", "El Paso-Santa Fe"]})
    score = ttr_breakdown(game, 0)
    assert score["completed"] == ["Denver-El Paso"] and score["failed"] == ["Boston-Miami"]
    assert score["tickets"] == 4


@pytest.mark.parametrize("variant,points", [("usa-house", 18), ("usa", 15)])
def test_a_route_of_six_scores(ttr_position, ttr_act, variant, points):
    game = ttr_position(variant, hands={0: {"yellow": 6}}, turn=0)
    ttr_act(game, 0, {"kind": "claim-route", "route": SIX, "color": "yellow"})
    assert game.view(None)["players"][0]["route_points"] == points


def test_shorter_routes_score_as_usual(ttr_position, ttr_breakdown):
    game = ttr_position("usa-house", routes={0: ["Denver-Omaha", "Helena-Seattle"]}, tickets={0: [], 1: []})
    score = ttr_breakdown(game, 0)
    assert score["routes"] == 7 + 18


def test_paying_too_little_is_still_refused(ttr_position, ttr_expect_illegal):
    from ttr_core.errors import CannotPay

    game = ttr_position("usa-house", hands={0: {"yellow": 5}}, turn=0)
    error = ttr_expect_illegal(game, 0, {"kind": "claim-route", "route": SIX, "color": "yellow"}, CannotPay)
    assert "needs 6 yellow" in error.reason


def test_whole_games_keep_every_invariant(ttr_game, ttr_play_to_end, ttr_breakdown):
    for seed in range(2):
        game = ttr_play_to_end(ttr_game("usa-house", players=3, seed=seed))
        assert game.over
        assert all(ttr_breakdown(game, seat)["tickets"] >= 0 for seat in range(3))


def test_the_conformance_check_passes(ttr_conformance):
    assert ttr_conformance("usa-house", games=6) == []
