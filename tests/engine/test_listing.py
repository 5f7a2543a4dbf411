"""The legal actions of a seat remember the seat and the moment they were listed for: an action
taken from the latest listing is applied without a second check, any other is checked in full."""

from __future__ import annotations

import random

import pytest

from ttr_core import variant
from ttr_core.errors import GameOver, NotLegalNow, NotYourTurn, RouteTaken
from ttr_core.game import Game
from ttr_kit import testing


def a_claim_listed(variant_id: str, seed: int):
    """A random game played until the seat to act may claim a route: the game, the seat and one
    of its claims, taken from its listing."""
    game = Game(variant.load(variant_id), [f"P{i}" for i in range(4)], seed)
    rng = random.Random(seed)
    while True:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        claims = [a for a in legal if a.kind == "claim-route"]
        if game.state.phase == "play" and claims:
            return game, seat, claims[0]
        game.apply(seat, rng.choice(legal))


def test_a_claim_of_an_earlier_turn_is_checked_again():
    game, seat, claim = a_claim_listed("usa", 3)
    game.apply(seat, claim)  # from the seat's latest listing
    while game.state.current != seat:  # the others draw until it is the seat's turn again
        other = game.state.current
        game.apply(other, next(a for a in game.legal_actions(other) if a.kind == "draw-card"))
        while game.state.players[other].decision is not None:
            game.apply(other, next(a for a in game.legal_actions(other) if a.kind == "draw-card"))
    game.legal_actions(seat)
    with pytest.raises(RouteTaken):  # the same claim, from the listing of its earlier turn
        game.apply(seat, claim)


def test_an_action_listed_for_one_seat_is_refused_to_another():
    game, seat, claim = a_claim_listed("usa", 5)
    with pytest.raises(NotYourTurn):
        game.apply((seat + 1) % 4, claim)


def test_a_game_ended_after_its_listing_refuses_the_listed_actions():
    game, seat, claim = a_claim_listed("usa", 7)
    game.finish("ended by the host")
    with pytest.raises(GameOver):
        game.apply(seat, claim)


def test_a_decision_dropped_after_its_listing_refuses_its_listed_answers():
    game, seat, _ = a_claim_listed("usa", 9)
    game.apply(seat, next(a for a in game.legal_actions(seat) if a.kind == "draw-tickets"))
    keep = game.legal_actions(seat)[0]  # which of the tickets drawn to keep (R-TIX-2)
    game.cancel_decision(seat)  # the tickets go back (R-TURN-4)
    before = game.dump()
    with pytest.raises(NotLegalNow):
        game.apply(seat, keep)
    assert game.dump() == before


def test_a_route_placed_after_the_listing_refuses_its_listed_claims():
    game, seat, claim = a_claim_listed("usa", 11)
    testing.give_route(game, (seat + 1) % 4, claim.route)  # a position set up by hand
    with pytest.raises(RouteTaken):  # R-ROUTE-5
        game.apply(seat, claim)


# --- a listing reads as the list of its actions, and picks out a kind's or a route's ------------


def positions(variant_id: str, seed: int, every: int = 3):
    """Every ``every``-th moment of a seeded random game: the game, the seat to act, its listing."""
    game = Game(variant.load(variant_id), [f"P{i}" for i in range(4)], seed)
    rng = random.Random(seed)
    step = 0
    while not game.over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        if step % every == 0:
            yield game, seat, legal
        step += 1
        game.apply(seat, rng.choice(legal))


@pytest.mark.parametrize("variant_id", sorted(variant.available()))
def test_a_listing_counts_indexes_and_picks_out_kinds_and_routes_as_its_list_does(variant_id):
    for game, seat, legal in positions(variant_id, 41):
        as_list = list(legal)
        assert len(legal) == len(as_list) and legal == as_list and legal == tuple(as_list)
        assert [legal[i] for i in range(len(legal))] == as_list == [legal[i - len(legal)] for i in range(len(legal))]
        assert list(legal[1:4]) == as_list[1:4]
        assert legal.kinds() == tuple(dict.fromkeys(a.kind for a in as_list))
        for kind in legal.kinds():
            assert list(legal.of_kind(kind)) == [a for a in as_list if a.kind == kind]
        for route in {a.route for a in as_list if a.kind == "claim-route"} | {game.board.routes[0].id}:
            assert list(legal.of_route(route)) == [a for a in as_list if getattr(a, "route", None) == route]
        assert all(legal.holds(a) for a in as_list)
        with pytest.raises(IndexError):
            legal[len(legal)]


def test_a_listing_holds_only_the_listed_objects_themselves():
    """An equal claim made elsewhere (``True`` for 1 in a field) is not the listed one: it is
    checked in full when applied."""
    game, seat, claim = a_claim_listed("usa", 13)
    legal = game.legal_actions(seat)
    assert legal.holds(claim)
    twin = type(claim)(claim.route, claim.color, claim.locomotives, claim.triples)
    assert twin == claim and not legal.holds(twin)
    assert not legal.holds(type(claim)(["not", "a", "route"]))


def test_a_listing_cannot_be_changed_and_holds_nothing_of_the_game():
    """What a bot is handed (``view.legal_actions()``) is the listing itself: read-only, and
    no way back to the game's state through it."""
    import gc

    from ttr_core.state import GameState, PlayerState

    game, seat, _ = a_claim_listed("europe", 17)
    legal = game.legal_actions(seat)
    with pytest.raises((TypeError, AttributeError)):
        legal[0] = legal[1]  # type: ignore[index]
    with pytest.raises(AttributeError):
        legal.append(legal[0])  # type: ignore[attr-defined]
    seen, todo = set(), [legal]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        assert not isinstance(obj, Game | GameState | PlayerState), f"the listing reaches {type(obj).__name__}"
        assert obj is not game.state.players[seat].hand
        todo += gc.get_referents(obj)


def test_a_listing_that_failed_leaves_no_earlier_listing_trusted(monkeypatch):
    """Seat 0's starting tickets listed, then seat 1's listing fails in a plugin: seat 0's keep,
    applied for seat 1 at that same moment, is checked in full and refused (R-SET-4: a seat keeps
    tickets of its own offer)."""
    from ttr_core.errors import IllegalAction, PluginFailed

    game = Game(variant.load("usa"), ["P0", "P1"], 21)
    keep = game.legal_actions(0)[0]
    handler = game.registry.by_class[type(keep)].handler
    real = handler.legal

    def failing_for_seat_1(game, seat):
        if seat == 1:
            raise RuntimeError("a plugin's mistake")
        return real(game, seat)

    monkeypatch.setattr(handler, "legal", failing_for_seat_1)
    with pytest.raises(PluginFailed):
        game.legal_actions(1)
    before = game.dump()
    with pytest.raises(IllegalAction):
        game.apply(1, keep)
    assert game.dump() == before
