"""The open row of face-up cards: when it is refilled and when it is reset (R-ROW-1..3, R-SET-3).

It provides the capability ``open-row`` and declares its hook, ``ttr_open_row_needs_reset`` (the
spec in :mod:`ttr_core.roles.open_row`), through which other rules reset the row too (``ussr``'s
controller, R-ROW-4). The cards move through the game's open-row table operations
(``game.refill_open_row``...), which a replacement with another refresh policy uses alike.
"""

from __future__ import annotations

from typing import Literal

import attrs

from ttr_core.plugin import Plugin, hookimpl, parameter
from ttr_core.roles.open_row import OpenRowHooks


class OpenRow(Plugin):
    requires = ("card-draws",)
    provides = ("open-row",)
    title = "Face-up cards"
    deterministic = True

    @attrs.frozen
    class Config:
        size: int = parameter("face-up cards in the open row", default=5, rule="R-SET-3")
        refill: Literal["immediately", "end-of-turn"] = parameter(
            'when an empty slot is refilled: "immediately" after each pick (usa, europe, ussr) or at '
            '"end-of-turn" (wor)', default="immediately", rule="R-ROW-1",
        )
        reset_locomotives: int = parameter(
            "the row is reset when this many locomotives are face up (0: never)", default=3, rule="R-ROW-2",
        )
        reset_same_color: int = parameter(
            "the row is reset when this many cards of one colour are face up (0: never; wor: 4)",
            default=0, rule="R-ROW-2",
        )
        max_resets: int = parameter(
            "resets in a row at most, so that a deck rich in locomotives cannot loop forever",
            default=3, rule="R-ROW-3",
        )

    @hookimpl
    def ttr_addhooks(self, pluginmanager):
        pluginmanager.add_hookspecs(OpenRowHooks)

    @hookimpl
    def ttr_game_created(self, game):
        game.lay_open_row(self.config.size)

    @hookimpl(trylast=True)
    def ttr_setup_table(self, game):
        game.refill_open_row(self.config.max_resets)  # R-SET-3: the start is checked for a reset too

    @hookimpl
    def ttr_open_row_needs_reset(self, game, row):
        c = self.config
        loco = game.cards.locomotive
        if c.reset_locomotives and row.count(loco) >= c.reset_locomotives:
            return True
        if c.reset_same_color:
            counts: dict[int, int] = {}
            for card in row:
                if 0 <= card < loco:
                    counts[card] = counts.get(card, 0) + 1
            return max(counts.values(), default=0) >= c.reset_same_color
        return False

    @hookimpl
    def ttr_card_taken(self, game, slot):
        if slot is not None and self.config.refill == "immediately":
            game.refill_open_row(self.config.max_resets)

    @hookimpl
    def ttr_turn_ended(self, game):
        # wor refills here (R-ROW-1); the others too, in case the deck was empty at the pick and
        # paid cards have since reached the discard pile.
        if -1 in game.state.open_row:  # most turns end with a full row: no call
            game.refill_open_row(self.config.max_resets)
