"""When the final round begins (R-END-1): after a turn, some player has this few trains left.

Who plays in it, and in which order, is the ``turn-order`` plugin's (``ttr_final_round_seats``,
``ttr_next_seat``).
"""

from __future__ import annotations

import attrs

from ttr_core.plugin import Plugin, hookimpl, parameter


class FinalRound(Plugin):
    title = "Final round"
    deterministic = True

    @attrs.frozen
    class Config:
        trains_threshold: int = parameter(
            "the final round begins when, after a turn, a player has this many trains or fewer",
            default=2, rule="R-END-1",
        )

    @hookimpl
    def ttr_final_round_triggered(self, game):
        threshold = self.config.trains_threshold
        for p in game.state.players:  # a loop, not any(): this runs at the end of every turn
            if p.trains <= threshold and not p.resigned:
                return True
        return False
