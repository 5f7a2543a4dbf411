"""The ``europe`` rule set, rule by rule (docs/rules.md, the ``europe`` rows). Stations themselves are
tested in ``test_stations.py``; here they appear where they meet other rules (the turn, passing,
the final round, the winner)."""

from __future__ import annotations

from collections import Counter

import pytest

from ttr_core import variant
from ttr_kit import testing
from ttr_plugins.claiming import ClaimRoute
from ttr_plugins.train_cards import DrawCard
from ttr_plugins.tickets import DrawTickets, KeepTickets
from ttr_plugins.passing import Pass
from ttr_core.errors import NotLegalNow, RouteTaken
from ttr_core.game import Game, SetupError
from ttr_core.position import score_position
from ttr_plugins.stations import BuildStation


def started(players: int = 2, seed: int = 1) -> Game:
    game = testing.keep_all_starting_tickets(testing.new_game("europe", players, seed))
    assert game.state.phase == "play" and game.state.current == 0
    return game


def position(*players: dict) -> Game:
    return score_position({"variant": "europe", "players": [{"name": f"P{i + 1}", **p} for i, p in enumerate(players)]})


def offered(game: Game, seat: int) -> list[str]:
    return [game.board.tickets[t].id for t in game.state.players[seat].decision.offered]


def kind_of(game: Game, ticket_id: str) -> str:
    return game.board.find_ticket(ticket_id).kind


# --- R-SET: components and setup ------------------------------------------------------------


@pytest.mark.parametrize("players, ok", [(1, False), (2, True), (3, True), (4, True), (5, True), (6, False)])
def test_r_set_1_two_to_five_players(players, ok):
    if ok:
        assert len(testing.new_game("europe", players).state.players) == players
    else:
        with pytest.raises(SetupError, match="2 to 5 players"):
            testing.new_game("europe", players)


def test_r_set_1_map_has_45_trains_and_long_and_short_tickets():
    board = variant.load("europe").board
    assert board.trains == 45
    assert Counter(t.kind for t in board.tickets) == {"short": 40, "long": 6}


def test_r_set_2_and_3_deck_hands_and_open_row():
    game = testing.new_game("europe", 3, seed=5)
    census = testing.card_census(game)
    names = game.cards.names
    assert {names[c]: n for c, n in census.items()} == {**{c: 12 for c in names[:8]}, "locomotive": 14}
    assert all(sum(p.hand) == 4 for p in game.state.players)
    assert len([c for c in game.state.open_row if c >= 0]) == 5


def test_r_set_4_one_long_and_three_short_starting_tickets():
    game = testing.new_game("europe", 3, seed=2)
    dealt = []
    for seat in range(3):
        mine = offered(game, seat)
        assert sorted(kind_of(game, t) for t in mine) == ["long", "short", "short", "short"]
        dealt += mine
    assert len(set(dealt)) == 12


def test_r_set_4_undealt_long_tickets_leave_the_game():
    game = testing.new_game("europe", 3, seed=2)
    st = game.state
    assert all(game.board.tickets[t].kind == "short" for t in st.ticket_deck)
    assert sorted(game.board.tickets[t].kind for t in st.boxed_tickets) == ["long"] * 3
    assert len(st.ticket_deck) == 40 - 9


@pytest.mark.parametrize("keep", [0, 1])
def test_r_set_4_keep_at_least_two(keep):
    game = testing.new_game("europe", 2, seed=2)
    with pytest.raises(NotLegalNow, match="at least 2"):
        game.apply(0, KeepTickets(tuple(offered(game, 0)[:keep])))


@pytest.mark.parametrize("which", ["two short", "long and short", "all four"])
def test_r_set_4_any_mix_may_be_kept_and_rejects_go_to_the_box(which):
    game = testing.new_game("europe", 2, seed=2)
    mine = offered(game, 0)
    long_, shorts = [t for t in mine if kind_of(game, t) == "long"], [t for t in mine if kind_of(game, t) == "short"]
    keep = {"two short": shorts[:2], "long and short": long_ + shorts[:1], "all four": mine}[which]
    deck_before = list(game.state.ticket_deck)
    boxed_before = list(game.state.boxed_tickets)
    game.apply(0, KeepTickets(tuple(keep)))
    assert [game.board.tickets[t].id for t in game.state.players[0].tickets] == [t for t in mine if t in keep]
    rejected = {game.board.ticket_index[t] for t in mine if t not in keep}
    assert set(game.state.boxed_tickets) == set(boxed_before) | rejected
    assert game.state.ticket_deck == deck_before  # nothing went back under the deck


def test_r_set_5_three_stations_each():
    game = started(players=5)
    assert [p["left"] for p in game.view(None)["rules"]["stations"]] == [3] * 5


def test_r_set_6_players_choose_in_any_order():
    game = testing.new_game("europe", 3, seed=4)
    for seat in (2, 0):
        game.apply(seat, KeepTickets(tuple(offered(game, seat)[:2])))
        assert game.state.phase == "setup"
    game.apply(1, KeepTickets(tuple(offered(game, 1))))
    assert game.state.phase == "play" and game.state.current == 0


# --- R-TURN: one action, pass only when nothing else is legal -------------------------------------


def test_r_turn_1_building_a_station_is_one_of_the_turn_actions():
    game = started()
    testing.set_hand(game, 0, {"red": 2})
    kinds = {a.kind for a in game.legal_actions(0)}
    assert {"draw-card", "draw-tickets", "claim-route", "build-station"} <= kinds
    game.apply(0, BuildStation("Paris", "red", 0))
    assert game.state.current == 1
    assert game.state.players[0].hand[game.cards.id("red")] == 1


def _starve(game: Game, seat: int, keep: dict[str, int]) -> None:
    """Every card into the other seat's hand, except ``keep`` for ``seat``; no tickets left."""
    st = game.state
    other = 1 - seat
    testing.set_hand(game, seat, {})
    testing.set_open_row(game, [None] * 5)
    st.deck.extend(st.discard)
    st.discard.clear()
    testing.set_hand(game, seat, keep)
    for card in st.deck:
        st.players[other].hand[card] += 1
    st.deck.clear()
    st.boxed_tickets.extend(st.ticket_deck)
    st.ticket_deck.clear()


def test_r_turn_2_a_station_is_a_regular_action_so_no_pass():
    game = started()
    for route in game.board.routes:
        if route.length == 1:
            testing.give_route(game, 1, route.id)  # one card can then pay nothing but a station
    _starve(game, 0, {"white": 1})
    actions = game.legal_actions(0)
    assert actions and {a.kind for a in actions} == {"build-station"}
    with pytest.raises(NotLegalNow, match="R-TURN-2"):
        game.apply(0, Pass())


def test_r_turn_2_pass_when_nothing_else_is_legal():
    game = started()
    _starve(game, 0, {})
    assert game.legal_actions(0) == [Pass()]
    game.apply(0, Pass())
    testing.assert_invariants(game)


# --- R-DRAW / R-ROW: the europe open row ---------------------------------------------------------


def test_r_draw_2_face_up_locomotive_ends_the_draw():
    game = started()
    testing.set_open_row(game, ["locomotive", "red", "blue", "green", "white"])
    testing.stack_deck(game, ["black"])
    game.apply(0, DrawCard(0))
    assert game.state.current == 1


def test_r_row_1_and_2_refill_at_once_and_reset_on_three_locomotives():
    game = started()
    testing.set_open_row(game, ["red", "locomotive", "locomotive", "green", "white"])
    testing.stack_deck(game, ["locomotive", "red", "red", "red", "red", "red"])
    game.apply(0, DrawCard(0))  # the refill turns up a third locomotive: the row is reset
    row = [game.cards.names[c] for c in game.state.open_row]
    assert row.count("locomotive") < 3 and len(row) == 5
    testing.assert_invariants(game)


# --- R-ROUTE / R-PAR: claiming, doubles ---------------------------------------------------------


def test_r_route_2_3_grey_route_one_colour_with_locomotives():
    game = started()
    testing.set_hand(game, 0, {"purple": 3, "locomotive": 1, "red": 1})
    game.apply(0, ClaimRoute("Marseille-Paris", "purple", 1))
    p = game.state.players[0]
    assert p.trains == 41 and p.route_points == 7
    assert game.cards.counts_by_name(p.hand) == {"red": 1}


@pytest.mark.parametrize("players, closed", [(2, True), (3, True), (4, False), (5, False)])
def test_r_par_2_doubles_close_in_two_and_three_player_games(players, closed):
    game = started(players)
    testing.give_route(game, 0, "Bruxelles-Paris/red")
    game.state.current = 1
    testing.set_hand(game, 1, {"yellow": 2})
    claim = ClaimRoute("Bruxelles-Paris/yellow", "yellow", 0)
    if closed:
        with pytest.raises(RouteTaken, match="R-PAR-2"):
            game.apply(1, claim)
    else:
        game.apply(1, claim)
        assert game.state.owner[game.board.route_index["Bruxelles-Paris/yellow"]] == 1


def test_r_par_1_never_both_of_a_double():
    game = started(4)
    testing.give_route(game, 0, "Bruxelles-Paris/red")
    testing.set_hand(game, 0, {"yellow": 2})
    with pytest.raises(RouteTaken, match="R-PAR-1"):
        game.apply(0, ClaimRoute("Bruxelles-Paris/yellow", "yellow", 0))


# --- R-TIX: drawing tickets, completion, secrecy ---------------------------------------------------


def test_r_tix_1_draw_three_keep_one_rejects_to_the_bottom():
    game = started()
    top3 = list(reversed(game.state.ticket_deck[-3:]))
    game.apply(0, DrawTickets())
    mine = offered(game, 0)
    assert sorted(mine) == sorted(game.board.tickets[t].id for t in top3)
    with pytest.raises(NotLegalNow, match="at least 1"):
        game.apply(0, KeepTickets(()))
    game.apply(0, KeepTickets((mine[0],)))
    assert {game.board.tickets[t].id for t in game.state.ticket_deck[:2]} == set(mine[1:])


def test_r_tix_2_3_a_chain_of_own_routes_completes_several_tickets():
    game = position(
        {"routes": ["Brest-Paris", "Marseille-Paris"], "tickets": ["Brest-Marseille", {"from": "Paris", "to": "Brest", "points": 3}]},
        {"routes": ["Dieppe-Paris"], "tickets": ["Madrid-Dieppe"]},
    )
    me, other = game.result.scores
    assert me.ticket_points == 7 + 3 and len(me.tickets_completed) == 2
    assert other.ticket_points == -8  # R-SCORE-2: minus the points of a ticket not completed


def test_r_tix_4_tickets_are_hidden_from_other_players():
    game = started(3)
    mine = [game.board.tickets[t].id for t in game.state.players[0].tickets]
    for viewer in (None, 1, 2):
        text = repr(game.view(viewer))
        assert not any(t in text for t in mine)
    assert game.view(0)["you"]["tickets"] == mine


# --- R-END: the final round --------------------------------------------------------------------


def _leave_trains(game: Game, seat: int, left: int) -> None:
    """Give ``seat`` free routes (none parallel to another) until exactly ``left`` trains remain."""
    player = game.state.players[seat]
    for length in (4, 3, 2, 1):
        for route in game.board.routes:
            free = game.state.owner[route.index] < 0 and all(game.state.owner[o] < 0 for o in route.parallel)
            if free and route.id != "Amsterdam-Bruxelles" and player.trains - route.length >= left:
                testing.give_route(game, seat, route.id)
    assert player.trains == left


def test_r_end_1_2_final_round_with_stations_still_allowed():
    game = started(3)
    _leave_trains(game, 0, 3)
    testing.set_hand(game, 0, {"black": 1})
    game.apply(0, ClaimRoute("Amsterdam-Bruxelles", "black", 0))  # 2 trains left
    assert game.state.final_round == [1, 2, 0]
    testing.set_hand(game, 1, {"blue": 1})
    game.apply(1, BuildStation("Wien", "blue", 0))  # R-END-2: normal rules
    testing.set_hand(game, 2, {})
    game.apply(2, DrawCard(None))
    game.apply(2, DrawCard(None))
    assert not game.over
    testing.set_hand(game, 0, {"red": 1})
    game.apply(0, BuildStation("Roma", "red", 0))
    assert game.over and "R-END-1" in game.state.end_reason
    testing.assert_invariants(game)


# --- R-SCORE / R-BON: scoring --------------------------------------------------------------------


def test_r_score_1_route_points_up_to_length_eight():
    game = started()
    assert [game.route_points(n) for n in range(1, 9)] == [1, 2, 4, 7, 10, 15, 18, 21]
    testing.give_route(game, 0, "Petrograd-Stockholm")
    testing.give_route(game, 1, "Budapest-Kyiv")
    assert [p.route_points for p in game.state.players] == [21, 15]


def test_r_score_3_cards_in_hand_score_nothing():
    game = started()
    testing.set_hand(game, 0, {"red": 5, "locomotive": 3})
    game.finish("test")
    before = game.result.scores[0].total
    testing.set_hand(game, 0, {})
    game.finish("test")
    assert game.result.scores[0].total == before


def test_r_bon_1_nobody_built_nobody_gets_the_longest_path():
    game = position({}, {}, {})
    assert all(s.bonus("longest-path") == 0 for s in game.result.scores)
    assert all(s.total == 12 for s in game.result.scores)  # only the 3 unused stations (R-BON-4)


def test_r_bon_1_tied_longest_paths_all_score():
    game = position({"routes": ["Brest-Paris"]}, {"routes": ["Frankfurt-Paris/white"]}, {"routes": ["Dieppe-Paris"]})
    assert [s.bonus("longest-path") for s in game.result.scores] == [10, 10, 0]


def test_r_bon_4_unused_stations_and_the_total():
    game = position({"routes": ["Brest-Paris"], "stations": ["Wien"]}, {"routes": ["Frankfurt-Paris/white"]})
    me, other = game.result.scores
    assert me.bonus("unused-stations") == 8 and other.bonus("unused-stations") == 12
    assert me.total == 4 + 10 + 8 and other.total == 4 + 10 + 12


# --- the winner row: tickets, then fewest stations, then the longest-path holder --------------------


def test_winner_tie_broken_by_completed_tickets():
    # both total 4 + 10 + 12 + tickets; P1 completes two 3s (6), P2 one 6
    game = position(
        {"routes": ["Brest-Paris"], "tickets": [{"from": "Brest", "to": "Paris", "points": 3}] * 2},
        {"routes": ["Frankfurt-Paris/white"], "tickets": [{"from": "Frankfurt", "to": "Paris", "points": 6}]},
    )
    assert [s.total for s in game.result.scores] == [32, 32]
    assert game.result.winners.seats == (0,) and game.result.winners.decided_by == "tickets"


def test_winner_tie_broken_by_fewest_stations_used():
    # P1: two length-3 routes (8) + longest 10 + 2 unused (8) = 26
    # P2: one length-3 route (4) + longest 10 + 3 unused (12) = 26; P2 used fewer stations
    game = position(
        {"routes": ["Brest-Paris", "Berlin-Wien"], "stations": ["Roma"]},
        {"routes": ["Frankfurt-Paris/white"]},
    )
    assert [s.total for s in game.result.scores] == [26, 26]
    assert [len(s.tickets_completed) for s in game.result.scores] == [0, 0]
    assert game.result.winners.seats == (1,) and game.result.winners.decided_by == "fewest-stations"


def test_winner_tie_broken_by_longest_path_after_stations():
    # P1: Brest-Paris-Dieppe is 4 spaces; routes 4 + 1 + 1 + 2 = 8, + 10 + 8 (2 unused) = 26
    # P2: four length-3 routes and a length-2 route, no two touching: 16 + 2 + 8 = 26, longest 3
    game = position(
        {"routes": ["Brest-Paris", "Dieppe-Paris", "Budapest-Wien/red", "Berlin-Essen"], "stations": ["Riga"]},
        {"routes": ["Angora-Erzurum", "Athina-Sofia", "Bucuresti-Constantinople", "Cadiz-Madrid", "Brindisi-Roma"],
         "stations": ["Kyiv"]},
    )
    first, second = game.result.scores
    assert first.total == second.total == 26
    assert len(first.tickets_completed) == len(second.tickets_completed) == 0
    assert first.bonus("longest-path") == 10 and second.bonus("longest-path") == 0
    assert game.result.winners.seats == (0,) and game.result.winners.decided_by == "longest-path-bonus"


def test_winner_tie_broken_by_fewest_stations_before_the_longest_path_holder():
    # The two breakers disagree here, so their order decides: tied on total and on completed
    # tickets (none), P1 used fewer stations, P2 holds the longest path.
    # P1: Brest-Paris, Berlin-Wien (3 spaces each) and Amsterdam-Bruxelles (1), none touching:
    #     4 + 4 + 1 = 9, longest trail 3; 1 station used, 2 unused (8): 17
    # P2: Edinburgh-London (4 spaces, 7) + the longest path (10), 3 stations used, none unused: 17
    game = position(
        {"routes": ["Brest-Paris", "Berlin-Wien", "Amsterdam-Bruxelles"], "stations": ["Roma"]},
        {"routes": ["Edinburgh-London/black"], "stations": ["Kyiv", "Riga", "Madrid"]},
    )
    first, second = game.result.scores
    assert first.total == second.total == 17
    assert len(first.tickets_completed) == len(second.tickets_completed) == 0
    assert first.bonus("longest-path") == 0 and second.bonus("longest-path") == 10
    assert first.bonus("unused-stations") == 8 and second.bonus("unused-stations") == 0
    assert game.result.winners.seats == (0,) and game.result.winners.decided_by == "fewest-stations"
