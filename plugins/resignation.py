"""Leaving the game (R-TURN-3, ``wor``), and what it does to a pending decision (R-TURN-4).

A seat may resign at any moment, in or out of turn, even with a decision pending. A resigned seat
takes no more turns; its routes stay on the board and are scored, but it cannot win (``winner``
skips resigned seats) and is left out of the ticket-leader bonus (R-BON-2). When only one active
player is left, the game ends.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import attrs

from ttr_core.plugin import Action, Plugin, hookimpl


@attrs.frozen
class Resign(Action):
    """Leave the game (R-TURN-3)."""

    kind: ClassVar[str] = "resign"


class Resignation(Plugin):
    title = "Leaving the game"
    deterministic = True

    @hookimpl
    def ttr_register_actions(self, registry):
        # any_time: the core admits it from any active seat whatever the turn or decision. Not
        # starts_turn: it is no turn action, so it is kept out of the turn's list of legal actions
        # (a random bot would otherwise walk out of games) and does not hide passing (R-TURN-2).
        registry.add(Resign, self, starts_turn=False, any_time=True)

    def legal(self, game, seat) -> Iterator[Resign]:
        if not game.over and not game.state.players[seat].resigned:
            yield Resign()

    def check(self, game, seat, action) -> None:
        return None  # the core has checked that the seat is active and the game not over

    def apply(self, game, seat, action) -> None:
        # R-TURN-4: an unfinished multi-step action is cancelled (a tunnel as if declined, offered
        # tickets back under the deck) before the seat is gone. Then, if it was this seat's turn,
        # the core ends that turn and passes it on, as the seat has no decision left.
        game.cancel_decision(seat)
        game.state.players[seat].resigned = True
        if len(game.active_seats()) <= 1:
            game.finish("one player is left, the others resigned (R-TURN-3)")
