"""A claim need not touch the player's network (R-ROUTE-4), and cards left in hand score nothing
(R-SCORE-3), on the usa rules."""

from __future__ import annotations

from ttr_plugins.claiming import ClaimRoute
from ttr_kit.testing import assert_invariants, keep_all_starting_tickets, new_game, set_hand


def test_R_ROUTE_4_a_player_may_claim_routes_on_opposite_coasts():
    game = keep_all_starting_tickets(new_game("usa", players=2, seed=4))
    west = game.board.find_route("Seattle-Portland").id  # gray, length 1
    east = game.board.find_route("Boston-New York/yellow").id  # yellow, length 2
    elsewhere = game.board.find_route("Montreal-Boston").id  # gray, length 2
    seat = game.state.current
    other = 1 - seat
    set_hand(game, seat, {"green": 1, "yellow": 2})
    set_hand(game, other, {"red": 2})
    game.apply(seat, ClaimRoute(west, "green", 0))
    game.apply(other, ClaimRoute(elsewhere, "red", 0))
    game.apply(seat, ClaimRoute(east, "yellow", 0))  # touches nothing the seat owns: still legal
    owned = {game.board.routes[r].id for r in game.state.players[seat].routes}
    assert owned == {west, east}
    assert_invariants(game)


def test_R_SCORE_3_cards_left_in_hand_change_no_score():
    totals = []
    for hand in ({}, {"locomotive": 5, "red": 10}):
        game = keep_all_starting_tickets(new_game("usa", players=2, seed=9))
        set_hand(game, 0, hand)
        set_hand(game, 1, {})
        game.finish("scored for the test")
        totals.append([s.total for s in game.result.scores])
    assert totals[0] == totals[1]
