"""Train cards: the deck (R-SET-2), the starting hands (R-SET-3), drawing cards (R-DRAW-1..3) and
what happens when the deck runs out (R-DRAW-3: the discard pile is shuffled into a new deck,
``ttr_deck_ran_out``).

It declares two hooks for the plugins that shape the open row (the capability ``card-draws``):
``ttr_card_takeable`` (may this face-up card be taken?) and ``ttr_card_taken`` (a card was taken),
whose specs are in :mod:`ttr_core.roles.card_draws`.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from ttr_core.plugin import (
    COLORS, LOCOMOTIVE, Action, Decision, MalformedAction, NotLegalNow, Plugin, hookimpl, parameter, shuffle,
)
from ttr_core.roles.card_draws import CardDrawHooks


@attrs.frozen
class DrawCard(Action):
    """Take one train card: from open-row ``slot`` (0-4), or blind from the deck when ``slot`` is None."""

    kind: ClassVar[str] = "draw-card"
    slot: int | None = None


@attrs.frozen
class SecondCard(Decision):
    """The player took one card and must take a second (R-DRAW-1)."""

    kind: str = "second-card"
    allowed: tuple[str, ...] = ("draw-card",)


def _forbidden(game, seat: int, slot: int, card: int) -> str | None:
    """Why a rule forbids taking this face-up card (``ttr_card_takeable``), or None."""
    answers = game.hook.ttr_card_takeable(game=game, seat=seat, slot=slot, card=card)
    refusals = [a for a in answers if a is False or isinstance(a, str)]
    if not refusals:
        return None
    return next((a for a in refusals if isinstance(a, str)), "a rule of this variant forbids it")


# Draw actions and decisions are immutable values: every legal-action list shares the same few.
_BLIND = DrawCard(None)
_SECOND_CARD = SecondCard()


class TrainCards(Plugin):
    provides = ("card-draws",)
    title = "Train cards"
    deterministic = True

    @attrs.frozen
    class Config:
        per_color: int = parameter("train cards of each of the 8 colours in the deck", default=12, rule="R-SET-2")
        locomotives: int = parameter("locomotives in the deck", default=14, rule="R-SET-2")
        starting_hand: int = parameter("train cards dealt to each player at the start", default=4, rule="R-SET-3")
        face_up_locomotive_ends_draw: bool = parameter(
            "a face-up locomotive taken first ends the draw and may not be the second card",
            default=True, rule="R-DRAW-2",
        )

    #: tables about the ruleset filled as its games ask (see ``Plugin.caches``)
    caches = ("_draws_by_row_size", "_restricted")

    def __init__(self, config=None):
        super().__init__(config)
        #: a draw from each slot of an open row, by the row's size (``_row_draws``)
        self._draws_by_row_size: dict[int, tuple[DrawCard, ...]] = {}
        #: does any plugin forbid some face-up cards? Asked once per ruleset (this instance serves its
        #: games; None until then): most variants have none, and the hook would be called per slot per turn
        self._restricted: bool | None = None

    @hookimpl
    def ttr_addhooks(self, pluginmanager):
        pluginmanager.add_hookspecs(CardDrawHooks)

    @hookimpl
    def ttr_deck_cards(self):
        return {**{c: self.config.per_color for c in COLORS}, LOCOMOTIVE: self.config.locomotives}

    @hookimpl
    def ttr_register_actions(self, registry):
        registry.add(DrawCard, self)

    @hookimpl
    def ttr_deck_ran_out(self, game):
        # R-DRAW-3: the discard pile, shuffled, is the new deck (cards in hands never return)
        st = game.state
        if st.discard:
            st.deck, st.discard = st.discard, []
            shuffle(game.rng, st.deck)

    @hookimpl(tryfirst=True)
    def ttr_setup_table(self, game):
        for player in game.state.players:
            for _ in range(self.config.starting_hand):
                card = game.draw_card()
                if card is not None:
                    player.hand[card] += 1

    # --- the draw-card action ---------------------------------------------------------------

    def legal(self, game, seat) -> list[DrawCard]:
        st = game.state
        out = [_BLIND] if st.deck or st.discard else []
        row = st.open_row
        # R-DRAW-2: no face-up locomotive as the second card
        no_loco = st.players[seat].decision is not None and self.config.face_up_locomotive_ends_draw
        loco = game.cards.locomotive
        restricted = self._restricted
        if restricted is None:
            restricted = self._row_restricted(game)
        draws = self._draws_by_row_size.get(len(row))
        if draws is None:
            draws = self._row_draws(len(row))
        if not restricted and -1 not in row and not (no_loco and loco in row):
            # most turns: every face-up card may be taken
            out += draws
            return out
        for slot, card in enumerate(row):
            if card >= 0 and not (no_loco and card == loco):
                if not restricted or _forbidden(game, seat, slot, card) is None:
                    out.append(draws[slot])
        return out

    def _row_draws(self, size: int) -> tuple[DrawCard, ...]:
        """A draw from each slot of an open row of ``size`` cards, kept in ``_draws_by_row_size``."""
        draws = self._draws_by_row_size[size] = tuple(DrawCard(slot) for slot in range(size))
        return draws

    def _row_restricted(self, game) -> bool:
        if self._restricted is None:
            self._restricted = bool(game.hook.ttr_card_takeable.get_hookimpls())
        return self._restricted

    def check(self, game, seat, action: DrawCard) -> None:
        st = game.state
        slot = action.slot
        if slot is None:
            if not st.deck and not st.discard:
                raise NotLegalNow(seat, action, "the deck and the discard pile are empty (R-DRAW-3)")
            return
        if isinstance(slot, bool) or not isinstance(slot, int):
            raise MalformedAction(seat, action, "slot is an open-row position (0-4) or null for the deck")
        if not 0 <= slot < len(st.open_row) or st.open_row[slot] < 0:
            raise NotLegalNow(seat, action, f"open-row slot {slot} holds no card")
        second = st.players[seat].decision is not None
        if second and st.open_row[slot] == game.cards.locomotive and self.config.face_up_locomotive_ends_draw:
            raise NotLegalNow(seat, action, "a face-up locomotive cannot be taken as the second card (R-DRAW-2)")
        restricted = self._restricted
        if restricted is None:
            restricted = self._row_restricted(game)
        reason = _forbidden(game, seat, slot, st.open_row[slot]) if restricted else None
        if reason is not None:
            name = game.cards.names[st.open_row[slot]]
            raise NotLegalNow(seat, action, f"the face-up {name} in slot {slot} cannot be taken: {reason}")

    def apply(self, game, seat, action: DrawCard) -> None:
        st = game.state
        player = st.players[seat]
        second = player.decision is not None
        if action.slot is None:
            card = game.draw_card()
        else:
            card = game.take_from_open_row(action.slot)  # the open-row plugin refills it (ttr_card_taken)
        player.hand[card] += 1
        game.hook.ttr_card_taken(game=game, seat=seat, slot=action.slot, card=card)
        if second:
            player.decision = None
        elif action.slot is not None and card == game.cards.locomotive and self.config.face_up_locomotive_ends_draw:
            player.decision = None  # R-DRAW-2: counts as both cards
        else:
            player.decision = _SECOND_CARD
            # R-DRAW-3: only one card could be taken (while cards are left, a blind draw is possible)
            if not (st.deck or st.discard) and not self.legal(game, seat):
                player.decision = None
