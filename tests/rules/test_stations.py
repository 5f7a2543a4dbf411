"""The stations plugin (R-STA-1..5, R-BON-4, R-SET-5), played under the europe variant, and its
``route-color`` parameter (the ussr rule of R-STA-2) through a variant that changes only that.

Positions are given the way ``ttr score`` reads them, so the borrowed-route search is tested on
exactly what a host rescores.
"""

from __future__ import annotations

import itertools
import json
import random

import attrs
import pytest
from click.testing import CliRunner

from ttr_core import variant
from ttr_kit import testing
from ttr_plugins.train_cards import DrawCard
from ttr_cli.main import main
from ttr_core.errors import (
    CannotPay, IllegalAction, MalformedAction, NotLegalNow, NotYourTurn, RecordError, VariantError,
)
from ttr_core.game import Game
from ttr_core.network import DisjointSets
from ttr_core.position import position_of, score_position
from ttr_plugins import stations
from ttr_plugins.longest_path import path_length
from ttr_plugins.stations import BuildStation
from ttr_core.plugin import Bonus, Borrow, TicketOutcome, Winners


def europe_game(players: int = 2, seed: int = 1) -> Game:
    return testing.keep_all_starting_tickets(testing.new_game("europe", players, seed))


def ext(game: Game) -> dict:
    return game.state.ext["stations"]


def outcome(game: Game, seat: int):
    return game.result.scores[seat]


def position(*players: dict) -> dict:
    return {"variant": "europe", "players": [{"name": f"P{i + 1}", **p} for i, p in enumerate(players)]}


# --- building (R-STA-1, R-STA-2, R-SET-5) ------------------------------------------------------


def test_r_set_5_every_player_starts_with_3_stations():
    game = europe_game(players=4)
    view = game.view(None)["rules"]["stations"]
    assert view == [{"cities": [], "left": 3}] * 4


def test_r_sta_1_station_in_a_city_with_no_claimed_route():
    game = europe_game()
    seat = game.state.current
    testing.set_hand(game, seat, {"red": 1})
    assert not any(game.state.owner[r.index] >= 0 for r in game.board.routes if "Edinburgh" in (r.a, r.b))
    discard = len(game.state.discard)
    game.apply(seat, BuildStation("Edinburgh", "red", 0))
    assert ext(game).cities[seat] == ["Edinburgh"]
    assert ext(game).built[seat] == 1
    assert game.state.players[seat].hand == [0] * len(game.cards.names)
    assert len(game.state.discard) == discard + 1  # the card is discarded, not lost
    testing.assert_invariants(game)


def test_r_sta_1_building_is_the_whole_turn():
    game = europe_game()
    seat = game.state.current
    testing.set_hand(game, seat, {"red": 3, "blue": 3})
    game.apply(seat, BuildStation("Paris", "red", 0))
    assert game.state.current != seat
    with pytest.raises(NotYourTurn):
        game.apply(seat, BuildStation("Wien", "blue", 0))


def test_r_sta_1_not_while_a_second_card_is_pending():
    game = europe_game()
    seat = game.state.current
    testing.set_open_row(game, ["red", "blue", "green", "white", "black"])
    testing.set_hand(game, seat, {"red": 3})
    game.apply(seat, DrawCard(0))
    with pytest.raises(NotLegalNow):
        game.apply(seat, BuildStation("Paris", "red", 0))
    assert not any(a.kind == "build-station" for a in game.legal_actions(seat))


def test_r_sta_1_one_station_per_city_whoever_owns_it():
    game = europe_game()
    first = game.state.current
    second = 1 - first
    testing.set_hand(game, first, {"red": 1})
    testing.set_hand(game, second, {"blue": 1})
    game.apply(first, BuildStation("Paris", "red", 0))
    before = game.dump()
    with pytest.raises(IllegalAction, match="one per city"):
        game.apply(second, BuildStation("Paris", "blue", 0))
    assert game.dump() == before
    assert not any(a.kind == "build-station" and a.city == "Paris" for a in game.legal_actions(second))
    assert any(a.kind == "build-station" and a.city == "Wien" for a in game.legal_actions(second))


def test_r_sta_1_three_stations_per_game():
    game = europe_game()
    seat, other = game.state.current, 1 - game.state.current
    for city in ("Paris", "Wien", "Roma"):
        testing.set_hand(game, seat, {"green": 3})
        game.apply(seat, BuildStation(city, "green", 0))
        testing.set_hand(game, other, {})
        game.apply(other, DrawCard(None))
        game.apply(other, DrawCard(None))
    testing.set_hand(game, seat, {"green": 5, "locomotive": 5})
    assert not any(a.kind == "build-station" for a in game.legal_actions(seat))
    with pytest.raises(NotLegalNow, match="all 3 stations"):
        game.apply(seat, BuildStation("Berlin", "green", 0))
    assert game.view(other)["rules"]["stations"][seat] == {"cities": ["Paris", "Wien", "Roma"], "left": 0}
    testing.assert_invariants(game)


@pytest.mark.parametrize(
    "nth, hand, payment, ok",
    [
        (0, {"purple": 1}, ("purple", 0), True),  # 1st: one card of any colour (europe)
        (0, {"locomotive": 1}, (None, 1), True),
        (0, {}, ("purple", 0), False),
        (1, {"red": 2}, ("red", 0), True),  # 2nd: two of one colour
        (1, {"red": 1, "locomotive": 1}, ("red", 1), True),  # locomotives are wild
        (1, {"red": 1, "blue": 1}, ("red", 0), False),  # colours never mix
        (1, {"red": 3}, ("red", 2), False),  # paying more than 2 cards is not the cost
        (2, {"black": 3}, ("black", 0), True),  # 3rd: three of one colour
        (2, {"black": 2}, ("black", 0), False),
        (2, {"locomotive": 3}, (None, 3), True),
        (2, {"locomotive": 2, "white": 1}, ("white", 2), True),
        (2, {"locomotive": 4}, (None, 4), False),
    ],
)
def test_r_sta_2_cost_of_each_station(nth, hand, payment, ok):
    game = europe_game()
    seat = game.state.current
    ext(game).built[seat] = nth
    ext(game).cities[seat] = ["Lisboa", "Cadiz"][:nth]
    testing.set_hand(game, seat, hand)
    action = BuildStation("Paris", *payment)
    if ok:
        game.apply(seat, action)
        assert sum(game.state.players[seat].hand) == sum(hand.values()) - (nth + 1)
    else:
        with pytest.raises(CannotPay, match="R-STA-2|the hand has"):
            game.apply(seat, action)


def test_r_sta_2_legal_payments_come_from_the_card_counts():
    game = europe_game()
    seat = game.state.current
    ext(game).built[seat] = 1  # the next one costs 2
    ext(game).cities[seat] = ["Lisboa"]
    testing.set_hand(game, seat, {"red": 1, "blue": 2, "green": 3, "locomotive": 1})
    at_paris = {(a.color, a.locomotives) for a in game.legal_actions(seat) if a.kind == "build-station" and a.city == "Paris"}
    # one payment per colour, with as few locomotives as possible; 2 locomotives are not in hand
    assert at_paris == {("red", 1), ("blue", 0), ("green", 0)}
    cities = {a.city for a in game.legal_actions(seat) if a.kind == "build-station"}
    assert cities == {c.name for c in game.board.cities} - {"Lisboa"}


def test_build_station_rejects_malformed_actions():
    game = europe_game()
    seat = game.state.current
    testing.set_hand(game, seat, {"red": 2})
    with pytest.raises(MalformedAction, match="no city"):
        game.apply(seat, BuildStation("Atlantis", "red", 0))
    with pytest.raises(MalformedAction, match="whole number"):
        game.apply(seat, BuildStation("Paris", "red", -1))
    with pytest.raises(CannotPay, match="colour"):
        game.apply(seat, BuildStation("Paris", "mauve", 0))


def test_build_station_is_recorded_and_replayed():
    from ttr_core import record

    game = europe_game()
    seat = game.state.current
    action = next(a for a in game.legal_actions(seat) if a.kind == "build-station")
    assert game.registry.from_data(game.registry.to_data(action)) == action
    game.apply(seat, action)
    data = record.make_record(game)
    assert {"seat": seat, **game.registry.to_data(action)} in data["actions"]
    again = record.replay(json.loads(json.dumps(data)))
    assert again.state.ext["stations"] == game.state.ext["stations"]
    assert record.dumps(record.make_record(again)) == record.dumps(data)


# --- R-STA-2, the ussr parameter: the 1st card matches a route leaving the city -----------------


@pytest.fixture
def route_color_variant(tmp_path):
    path = tmp_path / "stations-route-color.toml"
    path.write_text(
        'id = "stations-route-color"\ntitle = "europe with the ussr first-station rule"\nextends = "europe"\n'
        '[versions.1]\nnote = "R-STA-2, ussr"\n[versions.1.rules.stations]\nfirst_card = "route-color"\n'
    )
    yield variant.load(str(path))
    variant.clear_caches()


def test_r_sta_2_route_color_first_card_must_match_a_route(route_color_variant):
    game = testing.keep_all_starting_tickets(Game(route_color_variant, ["A", "B"], 3))
    seat = game.state.current
    # Edinburgh's routes are black and orange, none grey
    testing.set_hand(game, seat, {"red": 1, "black": 1, "locomotive": 1})
    at = {(a.color, a.locomotives) for a in game.legal_actions(seat) if a.kind == "build-station" and a.city == "Edinburgh"}
    assert at == {("black", 0), (None, 1)}
    with pytest.raises(CannotPay, match="must match a route leaving Edinburgh"):
        game.apply(seat, BuildStation("Edinburgh", "red", 0))
    # Wien has a grey route (Wien-Zagrab): any colour
    at_wien = {a.color for a in game.legal_actions(seat) if a.kind == "build-station" and a.city == "Wien"}
    assert at_wien == {"red", "black", None}
    game.apply(seat, BuildStation("Edinburgh", None, 1))


def test_r_sta_2_route_color_binds_only_the_first_station(route_color_variant):
    game = testing.keep_all_starting_tickets(Game(route_color_variant, ["A", "B"], 3))
    seat = game.state.current
    ext(game).built[seat] = 1
    ext(game).cities[seat] = ["Lisboa"]
    testing.set_hand(game, seat, {"red": 2})
    game.apply(seat, BuildStation("Edinburgh", "red", 0))


@pytest.mark.parametrize(
    "table, problem",
    [
        ('first_card = "rainbow"', "first_card"),
        ("costs = [1, 0, 2]", "every station costs at least 1 card"),
        ("count = 4", "4 stations need 4 costs"),
        ("count = -1", "must not be negative"),
    ],
)
def test_stations_config_is_checked(tmp_path, table, problem):
    path = tmp_path / "bad-stations.toml"
    path.write_text(f'id = "bad-stations"\ntitle = "x"\nextends = "europe"\n[versions.1]\n[versions.1.rules.stations]\n{table}\n')
    with pytest.raises(VariantError, match=problem) as info:
        variant.load(str(path))
    assert "rules.stations" in str(info.value)
    variant.clear_caches()


# --- the end: borrowed routes (R-STA-3, R-STA-4) ---------------------------------------------


def test_r_sta_3_station_borrows_an_opponent_route_for_a_ticket():
    game = score_position(position(
        {"routes": ["Brest-Paris"], "tickets": ["Brest-Marseille"], "stations": ["Paris"]},
        {"routes": ["Marseille-Paris"]},
    ))
    me = outcome(game, 0)
    assert me.tickets_completed == ("Brest-Marseille",)
    assert me.notes == ("station in Paris borrowed Marseille-Paris",)


def test_r_sta_3_station_in_a_city_with_no_opponent_route():
    game = score_position(position(
        {"routes": ["Dieppe-London/1"], "tickets": ["Edinburgh-Paris"], "stations": ["Edinburgh"]},
        {"routes": ["Dieppe-Paris"]},
    ))
    me = outcome(game, 0)
    assert me.tickets_failed == ("Edinburgh-Paris",)
    assert me.notes == ()  # nothing to borrow, nothing claimed to be borrowed
    assert me.borrows == (Borrow("station in Edinburgh", None),)
    assert stations.borrow_groups(game, 0, ["Edinburgh"]) == [("station in Edinburgh", [])]


def test_r_sta_3_own_routes_are_not_borrowed():
    # the station's city is touched only by the owner's own route: nothing to borrow
    game = score_position(position(
        {"routes": ["Edinburgh-London/black"], "tickets": ["Edinburgh-Paris"], "stations": ["London"]},
        {},
    ))
    assert outcome(game, 0).tickets_failed == ("Edinburgh-Paris",)
    assert stations.raw_candidates(game, 0, ["London"]) == [("station in London", [])]


def test_r_sta_3_one_route_per_station_even_if_a_ticket_needs_two():
    # Brest-Paris-Marseille would need both of Paris's opponent routes: one station gives one
    game = score_position(position(
        {"tickets": ["Brest-Marseille"], "stations": ["Paris"]},
        {"routes": ["Brest-Paris", "Marseille-Paris"]},
    ))
    assert outcome(game, 0).tickets_failed == ("Brest-Marseille",)


def test_r_sta_3_two_stations_chain_two_borrowed_routes():
    game = score_position(position(
        {"routes": ["Brest-Paris"], "tickets": [{"from": "Brest", "to": "Berlin", "points": 9}],
         "stations": ["Paris", "Frankfurt"]},
        {"routes": ["Frankfurt-Paris/orange", "Bruxelles-Paris/red"]},
        {"routes": ["Berlin-Frankfurt/red", "Essen-Frankfurt"]},
    ))
    me = outcome(game, 0)
    assert me.ticket_points == 9
    assert set(me.notes) == {"station in Paris borrowed Frankfurt-Paris/orange",
                             "station in Frankfurt borrowed Berlin-Frankfurt/red"}


def test_r_sta_3_borrowed_routes_never_count_for_the_longest_path():
    game = score_position(position(
        {"routes": ["Brest-Paris"], "tickets": ["Brest-Marseille"], "stations": ["Paris"]},
        {"routes": ["Marseille-Paris", "Dieppe-Paris"]},
    ))
    assert outcome(game, 0).tickets_completed == ("Brest-Marseille",)
    assert path_length(game, 0) == 3  # Brest-Paris alone, not + Marseille-Paris (4)
    assert outcome(game, 0).bonus("longest-path") == 0
    assert outcome(game, 1).bonus("longest-path") == 10


def test_r_sta_4_two_tickets_through_one_station_share_its_route():
    # Each ticket alone could be completed, but through Paris they need different routes; the
    # station borrows one route for both, so only the better ticket is completed.
    game = score_position(position(
        {"routes": ["Brest-Paris"],
         "tickets": [{"from": "Brest", "to": "Marseille", "points": 10}, {"from": "Brest", "to": "Frankfurt", "points": 6}],
         "stations": ["Paris"]},
        {"routes": ["Marseille-Paris", "Frankfurt-Paris/white"]},
    ))
    me = outcome(game, 0)
    assert len(me.tickets_completed) == 1 and me.tickets_completed[0].startswith("Brest-Marseille")
    assert me.ticket_points == 10 - 6
    assert me.notes == ("station in Paris borrowed Marseille-Paris",)


def test_r_sta_4_two_tickets_served_by_the_same_borrowed_route():
    game = score_position(position(
        {"routes": ["Brest-Paris", "Dieppe-Paris", "Essen-Frankfurt"],
         "tickets": [{"from": "Brest", "to": "Frankfurt", "points": 5}, {"from": "Dieppe", "to": "Essen", "points": 4}],
         "stations": ["Paris"]},
        {"routes": ["Frankfurt-Paris/orange", "Bruxelles-Paris/red", "Marseille-Paris"]},
    ))
    me = outcome(game, 0)
    assert me.ticket_points == 9
    assert me.notes == ("station in Paris borrowed Frankfurt-Paris/orange",)


def test_r_sta_4_higher_value_route_loses_to_one_completing_two_tickets():
    # Borrowing Paris-Marseille completes the 10-point ticket; borrowing Paris-Frankfurt completes
    # the 6 and the 6: -10 + 12 = +2 beats +10 - 12 = -2.
    game = score_position(position(
        {"routes": ["Brest-Paris", "Dieppe-Paris", "Essen-Frankfurt"],
         "tickets": [{"from": "Brest", "to": "Marseille", "points": 10},
                     {"from": "Dieppe", "to": "Frankfurt", "points": 6},
                     {"from": "Brest", "to": "Essen", "points": 6}],
         "stations": ["Paris"]},
        {"routes": ["Marseille-Paris", "Frankfurt-Paris/orange"]},
    ))
    me = outcome(game, 0)
    assert me.ticket_points == 2
    assert me.notes == ("station in Paris borrowed Frankfurt-Paris/orange",)
    assert [t.split("#")[0] for t in me.tickets_failed] == ["Brest-Marseille"]


def test_r_sta_4_on_equal_points_the_owner_completes_more_tickets_to_win_the_tie_break():
    """R-STA-4: borrowing Dieppe-Paris completes Brest-Dieppe (8); borrowing Frankfurt-Paris completes
    Brest-Frankfurt and Brest-Munchen (4 + 4): 0 ticket points either way, 14 in all either way, as
    P2's 14. The first leaves P1 at 1 completed ticket, as P2, and europe's next breaker (fewest
    stations) gives P2 the win; the owner takes the second, 2 tickets, and wins on tickets."""
    game = score_position(position(
        {"routes": ["Brest-Paris", "Frankfurt-Munchen"], "stations": ["Paris"],
         "tickets": [{"from": "Brest", "to": "Dieppe", "points": 8}, {"from": "Brest", "to": "Frankfurt", "points": 4},
                     {"from": "Brest", "to": "Munchen", "points": 4}]},
        {"routes": ["Dieppe-Paris", "Frankfurt-Paris/orange"],
         "tickets": [{"from": "Dieppe", "to": "Frankfurt", "points": 2}, {"from": "Edinburgh", "to": "Athina", "points": 15}]},
    ))
    p1, p2 = outcome(game, 0), outcome(game, 1)
    assert game.result.winners == Winners((0,), "tickets")
    assert [t.split("#")[0] for t in p1.tickets_completed] == ["Brest-Frankfurt", "Brest-Munchen"]
    assert (p1.ticket_points, p1.total, p2.total) == (0, 14, 14)
    assert p1.notes == ("station in Paris borrowed Frankfurt-Paris/orange",)
    assert p1.borrows == (Borrow("station in Paris", "Frankfurt-Paris/orange"),)


def test_r_sta_3_a_station_whose_borrow_adds_nothing_borrows_nothing():
    """R-STA-3: stations at both ends of P2's Frankfurt-Paris; one borrowing it completes Brest-Essen,
    the other adds nothing, so it borrows nothing and is reported so (the earlier station borrows)."""
    game = score_position(position(
        {"routes": ["Brest-Paris", "Essen-Frankfurt"], "stations": ["Paris", "Frankfurt"],
         "tickets": [{"from": "Brest", "to": "Essen", "points": 7}]},
        {"routes": ["Frankfurt-Paris/orange"]},
    ))
    me = outcome(game, 0)
    assert me.ticket_points == 7
    assert me.notes == ("station in Paris borrowed Frankfurt-Paris/orange",)
    assert me.borrows == (Borrow("station in Paris", "Frankfurt-Paris/orange"), Borrow("station in Frankfurt", None))
    assert me.facts["stations"] == [{"city": "Paris", "borrowed": "Frankfurt-Paris/orange"},
                                    {"city": "Frankfurt", "borrowed": None}]


def test_r_sta_4_the_fewest_borrows_for_the_same_tickets():
    # Brest-Marseille is completed through Paris alone; the station in Marseille could borrow
    # Marseille-Paris too, or Marseille-Zurich, which completes nothing more: it borrows nothing.
    game = score_position(position(
        {"routes": ["Brest-Paris"], "tickets": ["Brest-Marseille"], "stations": ["Paris", "Marseille"]},
        {"routes": ["Marseille-Paris", "Marseille-Zurich"]},
    ))
    me = outcome(game, 0)
    assert me.tickets_completed == ("Brest-Marseille",)
    assert me.notes == ("station in Paris borrowed Marseille-Paris",)
    assert [b.route for b in me.borrows] == ["Marseille-Paris", None]


def test_result_fields_the_borrowed_route_of_each_station_and_the_longest_trail():
    game = score_position(position(
        {"routes": ["Brest-Paris", "Dieppe-Brest"], "tickets": ["Brest-Marseille"], "stations": ["Paris", "Wien"]},
        {"routes": ["Marseille-Paris", "Dieppe-Paris"]},
        {"routes": []},
    ))
    p1, p2, p3 = game.result.scores
    assert p1.facts == {"longest-path": 5, "stations": [{"city": "Paris", "borrowed": "Marseille-Paris"},
                                                         {"city": "Wien", "borrowed": None}]}
    assert p1.borrows == (Borrow("station in Paris", "Marseille-Paris"), Borrow("station in Wien", None))
    assert p2.facts == {"longest-path": 5, "stations": []} and p2.borrows == ()
    assert p3.facts["longest-path"] == 0


class _StationsOrder:
    """``ttr_choice_preference`` as a bare hook (``resolve_choices`` asks it where a plugin implements
    it): R-STA-4's order of preference, as the stations plugin answers it."""

    def __call__(self, game, seat, outcome, points):
        return stations.Stations().ttr_choice_preference(outcome=outcome, points=points)

    def get_hookimpls(self):
        return [self]


def test_r_sta_6_choices_whose_best_responses_cycle_keep_the_choices_by_ticket_points():
    """R-STA-6: a bonus under which owners' choices never settle (matching pennies: seat 0 gains by
    completing as many tickets as seat 1, seat 1 by completing a different number). Each owner may
    complete 1 ticket or 2, for 0 ticket points either way.

    By hand: by ticket points alone (a tie, broken by the most completed tickets, R-STA-4) both
    complete 2: (2, 2). Everyone at once: seat 0, matching, keeps 2; seat 1 switches to 1: (2, 1).
    Then seat 0 switches to 1 to match; seat 1 keeps 1: (1, 1). Then seat 1 switches to 2: (1, 2).
    Then seat 0 switches to 2: (2, 2), seen before: a cycle, so (2, 2) stands and seat 0 has the
    10 points. Swapping the two seats (and the bonus's roles with them) gives each the same."""
    from ttr_core import scoring

    class Pennies:
        ttr_choice_preference = _StationsOrder()

        def __init__(self, matcher: int):
            self.matcher, self.calls = matcher, 0

        def ttr_end_bonuses(self, game, outcomes):
            self.calls += 1
            other = 1 - self.matcher
            same = len(outcomes[self.matcher].completed) == len(outcomes[other].completed)
            return [[Bonus(self.matcher if same else other, "pennies", 10)]]

    class FakeGame:
        def __init__(self, matcher: int):
            self.hook = Pennies(matcher)

    def owner(seat: int) -> TicketOutcome:
        one = TicketOutcome(seat, (1,), (2, 3), 0, borrows=(Borrow("a", "x"),))
        two = TicketOutcome(seat, (2, 3), (1,), 0, borrows=(Borrow("a", "y"),))
        return attrs.evolve(one, alternatives=(one, two))

    game = FakeGame(matcher=0)
    chosen, bonuses = scoring.resolve_choices(game, [owner(0), owner(1)])
    assert [len(o.completed) for o in chosen] == [2, 2] and bonuses == [Bonus(0, "pennies", 10)]
    assert game.hook.calls == 4  # each of the 4 combinations is asked once
    swapped, swapped_bonuses = scoring.resolve_choices(FakeGame(matcher=1), [owner(0), owner(1)])
    assert [len(o.completed) for o in swapped] == [2, 2] and swapped_bonuses == [Bonus(1, "pennies", 10)]


class _MostTickets:
    """The ussr +15 for the most completed tickets (R-BON-3), shared on a tie, as a bare hook."""

    ttr_choice_preference = _StationsOrder()

    def ttr_end_bonuses(self, game, outcomes):
        counts = [len(o.completed) for o in outcomes]
        return [[Bonus(seat, "most-tickets", 15) for seat, n in enumerate(counts) if n == max(counts)]]


def _owner_choosing(seat: int, *choices: tuple[int, int]) -> TicketOutcome:
    """An owner who may complete ``n`` tickets for ``points`` (each a station's borrow), answered
    as the plugin answers: the most ticket points."""
    outcomes = [TicketOutcome(seat, tuple(range(n)), (), points, borrows=(Borrow("station", f"route {k}"),))
                for k, (n, points) in enumerate(choices)]
    best = max(outcomes, key=lambda o: o.points)
    return attrs.evolve(best, alternatives=tuple(outcomes))


def test_r_sta_6_a_cycle_of_best_responses_scores_the_same_whatever_the_seat_order():
    """R-STA-6, on choices whose best responses cycle (the most-tickets bonus, +15 shared on a tie).
    A has 2 tickets and no choice (-12). B completes 3 (0 points), 5 (-3) or 1 (-12). C completes
    0 (+13), 3 (-2) or 4 (+9).

    By hand: by ticket points, B 3 and C 0: B has the bonus. All at once: B keeps 3 (15); C
    switches to 4 (9 + 15 = 24 > 13): (3, 4). B switches to 5 (-3 + 15 = 12 > 0); C keeps 4: (5, 4).
    B keeps 5; C, short of the bonus, goes back to 0 (13 > 9): (5, 0). B goes back to 3 (15 > 12);
    C keeps 0: (3, 0), seen before: a cycle, so the choices by ticket points stand: A -12, B 15,
    C 13. The engine's seat-by-seat rounds gave B 12 or 15 depending on the seats."""
    from ttr_core import scoring

    class FakeGame:
        hook = _MostTickets()

    players = {"A": [(2, -12)], "B": [(3, 0), (5, -3), (1, -12)], "C": [(0, 13), (3, -2), (4, 9)]}
    for order in itertools.permutations(players):
        chosen, bonuses = scoring.resolve_choices(FakeGame(), [_owner_choosing(s, *players[name])
                                                               for s, name in enumerate(order)])
        totals = {name: chosen[s].points + sum(b.points for b in bonuses if b.seat == s) for s, name in enumerate(order)}
        assert totals == {"A": -12, "B": 15, "C": 13}, order


def _brute_force_ticket_points(game: Game, seat: int, cities: list[str]) -> int:
    """Every combination of every raw candidate, no pruning: what R-STA-4 asks for, slowly."""
    board = game.board
    player = game.state.players[seat]
    groups = [c for _, c in stations.raw_candidates(game, seat, cities) if c]
    best = None
    for choice in itertools.product(*groups):
        sets = DisjointSets(len(board.cities))
        for r in (*player.routes, *choice):
            sets.union(board.routes[r].ai, board.routes[r].bi)
        tickets = [board.tickets[t] for t in player.tickets]
        points = sum(t.points if sets.connected(t.ai, t.bi) else -t.points for t in tickets)
        best = points if best is None else max(best, points)
    return best


def _random_position(rng: random.Random, board) -> dict:
    degree: dict[str, int] = {}
    for r in board.routes:
        for c in (r.a, r.b):
            degree[c] = degree.get(c, 0) + 1
    hubs = rng.sample(sorted(c for c, d in degree.items() if d >= 5), 3)
    at_hubs = [r for r in board.routes if r.a in hubs or r.b in hubs]
    others = [r for r in board.routes if r not in at_hubs]
    mine = rng.sample(others, rng.randint(3, 10)) + [r for r in at_hubs if rng.random() < 0.12]
    theirs = [r for r in board.routes if r not in mine and (r in at_hubs or rng.random() < 0.15)]
    near = sorted({c for r in at_hubs + mine for c in (r.a, r.b)})
    tickets = [{"from": a, "to": b, "points": rng.randint(4, 21)}
               for a, b in (rng.sample(near, 2) for _ in range(rng.randint(4, 12)))]
    return position(
        {"routes": [r.id for r in mine], "tickets": tickets, "stations": hubs},
        *({"routes": [r.id for r in theirs[k::3]]} for k in range(3)),
    )


def test_r_sta_4_pruned_search_finds_the_brute_force_best():
    board = variant.load("europe").board
    checked = pruned_something = 0
    for seed in range(80):
        data = _random_position(random.Random(seed), board)
        try:
            game = score_position(data)
        except RecordError:
            continue  # too many trains for someone: not a position
        cities = data["players"][0]["stations"]
        assert outcome(game, 0).ticket_points == _brute_force_ticket_points(game, 0, cities), f"seed {seed}"
        raw = sum(len(c) for _, c in stations.raw_candidates(game, 0, cities))
        kept = sum(len(c) for _, c in stations.borrow_groups(game, 0, cities))
        pruned_something += kept < raw
        checked += 1
    assert checked >= 40
    assert pruned_something >= checked // 2  # the pruning is real, not a no-op


def _brute_force_owner_best(game: Game, seat: int, cities: list[str]) -> tuple[int, int, int]:
    """R-STA-4 as written, slowly: every station borrows any raw candidate or nothing, and each
    assignment is scored with every end bonus (the others' outcomes as answered); the best
    (final total, completed tickets, -borrowed routes) of ``seat``."""
    board = game.board
    player = game.state.players[seat]
    others = [game.hook.ttr_ticket_outcomes(game=game, seat=s) for s in range(len(game.state.players))]
    routes = sum(game.route_points(board.routes[r].length) for r in player.routes)
    best = None
    for choice in itertools.product(*((*c, None) for _, c in stations.raw_candidates(game, seat, cities))):
        sets = DisjointSets(len(board.cities))
        for r in (*player.routes, *(r for r in choice if r is not None)):
            sets.union(board.routes[r].ai, board.routes[r].bi)
        done = tuple(t for t in player.tickets if sets.connected(board.tickets[t].ai, board.tickets[t].bi))
        failed = tuple(t for t in player.tickets if t not in done)
        points = sum(board.tickets[t].points for t in done) - sum(board.tickets[t].points for t in failed)
        outcomes = [*others[:seat], TicketOutcome(seat, done, failed, points), *others[seat + 1:]]
        bonuses = [b for answer in game.hook.ttr_end_bonuses(game=game, outcomes=outcomes) for b in answer or ()]
        total = routes + points + sum(b.points for b in bonuses if b.seat == seat)
        key = (total, len(done), -sum(r is not None for r in choice))
        best = key if best is None else max(best, key)
    return best


def test_r_sta_4_ussr_the_owner_gets_the_brute_force_best_final_outcome():
    """Random ussr positions where P1's stations leave a real choice, and P2 holds as many
    completed tickets as P1's choice with the most, so that the +15 most-tickets bonus is in play:
    the engine's choice has the best final total, then the most tickets, then the fewest borrows,
    over every assignment of every raw candidate; in some, the bonus beats the ticket points."""
    board = variant.load("ussr").board
    checked = bonus_decided = 0
    for seed in range(200):
        rng = random.Random(seed)
        data = _random_position(rng, board)
        data["variant"] = "ussr"
        for ticket in data["players"][0]["tickets"]:
            ticket["points"] = rng.randint(1, 25)
        try:
            game = score_position(data)
        except RecordError:
            continue  # too many trains for someone: not a position
        answered = game.hook.ttr_ticket_outcomes(game=game, seat=0)
        most = max((len(a.completed) for a in answered.alternatives), default=0)
        theirs = [board.find_route(r) for r in data["players"][1]["routes"]]
        if len(answered.alternatives) < 2 or len(theirs) < most:
            continue
        data["players"][1]["tickets"] = [{"from": r.a, "to": r.b, "points": 1} for r in theirs[:most]]
        game = score_position(data)
        me = outcome(game, 0)
        got = (me.total, len(me.tickets_completed), -sum(b.route is not None for b in me.borrows))
        assert got == _brute_force_owner_best(game, 0, data["players"][0]["stations"]), f"seed {seed}"
        checked += 1
        bonus_decided += me.tickets_completed != tuple(game.board.tickets[t].id for t in answered.completed)
    assert checked >= 30 and bonus_decided >= 2


def test_r_sta_4_worst_case_keeps_few_combinations():
    # The benchmark shape: 3 stations on the owner's network, in cities with 9, 7 and 6 opponent
    # routes, and tickets to every far end. Raw: 9 * 7 * 6 = 378 combinations.
    board = variant.load("europe").board
    hubs = ["Paris", "Frankfurt", "Berlin"]
    mine = ["Paris-Zurich", "Munchen-Zurich", "Frankfurt-Munchen", "Munchen-Wien", "Berlin-Wien"]
    theirs = [r.id for r in board.routes if (r.a in hubs or r.b in hubs) and r.id not in mine]
    ends = ["Brest", "Dieppe", "Bruxelles", "Marseille", "Pamplona", "Amsterdam", "Essen", "Danzig", "Warszawa"]
    tickets = [{"from": "Wien", "to": e, "points": 5 + i} for i, e in enumerate(ends)]
    tickets += [{"from": "Brest", "to": "Danzig", "points": 13}, {"from": "Marseille", "to": "Warszawa", "points": 12}]
    game = score_position(position(
        {"routes": mine, "tickets": tickets, "stations": hubs},
        *({"routes": theirs[k::3]} for k in range(3)),
    ))
    raw = [len(c) for _, c in stations.raw_candidates(game, 0, hubs)]
    kept = [len(c) for _, c in stations.borrow_groups(game, 0, hubs)]
    assert raw == [9, 7, 6]
    assert kept[0] * kept[1] * kept[2] <= 60  # equivalent far ends merged, dead ends dropped
    assert outcome(game, 0).ticket_points == _brute_force_ticket_points(game, 0, hubs)


# --- R-STA-5 / R-BON-4: unused stations -------------------------------------------------------


def test_r_sta_5_four_points_per_unused_station():
    game = score_position(position(
        {"routes": ["Brest-Paris"], "stations": ["Wien"]},
        {"routes": ["Dieppe-Paris"], "stations": ["Roma", "Sofia", "Riga"]},
        {"routes": ["Amsterdam-Bruxelles"]},
    ))
    assert [outcome(game, s).bonus("unused-stations") for s in range(3)] == [8, 0, 12]
    assert [b.name for b in outcome(game, 1).bonuses if b.name == "unused-stations"] == []


# --- positions, the CLI, views, invariants ------------------------------------------------------


def test_position_stations_are_checked():
    with pytest.raises(RecordError) as info:
        score_position(position(
            {"stations": ["Paris", "Atlantis", "Paris"]},
            {"stations": ["Wien", "Paris", "Roma", "Riga"]},
        ))
    text = "\n".join(info.value.problems)
    assert "$.players[0].stations[1]: unknown city 'Atlantis'" in text
    assert "$.players[0].stations[2]: Paris has a station of this player already" in text
    with pytest.raises(RecordError, match="4 stations; a player has 3"):
        score_position(position({"stations": ["Wien", "Paris", "Roma", "Riga"]}, {}))
    with pytest.raises(RecordError, match=r"stations\[0\]: Paris has a station of seat 0"):
        score_position(position({"stations": ["Paris"]}, {"stations": ["Paris"]}))
    with pytest.raises(RecordError, match="a list of city names"):
        score_position(position({"stations": "Paris"}, {}))


def test_position_round_trips_stations():
    data = position(
        {"routes": ["Brest-Paris"], "tickets": ["Brest-Marseille"], "stations": ["Paris", "Wien"]},
        {"routes": ["Marseille-Paris"]},
    )
    game = score_position(data)
    again = position_of(game)
    assert again["players"][0]["stations"] == ["Paris", "Wien"]
    assert "stations" not in again["players"][1]
    assert score_position(again).result == game.result


def test_ttr_score_prints_the_borrowed_route(tmp_path):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position(
        {"name": "Ann", "routes": ["Edinburgh-London/black", "Dieppe-London/1"], "tickets": ["Edinburgh-Paris"],
         "stations": ["Paris"]},
        {"name": "Bob", "routes": ["Bruxelles-Paris/yellow", "Dieppe-Paris"]},
    )))
    result = CliRunner().invoke(main, ["score", str(path)])
    assert result.exit_code == 0, result.output
    assert "Ann: station in Paris borrowed Dieppe-Paris" in result.output
    assert "unused-stations" in result.output


def test_ttr_score_json_has_the_borrowed_routes_and_the_longest_trail(tmp_path):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position(
        {"name": "Ann", "routes": ["Edinburgh-London/black", "Dieppe-London/1"], "tickets": ["Edinburgh-Paris"],
         "stations": ["Paris", "Roma"]},
        {"name": "Bob", "routes": ["Bruxelles-Paris/yellow", "Dieppe-Paris"]},
    )))
    text = CliRunner().invoke(main, ["score", str(path)])
    assert "Ann: station in Paris borrowed Dieppe-Paris" in text.output
    assert "Ann: station in Roma borrowed nothing" in text.output
    result = CliRunner().invoke(main, ["score", str(path), "--json"])
    assert result.exit_code == 0, result.output
    ann, bob = json.loads(result.stdout)["result"]["scores"]
    assert ann["borrows"] == [{"label": "station in Paris", "route": "Dieppe-Paris"},
                              {"label": "station in Roma", "route": None}]
    assert ann["facts"] == {"longest-path": 6, "stations": [{"city": "Paris", "borrowed": "Dieppe-Paris"},
                                                             {"city": "Roma", "borrowed": None}]}
    assert bob["facts"]["longest-path"] == 3 and bob["borrows"] == []


def test_stations_are_public_in_every_view():
    game = europe_game(players=3)
    seat = game.state.current
    testing.set_hand(game, seat, {"red": 1})
    game.apply(seat, BuildStation("Paris", "red", 0))
    for viewer in (None, 0, 1, 2):
        assert game.view(viewer)["rules"]["stations"][seat] == {"cities": ["Paris"], "left": 2}


def test_invariant_catches_a_station_lost_or_doubled():
    game = europe_game()
    assert testing.invariant_problems(game) == []
    ext(game).built[0] = 1  # taken from supply, never placed
    assert any("seat 0 has 0 on the board + 2 in supply != 3" in p for p in testing.invariant_problems(game))
    ext(game).built[0] = 1
    ext(game).cities[0] = ["Paris"]
    ext(game).built[1] = 1
    ext(game).cities[1] = ["Paris"]
    assert any("Paris has two stations" in p for p in testing.invariant_problems(game))
