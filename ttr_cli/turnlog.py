"""The turn log of ``ttr play``: one line per turn, as a person at the table would tell it.

    T12 P3: took a face-up red and drew a card from the deck
    T13 P4: claimed Denver-Omaha with 3 red + 1 locomotive
    T14 P1: tried the tunnel Madrid-Pamplona/black with 3 black; revealed black, red, red: 1 more card to pay, then paid 1 locomotive more and claimed Madrid-Pamplona/black
    -- final round: P4 has 2 trains left; every player plays one last turn --

The words are ``ttr_analysis.move_words``'s, which the game server's move log shares.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ttr_analysis.move_words import Turns, final_round_words
from ttr_core.game import Game


class TurnLog:
    """``on_start`` and ``on_action`` for ``ttr_bots.play_game``: prints each turn once it is over
    (its actions joined: a second card, a tunnel's extra cards, tickets kept), and announces the
    final round."""

    def __init__(self, emit: Callable[[str], None]):
        self.emit = emit
        self.turns = Turns()

    def on_start(self, game: Game) -> None:
        self.turns.start(game)

    def on_action(self, game: Game, seat: int, action: Any) -> None:
        turn = self.turns.add(game, seat, action)
        if turn is None:
            return  # the turn goes on
        phase = "setup" if turn.turn is None else f"T{turn.turn}"
        self.emit(f"{phase:>5} {turn.name}: {turn.text}")
        if turn.final_round:
            self.emit(f"      -- {final_round_words(game, seat)} --")
