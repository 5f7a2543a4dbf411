"""A house rule replacing the open row: the "river". At each turn's end the oldest face-up card
flows away to the discard pile and a new one is dealt in its place; picks are refilled, and the
row reset, as the variant's open row does (R-ROW-1..3).

It is written the way a stranger would write it: through the public plugin API only
(``ttr_core.plugin``, and the ``open-row`` capability's hook spec from ``ttr_core.roles``), moving
the cards with the game's open-row table operations, and enabled by a variant file alone::

    [versions.1]
    remove_plugins = ["open-row"]
    add_plugins = ["river"]

No core or built-in plugin code names it. ``SkippingRiver`` is the same river written against the
state as a first try did: it deals the row itself and never asks for a reset (R-ROW-2).
"""

from __future__ import annotations

from typing import Literal

import attrs

from ttr_core.plugin import Plugin, hookimpl, parameter
from ttr_core.roles import open_row


@attrs.define
class RiverState:
    #: the open row's slots, the one whose card has been face up the longest first
    order: list[int] = attrs.Factory(list)


class River(Plugin):
    requires = ("card-draws",)
    provides = ("open-row",)
    deterministic = True
    State = RiverState

    @attrs.frozen
    class Config:  # the open row's parameters, so that a variant's [rules.open-row] table carries over
        size: int = parameter("face-up cards in the river", default=5, rule="R-SET-3")
        refill: Literal["immediately", "end-of-turn"] = parameter(
            "when a picked card's slot is refilled", default="immediately", rule="R-ROW-1",
        )
        reset_locomotives: int = parameter("reset when this many locomotives are face up (0: never)", default=3,
                                           rule="R-ROW-2")
        reset_same_color: int = parameter("reset when this many cards of one colour are face up (0: never)",
                                          default=0, rule="R-ROW-2")
        max_resets: int = parameter("resets in a row at most", default=3, rule="R-ROW-3")

    @hookimpl
    def ttr_addhooks(self, pluginmanager):
        pluginmanager.add_hookspecs(open_row.OpenRowHooks)  # other rules (ussr's controller) answer it

    @hookimpl
    def ttr_game_created(self, game):
        game.lay_open_row(self.config.size)

    @hookimpl(trylast=True)
    def ttr_setup_table(self, game):
        self.refill(game)

    @hookimpl
    def ttr_open_row_needs_reset(self, game, row):
        c, loco = self.config, game.cards.locomotive
        colours = [card for card in row if 0 <= card < loco]
        return bool(c.reset_locomotives and row.count(loco) >= c.reset_locomotives) or bool(
            c.reset_same_color and any(colours.count(card) >= c.reset_same_color for card in colours)
        )

    @hookimpl
    def ttr_card_taken(self, game, slot):
        if slot is not None and self.config.refill == "immediately":
            self.refill(game)

    @hookimpl
    def ttr_turn_ended(self, game):
        row = game.state.open_row
        oldest = next((slot for slot in self.state(game).order if row[slot] >= 0), None)
        if oldest is not None:
            game.discard_open_row([oldest])
        self.refill(game)

    def refill(self, game) -> None:
        dealt = game.refill_open_row(self.config.max_resets).dealt
        state = self.state(game)
        state.order = [slot for slot in state.order if slot not in dealt] + list(dealt)


class SkippingRiver(River):
    """The river as first written: it fills the row itself and never checks for a reset."""

    def refill(self, game) -> None:
        dealt = game.deal_open_row()
        state = self.state(game)
        state.order = [slot for slot in state.order if slot not in dealt] + dealt
