"""The opponent-ticket model (ttr_bots/opponent_model.py) and the weighted deal of tickets it feeds
(ttr_core/hidden.py ``redeal_tickets``): a ticket whose cities a seat's routes join weighs more
(R-TIX-2), a route the likely tickets need is found with what losing it costs (R-SCORE-2, R-PAR-2),
and sampled games keep the seat's view and depend on it alone."""

from __future__ import annotations

import copy
import random
from collections import Counter

from ttr_bots.opponent_model import TicketModel, likely_tickets, route_needs
from ttr_bots.sampling import sample
from ttr_bots import search_bot
from ttr_bots.search_bot import SearchBot
from ttr_bots.ticket import TicketBot
from ttr_core import variant
from ttr_core.game import Game
from ttr_core.hidden import redeal_tickets
from ttr_core.invariants import invariant_problems

QUICK = SearchBot.with_budget(iterations=4)


def played_to(players: int, seed: int, actions: int) -> Game:
    game = Game(variant.load("usa"), [f"P{i + 1}" for i in range(players)], seed)
    bots = [TicketBot(seed, i) for i in range(players)]
    for _ in range(actions):
        seat = game.to_act()[0]
        game.apply(seat, bots[seat].choose(game.seat_view(seat)))
    return game


def path_owner(board, ticket_id: str, seat: int) -> dict[int, int]:
    """Route owners in which ``seat`` owns one shortest route chain between the ticket's cities."""
    ticket = board.tickets[board.ticket_index[ticket_id]]
    needs = route_needs(board, {}, seat, [ticket.index], twins_open=False)
    assert needs
    return {r: seat for r in needs}


def test_a_ticket_the_seat_s_routes_join_weighs_more_than_one_they_do_nothing_for():
    board = variant.load("usa").board
    owner = path_owner(board, "Los Angeles-New York", 1)
    w = TicketModel(board).weights(owner, 1)
    joined = board.ticket_index["Los Angeles-New York"]
    assert w[joined] > 20 * w[board.ticket_index["Calgary-Salt Lake City"]]
    assert w[joined] == max(w.values())
    assert TicketModel(board).weights({}, 1) == {t.index: 1.0 for t in board.tickets}  # no routes, no clue
    assert likely_tickets(w, 1) == [joined]


def test_a_route_a_ticket_needs_costs_the_detour_or_the_ticket_twice():
    board = variant.load("usa").board
    t = board.tickets[board.ticket_index["Denver-El Paso"]]
    needs = route_needs(board, {}, 2, [t.index], twins_open=False)
    assert needs and all(loss > 0 for loss in needs.values())
    # once the seat owns them all, nothing is needed any more
    assert route_needs(board, {r: 2 for r in needs}, 2, [t.index], twins_open=False) == {}
    # with parallel routes open to everyone (R-PAR-2, 4 players), a route with a free twin costs nothing
    open_needs = route_needs(board, {}, 2, [t.index], twins_open=True)
    assert all(not board.routes[r].parallel for r in open_needs)


def test_a_weighted_deal_keeps_piles_their_sizes_and_kinds_and_the_seat_s_view():
    game = played_to(4, 3, 80)
    twin = game.clone()
    weights = {1: {t.index: 1000.0 if t.index % 2 else 1.0 for t in game.board.tickets}}
    redeal_tickets(twin.state, [1, 2, 3], twin.board, random.Random(5), weights)
    assert twin.view(0) == game.view(0)
    assert invariant_problems(twin) == []
    before, after = game.state, twin.state
    assert len(after.ticket_deck) == len(before.ticket_deck)
    for s in (1, 2, 3):
        assert len(after.players[s].tickets) == len(before.players[s].tickets)
    unseen = Counter(before.ticket_deck + before.boxed_tickets + [t for s in (1, 2, 3) for t in before.players[s].tickets])
    assert unseen == Counter(after.ticket_deck + after.boxed_tickets + [t for s in (1, 2, 3) for t in after.players[s].tickets])


def test_a_weighted_deal_gives_the_likely_tickets_more_often():
    game = played_to(4, 3, 80)
    favourite = next(t for t in game.state.ticket_deck)  # unseen by seat 0
    weights = {1: {favourite: 50.0}}
    held = 0
    for i in range(60):
        twin = game.clone()
        redeal_tickets(twin.state, [1, 2, 3], twin.board, random.Random(i), weights)
        held += favourite in twin.state.players[1].tickets
    assert held > 40


def test_model_sampling_depends_on_the_seat_s_view_only():
    game = played_to(4, 3, 100)
    other = game.determinize(0, random.Random(1))
    bot = SearchBot(3, 0)
    weights = bot.ticket_weights(game.seat_view(0))
    assert weights == bot.ticket_weights(other.seat_view(0))
    worlds = [sample(g, 0, random.Random(7), weights).dump() for g in (game, other)]
    assert worlds[0] == worlds[1]


def test_its_4_player_choices_do_not_change_with_what_the_others_hold(monkeypatch):
    monkeypatch.setattr(search_bot, "MID_GAME_PLAYERS", 4)  # every turn searched: more decisions checked
    seed = 9
    game = Game(variant.load("usa"), [f"P{i + 1}" for i in range(4)], seed)
    players = [QUICK(seed, 0), *(TicketBot(seed, i) for i in range(1, 4))]
    rng = random.Random(seed)
    searched = 0
    while not game.over and searched < 8:
        seat = game.to_act()[0]
        if seat == 0:
            twin = copy.deepcopy(players[0])
            other_game = game.determinize(0, rng)
            before = players[0].searched
            action = players[0].choose(game.seat_view(0))
            searched += players[0].searched > before
            assert twin.choose(other_game.seat_view(0)) == action
        else:
            action = players[seat].choose(game.seat_view(seat))
        game.apply(seat, action)
    assert searched == 8
