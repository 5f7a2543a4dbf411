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
