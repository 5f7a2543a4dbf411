"""The ``wor`` rule set (World of Railways) on the USA map: every row of docs/rules.md that names ``wor``,
tested through games and hand-given positions. Ferries and tunnels: ``test_ferries.py`` and
``test_tunnels.py``; rules versions and ``wor-legacy``: ``test_wor_versions.py``."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from ttr_plugins.claiming import ClaimRoute
from ttr_plugins.train_cards import DrawCard
from ttr_plugins.tickets import DrawTickets, KeepTickets
from ttr_plugins.passing import Pass
from ttr_core.errors import IllegalAction, NotYourTurn, RouteTaken
from ttr_core.game import Game, SetupError
from ttr_core.position import score_position
from ttr_kit.testing import (
    assert_invariants,
    give_route,
    keep_all_starting_tickets,
    new_game,
    set_hand,
    set_open_row,
    stack_deck,
)
from ttr_plugins.resignation import Resign
from ttr_plugins.train_cards import SecondCard


def started(players: int = 2, seed: int = 1, vid: str = "wor") -> Game:
    g = keep_all_starting_tickets(new_game(vid, players, seed))
    assert g.state.phase == "play" and g.state.current == 0
    return g


def row(g: Game) -> list[str | None]:
    return [g.cards.names[c] if c >= 0 else None for c in g.state.open_row]


def draw_slots(g: Game, seat: int) -> set[int | None]:
    return {a.slot for a in g.legal_actions(seat) if isinstance(a, DrawCard)}


def end_turn_by_drawing(g: Game) -> None:
    """The current seat draws two blind cards (any turn that changes nothing else much)."""
    seat = g.state.current
    g.apply(seat, DrawCard(None))
    if g.state.players[seat].decision is not None:
        g.apply(seat, DrawCard(None))


def position(*players: dict, version: int | None = None, vid: str = "wor") -> Game:
    data = {"variant": vid, "players": [{"name": f"P{i + 1}", **p} for i, p in enumerate(players)]}
    if version is not None:
        data["version"] = version
    return score_position(data)


def ticket(a: str, b: str, points: int) -> dict:
    return {"from": a, "to": b, "points": points}


def score(g: Game, seat: int):
    return g.result.scores[seat]


# --- setup ----------------------------------------------------------------------------------------


def test_R_SET_1_wor_takes_2_to_6_players():
    for n in (2, 6):
        assert len(new_game("wor", n).state.players) == n
    for n in (1, 7):
        with pytest.raises(SetupError, match="2 to 6 players"):
            new_game("wor", n)


def test_R_SET_2_R_SET_3_deck_hands_and_open_row():
    g = new_game("wor", 4, seed=8)
    census = Counter(g.state.deck + g.state.discard + [c for c in g.state.open_row if c >= 0])
    for p in g.state.players:
        assert sum(p.hand) == 4
        census.update({c: n for c, n in enumerate(p.hand) if n})
    assert sum(census.values()) == 110
    assert {g.cards.names[c]: n for c, n in census.items()} == {
        **{c: 12 for c in ("purple", "blue", "orange", "white", "green", "yellow", "black", "red")}, "locomotive": 14,
    }
    assert len([c for c in g.state.open_row if c >= 0]) == 5


def test_R_SET_3_R_ROW_3_the_open_row_is_checked_for_a_reset_at_the_start():
    reset_seen = 0
    for seed in range(120):
        g = new_game("wor", 2, seed)
        names = row(g)
        colours = Counter(n for n in names if n != "locomotive")
        triggered = names.count("locomotive") >= 3 or max(colours.values(), default=0) >= 4
        # nothing is discarded at the start except by a reset; after 3 resets the row stays as dealt
        assert len(g.state.discard) in (0, 5, 10, 15)
        assert not triggered or len(g.state.discard) == 15
        reset_seen += bool(g.state.discard)
    assert reset_seen > 0


def test_R_SET_4_five_starting_tickets_keep_at_least_3_rejects_to_the_bottom():
    g = new_game("wor", 2, seed=4)
    d = g.state.players[0].decision
    assert len(d.offered) == 5
    options = [a for a in g.legal_actions(0) if isinstance(a, KeepTickets)]
    assert sorted(len(a.tickets) for a in options) == [3] * 10 + [4] * 5 + [5]
    ids = [g.board.tickets[t].id for t in d.offered]
    with pytest.raises(IllegalAction, match="keep at least 3"):
        g.apply(0, KeepTickets(tuple(ids[:2])))
    g.apply(0, KeepTickets(tuple(ids[:3])))
    assert g.state.ticket_deck[:2] == [t for t in d.offered if g.board.tickets[t].id in ids[3:]]


def test_R_SET_5_45_trains_and_no_stations():
    g = started()
    assert all(p.trains == 45 for p in g.state.players)
    assert "build-station" not in g.registry.kinds()


def test_R_SET_6_starting_tickets_are_chosen_in_any_order():
    g = new_game("wor", 3, seed=2)
    assert g.to_act() == [0, 1, 2]
    for seat in (2, 0):
        d = g.state.players[seat].decision
        g.apply(seat, KeepTickets(tuple(g.board.tickets[t].id for t in d.offered[:3])))
        assert g.state.phase == "setup"
    with pytest.raises(NotYourTurn):
        g.apply(0, DrawCard(None))
    d = g.state.players[1].decision
    g.apply(1, KeepTickets(tuple(g.board.tickets[t].id for t in d.offered)))
    assert g.state.phase == "play" and g.state.current == 0 and g.state.turn == 0


# --- the turn ---------------------------------------------------------------------------------------


def test_R_TURN_1_one_action_a_turn_then_the_next_seat():
    g = started(3)
    assert {a.kind for a in g.legal_actions(0)} <= {"draw-card", "claim-route", "draw-tickets"}
    set_hand(g, 0, {"red": 2})
    g.apply(0, ClaimRoute("Atlanta-Charleston", "red", 0))
    assert g.state.current == 1
    with pytest.raises(NotYourTurn):
        g.apply(0, DrawCard(None))
    g.apply(1, DrawTickets())
    assert g.state.current == 1  # choosing the tickets is part of the same turn
    g.apply(1, g.legal_actions(1)[0])
    assert g.state.current == 2


def test_R_TURN_2_R_DRAW_3_deck_exhaustion_then_only_pass_is_left():
    g = started(2, seed=3)
    st = g.state
    set_hand(g, 1, {})
    set_open_row(g, [None] * 5)
    while st.deck:  # every card into seat 0's hand: cards in hands never return to the deck
        st.players[0].hand[st.deck.pop()] += 1
    red = g.cards.id("red")
    st.players[0].hand[red] -= 1
    st.discard.append(red)
    st.boxed_tickets.extend(st.ticket_deck)
    st.ticket_deck.clear()
    assert_invariants(g)
    assert draw_slots(g, 0) == {None}  # the discard pile will be shuffled into a deck
    g.apply(0, DrawCard(None))
    assert st.players[0].decision is None and st.current == 1  # only one card could be taken
    assert not st.deck and not st.discard and row(g) == [None] * 5  # nothing to refill the row with
    assert g.legal_actions(1) == [Pass()]
    with pytest.raises(IllegalAction, match="R-DRAW-3"):
        g.apply(1, DrawCard(None))
    g.apply(1, Pass())
    assert_invariants(g)


def test_R_DRAW_3_an_empty_deck_is_rebuilt_from_the_discard_pile():
    g = started(2, seed=6)
    st = g.state
    while st.deck:
        st.players[1].hand[st.deck.pop()] += 1
    blue = g.cards.id("blue")
    for _ in range(3):
        st.players[1].hand[blue] -= 1
        st.discard.append(blue)
    before = sum(st.players[0].hand)
    end_turn_by_drawing(g)
    assert sum(st.players[0].hand) == before + 2 and len(st.deck) + len(st.discard) == 1
    assert_invariants(g)


# --- drawing and the open row -----------------------------------------------------------------------


def test_R_ROW_1_an_emptied_slot_is_refilled_only_when_the_turn_passes():
    g = started()
    set_open_row(g, ["red", "blue", "green", "yellow", "black"])
    stack_deck(g, ["white", "purple"])
    g.apply(0, DrawCard(0))
    assert row(g) == [None, "blue", "green", "yellow", "black"]
    assert isinstance(g.state.players[0].decision, SecondCard)
    assert draw_slots(g, 0) == {None, 1, 2, 3, 4}  # the remaining 4 or the deck
    g.apply(0, DrawCard(1))
    assert row(g) == ["white", "purple", "green", "yellow", "black"]
    assert g.cards.counts_by_name(g.state.players[0].hand).keys() >= {"red", "blue"}


def test_R_DRAW_2_a_face_up_locomotive_first_ends_the_draw_and_never_second():
    g = started()
    set_open_row(g, ["locomotive", "blue", "green", "yellow", "black"])
    g.apply(0, DrawCard(0))
    assert g.state.current == 1 and "locomotive" not in row(g)[1:]
    set_open_row(g, ["red", "locomotive", "green", "yellow", "black"])
    g.apply(1, DrawCard(0))
    assert draw_slots(g, 1) == {None, 2, 3, 4}
    with pytest.raises(IllegalAction, match="R-DRAW-2"):
        g.apply(1, DrawCard(1))
    g.apply(1, DrawCard(None))  # a blind locomotive would count as one ordinary card
    assert g.state.current == 0


@pytest.mark.parametrize(
    "refill, trigger",
    [
        (["green", "yellow"], "4 cards of one colour"),
        (["locomotive", "yellow"], "3 locomotives"),
    ],
)
def test_R_ROW_2_R_ROW_3_the_row_is_reset_on_3_locomotives_or_4_of_one_colour(refill, trigger):
    g = started()
    first = ["green", "green", "green", "red", "blue"] if "colour" in trigger else [
        "locomotive", "locomotive", "white", "red", "blue"]
    set_open_row(g, first)
    fresh = ["purple", "orange", "white", "black", "red"]
    stack_deck(g, [*refill, *fresh])
    discard = len(g.state.discard)
    g.apply(0, DrawCard(3))
    g.apply(0, DrawCard(4))  # the refill makes the row trigger a reset at the end of the turn
    assert row(g) == fresh
    assert sorted(g.cards.names[c] for c in g.state.discard[discard:]) == sorted([*first[:3], *refill])


def test_R_ROW_2_three_of_one_colour_do_not_reset_the_row():
    g = started()
    set_open_row(g, ["green", "green", "white", "red", "blue"])
    stack_deck(g, ["green", "yellow"])
    g.apply(0, DrawCard(3))
    g.apply(0, DrawCard(4))
    assert row(g) == ["green", "green", "white", "green", "yellow"]


def test_R_ROW_3_at_most_3_resets_in_a_row():
    g = started()
    set_open_row(g, ["locomotive", "locomotive", "white", "red", "blue"])
    deals = [["locomotive", "locomotive", "locomotive", "red", "blue"]] * 3
    stack_deck(g, ["locomotive", "yellow", *itertools.chain(*deals), "green"])
    discard = len(g.state.discard)
    g.apply(0, DrawCard(3))
    g.apply(0, DrawCard(4))
    assert row(g) == deals[-1]  # still 3 locomotives: no fourth reset
    assert len(g.state.discard) - discard == 15
    assert g.cards.names[g.state.deck[-1]] == "green"
    assert_invariants(g)


# --- claiming: parallel routes, points ----------------------------------------------------------------


def test_R_PAR_1_one_player_takes_at_most_one_of_parallel_routes():
    g = started(2)
    set_hand(g, 0, {"red": 2})
    g.apply(0, ClaimRoute("Atlanta-Raleigh/1", "red", 0))
    end_turn_by_drawing(g)
    set_hand(g, 0, {"red": 2})
    assert not any(getattr(a, "route", "") == "Atlanta-Raleigh/2" for a in g.legal_actions(0))
    with pytest.raises(RouteTaken, match="R-PAR-1"):
        g.apply(0, ClaimRoute("Atlanta-Raleigh/2", "red", 0))


@pytest.mark.parametrize("players", [2, 3])
def test_R_PAR_2_parallel_routes_stay_open_to_opponents_in_small_games(players):
    g = started(players)
    set_hand(g, 0, {"red": 2})
    g.apply(0, ClaimRoute("Atlanta-Raleigh/1", "red", 0))
    set_hand(g, 1, {"blue": 2})
    assert ClaimRoute("Atlanta-Raleigh/2", "blue", 0) in g.legal_actions(1)
    g.apply(1, ClaimRoute("Atlanta-Raleigh/2", "blue", 0))
    assert g.state.owner[g.board.route_index["Atlanta-Raleigh/2"]] == 1


def test_R_ROUTE_2_a_route_needs_both_the_cards_and_the_trains():
    g = started()
    for rid in ("Calgary-Winnipeg", "Duluth-Helena", "Duluth-Toronto", "El Paso-Houston", "El Paso-Los Angeles",
                "Helena-Seattle", "Miami-New Orleans"):
        give_route(g, 0, rid)
    assert g.state.players[0].trains == 3
    set_hand(g, 0, {"blue": 6})
    assert not any(getattr(a, "route", "") == "Atlanta-Miami" for a in g.legal_actions(0))
    with pytest.raises(IllegalAction, match="needs 5 trains"):
        g.apply(0, ClaimRoute("Atlanta-Miami", "blue", 0))


def test_R_SCORE_1_wor_route_points_7_14_8_16_9_plus_twice_the_length():
    g = new_game("wor")
    expected = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 14, 8: 16, 9: 18, 10: 20, 12: 24}
    assert {n: g.route_points(n) for n in expected} == expected


def test_R_SCORE_1_the_length_8_route_of_europe_scores_16():
    g = position({"routes": ["Petrograd-Stockholm"]}, {}, vid="wor-europe")
    assert score(g, 0).routes == 16


def test_R_TIX_1_draw_3_tickets_keep_at_least_1_rejects_to_the_bottom():
    g = started()
    top = list(reversed(g.state.ticket_deck[-3:]))  # the top ticket is the last one
    g.apply(0, DrawTickets())
    d = g.state.players[0].decision
    assert list(d.offered) == top
    assert sorted(len(a.tickets) for a in g.legal_actions(0)) == [1, 1, 1, 2, 2, 2, 3]
    with pytest.raises(IllegalAction, match="keep at least 1"):
        g.apply(0, KeepTickets(()))
    kept = g.board.tickets[top[1]].id
    g.apply(0, KeepTickets((kept,)))
    assert g.state.ticket_deck[:2] == [top[0], top[2]]
    assert g.state.players[0].tickets[-1] == top[1] and g.state.current == 1


# --- scoring, bonuses, winners -----------------------------------------------------------------------

#: 15 + 15 + 1 + 1 = 32 route points; the trail Duluth-Helena-Seattle-Vancouver is 13 spaces
ROUTES_32 = ["Duluth-Helena", "Helena-Seattle", "Seattle-Vancouver/1", "Portland-Seattle/1"]
TICKETS_55 = [ticket("Duluth", "Seattle", 8), ticket("Helena", "Vancouver", 12), ticket("Miami", "Boston", 7)]


@pytest.mark.parametrize("vid", ["wor", "wor-legacy"])
def test_R_WIN_1_routes_32_tickets_8_12_minus_7_bonus_10_make_55(vid):
    # the other player completes 2 tickets too: no ticket leader, the 10 is the longest path
    g = position(
        {"routes": ROUTES_32, "tickets": TICKETS_55},
        {"routes": ["Atlanta-Nashville"], "tickets": [ticket("Atlanta", "Nashville", 1)] * 2},
        vid=vid,
    )
    me = score(g, 0)
    assert (me.routes, me.ticket_points, me.bonus("longest-path"), me.bonus("ticket-leader")) == (32, 8 + 12 - 7, 10, 0)
    assert me.total == 55
    assert len(me.tickets_completed) == 2 and len(me.tickets_failed) == 1
    assert g.result.winners.seats == (0,)


def test_R_SCORE_2_R_SCORE_3_cards_in_hand_score_nothing_and_a_failed_ticket_costs_its_points():
    g = position({"routes": ["Atlanta-Nashville"], "tickets": [ticket("Atlanta", "Boston", 9)]}, {})
    assert score(g, 0).ticket_points == -9 and score(g, 0).total == 1 - 9 + 10


def test_R_BON_1_every_player_tied_at_the_longest_path_gets_it():
    g = position({"routes": ["Atlanta-Nashville"]}, {"routes": ["Dallas-Houston/1"]}, {"routes": []}, version=1)
    assert [score(g, s).bonus("longest-path") for s in range(3)] == [10, 10, 0]


def test_R_BON_1_wor_when_nobody_built_everybody_gets_it():
    g = position({}, {}, {}, version=1)
    assert [score(g, s).bonus("longest-path") for s in range(3)] == [10, 10, 10]
    assert g.result.winners.seats == (0, 1, 2)


def test_R_BON_1_usa_when_nobody_built_nobody_gets_it():
    # the other rule sets' engine decision, for contrast: the parameter really differs
    g = position({}, {}, vid="usa")
    assert [score(g, s).bonus("longest-path") for s in range(2)] == [0, 0]


def _done(route: str, a: str, b: str, n: int) -> dict:
    return {"routes": [route], "tickets": [ticket(a, b, 1)] * n}


A, B, C = ("Atlanta-Nashville", "Atlanta", "Nashville"), ("Dallas-Houston/1", "Dallas", "Houston"), (
    "Kansas City-Omaha/1", "Kansas City", "Omaha")


def test_R_BON_2_5_5_3_nobody_gets_the_ticket_leader_bonus():
    g = position(_done(*A, 5), _done(*B, 5), _done(*C, 3))
    assert [score(g, s).bonus("ticket-leader") for s in range(3)] == [0, 0, 0]


def test_R_BON_2_5_3_3_the_first_gets_it():
    g = position(_done(*A, 5), _done(*B, 3), _done(*C, 3))
    assert [score(g, s).bonus("ticket-leader") for s in range(3)] == [10, 0, 0]
    assert "5 tickets" in next(b.detail for b in score(g, 0).bonuses if b.name == "ticket-leader")


def test_R_BON_2_ticket_points_do_not_matter_and_failed_tickets_do_not_count():
    big = {"routes": [A[0]], "tickets": [ticket(B[1], B[2], 20)] * 2 + [ticket(A[1], A[2], 1)]}
    g = position(big, _done(*B, 2))  # seat 0: 1 completed (and 2 failed); seat 1: 2 completed
    assert [score(g, s).bonus("ticket-leader") for s in range(2)] == [0, 10]


def test_R_BON_2_nobody_with_a_completed_ticket_nobody_gets_it():
    g = position(_done(*A, 0), _done(*B, 0))
    assert [score(g, s).bonus("ticket-leader") for s in range(2)] == [0, 0]


def test_R_BON_2_resigned_players_are_left_out():
    g = position({**_done(*A, 6), "resigned": True}, _done(*B, 5), _done(*C, 3))
    assert [score(g, s).bonus("ticket-leader") for s in range(3)] == [0, 10, 0]


def test_R_BON_2_stacks_with_the_longest_path_for_20():
    g = position({"routes": ROUTES_32, "tickets": TICKETS_55}, _done(*B, 1))
    assert score(g, 0).bonus("longest-path") + score(g, 0).bonus("ticket-leader") == 20
    assert score(g, 0).total == 65


def test_wor_winner_ties_share_the_win_where_usa_breaks_them():
    # 13 each: seat 0 has 2 route points, 1 ticket and the longest path (2); seat 1 has 3 route
    # points and the longest path (2). The usa rules break the tie on completed tickets; wor does not.
    players = (
        {"routes": ["Seattle-Vancouver/1", "Portland-Seattle/1"], "tickets": [ticket("Seattle", "Vancouver", 1)]},
        {"routes": ["Atlanta-Charleston", "Dallas-Houston/1"]},
    )
    g = position(*players, version=1)  # version 1: no ticket-leader bonus to tip the balance
    assert score(g, 0).total == score(g, 1).total == 13
    assert g.result.winners.seats == (0, 1) and g.result.winners.decided_by == "shared"
    usa = position(*players, vid="usa")
    assert usa.result.winners.seats == (0,) and usa.result.winners.decided_by == "tickets"


# --- the end ------------------------------------------------------------------------------------------


def _trains_down_to(g: Game, seat: int, left: int) -> None:
    # long routes (6 and 5 spaces) make the supply small while the rest of the board stays free
    for rid in ("Calgary-Winnipeg", "Duluth-Helena", "Duluth-Toronto", "El Paso-Houston", "El Paso-Los Angeles",
                "Helena-Seattle", "Miami-New Orleans", "Portland-Salt Lake City", "Sault St. Marie-Winnipeg"):
        if g.state.players[seat].trains - g.board.find_route(rid).length >= left:
            give_route(g, seat, rid)
    assert g.state.players[seat].trains == left


def test_R_END_1_R_END_2_three_players_a_ends_with_2_trains_then_b_c_a():
    g = started(3)
    _trains_down_to(g, 0, 3)
    set_hand(g, 0, {"red": 1})
    g.apply(0, ClaimRoute("Atlanta-Nashville", "red", 0))  # A: 2 trains left
    assert g.state.final_round == [1, 2, 0]
    order = []
    while not g.over:
        seat = g.state.current
        order.append(seat)
        if seat == 1:
            g.apply(1, DrawTickets())  # R-END-2: normal rules apply in the final round
            g.apply(1, g.legal_actions(1)[0])
        else:
            end_turn_by_drawing(g)
    assert order == [1, 2, 0]
    assert "R-END-1" in g.state.end_reason
    assert_invariants(g)


# --- R-TURN-3: resigning ------------------------------------------------------------------------------


def test_R_TURN_3_a_resigned_seat_takes_no_more_turns():
    g = started(3)
    g.apply(2, Resign())  # out of turn: seat 0's turn goes on
    assert g.state.current == 0 and g.state.players[2].resigned and not g.over
    end_turn_by_drawing(g)
    end_turn_by_drawing(g)
    assert g.state.current == 0  # seat 2 is skipped
    with pytest.raises(NotYourTurn, match="left the game"):
        g.apply(2, DrawCard(None))
    assert g.legal_actions(2) == []
    with pytest.raises(NotYourTurn):
        g.apply(2, Resign())


def test_R_TURN_3_resigning_in_turn_passes_the_turn():
    g = started(3)
    g.apply(0, DrawCard(None))
    assert isinstance(g.state.players[0].decision, SecondCard)
    hand = sum(g.state.players[0].hand)
    g.apply(0, Resign())
    assert g.state.players[0].decision is None and sum(g.state.players[0].hand) == hand
    assert g.state.current == 1
    assert_invariants(g)


def test_R_TURN_3_resigning_is_not_a_turn_action_and_does_not_hide_passing():
    g = started()
    assert Resign() not in g.legal_actions(0)
    assert "resign" in g.registry.kinds()


def test_R_TURN_3_when_one_active_player_is_left_the_game_ends():
    g = started(3)
    set_hand(g, 0, {"red": 2})
    g.apply(0, ClaimRoute("Atlanta-Charleston", "red", 0))
    g.apply(0, Resign())  # out of turn now
    assert not g.over
    g.apply(2, Resign())
    assert g.over and "R-TURN-3" in g.state.end_reason
    assert g.result.winners.seats == (1,)
    assert score(g, 0).routes == 2 and score(g, 0).resigned  # routes stay and are scored


def test_R_TURN_3_a_resigned_player_is_scored_but_cannot_win():
    g = position({"routes": ROUTES_32, "resigned": True}, {"routes": ["Atlanta-Nashville"]}, {})
    assert score(g, 0).total > score(g, 1).total > score(g, 2).total
    assert g.result.winners.seats == (1,)


def test_R_TURN_3_resigning_during_the_setup_returns_the_offered_tickets():
    g = new_game("wor", 3, seed=9)
    offered = g.state.players[1].decision.offered
    g.apply(1, Resign())
    assert g.state.ticket_deck[: len(offered)] == list(offered)
    for seat in (0, 2):
        d = g.state.players[seat].decision
        g.apply(seat, KeepTickets(tuple(g.board.tickets[t].id for t in d.offered)))
    assert g.state.phase == "play" and g.state.current == 0
    end_turn_by_drawing(g)
    assert g.state.current == 2


def test_R_TURN_3_resigning_in_the_final_round_shortens_it():
    g = started(3)
    _trains_down_to(g, 0, 3)
    set_hand(g, 0, {"red": 1})
    g.apply(0, ClaimRoute("Atlanta-Nashville", "red", 0))
    g.apply(2, Resign())
    end_turn_by_drawing(g)  # seat 1's last turn
    assert g.state.current == 0 and not g.over
    end_turn_by_drawing(g)
    assert g.over


def test_R_TURN_3_everybody_sees_who_resigned():
    g = started(3)
    g.apply(1, Resign())
    assert [p["resigned"] for p in g.view(0)["players"]] == [False, True, False]
