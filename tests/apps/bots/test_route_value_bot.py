"""The route-value bot (ttr_bots/route_value_bot.py), the search bot's own policy: the ticket bot
planning by what a route is worth in turns and points. It finishes games of every rule set within
the rules and reproducibly, weighs long routes lighter per train than short ones, and so claims
longer routes than the ticket bot; it pays with locomotives only near the end. Its strength against ticket bots is measured by a benchmark
(see its module), not here."""

from __future__ import annotations

import statistics

import pytest

from ttr_bots import bot_class, play_game
from ttr_bots.route_value_bot import SAVE_LOCOMOTIVES_ABOVE, RouteValueBot, route_weight
from ttr_core import record, variant
from ttr_core.invariants import invariant_problems

USA_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}  # R-SCORE-1


def check_invariants(game, seat, action):
    assert invariant_problems(game) == [], (seat, action)


@pytest.mark.parametrize("variant_id", sorted(variant.available()))
def test_it_finishes_games_of_every_rule_set_within_the_rules_and_reproducibly(variant_id):
    rs = variant.load(variant_id)
    game = play_game(rs, 3, 11, ["route-value", "ticket", "random"], on_action=check_invariants)
    again = play_game(rs, 3, 11, ["route-value", "ticket", "random"])
    assert game.over and record.dumps(record.make_record(game)) == record.dumps(record.make_record(again))


def test_it_is_an_installed_bot():
    assert bot_class("route-value") is RouteValueBot


def test_a_route_weighs_its_trains_and_a_turn_less_its_extra_points():
    weights = {n: route_weight(n, p) for n, p in USA_POINTS.items()}
    # two 3-space routes weigh more than one 6-space route of as many trains; six 1-space ones far more
    assert 2 * weights[3] > weights[6] and 6 * weights[1] > 2 * weights[3]
    assert all(weights[n] > 0 for n in weights)  # a free route always costs something: paths stay short


def _mean_route_length(bot: str, games: int = 8) -> float:
    """Mean length of the routes ``bot`` claimed, in seat rotation against 3 ticket bots (usa 4p)."""
    rs = variant.load("usa")
    lengths = []
    for seed in range(games):
        order = ["ticket"] * 4
        order[seed % 4] = bot
        game = play_game(rs, 4, seed, order)
        lengths += [game.board.routes[r].length for r in game.state.players[seed % 4].routes]
    return statistics.mean(lengths)


def test_it_claims_longer_routes_than_the_ticket_bot():
    assert _mean_route_length("route-value") > _mean_route_length("ticket") + 0.15


def _claims_with_locomotives(bot: str, games: int = 6) -> tuple[float, float]:
    """Of the routes ``bot`` claimed (usa 4p, against 3 ticket bots, seat rotating), the share paid
    with locomotives while every other player had more than ``SAVE_LOCOMOTIVES_ABOVE`` trains, and
    the share after (R-END-1)."""
    rs = variant.load("usa")
    early, late = [], []

    def watch(game, seat, action):
        if seat == game.seed % 4 and action.kind == "claim-route":
            others = min(p.trains for i, p in enumerate(game.state.players) if i != seat)
            (early if others > SAVE_LOCOMOTIVES_ABOVE else late).append(action.locomotives > 0)

    for seed in range(games):
        order = ["ticket"] * 4
        order[seed % 4] = bot
        play_game(rs, 4, seed, order, on_action=watch)
    return statistics.mean(early), statistics.mean(late)


def test_it_keeps_its_locomotives_for_the_end():
    early, late = _claims_with_locomotives("route-value")
    # a planned route waits for its colour; only a claim for points with the plan done may take one
    assert early < 0.05 < late
    assert early < _claims_with_locomotives("ticket")[0] / 2
