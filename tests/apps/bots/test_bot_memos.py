"""A bot keeps what it works out once (a board's routes by cities, the graph before anyone claims,
a ruleset's action handlers) on itself, keyed by the board and ruleset objects it was made from,
never in its module: asked about one game through other objects (a server loads a game again
between moves, from a ruleset that may have been loaded anew), it plays exactly as it would have.
"""

from __future__ import annotations

import hashlib

import pytest

from ttr_core import record, variant
from ttr_core.game import Game
from ttr_bots import bot_class, play_game

SEED = 11
PLAYERS = 3


def _digest(game: Game) -> str:
    return hashlib.sha256(record.dumps(record.make_record(game)).encode()).hexdigest()


@pytest.mark.parametrize("variant_id", ["usa", "europe"])
@pytest.mark.parametrize("bot", ["ticket", "route-value", "long-routes", "hoarder"])
def test_a_game_asked_about_through_two_loads_of_its_variant_is_played_as_if_through_one(variant_id, bot):
    straight = play_game(variant.load(variant_id), PLAYERS, SEED, (bot,))
    first = variant.load(variant_id)
    second = variant.load(variant_id, first.version)  # loaded again: equal, but other objects
    assert second.board is not first.board and second.board == first.board
    names = [f"P{i + 1}" for i in range(PLAYERS)]
    games = [Game(first, names, SEED), Game(second, names, SEED)]  # the same game, move for move
    seats = [bot_class(bot)(SEED, s) for s in range(PLAYERS)]
    for move in range(5_000):
        asked = games[move % 2]  # each bot sees the two boards and rulesets in turn
        if asked.over:
            break
        seat = asked.to_act()[0]
        action = seats[seat].choose(asked.seat_view(seat))
        for game in games:
            game.apply(seat, action)
    assert games[0].over and len(games[0].log) == len(straight.log)
    assert _digest(games[0]) == _digest(games[1]) == _digest(straight)
