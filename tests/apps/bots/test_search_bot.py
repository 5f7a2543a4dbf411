"""The search bot (ttr_bots/search_bot.py): installed like any bot, it finishes games of every rule set
within the rules and reproducibly, chooses from what its seat sees only (the same choice whatever the
others hold), and thinks within its budget of play-outs (and seconds). Its strength against ticket
bots is measured by ``python -m bench.bot_strength --search``, not here."""

from __future__ import annotations

import copy
import random

import pytest

from ttr_bots import bot_class, local_bots, names, play_game
from ttr_bots import search_bot
from ttr_bots.sampling import sample
from ttr_core.seat_view import canonical_state
from ttr_bots.search_bot import SearchBot
from ttr_bots.ticket import TicketBot
from ttr_core import record, variant
from ttr_core.game import Game
from ttr_core.invariants import invariant_problems

#: a small budget, so that whole games stay quick
QUICK = SearchBot.with_budget(iterations=4)


def check_invariants(game, seat, action):
    assert invariant_problems(game) == [], (seat, action)


def played_to(variant_id: str, players: int, seed: int, actions: int) -> Game:
    """A game of ticket bots stopped after ``actions`` actions."""
    game = Game(variant.load(variant_id), [f"P{i + 1}" for i in range(players)], seed)
    bots = [TicketBot(seed, i) for i in range(players)]
    for _ in range(actions):
        seat = game.to_act()[0]
        game.apply(seat, bots[seat].choose(game.seat_view(seat)))
    return game


def test_the_search_bot_is_installed_like_any_bot():
    assert "search" in names() and bot_class("search") is SearchBot and SearchBot.name == "search"


@pytest.mark.parametrize("variant_id", sorted(variant.available()))
def test_it_finishes_a_game_of_every_rule_set_within_the_rules(variant_id):
    with local_bots({"quick-search": QUICK}):
        game = play_game(variant.load(variant_id), 2, 5, ["quick-search", "ticket"], on_action=check_invariants)
    assert game.over and game.result is not None


def test_the_same_seed_gives_the_same_game_record():
    with local_bots({"quick-search": QUICK}):
        games = [play_game(variant.load("usa"), 3, 8, ["ticket", "quick-search", "ticket"]) for _ in range(2)]
    texts = [record.dumps(record.make_record(g)) for g in games]
    assert texts[0] == texts[1]


# --- what it may know ---------------------------------------------------------------------------


def test_sampling_depends_on_the_seat_s_view_only():
    game = played_to("usa", 4, 3, 60)
    other = game.determinize(0, random.Random(1))  # same view for seat 0, other hands and tickets
    assert other.dump() != game.dump()
    assert canonical_state(other.state, 0, other.board).dump() == canonical_state(game.state, 0, game.board).dump()
    worlds = [sample(g, 0, random.Random(7)).dump() for g in (game, other)]
    assert worlds[0] == worlds[1]
    assert sample(game, 0, random.Random(8)).dump() != worlds[0]  # and it does sample


def test_its_choices_do_not_change_with_what_the_others_hold():
    # before each of its decisions, a copy of the bot chooses in a copy of the game whose hidden
    # parts (other hands and tickets, the deck) were dealt anew: same view, so same choice
    game = Game(variant.load("usa"), ["P1", "P2"], 4)
    players = [QUICK(4, 0), TicketBot(4, 1)]
    rng = random.Random(4)
    searched = differed = 0
    while not game.over and searched < 12:
        seat = game.to_act()[0]
        if seat == 0:
            twin = copy.deepcopy(players[0])
            other_game = game.determinize(0, rng)
            assert other_game.view(0) == game.view(0)
            before = players[0].searched
            action = players[0].choose(game.seat_view(0))
            searched += players[0].searched > before
            differed += twin.choose(other_game.seat_view(0)) != action
        else:
            action = players[seat].choose(game.seat_view(seat))
        game.apply(seat, action)
    assert searched == 12 and differed == 0


def test_it_never_draws_from_the_game_s_generator():
    game = played_to("usa", 2, 6, 0)
    state = game.rng.getstate()
    QUICK(6, 0).choose(game.seat_view(0))  # the first tickets to keep: a searched decision
    assert game.rng.getstate() == state


# --- the budget -----------------------------------------------------------------------------------


def first_searched(bot_cls, game: Game, seat: int) -> SearchBot:
    bot = bot_cls(1, seat)
    bot.choose(game.seat_view(seat))
    assert bot.searched == 1
    return bot


def test_it_plays_out_its_iterations_spread_over_the_candidates():
    game = played_to("usa", 2, 6, 0)  # seat 0 keeps 2 or 3 of 3 tickets: 4 offers
    offers = [a for a in game.legal_actions(0) if a.kind == "keep-tickets"]
    assert len(offers) == 4
    assert first_searched(SearchBot.with_budget(iterations=12), game, 0).playouts == 12
    assert first_searched(SearchBot.with_budget(iterations=40), game, 0).playouts == 40


def test_a_time_cap_stops_the_play_outs(monkeypatch):
    game = played_to("usa", 2, 6, 0)
    playouts = []
    for seconds in (3, 6):
        clock = iter(range(1_000_000))  # a clock that moves one second each time it is read
        monkeypatch.setattr(search_bot.time, "perf_counter", lambda: float(next(clock)))
        playouts.append(first_searched(SearchBot.with_budget(iterations=400, seconds=seconds), game, 0).playouts)
    assert playouts[0] < playouts[1] < 400
    assert playouts[0] % 4 == 0 and playouts[1] % 4 == 0  # each sampled game is played out for every offer


def test_a_decision_with_one_sensible_move_is_not_searched():
    game = played_to("usa", 2, 6, 0)
    bots = [TicketBot(6, i) for i in range(2)]
    while not any(game.view(s)["players"][s]["decision"] for s in game.to_act() if game.state.phase == "play"):
        seat = game.to_act()[0]
        game.apply(seat, bots[seat].choose(game.seat_view(seat)))
    seat = game.to_act()[0]  # the second card to draw: its own policy's pick, without search
    assert {a.kind for a in game.legal_actions(seat)} == {"draw-card"}
    bot = SearchBot(6, seat)
    assert bot.choose(game.seat_view(seat)) == SearchBot.policy(6, seat).choose(game.seat_view(seat))
    assert bot.playouts == 0 and bot.searched == 0


def test_by_default_it_plays_out_more_where_only_the_last_turns_are_searched():
    assert first_searched(SearchBot, played_to("usa", 2, 6, 0), 0).playouts == search_bot.PLAYOUTS
    game = _late_turn("usa", 4, 6)
    assert first_searched(SearchBot, game, game.to_act()[0]).playouts == search_bot.MANY_PLAYOUTS


def test_with_more_than_two_players_it_searches_only_the_last_turns():
    game = played_to("usa", 4, 6, 0)  # tickets to keep at the start: its policy's choice
    bot = SearchBot(1, 0)
    assert bot.choose(game.seat_view(0)) == SearchBot.policy(1, 0).choose(game.seat_view(0)) and bot.searched == 0
    game = _late_turn("usa", 4, 6)
    seat = game.to_act()[0]
    bot = SearchBot(1, seat)
    assert len(bot.candidates(game.seat_view(seat), bot.base.choose(game.seat_view(seat)))) > 1


def test_with_more_than_two_players_the_last_turns_start_earlier():
    assert search_bot.MANY_LATE_TRAINS > search_bot.LATE_TRAINS
    game = _late_turn("usa", 4, 6, search_bot.MANY_LATE_TRAINS, above=search_bot.LATE_TRAINS)
    seat = game.to_act()[0]
    bot = SearchBot(1, seat)
    assert len(bot.candidates(game.seat_view(seat), bot.base.choose(game.seat_view(seat)))) > 1


def test_with_three_players_or_more_it_models_the_others_tickets_with_two_it_samples_them_at_random():
    two, four = played_to("usa", 2, 6, 40), played_to("usa", 4, 6, 80)
    assert SearchBot(1, 0).ticket_weights(two.seat_view(0)) is None
    weights = SearchBot(1, 0).ticket_weights(four.seat_view(0))
    assert sorted(weights) == [1, 2, 3]
    assert any(max(w.values()) > 1 for w in weights.values())  # their routes tell something


def _late_turn(variant_id: str, players: int, seed: int, most: int | None = None, above: int = -1) -> Game:
    """A game of ticket bots at the start of a turn when someone has ``most`` (by default
    ``LATE_TRAINS``) or fewer trains, nobody ``above`` or fewer, and the seat to act could claim one
    of several routes."""
    most = search_bot.LATE_TRAINS if most is None else most
    game = played_to(variant_id, players, seed, 0)
    bots = [TicketBot(seed, i) for i in range(players)]
    while True:
        seat = game.to_act()[0]
        late = above < min(p.trains for p in game.state.players) <= most
        claims = {a.route for a in game.legal_actions(seat) if a.kind == "claim-route"}
        if late and game.state.players[seat].decision is None and len(claims) > 1:
            return game
        game.apply(seat, bots[seat].choose(game.seat_view(seat)))
