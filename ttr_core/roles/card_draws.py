"""The hooks of the ``card-draws`` capability: drawing train cards, face up from the open row or
blind from the deck (R-DRAW-1..2), for the rules that shape the open row.

The plugin providing ``card-draws`` declares and calls them: ``ttr_card_takeable`` (may this
face-up card be taken?) and ``ttr_card_taken`` (a card was taken).
"""

from __future__ import annotations

from ttr_core.plugin import GameAPI, hookspec

CAPABILITY = "card-draws"


class CardDrawHooks:
    """The hooks of the ``card-draws`` capability, declared by the plugin providing it."""

    @hookspec
    def ttr_card_takeable(self, game: GameAPI, seat: int, slot: int, card: int) -> bool | str | None:
        """Return False, or the reason as a sentence, if ``seat`` may not take the face-up ``card``
        from open-row ``slot`` (``ussr``: a controller is only ever drawn blind, R-CTL-5).

        Called by the plugin providing ``card-draws`` when draws are listed and checked, if any
        plugin implements it. All answers are asked; any False or reason forbids the pick, and a
        refused pick says the first reason given.

        Example::

            @hookimpl
            def ttr_card_takeable(self, game, card):
                if game.cards.names[card] == "controller":
                    return "a controller is only ever drawn blind (R-CTL-5)"
        """

    @hookspec
    def ttr_card_taken(self, game: GameAPI, seat: int, slot: int | None, card: int) -> None:
        """Called by the plugin providing ``card-draws`` after ``seat`` took ``card`` from open-row
        ``slot`` (``None``: blind from the deck). The plugin providing ``open-row`` refills here
        when the refill is immediate. Returns nothing.

        Example::

            @hookimpl
            def ttr_card_taken(self, game, slot):
                if slot is not None:
                    game.refill_open_row(max_resets=3)
        """


HOOKS = CardDrawHooks
