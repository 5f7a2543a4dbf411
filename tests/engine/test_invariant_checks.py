"""The checks can fail: every invariant of ``ttr_kit.testing`` and the view-leak check report a game
that was corrupted on purpose (a check that never fires proves nothing when it stays quiet).

Each test starts from a healthy game (no problem reported), breaks exactly one thing the way a
buggy plugin would, and asserts that the matching problem is reported.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ttr_core import manager, variant
from ttr_kit import testing
from ttr_core.errors import TTRError
from ttr_core.plugin import Plugin, hookimpl

VARIANTS = sorted(variant.available())


def healthy(variant_id: str = "usa", players: int = 3, seed: int = 5, actions: int = 40):
    """A game some way into play (bots), every invariant holding."""
    from ttr_bots import bot_class

    game = testing.keep_all_starting_tickets(testing.new_game(variant_id, players, seed))
    bots = [bot_class("random")(seed, s) for s in range(players)]
    for _ in range(actions):
        if game.over:
            break
        seat = game.to_act()[0]
        game.apply(seat, bots[seat].choose(game.seat_view(seat)))
    assert testing.invariant_problems(game) == []
    return game


def with_a_route(variant_id: str = "usa"):
    game = healthy(variant_id, actions=0)
    route = next(r for r in game.board.routes if game.state.owner[r.index] < 0 and r.length <= 3)
    testing.give_route(game, 0, route.id)
    assert testing.invariant_problems(game) == []
    return game, route


def reported(game, prefix: str) -> list[str]:
    return [p for p in testing.invariant_problems(game) if p.startswith(prefix)]


# --- cards -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_a_card_lost_from_the_deck_is_reported(variant_id):
    game = healthy(variant_id)
    card = game.state.deck.pop()
    (problem,) = reported(game, "cards:")
    assert f"{game.cards.names[card]} -1" in problem


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_a_card_made_out_of_nothing_is_reported(variant_id):
    game = healthy(variant_id)
    game.state.players[1].hand[game.cards.locomotive] += 1
    (problem,) = reported(game, "cards:")
    assert "locomotive +1" in problem


def test_a_card_swapped_for_another_kind_is_reported_even_when_the_total_is_right():
    game = healthy()
    deck = game.state.deck
    other = next(i for i, c in enumerate(deck) if c != deck[-1])
    was = deck[other]
    deck[other] = deck[-1]  # the same number of cards, one kind too many and one too few
    (problem,) = reported(game, "cards:")
    assert f"{game.cards.names[deck[-1]]} +1" in problem and f"{game.cards.names[was]} -1" in problem


def test_a_negative_hand_count_is_reported_even_when_the_census_balances():
    game = healthy()
    hand = game.state.players[0].hand
    empty = hand.index(0) if 0 in hand else None
    card = empty if empty is not None else 0
    hand[card] -= 1
    game.state.deck.append(card)  # the census still adds up
    assert reported(game, "cards: a hand holds a negative count")


def test_a_card_held_by_a_pending_decision_is_counted():
    """A tunnel's base and revealed cards are off the hand and off the deck: the census must count
    them through ``held_cards`` (else every tunnel attempt would look like lost cards)."""
    from ttr_core.state import Decision

    class Holding(Decision):
        def __init__(self, cards):
            object.__setattr__(self, "kind", "test")
            object.__setattr__(self, "allowed", ())
            object.__setattr__(self, "_cards", cards)

        def held_cards(self):
            return list(self._cards)

    game = healthy()
    taken = [game.state.deck.pop(), game.state.deck.pop()]
    assert reported(game, "cards:")
    game.state.players[2].decision = Holding(taken)
    assert not reported(game, "cards:")


# --- trains, scores, routes --------------------------------------------------------------------


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_trains_that_do_not_add_up_are_reported(variant_id):
    game, route = with_a_route(variant_id)
    game.state.players[0].trains += 1
    (problem,) = reported(game, "trains:")
    assert "seat 0" in problem


def test_a_negative_train_supply_is_reported():
    game = healthy()
    game.state.players[1].trains = -2
    assert any("-2 trains in supply" in p for p in reported(game, "trains:"))


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_a_running_score_that_does_not_match_the_routes_is_reported(variant_id):
    game, route = with_a_route(variant_id)
    game.state.players[0].route_points += 1
    (problem,) = reported(game, "score:")
    assert "seat 0" in problem


def test_a_route_listed_by_one_seat_but_owned_by_another_is_reported():
    game, route = with_a_route()
    game.state.owner[route.index] = 1
    found = reported(game, "routes:")
    assert any(f"seat 0 lists {route.id}, owned by 1" in p for p in found)
    assert any(f"{route.id} is marked as seat 1's but not in its list" in p for p in found)


def test_a_route_with_two_owners_is_reported():
    game, route = with_a_route()
    other = game.state.players[1]
    other.routes.append(route.index)
    other.trains -= route.length
    other.route_points += game.route_points(route.length)
    assert any(f"{route.id} has 2 owners" in p for p in reported(game, "routes:"))


def test_an_owner_mark_without_the_route_in_the_list_is_reported():
    game = healthy(actions=0)
    free = next(r for r in game.board.routes if game.state.owner[r.index] < 0)
    game.state.owner[free.index] = 2
    assert reported(game, "routes:") == [f"routes: {free.id} is marked as seat 2's but not in its list"]


# --- tickets -----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_a_lost_ticket_is_reported(variant_id):
    game = healthy(variant_id)
    lost = game.state.ticket_deck.pop()
    (problem,) = reported(game, "tickets:")
    assert "nowhere" in problem and game.board.tickets[lost].id in problem


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_a_ticket_in_two_places_is_reported(variant_id):
    game = healthy(variant_id)
    copied = game.state.ticket_deck[0]
    game.state.players[1].tickets.append(copied)
    (problem,) = reported(game, "tickets:")
    assert "two places" in problem and game.board.tickets[copied].id in problem


def test_an_unknown_ticket_number_is_reported():
    game = healthy()
    game.state.players[0].tickets.append(len(game.board.tickets) + 7)
    assert any("unknown ticket numbers" in p for p in reported(game, "tickets:"))


def test_offered_tickets_are_counted_during_the_setup():
    game = testing.new_game("usa", 3, 1)
    assert game.state.phase == "setup"
    assert testing.invariant_problems(game) == []  # the offers are in the decisions, not lost
    offered = game.state.players[0].decision.offered
    game.state.ticket_deck.append(offered[0])
    assert any("two places" in p for p in reported(game, "tickets:"))


# --- the turn flow -----------------------------------------------------------------------------


def test_an_unknown_phase_is_reported():
    game = healthy()
    game.state.phase = "paused"
    assert any("unknown phase 'paused'" in p for p in reported(game, "flow:"))


def test_a_game_over_without_a_result_is_reported():
    game = healthy()
    game.state.phase = "over"
    assert any("but no result" in p for p in reported(game, "flow:"))


def test_a_result_while_the_game_is_on_is_reported():
    game = healthy()
    finished = healthy()
    testing.score_now(finished)
    game.result = finished.result
    assert any("phase 'play' but a result" in p for p in reported(game, "flow:"))


def test_a_resigned_or_unknown_current_seat_is_reported():
    game = healthy()
    game.state.players[game.state.current].resigned = True
    assert any("is not an active seat" in p for p in reported(game, "flow:"))
    game = healthy()
    game.state.current = 9
    assert any("current seat 9" in p for p in reported(game, "flow:"))


def test_a_decision_left_pending_after_the_end_is_reported():
    game = healthy()
    from ttr_plugins.train_cards import SecondCard

    testing.score_now(game)
    assert testing.invariant_problems(game) == []
    game.state.players[1].decision = SecondCard()
    assert any("still have a decision pending" in p for p in reported(game, "flow:"))


def test_a_final_round_naming_unknown_seats_is_reported():
    game = healthy()
    game.state.final_round = [1, 7]
    assert any("unknown seats" in p for p in reported(game, "flow:"))


# --- a plugin's own invariants (ttr_invariant_problems) ---------------------------------------


def test_the_stations_plugin_reports_a_broken_station_supply():
    game = healthy("europe")
    game.state.ext["stations"].built[1] += 1  # a station counted as built but standing nowhere
    assert any(p.startswith("stations: seat 1") for p in testing.invariant_problems(game))


def test_a_plugin_invariant_hook_is_asked(tmp_path):
    class Fussy(Plugin):
        @hookimpl
        def ttr_invariant_problems(self, game):
            return ["fussy: the turn counter is odd"] if game.state.turn % 2 else []

    path = extending(tmp_path, "usa", "fussy")
    with manager.local_plugins({"fussy": Fussy}):
        game = testing.keep_all_starting_tickets(testing.new_game(path, 2, 1))
        assert testing.invariant_problems(game) == []
        game.state.turn = 3
        assert "fussy: the turn counter is odd" in testing.invariant_problems(game)


def test_assert_invariants_fails_with_every_problem():
    game = healthy()
    game.state.deck.pop()
    game.state.players[0].trains += 1
    with pytest.raises(AssertionError, match="cards:.*trains:"):
        testing.assert_invariants(game)


# --- the view-leak check --------------------------------------------------------------------


def extending(tmp_path: Path, parent: str, *plugins: str) -> Path:
    """A variant file extending ``parent`` with ``plugins`` added."""
    vid = f"{parent}-plus"
    path = tmp_path / f"{vid}.toml"
    added = ", ".join(f'"{p}"' for p in plugins)
    path.write_text(f'id = "{vid}"\ntitle = "test"\nextends = "{parent}"\n\n[versions.1]\nadd_plugins = [{added}]\n')
    return path


class LeakHands(Plugin):
    @hookimpl
    def ttr_view(self, game, seat):
        return {"hand sizes, and more": [game.cards.counts_by_name(p.hand) for p in game.state.players]}


class LeakTickets(Plugin):
    @hookimpl
    def ttr_view(self, game, seat):
        return {"goals": {p.name: [game.board.tickets[t].id for t in p.tickets] for p in game.state.players}}


class LeakDeckTop(Plugin):
    @hookimpl
    def ttr_view(self, game, seat):
        return {"next card": game.cards.names[game.state.deck[-1]] if game.state.deck else None}


class LeakOffers(Plugin):
    @hookimpl
    def ttr_view(self, game, seat):
        return {"offers": [len(getattr(p.decision, "offered", ())) and list(p.decision.offered) for p in game.state.players]}


class LeakTicketDeckOrder(Plugin):
    @hookimpl
    def ttr_view(self, game, seat):
        return {"next ticket": game.state.ticket_deck[-1] if game.state.ticket_deck else None}


class FairCounts(Plugin):
    """Shows only what everybody may see: counts."""

    @hookimpl
    def ttr_view(self, game, seat):
        return {"hand sizes": [sum(p.hand) for p in game.state.players]}


def leaks_with(tmp_path, cls, seat, setup=True):
    path = extending(tmp_path, "usa", "peek")
    with manager.local_plugins({"peek": cls}):
        game = testing.new_game(path, 3, 2)
        if setup:
            testing.keep_all_starting_tickets(game)
        return testing.view_leaks(game, seat)


@pytest.mark.parametrize("seat", [None, 0, 2])
@pytest.mark.parametrize("cls", [LeakHands, LeakTickets, LeakDeckTop, LeakTicketDeckOrder])
def test_a_plugin_showing_hidden_things_is_caught(tmp_path, cls, seat):
    problems = leaks_with(tmp_path, cls, seat)
    assert problems and all(p.startswith(f"view({seat})") for p in problems)
    assert any("$.rules." in p or "ticket" in p for p in problems)


def test_showing_other_seats_tickets_is_caught_by_name(tmp_path):
    problems = leaks_with(tmp_path, LeakTickets, 1)
    assert any("shows seat 0's ticket" in p for p in problems)
    assert any("shows seat 2's ticket" in p for p in problems)
    assert not any("seat 1's ticket" in p for p in problems)  # its own are fine


def test_showing_offered_tickets_during_the_setup_is_caught(tmp_path):
    problems = leaks_with(tmp_path, LeakOffers, 0, setup=False)
    assert any("$.rules.offers" in p for p in problems)


def test_counts_everybody_may_see_are_no_leak(tmp_path):
    assert leaks_with(tmp_path, FairCounts, None) == []
    assert leaks_with(tmp_path, FairCounts, 1) == []


def test_the_leak_check_leaves_the_game_as_it_was():
    game = healthy("europe")
    before = testing.state_text(game), len(game.log)
    testing.assert_no_view_leaks(game)
    assert (testing.state_text(game), len(game.log)) == before


@pytest.mark.parametrize("bad", [-1, 3, "0", 1.0, True])
def test_a_view_for_a_seat_that_does_not_exist_is_refused(bad):
    """``players[-1]`` is the last seat: a view for seat -1 used to show that seat's hand."""
    game = healthy()
    with pytest.raises(TTRError, match="no seat"):
        game.view(bad)
