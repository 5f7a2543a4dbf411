"""Copies of a game for search bots: ``game.clone()`` plays on exactly as the game would, and
``game.determinize(seat, rng)`` deals anew what ``seat`` cannot see, without changing what it sees.
Properties over seeded games of every rule set, stopped at random moments."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_core import record, variant
from ttr_core.game import Game
from ttr_core.invariants import invariant_problems

VARIANTS = ["usa", "europe", "wor", "ussr"]


def text(game: Game) -> str:
    return json.dumps(game.dump(), sort_keys=True)


def play(game: Game, steps: int, rng: random.Random) -> Game:
    for _ in range(steps):
        if game.over:
            break
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def game_at(variant_id: str, players: int, seed: int, steps: int) -> Game:
    game = Game(variant.load(variant_id), [f"P{i + 1}" for i in range(players)], seed)
    return play(game, steps, random.Random(seed))


positions = st.tuples(st.sampled_from(VARIANTS), st.integers(2, 4), st.integers(0, 10_000), st.integers(0, 250))


@settings(max_examples=40, deadline=None)
@given(positions, st.integers(0, 10_000))
def test_a_clone_plays_on_identically_and_leaves_the_game_alone(position, seed):
    game = game_at(*position)
    before = text(game)
    twin = game.clone()
    assert text(twin) == before
    play(twin, 400, random.Random(seed))
    assert text(game) == before  # playing the clone changed nothing of the game
    play(game, 400, random.Random(seed))
    assert text(game) == text(twin)  # same moves, same draws from the generator, same game
    assert record.dumps(record.make_record(game)) == record.dumps(record.make_record(twin))


@settings(max_examples=40, deadline=None)
@given(positions, st.integers(0, 10_000))
def test_a_determinized_game_shows_the_seat_the_same_view(position, seed):
    game = game_at(*position)
    seat = seed % len(game.state.players)
    sampled = game.determinize(seat, random.Random(seed))
    assert json.dumps(sampled.view(seat), sort_keys=True) == json.dumps(game.view(seat), sort_keys=True)
    mine, theirs = game.state.players[seat], sampled.state.players[seat]
    assert (mine.hand, mine.tickets, mine.decision) == (theirs.hand, theirs.tickets, theirs.decision)
    assert sampled.state.open_row == game.state.open_row and sampled.state.discard == game.state.discard
    assert invariant_problems(sampled) == []  # every card and ticket still in exactly one place
    assert text(game) == text(game_at(*position))  # the game itself is untouched


@settings(max_examples=25, deadline=None)
@given(positions, st.integers(0, 10_000))
def test_a_determinized_game_plays_on_to_the_end(position, seed):
    sampled = game_at(*position).determinize(0, random.Random(seed))
    play(sampled, 2_000, random.Random(seed))
    assert sampled.over and invariant_problems(sampled) == []


def test_determinizing_deals_the_hidden_parts_anew():
    game = game_at("usa", 4, 3, 60)
    others = [game.determinize(0, random.Random(k)) for k in range(5)]
    hands = {tuple(tuple(p.hand) for p in g.state.players[1:]) for g in others}
    tickets = {tuple(tuple(p.tickets) for p in g.state.players[1:]) for g in others}
    decks = {tuple(g.state.deck) for g in others}
    assert len(hands) > 1 and len(tickets) > 1 and len(decks) > 1
    for g in others:  # sizes are public: every other hand and ticket count stays
        assert [sum(p.hand) for p in g.state.players] == [sum(p.hand) for p in game.state.players]
        assert [len(p.tickets) for p in g.state.players] == [len(p.tickets) for p in game.state.players]


def test_a_long_ticket_stays_a_long_ticket():
    # europe deals each player one long ticket and boxes the others (R-SET-4): a sample keeps that
    game = game_at("europe", 3, 5, 0)
    board = game.board

    def kinds(g: Game) -> list[list[str]]:
        return [sorted(board.tickets[t].kind for t in (*p.tickets, *(p.decision.held_tickets() if p.decision else ())))
                for p in g.state.players]

    for k in range(10):
        sampled = game.determinize(0, random.Random(k))
        assert kinds(sampled) == kinds(game)
        assert all(board.tickets[t].kind == "long" for t in sampled.state.boxed_tickets)


def test_a_clone_and_its_game_draw_the_same_numbers_each_from_its_own_generator():
    game = game_at("usa", 2, 7, 30)
    reference = random.Random()
    reference.setstate(game.rng.getstate())
    expected = [reference.random() for _ in range(5)]
    twin = game.clone()
    assert [twin.rng.random() for _ in range(5)] == expected  # the clone draws the game's next numbers
    assert [game.rng.random() for _ in range(5)] == expected  # and the game still draws them too
    third = game.clone()
    assert [game.rng.random() for _ in range(3)] == [third.rng.random() for _ in range(3)]
