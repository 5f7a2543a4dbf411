"""Claiming routes in ``usa``: payment (R-ROUTE-2..3), trains (R-ROUTE-2), taken routes (R-ROUTE-5),
parallel routes (R-PAR-1..2), and points scored at once (R-SCORE-1)."""

from __future__ import annotations

import pytest
from usa_kit import draw_two_blind, hand, owner_of, snapshot, started

from ttr_plugins.claiming import ClaimRoute
from ttr_core.errors import CannotPay, RouteTaken
from ttr_plugins.parallel_routes import CLOSED_PARALLEL, OWN_PARALLEL
from ttr_kit.testing import assert_invariants, give_route, set_hand

L = "locomotive"
SIX_SIXES = ["Calgary-Winnipeg", "Duluth-Helena", "Duluth-Toronto", "El Paso-Houston", "El Paso-Los Angeles", "Helena-Seattle"]


def claims_of(game, seat, route_id=None) -> list[ClaimRoute]:
    return [a for a in game.legal_actions(seat) if isinstance(a, ClaimRoute) and route_id in (None, a.route)]


def trains(game, seat) -> int:
    return game.view(None)["players"][seat]["trains"]


def route_points(game, seat) -> int:
    return game.view(None)["players"][seat]["route_points"]


# --- paying (R-ROUTE-2, R-ROUTE-3) ---------------------------------------------------------------


def test_r_route_2_coloured_route_paid_with_exactly_its_length_and_scored_at_once(usa2):
    """R-ROUTE-2: a length-4 purple route takes 4 purple cards (no more) and 4 trains, and scores 7
    at once (R-SCORE-1)."""
    set_hand(usa2, 0, {"purple": 5, "red": 1})
    usa2.apply(0, ClaimRoute("Denver-Omaha", "purple"))
    assert owner_of(usa2, "Denver-Omaha") == 0
    assert hand(usa2, 0) == {"purple": 1, "red": 1}
    assert trains(usa2, 0) == 41
    assert route_points(usa2, 0) == 7
    assert usa2.view(None)["discard_size"] == 4
    assert usa2.state.current == 1
    assert_invariants(usa2)


def test_r_route_3_locomotives_replace_any_card(usa2):
    """R-ROUTE-3: locomotives are wild: 2 purple + 2 locomotives pay a length-4 purple route."""
    set_hand(usa2, 0, {"purple": 2, L: 2})
    usa2.apply(0, ClaimRoute("Denver-Omaha", "purple", locomotives=2))
    assert owner_of(usa2, "Denver-Omaha") == 0
    assert hand(usa2, 0) == {}


@pytest.mark.parametrize("route", ["Calgary-Helena", "Denver-Omaha"])
def test_r_route_3_all_locomotive_payment_is_legal(usa2, route):
    """R-ROUTE-3: "all-locomotive payment is legal", on grey and on coloured routes."""
    set_hand(usa2, 0, {L: 4})
    assert ClaimRoute(route, None, 4) in claims_of(usa2, 0, route)
    usa2.apply(0, ClaimRoute(route, None, 4))
    assert owner_of(usa2, route) == 0
    assert hand(usa2, 0) == {}


def test_r_route_3_grey_route_any_one_colour_but_never_mixed(usa2):
    """R-ROUTE-3: a grey route takes cards of any one colour; 2 red + 2 blue do not pay a length-4 grey
    route (colours never mix), while 2 red + 2 locomotives do."""
    set_hand(usa2, 0, {"red": 2, "blue": 2})
    assert claims_of(usa2, 0, "Calgary-Helena") == []
    before = snapshot(usa2)
    for color, locos in (("red", 0), ("blue", 0), ("red", 2)):
        with pytest.raises(CannotPay):
            usa2.apply(0, ClaimRoute("Calgary-Helena", color, locos))
    assert snapshot(usa2) == before
    # a length-2 grey route can be paid in either colour, the player's choice
    two = {a.color for a in claims_of(usa2, 0, "Atlanta-Charleston")}
    assert two == {"red", "blue"}
    set_hand(usa2, 0, {"red": 2, "blue": 2, L: 2})
    usa2.apply(0, ClaimRoute("Calgary-Helena", "red", locomotives=2))
    assert owner_of(usa2, "Calgary-Helena") == 0
    assert hand(usa2, 0) == {"blue": 2}


def test_wrong_colour_raises_cannot_pay(usa2):
    """R-ROUTE-3: a purple route cannot be paid in red, however many reds the hand holds."""
    set_hand(usa2, 0, {"red": 6})
    before = snapshot(usa2)
    with pytest.raises(CannotPay, match="purple") as info:
        usa2.apply(0, ClaimRoute("Denver-Omaha", "red"))
    assert "red" in str(info.value) and "seat 0" in str(info.value)
    assert snapshot(usa2) == before
    assert owner_of(usa2, "Denver-Omaha") is None


def test_too_few_cards_raise_cannot_pay(usa2):
    """R-ROUTE-2: no partial payment: 3 purple + 0 locomotives do not pay 4 spaces."""
    set_hand(usa2, 0, {"purple": 3})
    before = snapshot(usa2)
    with pytest.raises(CannotPay, match="4 purple"):
        usa2.apply(0, ClaimRoute("Denver-Omaha", "purple"))
    with pytest.raises(CannotPay):
        usa2.apply(0, ClaimRoute("Denver-Omaha", "purple", locomotives=1))  # no locomotive in hand
    assert snapshot(usa2) == before
    assert claims_of(usa2, 0, "Denver-Omaha") == []


# --- trains (R-ROUTE-2) -----------------------------------------------------------------------


def test_r_route_2_claim_with_exactly_the_last_trains(usa2):
    """R-ROUTE-2: a player with exactly 4 trains left can claim a length-4 route, ending at 0."""
    for r in [*SIX_SIXES, "Atlanta-Miami"]:  # 36 + 5 = 41 placed
        give_route(usa2, 0, r)
    assert trains(usa2, 0) == 4
    set_hand(usa2, 0, {"purple": 4})
    assert ClaimRoute("Denver-Omaha", "purple", 0) in claims_of(usa2, 0, "Denver-Omaha")
    usa2.apply(0, ClaimRoute("Denver-Omaha", "purple"))
    assert owner_of(usa2, "Denver-Omaha") == 0
    assert trains(usa2, 0) == 0
    assert route_points(usa2, 0) == 6 * 15 + 10 + 7
    assert_invariants(usa2)


def test_r_route_2_cannot_claim_with_one_train_fewer(usa2):
    """R-ROUTE-2: with 3 trains left a length-4 route cannot be claimed, whatever the cards; shorter
    routes still can."""
    for r in [*SIX_SIXES, "Atlanta-Miami", "Atlanta-Nashville"]:  # 42 placed
        give_route(usa2, 0, r)
    assert trains(usa2, 0) == 3
    set_hand(usa2, 0, {"purple": 4})
    before = snapshot(usa2)
    with pytest.raises(CannotPay, match="trains"):
        usa2.apply(0, ClaimRoute("Denver-Omaha", "purple"))
    assert snapshot(usa2) == before
    legal = claims_of(usa2, 0)
    assert legal, "routes of length 3 or less are still claimable"
    assert max(usa2.board.routes[usa2.board.route_index[a.route]].length for a in legal) == 3


# --- taken and parallel routes (R-ROUTE-5, R-PAR-1..2) ------------------------------------------


def test_r_route_5_a_claimed_route_cannot_be_claimed_again(usa2):
    set_hand(usa2, 0, {"purple": 4})
    set_hand(usa2, 1, {"purple": 4})
    usa2.apply(0, ClaimRoute("Denver-Omaha", "purple"))
    before = snapshot(usa2)
    with pytest.raises(RouteTaken, match="R-ROUTE-5"):
        usa2.apply(1, ClaimRoute("Denver-Omaha", "purple"))
    assert snapshot(usa2) == before
    assert claims_of(usa2, 1, "Denver-Omaha") == []
    assert owner_of(usa2, "Denver-Omaha") == 0


@pytest.mark.parametrize("players", [2, 3])
def test_r_par_2_in_small_games_the_other_route_of_a_double_closes(players):
    """R-PAR-2 (usa): with 2 or 3 players, once one route of a double is claimed the other closes
    for everyone."""
    game = started(players)
    set_hand(game, 0, {"black": 4, "orange": 4})
    set_hand(game, 1, {"orange": 4})
    game.apply(0, ClaimRoute("Denver-Kansas City/black", "black"))
    before = snapshot(game)
    with pytest.raises(RouteTaken, match="R-PAR-2"):
        game.apply(1, ClaimRoute("Denver-Kansas City/orange", "orange"))
    assert snapshot(game) == before
    assert claims_of(game, 1, "Denver-Kansas City/orange") == []
    assert owner_of(game, "Denver-Kansas City/orange") is None
    # the refusal's code says which rule closed it, for programs: R-PAR-2, not R-PAR-1
    orange = game.board.find_route("Denver-Kansas City/orange")
    assert game.claim_problem(1, orange).code == CLOSED_PARALLEL == "closed-parallel"
    assert game.claim_problem(0, orange).code == OWN_PARALLEL  # and the owner of the black one: R-PAR-1
    assert game.closures(1)[orange.index].reason == game.closed_routes(1)[orange.index]


@pytest.mark.parametrize("players", [4, 5])
def test_r_par_1_2_in_larger_games_the_double_stays_open_but_not_to_the_same_player(players):
    """R-PAR-2: with 4+ players the second route of a double stays open to the others; R-PAR-1: never
    to the player who owns the first."""
    game = started(players)
    set_hand(game, 0, {"black": 4, "orange": 4})
    set_hand(game, 1, {"orange": 4})
    game.apply(0, ClaimRoute("Denver-Kansas City/black", "black"))
    for seat in range(1, players):
        draw_two_blind(game, seat)
    assert game.state.current == 0
    before = snapshot(game)
    with pytest.raises(RouteTaken, match="R-PAR-1"):
        game.apply(0, ClaimRoute("Denver-Kansas City/orange", "orange"))
    assert snapshot(game) == before
    assert claims_of(game, 0, "Denver-Kansas City/orange") == []
    orange = game.board.find_route("Denver-Kansas City/orange")
    assert game.claim_problem(0, orange).code == OWN_PARALLEL == "own-parallel"
    assert game.claim_problem(1, orange) is None
    draw_two_blind(game, 0)
    assert claims_of(game, 1, "Denver-Kansas City/orange")
    game.apply(1, ClaimRoute("Denver-Kansas City/orange", "orange"))
    assert owner_of(game, "Denver-Kansas City/orange") == 1
    assert owner_of(game, "Denver-Kansas City/black") == 0
    assert_invariants(game)


def test_r_par_1_same_colour_doubles_are_parallel_too():
    """R-PAR-1: the two grey Dallas-Houston routes are a double: one player may own one of them."""
    game = started(4)
    set_hand(game, 0, {"red": 2})
    game.apply(0, ClaimRoute("Dallas-Houston/1", "red"))
    for seat in (1, 2, 3):
        draw_two_blind(game, seat)
    with pytest.raises(RouteTaken, match="R-PAR-1"):
        game.apply(0, ClaimRoute("Dallas-Houston/2", "red"))


def test_routes_side_by_side_between_different_cities_are_not_parallel(usa2):
    """R-PAR: only routes joining the same two cities are parallel: owning Denver-Omaha closes nothing
    else from Denver."""
    set_hand(usa2, 0, {"purple": 4})
    usa2.apply(0, ClaimRoute("Denver-Omaha", "purple"))
    draw_two_blind(usa2, 1)
    set_hand(usa2, 0, {"black": 4})
    usa2.apply(0, ClaimRoute("Denver-Kansas City/black", "black"))
    assert owner_of(usa2, "Denver-Kansas City/black") == 0
