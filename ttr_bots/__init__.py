"""Bots: players that choose actions by themselves, for bot games and simulations.

A bot is a class built with ``(seed, seat)`` whose ``choose(game, seat)`` returns an action;
``BOTS`` maps the names the command line takes to those classes.

A bot never touches the game's own generator (that would change the deck); each bot has its own,
seeded from the game seed and its seat, so a bot game is reproducible from its seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ttr_core.actions import Action
from ttr_bots.random_bot import RandomBot
from ttr_bots.ticket_bot import TicketBot
from ttr_core.game import Game
from ttr_core.variant import Ruleset


BOTS: dict[str, Callable[[int, int], object]] = {"random": RandomBot, "ticket": TicketBot}


def play_game(
    ruleset: Ruleset,
    players: int,
    seed: int,
    bots: Sequence[str] = ("random",),
    on_action: Callable[[Game, int, Action], None] | None = None,
    max_actions: int = 20_000,
) -> Game:
    """Play a whole game of bots (``bots`` cycles over the seats)."""
    names = [f"P{i + 1}" for i in range(players)]
    game = Game(ruleset, names, seed)
    seats = [BOTS[bots[i % len(bots)]](seed, i) for i in range(players)]
    for _ in range(max_actions):
        if game.over:
            return game
        seat = game.to_act()[0]
        action = seats[seat].choose(game, seat)
        game.apply(seat, action)
        if on_action:
            on_action(game, seat, action)
    raise RuntimeError(f"seed {seed}: the game did not end within {max_actions} actions")
