"""Tickets in ``usa``: starting tickets (R-SET-4, R-SET-6), drawing tickets (R-TIX-1), completion
(R-TIX-2..3) and ticket scoring (R-SCORE-2)."""

from __future__ import annotations

import itertools

import pytest
from usa_kit import position, score_of, snapshot

from ttr_kit import testing
from ttr_plugins.train_cards import DrawCard
from ttr_plugins.tickets import DrawTickets, KeepTickets
from ttr_core.errors import NotLegalNow, NotYourTurn
from ttr_core.position import score_position
from ttr_kit.testing import give_route


def offered(game, seat) -> list[str]:
    """The tickets on offer to ``seat``, as that player sees them."""
    decision = game.view(seat)["players"][seat]["decision"]
    assert decision is not None and decision["kind"] == "choose-tickets"
    return [game.board.tickets[t].id for t in decision["offered"]]


def my_tickets(game, seat) -> list[str]:
    return game.view(seat)["you"]["tickets"]


def tickets_left(game) -> int:
    return game.view(None)["tickets_left"]


# --- starting tickets (R-SET-4, R-SET-6) ----------------------------------------------------------


def test_r_set_4_three_starting_tickets_are_dealt_to_every_player():
    game = testing.new_game("usa", 4, seed=2)
    assert game.state.phase == "setup"
    seen = []
    for seat in range(4):
        mine = offered(game, seat)
        assert len(mine) == 3
        seen += mine
        assert game.view(None)["players"][seat]["decision"] == {"kind": "choose-tickets", "offered": 3}
    assert len(set(seen)) == 12
    assert tickets_left(game) == 30 - 12


@pytest.mark.parametrize("keep", [0, 1])
def test_r_set_4_keep_at_least_two_starting_tickets(keep):
    game = testing.new_game("usa", 2, seed=2)
    mine = offered(game, 0)
    before = snapshot(game)
    with pytest.raises(NotLegalNow, match="at least 2"):
        game.apply(0, KeepTickets(tuple(mine[:keep])))
    assert snapshot(game) == before


def test_r_set_4_starting_rejects_go_to_the_bottom_of_the_ticket_deck():
    """R-SET-4 (usa): a rejected starting ticket goes under the deck: it is the very last ticket that
    the draw-tickets action (R-TIX-1) ever offers."""
    game = testing.new_game("usa", 2, seed=4)
    mine = offered(game, 0)
    rejected = mine[2]
    game.apply(0, KeepTickets(tuple(mine[:2])))
    game.apply(1, KeepTickets(tuple(offered(game, 1))))
    assert my_tickets(game, 0) == mine[:2]
    assert tickets_left(game) == 30 - 6 + 1
    for turn in range(8):  # 8 draws of 3 take the 24 tickets above it
        seat = turn % 2
        game.apply(seat, DrawTickets())
        offer = offered(game, seat)
        assert len(offer) == 3 and rejected not in offer
        game.apply(seat, KeepTickets(tuple(offer)))
    game.apply(0, DrawTickets())
    assert offered(game, 0) == [rejected]  # R-TIX-1: fewer if fewer remain
    game.apply(0, KeepTickets((rejected,)))
    assert rejected in my_tickets(game, 0)


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_r_set_6_every_player_chooses_before_the_first_turn_in_any_order(order):
    """R-SET-6: the choices are taken as they come; the first turn (seat 0) starts once every player
    has chosen, and nobody may play a turn before."""
    game = testing.new_game("usa", 3, seed=6)
    assert sorted(game.to_act()) == [0, 1, 2]
    for i, seat in enumerate(order):
        assert game.state.phase == "setup"
        for other in range(3):  # a turn action is refused from everybody, chosen or not
            error = NotYourTurn if other in order[:i] else NotLegalNow
            with pytest.raises(error, match="every player has chosen|choose-tickets"):
                game.apply(other, DrawCard(None))
        game.apply(seat, KeepTickets(tuple(offered(game, seat)[:2])))
        if i < 2:
            assert seat not in game.to_act()
    assert game.state.phase == "play"
    assert game.to_act() == [0]
    assert all(len(my_tickets(game, s)) == 2 for s in range(3))


# --- drawing tickets (R-TIX-1) ------------------------------------------------------------------


def test_r_tix_1_draw_three_keep_at_least_one_rejects_to_the_bottom(usa2):
    left = tickets_left(usa2)
    usa2.apply(0, DrawTickets())
    offer = offered(usa2, 0)
    assert len(offer) == 3 and tickets_left(usa2) == left - 3
    before = snapshot(usa2)
    with pytest.raises(NotLegalNow, match="at least 1"):
        usa2.apply(0, KeepTickets(()))
    assert snapshot(usa2) == before
    usa2.apply(0, KeepTickets((offer[1],)))
    assert offer[1] in my_tickets(usa2, 0) and len(my_tickets(usa2, 0)) == 4
    assert tickets_left(usa2) == left - 1
    assert usa2.state.current == 1
    bottom = [usa2.board.tickets[t].id for t in usa2.state.ticket_deck[:2]]
    assert sorted(bottom) == sorted([offer[0], offer[2]])


def test_r_tix_1_drawing_tickets_is_not_legal_when_the_ticket_deck_is_empty(usa2):
    rest = [usa2.board.tickets[t].id for t in usa2.state.ticket_deck]
    testing.set_tickets(usa2, 1, my_tickets(usa2, 1) + rest)
    assert tickets_left(usa2) == 0
    assert DrawTickets() not in usa2.legal_actions(0)
    with pytest.raises(NotLegalNow, match="R-TIX-1"):
        usa2.apply(0, DrawTickets())


def test_r_tix_3_a_ticket_complete_when_drawn_counts(usa2):
    """R-TIX-3: "a newly drawn ticket may be completed already": Denver-El Paso (4), drawn after the
    player built Denver-Santa Fe-El Paso, scores +4."""
    give_route(usa2, 0, "Denver-Santa Fe")
    give_route(usa2, 0, "El Paso-Santa Fe")
    target = usa2.board.find_ticket("Denver-El Paso").index
    deck = usa2.state.ticket_deck
    if target in deck:
        deck.remove(target)
    else:
        for p in usa2.state.players:
            if target in p.tickets:
                p.tickets.remove(target)
    deck.append(target)  # on top
    usa2.apply(0, DrawTickets())
    assert "Denver-El Paso" in offered(usa2, 0)
    usa2.apply(0, KeepTickets(("Denver-El Paso",)))
    usa2.finish("scored for the test")
    me = score_of(usa2, "P1")
    assert "Denver-El Paso" in me.tickets_completed
    assert "Denver-El Paso" not in me.tickets_failed


# --- completion and ticket points (R-TIX-2, R-TIX-3, R-SCORE-2) -----------------------------------


def test_r_tix_2_a_chain_of_own_routes_completes_a_ticket_not_only_a_direct_route():
    """R-TIX-2: Denver-El Paso has no direct route; Denver-Santa Fe + Santa Fe-El Paso complete it.
    P1: routes 2 + 2, ticket +4, longest path 4 (alone) +10 = 18."""
    game = score_position(position(
        {"routes": ["Denver-Santa Fe", "Santa Fe-El Paso"], "tickets": ["Denver-El Paso"]},
        {"routes": ["Atlanta-Nashville"], "tickets": []},
    ))
    me = score_of(game, "P1")
    assert me.tickets_completed == ("Denver-El Paso",)
    assert me.ticket_points == 4
    assert me.total == 2 + 2 + 4 + 10


def test_r_tix_2_only_own_routes_count():
    """R-TIX-2: the holder's own routes: an opponent's Santa Fe-El Paso does not join Denver to El Paso."""
    game = score_position(position(
        {"routes": ["Denver-Santa Fe"], "tickets": ["Denver-El Paso"]},
        {"routes": ["Santa Fe-El Paso"], "tickets": []},
    ))
    me = score_of(game, "P1")
    assert me.tickets_failed == ("Denver-El Paso",)
    assert me.ticket_points == -4


def test_r_tix_3_the_same_routes_complete_several_tickets():
    """R-TIX-3: Duluth-Omaha-Kansas City-Oklahoma City-Dallas-Houston completes both Kansas City-Houston
    (5) and Duluth-Houston (8). Routes 2+1+2+2+1 = 8, tickets 13, longest path 8 (alone) +10 = 31."""
    chain = ["Duluth-Omaha", "Omaha-Kansas City", "Kansas City-Oklahoma City", "Oklahoma City-Dallas", "Dallas-Houston"]
    game = score_position(position({"routes": chain, "tickets": ["Kansas City-Houston", "Duluth-Houston"]}, {}))
    me = score_of(game, "P1")
    assert sorted(me.tickets_completed) == ["Duluth-Houston", "Kansas City-Houston"]
    assert me.routes == 8 and me.ticket_points == 13 and me.total == 31


def test_r_score_2_failed_tickets_subtract_their_points():
    """R-SCORE-2: no partial credit: Boston-Miami (12) with Boston-New York built scores -12.
    P1: route 2, tickets +4 -12, longest path 2 vs P2's 1: +10 -> 4."""
    game = score_position(position(
        {"routes": ["Boston-New York/red"], "tickets": ["Boston-Miami", "New York-Atlanta"]},
        {"routes": ["Atlanta-Nashville"], "tickets": ["Denver-El Paso"]},
    ))
    me, other = score_of(game, "P1"), score_of(game, "P2")
    assert me.tickets_failed == ("Boston-Miami", "New York-Atlanta")
    assert me.ticket_points == -12 - 6
    assert me.total == 2 - 18 + 10
    assert other.total == 1 - 4


def test_custom_ticket_in_a_position_is_scored_like_a_map_ticket():
    """A ticket not on the map, given as {from, to, points}, completes by the same rule (R-TIX-2)."""
    game = score_position(position(
        {"routes": ["Denver-Omaha", "Omaha-Chicago"], "tickets": [{"from": "Denver", "to": "Chicago", "points": 9}]},
        {"routes": [], "tickets": [{"from": "Miami", "to": "Seattle", "points": 30}]},
    ))
    assert score_of(game, "P1").ticket_points == 9
    assert score_of(game, "P2").ticket_points == -30
