"""Illegal actions raise typed errors naming the seat, the action and the reason, and change nothing:
neither the state (hidden parts included) nor the log."""

from __future__ import annotations

import attrs
import pytest
from usa_kit import snapshot, started

from ttr_kit import testing
from ttr_core.actions import Action
from ttr_plugins.claiming import ClaimRoute
from ttr_plugins.train_cards import DrawCard
from ttr_plugins.tickets import DrawTickets, KeepTickets
from ttr_plugins.passing import Pass
from ttr_core.errors import (
    CannotPay,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotLegalNow,
    NotYourTurn,
    RouteTaken,
)
from ttr_kit.testing import set_hand, set_open_row, stack_deck

TYPED = (NotYourTurn, NotLegalNow, CannotPay, RouteTaken, GameOver, MalformedAction)


@attrs.frozen
class Teleport(Action):
    """An action kind that no plugin of usa registers."""

    kind = "teleport"
    to: str = "Miami"


def _offered(game, seat):
    return [game.board.tickets[t].id for t in game.state.players[seat].decision.offered]


# Each case: build a situation, return (game, seat, action); the error class and a piece of the reason.


def other_seat_in_play():
    return started(2), 1, DrawCard(None)


def no_such_seat():
    return started(2), 5, DrawCard(None)


def turn_action_before_everybody_chose():
    game = testing.new_game("usa", 2, 1)
    game.apply(0, KeepTickets(tuple(_offered(game, 0))))
    return game, 0, DrawCard(None)


def turn_action_while_choosing_starting_tickets():
    return testing.new_game("usa", 2, 1), 1, ClaimRoute("Denver-Omaha", None, 4)


def keep_tickets_with_nothing_on_offer():
    return started(2), 0, KeepTickets(("Denver-El Paso",))


def face_up_locomotive_as_second_card():
    game = started(2)
    set_open_row(game, ["red", "locomotive", "blue", "green", "yellow"])
    stack_deck(game, ["white"])
    game.apply(0, DrawCard(0))
    return game, 0, DrawCard(1)


def claim_between_two_cards():
    game = started(2)
    set_hand(game, 0, {"locomotive": 4})
    game.apply(0, DrawCard(None))
    return game, 0, ClaimRoute("Denver-Omaha", None, 4)


def pass_with_actions_left():
    return started(2), 0, Pass()


def empty_open_row_slot():
    game = started(2)
    game.state.deck[:0] = [game.state.open_row[3]]
    game.state.open_row[3] = -1
    return game, 0, DrawCard(3)


def draw_tickets_from_an_empty_deck():
    game = started(2)
    held = [game.board.tickets[t].id for t in (*game.state.players[1].tickets, *game.state.ticket_deck)]
    testing.set_tickets(game, 1, held)
    return game, 0, DrawTickets()


def keep_too_few_starting_tickets():
    game = testing.new_game("usa", 2, 1)
    return game, 1, KeepTickets(tuple(_offered(game, 1)[:1]))


def keep_a_ticket_not_on_offer():
    game = testing.new_game("usa", 2, 1)
    mine = _offered(game, 0)
    other = next(t.id for t in game.board.tickets if t.id not in mine)
    return game, 0, KeepTickets((mine[0], other))


def keep_the_same_ticket_twice():
    game = testing.new_game("usa", 2, 1)
    mine = _offered(game, 0)
    return game, 0, KeepTickets((mine[0], mine[0]))


def wrong_colour():
    game = started(2)
    set_hand(game, 0, {"red": 4})
    return game, 0, ClaimRoute("Denver-Omaha", "red")


def too_few_cards():
    game = started(2)
    set_hand(game, 0, {"purple": 3})
    return game, 0, ClaimRoute("Denver-Omaha", "purple")


def not_enough_trains():
    game = started(2)
    for r in ["Calgary-Winnipeg", "Duluth-Helena", "Duluth-Toronto", "El Paso-Houston", "El Paso-Los Angeles",
              "Helena-Seattle", "Atlanta-Miami", "Atlanta-Nashville"]:
        testing.give_route(game, 0, r)
    set_hand(game, 0, {"purple": 4})
    return game, 0, ClaimRoute("Denver-Omaha", "purple")


def route_owned():
    game = started(2)
    testing.give_route(game, 1, "Denver-Omaha")
    set_hand(game, 0, {"purple": 4})
    return game, 0, ClaimRoute("Denver-Omaha", "purple")


def route_closed_by_its_double():
    game = started(3)
    testing.give_route(game, 1, "Denver-Kansas City/black")
    set_hand(game, 0, {"orange": 4})
    return game, 0, ClaimRoute("Denver-Kansas City/orange", "orange")


def action_after_the_end():
    game = started(2)
    game.finish("ended for the test")
    return game, 1, DrawCard(None)


def unknown_route():
    return started(2), 0, ClaimRoute("Denver-Atlantis", "red")


def negative_locomotives():
    game = started(2)
    set_hand(game, 0, {"purple": 5})
    return game, 0, ClaimRoute("Denver-Omaha", "purple", locomotives=-1)


def slot_of_the_wrong_type():
    return started(2), 0, DrawCard("1")


def action_kind_not_in_the_game():
    return started(2), 0, Teleport()


def not_an_action_at_all():
    return started(2), 0, "draw two cards"


CASES = [
    (other_seat_in_play, NotYourTurn, "it is seat 0's turn"),
    (no_such_seat, NotYourTurn, "no seat 5"),
    (turn_action_before_everybody_chose, NotYourTurn, "every player has chosen"),
    (turn_action_while_choosing_starting_tickets, NotLegalNow, "waiting for choose-tickets"),
    (keep_tickets_with_nothing_on_offer, NotLegalNow, "nothing pending"),
    (face_up_locomotive_as_second_card, NotLegalNow, "R-DRAW-2"),
    (claim_between_two_cards, NotLegalNow, "second-card"),
    (pass_with_actions_left, NotLegalNow, "R-TURN-2"),
    (empty_open_row_slot, NotLegalNow, "slot 3 holds no card"),
    (draw_tickets_from_an_empty_deck, NotLegalNow, "ticket deck is empty"),
    (keep_too_few_starting_tickets, NotLegalNow, "keep at least 2"),
    (keep_a_ticket_not_on_offer, NotLegalNow, "not on offer"),
    (keep_the_same_ticket_twice, MalformedAction, "named twice"),
    (wrong_colour, CannotPay, "cannot be paid in red"),
    (too_few_cards, CannotPay, "needs 4 purple, the hand has 3"),
    (not_enough_trains, CannotPay, "needs 4 trains, seat has 3"),
    (route_owned, RouteTaken, "belongs to seat 1"),
    (route_closed_by_its_double, RouteTaken, "R-PAR-2"),
    (action_after_the_end, GameOver, "the game is over"),
    (unknown_route, MalformedAction, "no route 'Denver-Atlantis'"),
    (negative_locomotives, MalformedAction, "locomotives must be a whole number"),
    (slot_of_the_wrong_type, MalformedAction, "slot"),
    (action_kind_not_in_the_game, MalformedAction, "not an action of this game"),
    (not_an_action_at_all, MalformedAction, "not an action of this game"),
]


@pytest.mark.parametrize(("make", "error", "reason"), CASES, ids=[c[0].__name__ for c in CASES])
def test_illegal_action_raises_a_typed_error_and_changes_nothing(make, error, reason):
    game, seat, action = make()
    testing.assert_invariants(game)
    legal_before = game.legal_actions(seat)
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)
    exc = info.value
    assert type(exc) is error, f"{type(exc).__name__}: {exc}"
    message = str(exc)
    assert message.startswith(f"seat {seat}: ")
    kind = getattr(action, "kind", None)
    assert (kind or repr(action)) in message
    assert reason in message
    assert exc.seat == seat and exc.action == action and reason in exc.reason
    assert snapshot(game) == before
    assert game.legal_actions(seat) == legal_before
    assert action not in legal_before


def test_every_case_raises_one_of_the_typed_errors():
    """The list above covers each typed error at least once."""
    assert {c[1] for c in CASES} == set(TYPED)


def test_a_rejected_action_leaves_the_game_playable():
    """After a rejection the same seat still plays its turn, and the log gains only the legal action."""
    game, seat, action = wrong_colour()
    with pytest.raises(CannotPay):
        game.apply(seat, action)
    game.apply(0, DrawCard(None))
    game.apply(0, DrawCard(None))
    assert game.state.current == 1
    assert [a for _, a in game.log[-2:]] == [DrawCard(None), DrawCard(None)]
    testing.assert_invariants(game)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({"kind": "fly"}, "unknown action kind 'fly'"),
        ({"slot": 1}, "an action is an object with a string 'kind'"),
        ("draw-card", "an action is an object with a string 'kind'"),
        ({"kind": "claim-route", "route": 5}, "route"),
        ({"kind": "claim-route", "route": "Denver-Omaha", "colour": "red"}, "colour"),
    ],
)
def test_malformed_action_data_names_the_seat_and_the_problem(data, reason):
    """Actions read from records or a network (``registry.from_data``) are checked field by field."""
    game = started(2)
    with pytest.raises(MalformedAction) as info:
        game.registry.from_data(data, seat=1)
    assert str(info.value).startswith("seat 1: ")
    assert reason in str(info.value)
