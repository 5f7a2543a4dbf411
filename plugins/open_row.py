"""The open row of face-up cards: when it is refilled and when it is reset (R-ROW-1..3, R-SET-3).

It declares ``ttr_open_row_needs_reset`` (the capability ``open-row``), through which other rules
reset the row too (``ussr``'s controller, R-ROW-4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import attrs

from ttr_core.plugin import GameAPI, Plugin, hookimpl, hookspec


class OpenRowHooks:
    """The hooks of the ``open-row`` capability, called by this plugin."""

    @hookspec
    def ttr_open_row_needs_reset(self, game: GameAPI, row: Sequence[int]) -> bool | None:
        """Return True if the open row ``row`` (card ids, -1 for an empty slot) must be reset
        (R-ROW-2, R-ROW-4).

        Called by the ``open-row`` plugin after the row is filled or refilled, this plugin
        included. All answers are asked; any True resets the row.

        Example::

            @hookimpl
            def ttr_open_row_needs_reset(self, game, row):
                return row.count(game.cards.locomotive) >= 3
        """


class OpenRow(Plugin):
    requires = ("card-draws",)
    provides = ("open-row",)
    deterministic = True

    @attrs.frozen
    class Config:
        size: int = 5
        #: R-ROW-1: "immediately" after each pick (usa, europe, ussr) or at "end-of-turn" (wor)
        refill: Literal["immediately", "end-of-turn"] = "immediately"
        #: R-ROW-2: reset when this many locomotives are face up (0: never)
        reset_locomotives: int = 3
        #: R-ROW-2 (wor): reset when this many cards of one colour are face up (0: never)
        reset_same_color: int = 0
        #: R-ROW-3: resets in a row at most, so that a deck rich in locomotives cannot loop forever
        max_resets: int = 3

    @hookimpl
    def ttr_addhooks(self, pluginmanager):
        pluginmanager.add_hookspecs(OpenRowHooks)

    @hookimpl
    def ttr_game_created(self, game):
        game.state.open_row = [-1] * self.config.size

    @hookimpl(trylast=True)
    def ttr_setup_table(self, game):
        self.fill(game)  # R-SET-3: the start is checked for a reset too

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
            self.fill(game)

    @hookimpl
    def ttr_turn_ended(self, game):
        # wor refills here (R-ROW-1); the others too, in case the deck was empty at the pick and
        # paid cards have since reached the discard pile.
        if -1 in game.state.open_row:  # most turns end with a full row: no call
            self.fill(game)

    def fill(self, game) -> None:
        row = game.state.open_row
        if -1 not in row or not self._deal_into_empty(game, row):  # a full row: nothing to check
            return
        for _ in range(self.config.max_resets):
            if not any(game.hook.ttr_open_row_needs_reset(game=game, row=row)):
                return
            game.state.discard.extend(c for c in row if c >= 0)  # R-ROW-3
            row[:] = [-1] * len(row)
            self._deal_into_empty(game, row)

    @staticmethod
    def _deal_into_empty(game, row: list[int]) -> bool:
        dealt = False
        while -1 in row:  # left to right
            new = game.draw_card()
            if new is None:
                break
            row[row.index(-1)] = new
            dealt = True
        return dealt
