"""Seeded bot games of ``wor`` (USA map) and ``wor-europe``: 200 games each over 2-6 players, with
the invariants checked after every action, and counts proving that the rare paths were really
taken: tunnel attempts, extra cards paid and declined, 3-for-1 triples, resignations (R-TURN-3)
including resignations that cancel a pending tunnel attempt (R-TURN-4)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ttr_core import record, variant
from ttr_plugins.claiming import ClaimRoute
from ttr_bots.random_bot import RandomBot
from ttr_core.game import Game
from ttr_kit.testing import invariant_problems
from ttr_plugins.resignation import Resign
from ttr_plugins.tunnels import TunnelExtra

GAMES = 200


def play(ruleset, players: int, seed: int, counts: Counter) -> Game:
    """A game of random bots. In every fourth game somebody leaves: at a random moment a random
    seat, and any seat facing a tunnel's extra cards with probability 1/3."""
    game = Game(ruleset, [f"P{i + 1}" for i in range(players)], seed)
    bots = [RandomBot(seed, seat) for seat in range(players)]
    leaver = random.Random(f"leaver:{seed}") if seed % 4 == 3 else None
    leave_at = leaver.randrange(400) if leaver else -1
    for step in range(20_000):
        if game.over:
            return game
        seat = game.to_act()[0]
        decision = game.state.players[seat].decision
        if leaver and isinstance(decision, TunnelExtra) and leaver.random() < 1 / 3:
            action = Resign()
            counts["resigned during a tunnel attempt"] += 1
        elif step == leave_at:
            seat = leaver.choice(game.active_seats())
            action = Resign()
        else:
            action = bots[seat].choose(game.seat_view(seat))
        tally(game, seat, action, counts)
        game.apply(seat, action)
        if isinstance(game.state.players[seat].decision, TunnelExtra):
            counts["tunnel extra asked"] += 1
        problems = invariant_problems(game)
        assert not problems, f"{ruleset.variant} seed {seed}, action {step} {action}: {problems}"
    raise AssertionError(f"{ruleset.variant} seed {seed}: no end within 20000 actions")


def tally(game: Game, seat: int, action, counts: Counter) -> None:
    counts[action.kind] += 1
    if isinstance(action, ClaimRoute):
        route = game.board.routes[game.board.route_index[action.route]]
        counts["tunnel attempts"] += route.tunnel
        counts["ferry claims"] += bool(route.ferry)
        counts["claims with 3-for-1 triples"] += bool(action.triples)


def sweep(vid: str) -> Counter:
    ruleset = variant.load(vid)
    counts: Counter = Counter()
    for seed in range(GAMES):
        players = 2 + seed % 5
        game = play(ruleset, players, seed, counts)
        counts[f"{players} players"] += 1
        counts["ended: " + game.state.end_reason.split(" (")[0]] += 1
        winners = game.result.winners.seats
        assert winners and not any(game.state.players[s].resigned for s in winners)  # R-TURN-3
        for s in game.result.scores:
            assert not (s.resigned and s.bonus("ticket-leader")), "R-BON-2: resigned players are left out"
        if seed % 25 == 0:
            again = record.replay(record.make_record(game))
            assert again.dump() == game.dump()
    print(f"\n{vid}: {dict(sorted(counts.items()))}")
    return counts


@pytest.mark.slow
def test_200_wor_games_keep_every_invariant():
    counts = sweep("wor")
    assert all(counts[f"{n} players"] == GAMES // 5 for n in range(2, 7))
    assert counts["ended: the final round has been played"] > 0
    assert counts["ended: one player is left, the others resigned"] > 0  # a 2-player game somebody left
    assert counts["resign"] > 0
    assert counts["tunnel attempts"] == counts["ferry claims"] == 0  # the USA map has neither


@pytest.mark.slow
def test_200_wor_europe_games_take_tunnels_triples_and_declines():
    counts = sweep("wor-europe")
    assert counts["tunnel attempts"] > 0
    assert counts["tunnel extra asked"] > 0
    assert counts["pay-tunnel"] > 0
    assert counts["decline-tunnel"] > 0
    assert counts["claims with 3-for-1 triples"] > 0
    assert counts["resigned during a tunnel attempt"] > 0
