"""Ferries (R-FER-1) and the wor 3-for-1 rule (R-FER-2), through the ``ferries`` plugin's policy
object and through real claims on the Europe map (``wor-europe``; ``europe``-like rules by
switching ``three_for_one`` off)."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_core import variant
from ttr_plugins.claiming import ClaimRoute
from ttr_core.board import Route
from ttr_core.errors import CannotPay
from ttr_core.game import Game
from ttr_kit.testing import assert_invariants, keep_all_starting_tickets, set_hand
from ttr_plugins.ferries import Ferries, FerryRule

#: Europe's ferries used below: length 4 with 2 marks, length 2 with 2 marks, length 2 with 1 mark
SEVASTOPOL = "Constantinople-Sevastopol"
CHANNEL = "Amsterdam-London"
DOVER = "Dieppe-London/1"


def route(length: int, marks: int, rid: str = "X-Y") -> Route:
    return Route(0, rid, "X", "Y", 0, 1, length, "gray", False, marks, ())


def game(three_for_one: bool = True, seed: int = 3) -> Game:
    rs = variant.load("wor-europe")
    if not three_for_one:  # the europe rule set's ferries (R-FER-1 only)
        rs = rs.with_configs({"ferries": Ferries.Config(three_for_one=False)})
    g = keep_all_starting_tickets(Game(rs, ["A", "B"], seed))
    assert g.state.phase == "play" and g.state.current == 0
    return g


def claims_of(g: Game, route_id: str) -> set[tuple]:
    return {(a.color, a.locomotives, a.triples) for a in g.legal_actions(0) if getattr(a, "route", None) == route_id}


# --- the policy object ------------------------------------------------------------------------


def test_R_FER_2_example_payments_are_the_options_offered():
    # length 4, 2 marks, paying green: 2 loco + 2 green; 1 loco + 3 green + 2 green; 6 green + 2 green
    rule = FerryRule(three_for_one=True)
    assert rule.options(route(4, 2), n_color=8, n_loco=2) == [(2, 0), (1, 1), (0, 2)]
    for locos, triples in [(2, 0), (1, 1), (0, 2)]:
        assert rule.problem(route(4, 2), locos, triples) is None


def test_R_FER_1_without_3_for_1_every_mark_needs_a_locomotive():
    rule = FerryRule(three_for_one=False)
    assert rule.options(route(4, 2), n_color=8, n_loco=2) == [(2, 0)]
    assert rule.options(route(4, 2), n_color=8, n_loco=1) == []
    assert rule.options(route(4, 2), n_color=1, n_loco=3) == [(3, 0)]  # locomotives replace missing colour cards
    assert "R-FER-1" in rule.problem(route(4, 2), 1, 0)
    assert "triples are not part of these rules" in rule.problem(route(4, 2), 1, 1)
    assert rule.min_locomotives(route(4, 2)) == 2


def test_R_FER_2_triples_only_replace_marks():
    rule = FerryRule(three_for_one=True)
    assert "at most 2 triple" in rule.problem(route(4, 2), 0, 3)
    assert "at most 0 triple" in rule.problem(route(3, 0), 0, 1)  # a plain route has no mark to replace
    assert rule.problem(route(4, 2), 1, 0) is not None  # one mark left unpaid
    assert rule.min_locomotives(route(4, 2)) == 0


def test_R_FER_2_options_leave_out_payments_dearer_in_every_way():
    # 4 green cards: a triple would need 1 locomotive for its mark's partner and 1 more for the
    # missing colour card, as many locomotives as the plain payment and more green: not offered
    rule = FerryRule(three_for_one=True)
    assert rule.options(route(4, 2), n_color=4, n_loco=2) == [(2, 0)]
    assert rule.options(route(4, 2), n_color=5, n_loco=2) == [(2, 0), (1, 1)]


@given(
    length=st.integers(1, 8), marks=st.integers(0, 8), n_color=st.integers(0, 14), n_loco=st.integers(0, 8),
    three=st.booleans(),
)
def test_R_FER_options_are_valid_affordable_and_not_beaten(length, marks, n_color, n_loco, three):
    # Options are valid and affordable; no valid payment the hand can make is cheaper than an option
    # in both locomotives and colour cards; and no valid payment needs fewer locomotives than every
    # option (locomotives are the scarce wild card).
    marks = min(marks, length)
    r = route(length, marks)
    rule = FerryRule(three_for_one=three)
    options = rule.options(r, n_color, n_loco)

    def cost(locos, triples):
        return locos, length - locos - triples + 3 * triples

    valid = [
        (locos, triples)
        for locos in range(length + 1)
        for triples in range(length + 1 - locos)
        if locos <= n_loco and cost(locos, triples)[1] <= n_color and rule.problem(r, locos, triples) is None
    ]
    for option in options:
        assert option in valid
        lo, co = cost(*option)
        beaten = [p for p in valid if cost(*p)[0] <= lo and cost(*p)[1] <= co and cost(*p) != (lo, co)]
        assert not beaten, f"{option} is beaten by {beaten}"
    if valid:
        assert min(lo for lo, _ in options) == min(lo for lo, _ in valid)
    else:
        assert options == []


# --- through claims ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hand, payment",
    [
        ({"locomotive": 2, "green": 2}, (2, 0)),  # 2 loco + 2 green
        ({"locomotive": 1, "green": 5}, (1, 1)),  # 1 loco + 3 green (triple) + 2 green
        ({"green": 8}, (0, 2)),  # 6 green (2 triples) + 2 green
    ],
)
def test_R_FER_2_each_example_payment_claims_the_route_with_4_trains(hand, payment):
    g = game()
    set_hand(g, 0, hand)
    assert ("green", *payment) in claims_of(g, SEVASTOPOL)
    discard = len(g.state.discard)
    g.apply(0, ClaimRoute(SEVASTOPOL, "green", *payment))
    me = g.state.players[0]
    assert sum(me.hand) == 0  # exactly the hand was spent, a card never counts twice
    assert len(g.state.discard) - discard == sum(hand.values())
    assert me.trains == 45 - 4 and me.route_points == 7
    assert g.board.routes[me.routes[0]].id == SEVASTOPOL
    assert_invariants(g)


def test_R_FER_2_a_triple_cannot_include_a_locomotive():
    g = game()
    set_hand(g, 0, {"green": 5, "locomotive": 3})
    before = g.dump()
    with pytest.raises(CannotPay, match="needs 8 green"):
        g.apply(0, ClaimRoute(SEVASTOPOL, "green", 0, 2))  # the second triple would be 2 green + 1 locomotive
    assert g.dump() == before
    assert ("green", 0, 2) not in claims_of(g, SEVASTOPOL)
    g.apply(0, ClaimRoute(SEVASTOPOL, "green", 1, 1))  # what the hand can do: 1 loco + 3 green + 2 green
    assert g.state.players[0].hand[g.cards.id("locomotive")] == 2


def test_R_FER_2_a_triple_cannot_be_exchanged_for_a_locomotive_card():
    # A triple pays a mark and nothing else: not an ordinary space, not a route without marks, and
    # it never turns into a locomotive in hand.
    g = game()
    set_hand(g, 0, {"purple": 9})
    before = g.dump()
    with pytest.raises(CannotPay, match="R-FER-2"):
        g.apply(0, ClaimRoute("Amsterdam-Bruxelles", "black", 0, 1))  # no marks there
    with pytest.raises(CannotPay, match="R-FER-2"):
        g.apply(0, ClaimRoute(DOVER, "purple", 0, 2))  # 1 mark, 2 triples
    assert g.dump() == before
    g.apply(0, ClaimRoute(DOVER, "purple", 0, 1))
    assert g.state.players[0].hand[g.cards.locomotive] == 0
    assert g.cards.counts_by_name(g.state.players[0].hand) == {"purple": 5}


def test_R_FER_2_a_ferry_with_every_space_marked_can_be_paid_in_triples_alone():
    g = game()
    set_hand(g, 0, {"purple": 6, "locomotive": 1})
    assert {("purple", 1, 1), ("purple", 0, 2)} <= claims_of(g, CHANNEL)
    g.apply(0, ClaimRoute(CHANNEL, "purple", 0, 2))
    assert g.cards.counts_by_name(g.state.players[0].hand) == {"locomotive": 1}
    assert g.state.players[0].trains == 45 - 2


def test_R_FER_2_the_triples_are_of_the_paying_colour():
    # grey ferry: the colour chosen pays everything, triples included (R-ROUTE-3: colours never mix)
    g = game()
    set_hand(g, 0, {"red": 3, "blue": 1})
    assert claims_of(g, DOVER) == set()  # red triple + blue space would mix colours
    set_hand(g, 0, {"red": 4})
    assert claims_of(g, DOVER) == {("red", 0, 1)}


def test_R_FER_1_without_3_for_1_a_mark_needs_a_locomotive():
    g = game(three_for_one=False)
    set_hand(g, 0, {"green": 8, "locomotive": 1})
    assert claims_of(g, SEVASTOPOL) == set()
    before = g.dump()
    with pytest.raises(CannotPay, match="triples are not part of these rules"):
        g.apply(0, ClaimRoute(SEVASTOPOL, "green", 1, 1))
    with pytest.raises(CannotPay, match="R-FER-1"):
        g.apply(0, ClaimRoute(SEVASTOPOL, "green", 1, 0))
    assert g.dump() == before
    set_hand(g, 0, {"green": 2, "locomotive": 2})
    assert claims_of(g, SEVASTOPOL) == {("green", 2, 0)}
    g.apply(0, ClaimRoute(SEVASTOPOL, "green", 2, 0))
    assert g.state.players[0].route_points == 7


def test_R_FER_1_all_locomotive_payment_pays_the_marks():
    g = game(three_for_one=False)
    set_hand(g, 0, {"locomotive": 4})
    assert (None, 4, 0) in claims_of(g, SEVASTOPOL)
    g.apply(0, ClaimRoute(SEVASTOPOL, None, 4, 0))
    assert sum(g.state.players[0].hand) == 0
