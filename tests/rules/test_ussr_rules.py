"""The ``ussr`` rule set, rule by rule (docs/rules.md, the ``ussr`` rows; source seeds/ussr-rules.ru.txt).

The controller is tested in ``test_controller.py`` (R-CTL-1..5, R-ROW-4, R-TUN-9), the bonuses in
``test_majority_bonuses.py`` (R-BON-1, R-BON-3), the map in ``test_ussr_map.py``. Here: every other
rule as the ``ussr`` variant plays it, with the parameters that differ from the other sets tested
against the alternative (R-PAR-2 with 2 and 3 players, rejected tickets boxed, the 7-space route,
the first station's colour, revealed locomotives in tunnels, the winner's tie-breakers).
"""

from __future__ import annotations

import itertools

from collections import Counter

import pytest

from ttr_core import variant
from ttr_kit import testing
from ttr_plugins.claiming import ClaimRoute
from ttr_plugins.train_cards import DrawCard
from ttr_plugins.tickets import DrawTickets, KeepTickets
from ttr_plugins.passing import Pass
from ttr_core.errors import CannotPay, IllegalAction, NotLegalNow, NotYourTurn, RouteTaken
from ttr_core.game import Game, SetupError
from ttr_core.position import score_position
from ttr_kit.testing import assert_invariants, give_route, set_hand, set_open_row, set_tickets, stack_deck
from ttr_plugins.controller import CARD, PlayController

L = "locomotive"
RULESET = variant.load("ussr")


def needs(plugin: str) -> None:
    if plugin not in RULESET.plugins:
        pytest.skip(f"the {plugin} plugin is not in the ussr variant yet")


def started(players: int = 2, seed: int = 1, empty_hands: bool = True) -> Game:
    game = testing.keep_all_starting_tickets(testing.new_game("ussr", players, seed))
    assert game.state.phase == "play" and game.state.current == 0
    if empty_hands:
        for seat in range(players):
            set_hand(game, seat, {})
    return game


def hand(game: Game, seat: int) -> dict[str, int]:
    return game.view(seat)["you"]["hand"]


def routes(game: Game) -> dict[str, int]:
    return game.view(None)["routes"]


def offered(game: Game, seat: int) -> list[str]:
    return [game.board.tickets[t].id for t in game.state.players[seat].decision.offered]


def kind_of(game: Game, ticket_id: str) -> str:
    return game.board.find_ticket(ticket_id).kind


def score(*players: dict) -> Game:
    return score_position({"variant": "ussr", "players": [{"name": f"P{i + 1}", **p} for i, p in enumerate(players)]})


def end_turn(game: Game, seat: int) -> None:
    """A turn that changes no route: draw tickets and keep the first one offered."""
    game.apply(seat, DrawTickets())
    game.apply(seat, KeepTickets((offered(game, seat)[0],)))


# --- R-SET: components and setup --------------------------------------------------------------------


@pytest.mark.parametrize("players, ok", [(1, False), (2, True), (3, True), (4, True), (5, True), (6, False)])
def test_r_set_1_two_to_five_players(players, ok):
    """R-SET-1 [engine decision]: ussr takes 2 to 5 players."""
    if ok:
        assert len(testing.new_game("ussr", players).state.players) == players
    else:
        with pytest.raises(SetupError, match="2 to 5 players"):
            testing.new_game("ussr", players)


def test_r_set_1_the_variant_loads_with_its_own_map():
    """The map passes the checks of every map at variant load (lengths covered by R-SCORE-1)."""
    assert RULESET.board.id == "ussr" and RULESET.board.trains == 45
    assert Counter(t.kind for t in RULESET.board.tickets)["long"] >= 6


def test_r_set_2_the_deck_is_110_train_cards_and_2_controllers():
    game = testing.new_game("ussr", 3, seed=5)
    census = testing.card_census(game)
    by_name = {game.cards.names[c]: n for c, n in census.items()}
    assert by_name == {**{c: 12 for c in game.cards.names[:8]}, L: 14, CARD: 2}
    assert sum(by_name.values()) == 112


def test_r_set_3_four_cards_each_and_five_face_up():
    game = testing.new_game("ussr", 4, seed=2)
    assert [sum(p.hand) for p in game.state.players] == [4] * 4
    assert len([c for c in game.state.open_row if c >= 0]) == 5
    assert_invariants(game)


def test_r_set_4_two_long_and_two_short_starting_tickets():
    game = testing.new_game("ussr", 5, seed=3)
    for seat in range(5):
        kinds = sorted(kind_of(game, t) for t in offered(game, seat))
        assert kinds == ["long", "long", "short", "short"]


@pytest.mark.parametrize("keep", ["long only", "short only", "one"])
def test_r_set_4_keep_at_least_one_long_and_one_short(keep):
    game = testing.new_game("ussr", 2, seed=3)
    longs = [t for t in offered(game, 0) if kind_of(game, t) == "long"]
    shorts = [t for t in offered(game, 0) if kind_of(game, t) == "short"]
    choice = {"long only": longs, "short only": shorts, "one": longs[:1]}[keep]
    with pytest.raises(IllegalAction, match="keep at least 1 (long|short) tickets"):
        game.apply(0, KeepTickets(tuple(choice)))
    assert game.state.players[0].tickets == []


def test_r_set_4_rejected_starting_tickets_go_out_of_the_game():
    game = testing.new_game("ussr", 2, seed=3)
    deck_before = list(game.state.ticket_deck)
    longs = [t for t in offered(game, 0) if kind_of(game, t) == "long"]
    shorts = [t for t in offered(game, 0) if kind_of(game, t) == "short"]
    game.apply(0, KeepTickets((longs[0], shorts[0])))
    rejected = {game.board.find_ticket(t).index for t in (longs[1], shorts[1])}
    assert set(game.state.boxed_tickets) == rejected
    assert game.state.ticket_deck == deck_before  # none went back under the deck
    # keeping all four is allowed too
    game.apply(1, KeepTickets(tuple(offered(game, 1))))
    assert len(game.state.players[1].tickets) == 4


def test_r_set_4_long_tickets_not_dealt_stay_in_the_ticket_deck():
    """[engine decision] unlike europe, the long tickets nobody was dealt are not boxed: the source
    boxes only rejected tickets, and draws take "the three top tickets"."""
    game = testing.new_game("ussr", 2, seed=3)
    longs = sum(1 for t in game.board.tickets if t.kind == "long")
    in_deck = sum(1 for t in game.state.ticket_deck if game.board.tickets[t].kind == "long")
    assert in_deck == longs - 2 * 2
    assert game.state.boxed_tickets == []


def test_r_set_5_45_trains_and_3_stations_each():
    game = started(players=5)
    assert [p["trains"] for p in game.view(None)["players"]] == [45] * 5
    if "stations" in RULESET.plugins:
        assert [p["left"] for p in game.view(None)["rules"]["stations"]] == [3] * 5


def test_r_set_6_players_choose_starting_tickets_in_any_order():
    game = testing.new_game("ussr", 3, seed=4)
    with pytest.raises(IllegalAction):
        game.apply(0, DrawCard(None))  # no turn before every player has chosen
    for seat in (2, 0, 1):
        assert game.state.phase == "setup"
        game.apply(seat, KeepTickets(tuple(offered(game, seat))))
    assert game.state.phase == "play" and game.state.current == 0


def test_r_set_7_no_seat_is_limited_to_a_colour_of_cards():
    """R-SET-7, R-ROUTE-3: train colours are for display; every seat may pay with every colour."""
    game = started(3)
    for seat in range(3):
        set_hand(game, seat, {c: 1 for c in game.cards.names[:8]})
    colors = {a.color for a in game.legal_actions(0) if isinstance(a, ClaimRoute) and a.route == "Vilnius-Minsk"}
    assert colors == set(game.cards.names[:8])
    game.apply(0, ClaimRoute("Vilnius-Minsk", "red"))
    game.apply(1, ClaimRoute("Kishinev-Odessa", "red"))
    game.apply(2, ClaimRoute("Frunze-Alma Ata", "red"))
    assert routes(game) == {"Vilnius-Minsk": 0, "Kishinev-Odessa": 1, "Frunze-Alma Ata": 2}


# --- R-TURN -----------------------------------------------------------------------------------------


def test_r_turn_1_the_five_kinds_of_turn_and_one_per_turn():
    game = started()
    set_hand(game, 0, {"white": 2, CARD: 1})
    kinds = {a.kind for a in game.legal_actions(0)}
    assert {"draw-card", "claim-route", "draw-tickets", "play-controller"} <= kinds
    if "stations" in RULESET.plugins:
        assert "build-station" in kinds
    game.apply(0, ClaimRoute("Riga-Tallinn", "white"))
    assert game.state.current == 1  # the claim was the whole turn
    with pytest.raises(NotYourTurn):
        game.apply(0, PlayController("build", "Vilnius-Minsk"))


def _starve(game: Game, seat: int, keep: dict[str, int]) -> None:
    """Every card into the other seat's hand, except ``keep`` for ``seat``; no tickets left."""
    st = game.state
    other = 1 - seat
    set_open_row(game, [None] * 5)
    st.deck.extend(st.discard)
    st.discard.clear()
    set_hand(game, seat, keep)
    for card in st.deck:
        st.players[other].hand[card] += 1
    st.deck.clear()
    st.boxed_tickets.extend(st.ticket_deck)
    st.ticket_deck.clear()


def test_r_turn_2_pass_only_when_nothing_else_is_legal():
    game = started()
    _starve(game, 0, {})
    assert game.legal_actions(0) == [Pass()]
    game.apply(0, Pass())
    assert_invariants(game)


def test_r_turn_2_a_controller_in_hand_is_a_regular_action_so_no_pass():
    game = started()
    _starve(game, 0, {CARD: 1})
    assert {a.kind for a in game.legal_actions(0)} == {"play-controller"}
    with pytest.raises(NotLegalNow, match="R-TURN-2"):
        game.apply(0, Pass())


def test_r_turn_4_the_second_card_is_a_pending_decision_of_the_same_turn():
    game = started()
    stack_deck(game, ["red", "blue"])
    game.apply(0, DrawCard(None))
    assert game.state.current == 0 and game.state.players[0].decision is not None
    with pytest.raises(NotLegalNow):
        game.apply(0, DrawTickets())
    game.apply(0, DrawCard(None))
    assert game.state.current == 1 and hand(game, 0) == {"red": 1, "blue": 1}


# --- R-DRAW, R-ROW: drawing cards and the open row ------------------------------------------------------


def test_r_draw_1_two_cards_in_any_mix_seen_one_at_a_time():
    game = started()
    set_open_row(game, ["red", "blue", "green", "white", "black"])
    stack_deck(game, ["yellow", "orange"])
    game.apply(0, DrawCard(None))
    assert hand(game, 0) == {"yellow": 1}  # seen before the second choice
    game.apply(0, DrawCard(2))
    assert hand(game, 0) == {"yellow": 1, "green": 1}
    assert game.state.current == 1


def test_r_draw_2_a_face_up_locomotive_first_ends_the_draw_and_never_comes_second():
    game = started()
    set_open_row(game, [L, "red", L, "green", "white"])
    stack_deck(game, ["black", "black"])
    game.apply(0, DrawCard(0))
    assert hand(game, 0) == {L: 1} and game.state.current == 1
    game.apply(1, DrawCard(1))  # red; the refill is black
    with pytest.raises(NotLegalNow, match="R-DRAW-2"):
        game.apply(1, DrawCard(2))
    game.apply(1, DrawCard(None))  # a locomotive drawn blind would be an ordinary card
    assert game.state.current == 0


def test_r_draw_3_an_empty_deck_is_rebuilt_from_the_discard():
    game = started()
    st = game.state
    st.discard.extend(st.deck)
    st.deck.clear()
    size = len(st.discard)
    game.apply(0, DrawCard(None))
    assert st.discard == [] and len(st.deck) == size - 1
    assert_invariants(game)


def test_r_draw_3_no_card_anywhere_means_no_draw():
    game = started()
    _starve(game, 0, {"red": 1})
    assert "draw-card" not in {a.kind for a in game.legal_actions(0)}
    with pytest.raises(NotLegalNow, match="R-DRAW-3"):
        game.apply(0, DrawCard(None))


def test_r_row_1_an_emptied_slot_is_refilled_at_once():
    game = started()
    set_open_row(game, ["red", "blue", "green", "white", "black"])
    stack_deck(game, ["yellow", "orange"])
    game.apply(0, DrawCard(1))
    assert game.view(None)["open_row"] == ["red", "yellow", "green", "white", "black"]
    game.apply(0, DrawCard(1))  # the second pick may take the new card
    assert hand(game, 0) == {"blue": 1, "yellow": 1}


def test_r_row_2_three_face_up_locomotives_reset_the_row():
    game = started()
    set_open_row(game, ["red", L, L, "blue", "green"])
    stack_deck(game, [L, "white", "white", "black", "black", "orange"])
    game.apply(0, DrawCard(0))
    assert game.view(None)["open_row"] == ["white", "white", "black", "black", "orange"]
    assert_invariants(game)


def test_r_row_3_at_most_three_resets_in_a_row():
    """[engine decision] after 3 resets the row stays, even with 3 locomotives face up."""
    game = started()
    set_open_row(game, ["red", L, L, "blue", "green"])
    stack_deck(game, [L] + [L, L, L, "red", "red"] + [L, L, L, "blue", "blue"] + [L, L, L, "white", "white"])
    game.apply(0, DrawCard(0))
    assert game.view(None)["open_row"] == [L, L, L, "white", "white"]
    assert_invariants(game)


# --- R-ROUTE, R-PAR: claiming ---------------------------------------------------------------------------


def test_r_route_1_routes_carry_length_colour_tunnel_and_ferry_marks():
    board = RULESET.board
    sochi = board.find_route("Sochi-Tbilisi")
    baku = board.find_route("Baku-Krasnovodsk")
    assert (sochi.length, sochi.color, sochi.tunnel, sochi.ferry) == (3, "yellow", True, 0)
    assert (baku.length, baku.color, baku.tunnel, baku.ferry) == (2, "gray", False, 2)


def test_r_route_2_pay_the_length_in_cards_and_place_as_many_trains():
    game = started()
    set_hand(game, 0, {"blue": 5})
    game.apply(0, ClaimRoute("Riga-Moscow", "blue"))
    p = game.state.players[0]
    assert hand(game, 0) == {"blue": 1} and p.trains == 41 and p.route_points == 7
    assert_invariants(game)


def test_r_route_2_a_route_needs_the_trains_too():
    game = started()
    for r in ("Chita-Khabarovsk", "Aktyubinsk-Tashkent", "Alma Ata-Novosibirsk", "Tynda-Vanino",
              "Rostov-Baku", "Volgograd-Baku", "Leningrad-Murmansk", "Kishinev-Odessa", "Vilnius-Minsk"):
        give_route(game, 0, r)
    assert game.state.players[0].trains == 3
    set_hand(game, 0, {"blue": 4})
    with pytest.raises(CannotPay, match="trains"):
        game.apply(0, ClaimRoute("Riga-Moscow", "blue"))


def test_r_route_3_gray_any_one_colour_never_mixed_locomotives_wild():
    game = started()
    set_hand(game, 0, {"red": 2, "blue": 1, L: 1})
    with pytest.raises(CannotPay):
        game.apply(0, ClaimRoute("Riga-Leningrad", "red", 0))  # gray 3: 3 red needed, 2 red + 1 blue never
    with pytest.raises(CannotPay, match="R-ROUTE-3"):
        game.apply(0, ClaimRoute("Riga-Moscow", "red", 1))  # blue route
    game.apply(0, ClaimRoute("Riga-Leningrad", "red", 1))
    assert hand(game, 0) == {"blue": 1}


def test_r_route_4_any_free_route_even_far_from_ones_own():
    game = started()
    give_route(game, 0, "Riga-Tallinn")
    set_hand(game, 0, {"purple": 7})
    game.apply(0, ClaimRoute("Chita-Khabarovsk", "purple"))
    assert routes(game)["Chita-Khabarovsk"] == 0


def test_r_route_5_a_claimed_route_cannot_be_claimed_again():
    game = started()
    give_route(game, 1, "Riga-Moscow")
    set_hand(game, 0, {"blue": 4})
    with pytest.raises(RouteTaken, match="R-ROUTE-5"):
        game.apply(0, ClaimRoute("Riga-Moscow", "blue"))


@pytest.mark.parametrize("players, closed", [(2, True), (3, False), (4, False), (5, False)])
def test_r_par_2_doubles_close_only_in_2_player_games(players, closed):
    """R-PAR-2 (ussr): "with two, only one of them works" - not with 3 players as in usa/europe."""
    game = started(players)
    give_route(game, 1, "Leningrad-Moscow/white")
    set_hand(game, 0, {"yellow": 3})
    if closed:
        with pytest.raises(RouteTaken, match="R-PAR-2"):
            game.apply(0, ClaimRoute("Leningrad-Moscow/yellow", "yellow"))
    else:
        game.apply(0, ClaimRoute("Leningrad-Moscow/yellow", "yellow"))
        assert routes(game) == {"Leningrad-Moscow/white": 1, "Leningrad-Moscow/yellow": 0}


def test_r_par_1_one_player_never_owns_both_routes_of_a_double():
    game = started(3)
    give_route(game, 0, "Leningrad-Moscow/white")
    set_hand(game, 0, {"yellow": 3})
    with pytest.raises(RouteTaken, match="R-PAR-1"):
        game.apply(0, ClaimRoute("Leningrad-Moscow/yellow", "yellow"))


# --- R-FER: ferries ---------------------------------------------------------------------------------------


def test_r_fer_1_each_locomotive_mark_is_paid_with_a_locomotive():
    needs("ferries")
    game = started()
    set_hand(game, 0, {"red": 2, L: 1})
    with pytest.raises(CannotPay, match="R-FER-1"):
        game.apply(0, ClaimRoute("Simferopol-Krasnodar", "red", 0))  # 1 mark
    game.apply(0, ClaimRoute("Simferopol-Krasnodar", "red", 1))
    assert hand(game, 0) == {"red": 1}


def test_r_fer_1_no_three_for_one_in_ussr():
    needs("ferries")
    game = started()
    set_hand(game, 0, {"red": 4})
    with pytest.raises(CannotPay):
        game.apply(0, ClaimRoute("Simferopol-Krasnodar", "red", 0, 1))  # R-FER-2 is wor only


# --- R-TUN: tunnels ---------------------------------------------------------------------------------------


def test_r_tun_1_2_3_every_revealed_locomotive_adds_one_in_ussr():
    """R-TUN-3 (ussr, europe): a revealed locomotive counts even when the base holds none."""
    needs("tunnels")
    game = started()
    set_hand(game, 0, {"yellow": 5})
    stack_deck(game, [L, "red", "yellow"])
    game.apply(0, ClaimRoute("Sochi-Tbilisi", "yellow"))
    decision = game.state.players[0].decision
    assert decision.extra == 2  # the locomotive and the yellow; red adds nothing (R-TUN-2)
    assert_invariants(game)


def test_r_tun_4_5_7_extra_paid_then_route_scores_as_its_length():
    """R-TUN-5: the extra in the paying colour or locomotives, not from the base; R-TUN-7: the trains
    and points are the route's own."""
    needs("tunnels")
    from ttr_plugins.tunnels import PayTunnel

    game = started()
    set_hand(game, 0, {"yellow": 4, L: 1})
    stack_deck(game, ["yellow", L, "blue"])
    game.apply(0, ClaimRoute("Sochi-Tbilisi", "yellow"))
    with pytest.raises(CannotPay):
        game.apply(0, PayTunnel("blue", 0))  # R-TUN-5: paying colour or locomotives only
    game.apply(0, PayTunnel("yellow", 1))
    p = game.state.players[0]
    assert routes(game) == {"Sochi-Tbilisi": 0}
    assert (p.trains, p.route_points) == (42, 4)  # R-TUN-7: 3 trains, 4 points, whatever the extra
    assert hand(game, 0) == {}
    assert_invariants(game)


def test_r_tun_4_an_all_locomotive_base_counts_only_revealed_locomotives_paid_in_locomotives():
    needs("tunnels")
    from ttr_plugins.tunnels import PayTunnel

    game = started()
    set_hand(game, 0, {L: 4, "yellow": 2})
    stack_deck(game, ["yellow", L, "yellow"])
    game.apply(0, ClaimRoute("Sochi-Tbilisi", None, 3))
    decision = game.state.players[0].decision
    assert (decision.extra, decision.locomotives_only) == (1, True)
    with pytest.raises(CannotPay, match="R-TUN-4"):
        game.apply(0, PayTunnel("yellow", 0))
    game.apply(0, PayTunnel(None, 1))
    assert routes(game) == {"Sochi-Tbilisi": 0} and hand(game, 0) == {"yellow": 2}


def test_r_turn_4_a_tunnel_attempt_is_one_turn_with_a_pending_decision():
    needs("tunnels")
    game = started()
    set_hand(game, 0, {"yellow": 4, CARD: 1})
    stack_deck(game, ["yellow", "red", "red"])
    game.apply(0, ClaimRoute("Sochi-Tbilisi", "yellow"))
    assert game.state.current == 0
    assert {a.kind for a in game.legal_actions(0)} == {"pay-tunnel", "decline-tunnel"}
    with pytest.raises(NotLegalNow):
        game.apply(0, PlayController("build", "Riga-Moscow"))  # no second action inside the turn


def test_r_tun_6_declining_returns_the_base_and_discards_the_revealed():
    needs("tunnels")
    from ttr_plugins.tunnels import DeclineTunnel

    game = started()
    set_hand(game, 0, {"yellow": 3})
    stack_deck(game, ["yellow", "yellow", "yellow"])
    discard = len(game.state.discard)
    game.apply(0, ClaimRoute("Sochi-Tbilisi", "yellow"))
    game.apply(0, DeclineTunnel())
    assert hand(game, 0) == {"yellow": 3} and routes(game) == {}
    assert len(game.state.discard) == discard + 3 and game.state.current == 1
    assert_invariants(game)


def test_r_tun_1_no_extra_needed_builds_at_once():
    needs("tunnels")
    game = started()
    set_hand(game, 0, {"yellow": 3})
    stack_deck(game, ["red", "blue", "green"])
    game.apply(0, ClaimRoute("Sochi-Tbilisi", "yellow"))
    assert routes(game) == {"Sochi-Tbilisi": 0} and game.state.current == 1


# --- R-TIX: tickets ---------------------------------------------------------------------------------------


def test_r_tix_1_draw_three_keep_one_rejects_out_of_the_game():
    game = started()
    deck = len(game.state.ticket_deck)
    game.apply(0, DrawTickets())
    three = offered(game, 0)
    assert len(three) == 3
    with pytest.raises(IllegalAction, match="keep at least 1"):
        game.apply(0, KeepTickets(()))
    game.apply(0, KeepTickets((three[0],)))
    assert {game.board.tickets[t].id for t in game.state.boxed_tickets} >= set(three[1:])
    assert len(game.state.ticket_deck) == deck - 3  # nothing back under the deck


def test_r_tix_2_3_a_chain_of_own_routes_completes_several_tickets():
    """R-TIX-2: a chain of the holder's own routes, not a direct route; R-TIX-3: the same routes
    complete any number of tickets, each counted once."""
    game = score(
        {"routes": ["Kiev-Kharkov", "Kharkov-Rostov", "Kiev-Kishinev"], "tickets": ["Kiev-Rostov", "Kishinev-Kharkov", "Tallinn-Minsk"]},
        {"routes": []},
    )
    s = game.result.scores[0]
    assert set(s.tickets_completed) == {"Kiev-Rostov", "Kishinev-Kharkov"}
    assert s.tickets_failed == ("Tallinn-Minsk",)
    assert s.ticket_points == 4 + 4 - 4  # R-SCORE-2


def test_r_tix_2_a_newly_drawn_ticket_may_be_completed_already():
    game = started()
    give_route(game, 0, "Riga-Tallinn")
    give_route(game, 0, "Minsk-Riga")
    set_tickets(game, 0, [])
    game.state.ticket_deck.append(game.board.find_ticket("Tallinn-Minsk").index)
    game.apply(0, DrawTickets())
    game.apply(0, KeepTickets(("Tallinn-Minsk",)))
    game.finish("test")
    assert game.result.scores[0].tickets_completed == ("Tallinn-Minsk",)


def test_r_tix_4_tickets_are_hidden_from_other_players():
    game = started()
    mine = {game.board.tickets[t].id for t in game.state.players[0].tickets}
    for seat in (1, None):
        text = str(game.view(seat))
        assert not any(t in text for t in mine)
    assert set(game.view(0)["you"]["tickets"]) == mine


# --- R-STA: stations ---------------------------------------------------------------------------------------


def test_r_sta_2_the_first_station_is_paid_in_the_colour_of_a_route_leaving_the_city():
    """R-STA-2 (ussr): Tallinn's routes are white and purple, so red cannot pay its first station."""
    needs("stations")
    from ttr_plugins.stations import BuildStation

    game = started()
    set_hand(game, 0, {"red": 1, "white": 1})
    legal = {(a.city, a.color) for a in game.legal_actions(0) if isinstance(a, BuildStation)}
    assert ("Tallinn", "white") in legal and ("Tallinn", "red") not in legal
    with pytest.raises(CannotPay, match="R-STA-2"):
        game.apply(0, BuildStation("Tallinn", "red"))
    game.apply(0, BuildStation("Tallinn", "white"))
    assert hand(game, 0) == {"red": 1}


def test_r_sta_2_any_colour_next_to_a_gray_route_and_a_locomotive_anywhere():
    needs("stations")
    from ttr_plugins.stations import BuildStation

    game = started()
    set_hand(game, 0, {"red": 1})
    game.apply(0, BuildStation("Vilnius", "red"))  # Kaliningrad-Vilnius is gray
    set_hand(game, 1, {L: 1})
    game.apply(1, BuildStation("Tallinn", None, 1))
    assert [p["cities"] for p in game.view(None)["rules"]["stations"]] == [["Vilnius"], ["Tallinn"]]


def test_r_sta_1_2_one_station_per_city_then_2_and_3_cards_of_any_one_colour_3_per_game():
    needs("stations")
    from ttr_plugins.stations import BuildStation

    game = started()
    set_hand(game, 0, {"red": 1})
    game.apply(0, BuildStation("Vilnius", "red"))
    set_hand(game, 1, {"red": 2})
    with pytest.raises(IllegalAction, match="one per city"):
        game.apply(1, BuildStation("Vilnius", "red"))  # R-STA-1, whoever owns it
    end_turn(game, 1)
    set_hand(game, 0, {"red": 1, "blue": 1})
    with pytest.raises(CannotPay):
        game.apply(0, BuildStation("Tallinn", "red"))  # the 2nd costs 2 of one colour
    set_hand(game, 0, {"red": 2})
    game.apply(0, BuildStation("Tallinn", "red"))  # any colour now, not only white or purple
    end_turn(game, 1)
    set_hand(game, 0, {"green": 2, L: 1})
    game.apply(0, BuildStation("Baku", "green", 1))
    assert game.view(None)["rules"]["stations"][0] == {"cities": ["Vilnius", "Tallinn", "Baku"], "left": 0}
    end_turn(game, 1)
    set_hand(game, 0, {"red": 4})
    assert "build-station" not in {a.kind for a in game.legal_actions(0)}
    with pytest.raises(NotLegalNow, match="R-STA-1"):
        game.apply(0, BuildStation("Riga", "red"))  # all 3 built


def test_r_sta_3_4_one_borrowed_route_for_every_ticket_chosen_for_the_best_score():
    """A station in Kharkov could borrow Kharkov-Rostov (completing Kiev-Rostov, 4) or Kharkov-Voronezh
    (completing Kiev-Volgograd, 6), not both (R-STA-4): the engine picks the better. The borrowed
    route never lengthens the owner's path (R-STA-3)."""
    needs("stations")
    game = score(
        {"routes": ["Kiev-Kharkov", "Voronezh-Volgograd"], "tickets": ["Kiev-Rostov", "Kiev-Volgograd"],
         "stations": ["Kharkov"]},
        {"routes": ["Kharkov-Rostov", "Kharkov-Voronezh"]},
    )
    p1, p2 = game.result.scores
    assert p1.tickets_completed == ("Kiev-Volgograd",) and p1.tickets_failed == ("Kiev-Rostov",)
    assert p1.ticket_points == 6 - 4
    assert any("Kharkov-Voronezh" in note for note in p1.notes)
    # P1's own routes are 2 and 3 spaces apart; through the borrowed route they would make 7
    assert p1.bonus("longest-path") == 0 and p2.bonus("longest-path") == 10


def _moscow(**extra) -> dict:
    """P1 of the R-STA-4 example: a station in Moscow, Gorky-Kazan, and tickets from Moscow to
    Voronezh (9), Gorky (4) and Kazan (4). Borrowing Moscow-Voronezh completes 1 ticket (+1);
    borrowing Moscow-Gorky completes 2 (-1)."""
    tickets = [{"from": "Moscow", "to": c, "points": p} for c, p in (("Voronezh", 9), ("Gorky", 4), ("Kazan", 4))]
    return {"routes": ["Gorky-Kazan", *extra.pop("routes", [])], "stations": ["Moscow"], "tickets": tickets, **extra}


def test_r_sta_4_the_owner_borrows_for_the_most_tickets_bonus_not_the_most_ticket_points():
    """R-STA-4, the example of RULES.md: P2 has 2 completed tickets. Borrowing Moscow-Voronezh (1
    ticket, +1) would leave P1 at 39 and P2 the winner; borrowing Moscow-Gorky (2 tickets, -1) ties
    P2 for the +15 most-tickets bonus (R-BON-3): P1 52, the winner."""
    needs("stations")
    game = score(
        _moscow(routes=["Chita-Khabarovsk"]),
        {"routes": ["Moscow-Gorky/green", "Moscow-Voronezh"],
         "tickets": [{"from": "Moscow", "to": "Gorky", "points": 4}, {"from": "Moscow", "to": "Voronezh", "points": 4}]},
    )
    p1, p2 = game.result.scores
    assert (p1.total, p2.total) == (52, 41) and game.result.winners.seats == (0,)
    assert [t.split("#")[0] for t in p1.tickets_completed] == ["Moscow-Gorky", "Moscow-Kazan"]
    assert (p1.ticket_points, p1.bonus("most-tickets"), p2.bonus("most-tickets")) == (-1, 15, 15)
    assert p1.notes == ("station in Moscow borrowed Moscow-Gorky/green",)
    assert [b.route for b in p1.borrows] == ["Moscow-Gorky/green"]
    assert p1.facts["stations"] == [{"city": "Moscow", "borrowed": "Moscow-Gorky/green"}]


def test_r_sta_4_the_owner_keeps_the_ticket_points_when_the_bonus_is_out_of_reach():
    """The same P1, but P3 has 3 completed tickets: 2 would not win the bonus, so P1 borrows
    Moscow-Voronezh for the most ticket points."""
    needs("stations")
    far = [("Kiev", "Kharkov"), ("Kiev", "Odessa"), ("Kharkov", "Odessa")]
    game = score(
        _moscow(),
        {"routes": ["Moscow-Gorky/green", "Moscow-Voronezh"]},
        {"routes": ["Kiev-Kharkov", "Kiev-Odessa"], "tickets": [{"from": a, "to": b, "points": 1} for a, b in far]},
    )
    p1 = game.result.scores[0]
    assert (len(p1.tickets_completed), p1.ticket_points, p1.bonus("most-tickets")) == (1, 1, 0)
    assert p1.notes == ("station in Moscow borrowed Moscow-Voronezh",)


def _interacting_owners() -> tuple[dict, dict, dict]:
    kiev = [("Odessa", 13), ("Kharkov", 2), ("Rostov", 2), ("Volgograd", 2)]
    return (
        _moscow(),
        {"routes": ["Kharkov-Rostov/yellow", "Rostov-Volgograd"], "stations": ["Kiev"],
         "tickets": [{"from": "Kiev", "to": c, "points": p} for c, p in kiev]},
        {"routes": ["Moscow-Voronezh", "Moscow-Gorky/green", "Kiev-Odessa", "Kiev-Kharkov"],
         "tickets": [{"from": "Moscow", "to": "Voronezh", "points": 3}, {"from": "Kiev", "to": "Odessa", "points": 3}]},
    )


def test_r_sta_6_owners_choices_that_interact_are_resolved_all_at_once():
    """R-STA-6: owners start from their most ticket points; then all at once each takes the best
    alternative for their own total given the others' current choices, until nobody switches.

    P1: Moscow-Voronezh, 1 ticket, +1; or Moscow-Gorky, 2 tickets, -1. P2, a station in Kiev:
    Kiev-Odessa, 1 ticket, +7; or Kiev-Kharkov, 3 tickets (with its own Kharkov-Rostov-Volgograd),
    -7. P3 has 2 completed tickets and no choice; the most tickets score +15, shared on a tie.
    By hand: start (1, 1) tickets, P3 alone has the bonus. All at once: P1, against 1 and 2,
    switches to 2 tickets (-1 + 15 > +1); P2, against 1 and 2, switches to 3 (-7 + 15 > +7): (2, 3).
    Then P1, against 3, cannot have the bonus and goes back to +1; P2 keeps 3: (1, 3). Then
    nobody switches. P1 +1; P2 -7 + 15; P3 nothing."""
    needs("stations")
    positions = _interacting_owners()
    game = score(*positions)
    p1, p2, p3 = game.result.scores
    assert [s.bonus("most-tickets") for s in (p1, p2, p3)] == [0, 15, 0]
    assert (p1.ticket_points, p2.ticket_points) == (1, -7)
    assert (len(p1.tickets_completed), len(p2.tickets_completed)) == (1, 3)
    assert p1.notes == ("station in Moscow borrowed Moscow-Voronezh",)
    assert p2.notes == ("station in Kiev borrowed Kiev-Kharkov",)
    assert score(*positions).result == game.result  # deterministic


def _totals_by_player(positions: list[dict]) -> dict[str, int]:
    game = score(*positions)
    return {s.name: s.total for s in game.result.scores}


@pytest.mark.parametrize("example", ["interacting owners", "R-STA-4 example", "bonus out of reach"])
def test_r_sta_6_seat_order_never_changes_a_result(example):
    """R-STA-6: the same position with the seats permuted (every permutation) gives every player
    the same total."""
    needs("stations")
    far = [("Kiev", "Kharkov"), ("Kiev", "Odessa"), ("Kharkov", "Odessa")]
    two = [{"from": "Moscow", "to": "Gorky", "points": 4}, {"from": "Moscow", "to": "Voronezh", "points": 4}]
    players = {
        "interacting owners": _interacting_owners(),
        "R-STA-4 example": (_moscow(routes=["Chita-Khabarovsk"]),
                            {"routes": ["Moscow-Gorky/green", "Moscow-Voronezh"], "tickets": two}),
        "bonus out of reach": (_moscow(), {"routes": ["Moscow-Gorky/green", "Moscow-Voronezh"]},
                               {"routes": ["Kiev-Kharkov", "Kiev-Odessa"],
                                "tickets": [{"from": a, "to": b, "points": 1} for a, b in far]}),
    }[example]
    named = [{"name": f"player {i}", **p} for i, p in enumerate(players)]
    seated = _totals_by_player(named)
    for order in itertools.permutations(named):
        assert _totals_by_player(list(order)) == seated, [p["name"] for p in order]


def test_r_sta_5_r_bon_4_each_unused_station_scores_4():
    needs("stations")
    game = score({"routes": [], "stations": ["Kiev"]}, {"routes": []})
    assert [s.bonus("unused-stations") for s in game.result.scores] == [8, 12]


# --- R-END: the end of the game --------------------------------------------------------------------------


def _down_to_four_trains(game: Game, seat: int) -> None:
    for r in ("Chita-Khabarovsk", "Aktyubinsk-Tashkent", "Alma Ata-Novosibirsk", "Tynda-Vanino",
              "Rostov-Baku", "Volgograd-Baku", "Leningrad-Murmansk", "Kishinev-Odessa"):
        give_route(game, seat, r)
    assert game.state.players[seat].trains == 4


def test_r_end_1_2_the_final_round_and_normal_rules_in_it():
    """R-END-1: 2 trains left after a turn starts the final round; everyone, the trigger included,
    plays once more. R-END-2: normal rules apply in it: a controller may dismantle, which gives the
    trigger trains back but does not stop the final round."""
    game = started(3)
    _down_to_four_trains(game, 0)
    set_hand(game, 0, {"white": 2})
    game.apply(0, ClaimRoute("Riga-Tallinn", "white"))
    assert game.state.final_round == [1, 2, 0]
    set_hand(game, 1, {CARD: 1})
    game.apply(1, PlayController("dismantle", "Riga-Tallinn"))
    assert game.state.players[0].trains == 4 and game.state.final_round == [2, 0]
    end_turn(game, 2)
    assert not game.over
    end_turn(game, 0)
    assert game.over and "R-END-1" in game.state.end_reason


def test_r_end_1_three_trains_left_does_not_start_it():
    game = started(2)
    _down_to_four_trains(game, 0)
    set_hand(game, 0, {"green": 1})
    game.apply(0, ClaimRoute("Vilnius-Minsk", "green"))
    assert game.state.players[0].trains == 3 and game.state.final_round is None


# --- R-SCORE ------------------------------------------------------------------------------------------------


def test_r_score_1_route_points_up_to_7_spaces():
    table = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18}
    game = started()
    assert {n: game.route_points(n) for n in table} == table
    set_hand(game, 0, {"purple": 7})
    game.apply(0, ClaimRoute("Chita-Khabarovsk", "purple"))  # the map's 7-space route
    assert game.state.players[0].route_points == 18


def test_r_score_2_completed_tickets_add_failed_ones_subtract():
    game = score({"routes": ["Kiev-Kharkov", "Kharkov-Rostov"], "tickets": ["Kiev-Rostov", "Moscow-Tbilisi"]}, {})
    s = game.result.scores[0]
    assert s.ticket_points == 4 - 11
    assert s.total == s.routes + s.ticket_points + sum(b.points for b in s.bonuses)


def test_r_score_3_cards_left_in_hand_score_nothing_controllers_included():
    game = started()
    give_route(game, 0, "Riga-Tallinn")
    give_route(game, 1, "Kiev-Kharkov")
    set_tickets(game, 0, [])
    set_tickets(game, 1, [])
    set_hand(game, 0, {"red": 5, L: 3, CARD: 2})
    game.finish("test")
    p1, p2 = game.result.scores
    assert p1.total == p2.total


# --- the winner row -----------------------------------------------------------------------------------------


def test_winner_tie_broken_by_completed_tickets_first():
    game = score(
        {"routes": ["Kiev-Kharkov", "Kharkov-Rostov", "Riga-Tallinn", "Minsk-Riga"], "tickets": ["Kiev-Rostov", "Tallinn-Minsk"]},
        {"routes": ["Riga-Moscow", "Tashkent-Frunze", "Frunze-Alma Ata", "Krasnoyarsk-Irkutsk", "Chelyabinsk-Omsk",
                    "Kishinev-Odessa"], "tickets": ["Tashkent-Alma Ata"]},
    )
    p1, p2 = game.result.scores
    assert p1.total == p2.total  # the situation the breaker is for
    assert (len(p1.tickets_completed), len(p2.tickets_completed)) == (2, 1)
    assert game.result.winners.seats == (0,) and game.result.winners.decided_by == "tickets"


def test_winner_tie_broken_by_longest_path_length_next():
    game = score(
        {"routes": ["Riga-Tallinn", "Tallinn-Leningrad"]},  # one path of 4: +10
        {"routes": ["Kiev-Odessa", "Tashkent-Frunze", "Omsk-Novosibirsk", "Vilnius-Minsk", "Sverdlovsk-Chelyabinsk"]},
    )
    p1, p2 = game.result.scores
    assert p1.total == p2.total and p1.tickets_completed == p2.tickets_completed == ()
    assert game.result.winners.seats == (0,) and game.result.winners.decided_by == "longest-path-length"


def test_winner_still_tied_after_every_breaker_shares_the_win():
    game = score({"routes": ["Riga-Tallinn"]}, {"routes": ["Kiev-Kharkov"]})
    assert game.result.winners.seats == (0, 1) and game.result.winners.decided_by == "shared"
