"""The open row's table operations: laying out the face-up cards, dealing into its empty slots,
taking a card from it, discarding it, refilling it and asking whether it must be reset (R-ROW-1..4,
R-SET-3).

They are methods of the game (``game.refill_open_row(max_resets=3)``), like the shared table
operations of :mod:`ttr_core.table`, so that whichever plugin provides the ``open-row`` capability,
the built-in one or a replacement with another refresh policy, moves the face-up cards the same
way and asks the reset hook (``ttr_open_row_needs_reset``, declared by that plugin from
:mod:`ttr_core.roles.open_row`) exactly as the others do. When the row is refilled, how many
resets may follow each other and what triggers one are rules: they stay in the plugins (the
provider's parameters, its answer to the hook, the answers of other rules such as ``ussr``'s
controller); here is only how cards move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from ttr_core.state import GameState

#: the open row's mark for an empty slot
EMPTY = -1


class Refill(NamedTuple):
    """What ``refill_open_row`` did: ``dealt``, the slots that hold a new card, in the order they
    were dealt (every filled slot after a reset); ``resets``, how many times the row was reset.
    A named tuple, the plainest of values: one is made at almost every face-up draw."""

    dealt: tuple[int, ...] = ()
    resets: int = 0


_NOTHING = Refill()  # a full row: nothing dealt, nothing checked


class OpenRowOperations:
    """Mixed into :class:`ttr_core.game.Game`: what ``state``, ``hook`` and ``draw_card`` are."""

    state: GameState
    hook: Any
    draw_card: Callable[[], int | None]  # ttr_core.table.TableOperations

    def lay_open_row(self, size: int) -> None:
        """Lay out an open row of ``size`` empty slots (the plugin providing ``open-row`` does it when
        the game is created); face-up cards already out go to the discard pile."""
        self.discard_open_row()
        self.state.open_row = [EMPTY] * size

    def deal_open_row(self) -> list[int]:
        """Deal a card from the deck (``draw_card``, which reshuffles an empty deck, R-DRAW-3) into
        each empty slot of the open row, left to right, until it is full or no card is left.
        Returns the slots dealt into. Nothing is checked: ``refill_open_row`` checks for a reset."""
        row = self.state.open_row
        dealt = []
        while EMPTY in row:
            card = self.draw_card()
            if card is None:
                break
            slot = row.index(EMPTY)
            row[slot] = card
            dealt.append(slot)
        return dealt

    def take_from_open_row(self, slot: int) -> int:
        """Take the face-up card in ``slot``, leaving the slot empty, and return it (who refills the
        slot, and when, is the ``open-row`` provider's rule, R-ROW-1)."""
        row = self.state.open_row
        card, row[slot] = row[slot], EMPTY
        return card

    def discard_open_row(self, slots: Iterable[int] | None = None) -> list[int]:
        """Put the face-up cards of ``slots`` (every slot when None: a reset, R-ROW-3) on the discard
        pile, leaving their slots empty. Returns the cards discarded."""
        row = self.state.open_row
        chosen = range(len(row)) if slots is None else list(slots)
        cards = [row[slot] for slot in chosen if row[slot] != EMPTY]
        self.state.discard.extend(cards)
        for slot in chosen:
            row[slot] = EMPTY
        return cards

    def open_row_needs_reset(self) -> bool:
        """True if a rule resets the open row as it lies: any True answer of
        ``ttr_open_row_needs_reset`` (R-ROW-2, R-ROW-4). False in a ruleset where no plugin
        declares the hook (no plugin provides ``open-row``)."""
        hook = self.hook
        if "ttr_open_row_needs_reset" not in hook.implemented:
            return False
        return any(hook.ttr_open_row_needs_reset(game=self, row=self.state.open_row))

    def refill_open_row(self, max_resets: int) -> Refill:
        """Deal into the open row's empty slots (``deal_open_row``); if a card was dealt, reset the
        row while a rule asks for it (``open_row_needs_reset``), at most ``max_resets`` times in a
        row (R-ROW-3), each reset discarding the whole row and dealing it anew; the state counts the
        resets (``open_row_resets``) and the times the limit stopped them (``open_row_reset_limits``).
        A full row is left as it lies, unchecked: it was checked when it was dealt."""
        dealt = self.deal_open_row()
        if not dealt:
            return _NOTHING
        resets = 0
        while resets < max_resets and self.open_row_needs_reset():
            self.discard_open_row()
            dealt = self.deal_open_row()
            resets += 1
        self.state.open_row_resets += resets
        if resets and resets == max_resets and self.open_row_needs_reset():
            self.state.open_row_reset_limits += 1
        return Refill(tuple(dealt), resets)
