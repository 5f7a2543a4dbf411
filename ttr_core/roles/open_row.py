"""The hooks of the ``open-row`` capability: the open row of face-up cards, how it is refilled and
when it is reset (R-ROW-1..4).

The plugin providing ``open-row`` declares them (``pluginmanager.add_hookspecs(OpenRowHooks)``) and
keeps the row through the game's open-row table operations (``game.refill_open_row``...), which
ask ``ttr_open_row_needs_reset``; other rules answer it to reset the row too (``ussr``'s
controller, R-ROW-4).
"""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.plugin import GameAPI, hookspec

CAPABILITY = "open-row"


class OpenRowHooks:
    """The hooks of the ``open-row`` capability, declared by the plugin providing it."""

    @hookspec
    def ttr_open_row_needs_reset(self, game: GameAPI, row: Sequence[int]) -> bool | None:
        """Return True if the open row ``row`` (card ids, -1 for an empty slot) must be reset
        (R-ROW-2, R-ROW-4).

        Called by the game's ``open_row_needs_reset`` (and so by ``refill_open_row``), which the
        plugin providing ``open-row`` calls after the row is filled or refilled, whether it answers
        the hook itself or not. All answers are asked; any True resets the row.

        Example::

            @hookimpl
            def ttr_open_row_needs_reset(self, game, row):
                return row.count(game.cards.locomotive) >= 3
        """


HOOKS = OpenRowHooks
