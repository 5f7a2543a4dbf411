"""The claims ``game.legal_actions`` offers: for every route the seat may take (R-ROUTE-5, R-PAR,
R-ROUTE-2) and every colour its hand can pay it in (R-ROUTE-3), the cheapest payment the game's own
check accepts, in map order, then colour order, then all in locomotives (R-FER-2's trades of
locomotives for triples each offered).

``claiming`` finds them among the free routes by paying kind and length, kept per game and brought
up to date from the state before each listing. So the oracle here is the game's check of every
payment, asked at positions reached every way a state changes: actions, another seat's claim, a
route freed (``ussr``'s controller, R-CTL-2), hands and trains set by hand, a state swapped in
whole, a failed action rolled back, a clone played on.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_core import variant
from ttr_core.errors import IllegalAction
from ttr_core.game import Game
from ttr_core.plugin import COLORS, TRAINS
from ttr_kit import testing
from ttr_plugins.claiming import ClaimRoute

VARIANTS = ["usa", "europe", "wor", "wor-europe", "ussr"]


def cheapest_accepted(game: Game, seat: int) -> list[ClaimRoute]:
    """The oracle: per route in map order, per colour in card order, the payments the game's check
    accepts with the fewest locomotives for their number of triples, less those another beats on
    both locomotives and cards; then the all-locomotive payment."""
    handler = game.registry.for_action(ClaimRoute("x")).handler
    hand = game.state.players[seat].hand

    def passes(action: ClaimRoute) -> bool:
        try:
            handler.check(game, seat, action)
        except IllegalAction:
            return False
        return True

    out = []
    for route in game.board.routes:
        if game.claim_problem(seat, route) is not None:
            continue
        for c, color in enumerate(COLORS):
            if not hand[c]:
                continue  # a payment in a colour takes at least one card of it
            found = []  # (locomotives, triples, cards)
            for triples in range(route.ferry + 1):
                locos = next((n for n in range(route.length) if passes(ClaimRoute(route.id, color, n, triples))), None)
                if locos is not None:
                    found.append((locos, triples, route.length - locos + 2 * triples))
            out += [
                ClaimRoute(route.id, color, locos, triples)
                for locos, triples, cards in found
                if not any(lo <= locos and c2 <= cards and (lo, c2) != (locos, cards) for lo, _, c2 in found)
            ]
        if passes(ClaimRoute(route.id, None, route.length)):
            out.append(ClaimRoute(route.id, None, route.length))
    return out


def listed(game: Game, seat: int) -> list[ClaimRoute]:
    return [a for a in game.legal_actions(seat) if isinstance(a, ClaimRoute)]


def turn_starts(variant_id: str, players: int, seed: int, every: int):
    """Yield a random-bot game at every ``every``-th turn start, the same game object throughout."""
    game = Game(variant.load(variant_id), [f"P{i + 1}" for i in range(players)], seed)
    rng = random.Random(seed)
    k = 0
    while not game.over:
        seat = game.to_act()[0]
        if game.state.phase == "play" and game.state.players[seat].decision is None:
            k += 1
            if k % every == 0:
                yield game, seat
        game.apply(seat, rng.choice(game.legal_actions(seat)))


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_the_claims_offered_along_a_game_are_the_cheapest_the_game_accepts(variant_id):
    for players in (2, 4):
        for game, seat in turn_starts(variant_id, players, seed=players, every=9):
            assert listed(game, seat) == cheapest_accepted(game, seat), (variant_id, players, game.state.turn)


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_a_clone_played_on_and_the_game_each_list_their_own_claims(variant_id):
    for game, seat in turn_starts(variant_id, 3, seed=5, every=25):
        twin = game.clone()
        rng = random.Random(seat)
        for _ in range(12):
            if twin.over:
                break
            who = twin.to_act()[0]
            twin.apply(who, rng.choice(twin.legal_actions(who)))
        who = twin.state.current
        if twin.state.phase == "play" and twin.state.players[who].decision is None:
            assert listed(twin, who) == cheapest_accepted(twin, who)
        assert listed(game, seat) == cheapest_accepted(game, seat)


HAND = st.dictionaries(st.sampled_from([*COLORS, "locomotive"]), st.integers(0, 7), max_size=6)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 1000), HAND, st.integers(0, 12), st.integers(0, 6))
def test_hands_trains_and_routes_set_by_hand_are_taken_in(variant_id, seed, hand, trains, routes):
    """A listing, then the state changed behind the game's back (as a host or a test does), then
    another listing: it answers for the state as it is now."""
    game = testing.keep_all_starting_tickets(testing.new_game(variant_id, players=3, seed=seed))
    rng = random.Random(seed)
    seat = game.state.current
    listed(game, seat)
    testing.set_hand(game, seat, hand)
    assert listed(game, seat) == cheapest_accepted(game, seat)
    for route in rng.sample(game.board.routes, routes):
        if game.claim_problem(rng.randrange(3), route) is None:
            testing.give_route(game, rng.randrange(3), route.id)
    placed = sum(game.board.routes[r].length for r in game.state.players[seat].routes)
    testing.set_trains(game, seat, min(trains, game.board.trains - placed))
    assert listed(game, seat) == cheapest_accepted(game, seat)
    for route in rng.sample([game.board.routes[r] for r, s in enumerate(game.state.owner) if s >= 0], routes // 2):
        game.free_route(route)  # as ussr's controller does (R-CTL-2)
    assert listed(game, seat) == cheapest_accepted(game, seat)


@pytest.mark.parametrize("variant_id", ["usa", "europe", "ussr"])
def test_a_state_swapped_in_whole_is_taken_in(variant_id):
    """A host may put another state under the game (a determinized copy's, an earlier one)."""
    earlier = None
    for game, seat in turn_starts(variant_id, 4, seed=3, every=12):
        if earlier is not None:
            now = game.state
            game.state = earlier
            assert listed(game, seat) == cheapest_accepted(game, seat)
            game.state = now
        assert listed(game, seat) == cheapest_accepted(game, seat)
        game.state = game.determinize(seat, random.Random(seat)).state
        assert listed(game, seat) == cheapest_accepted(game, seat)
        earlier = game.state.copy()


@pytest.mark.parametrize("variant_id", ["usa", "europe", "ussr", "wor"])
def test_a_claim_is_refused_for_the_parallel_route_rule_the_closed_routes_give(variant_id):
    """R-PAR-1..2: checking one claim asks the rules about that route alone, listing asks about
    every route; a closed route is refused with the code and reason ``game.closures`` gives it."""
    closed = 0
    for players in (2, 3, 4):
        for game, seat in turn_starts(variant_id, players, seed=11, every=5):
            closures = game.closures(seat)
            for route in game.board.routes:
                if not route.parallel or game.state.owner[route.index] >= 0:
                    continue
                problem = game.claim_problem(seat, route)
                if route.index in closures:
                    closed += 1
                    assert problem == closures[route.index], (variant_id, players, route.id)
                else:
                    assert problem is None or problem.code == TRAINS, (variant_id, players, route.id, problem)
    assert closed  # the games did close some routes
