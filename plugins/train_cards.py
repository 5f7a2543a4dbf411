"""Train cards: the deck (R-SET-2), the starting hands (R-SET-3) and drawing cards (R-DRAW-1..3)."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from ttr_core.actions import DrawCard
from ttr_core.cards import COLORS, LOCOMOTIVE
from ttr_core.errors import MalformedAction, NotLegalNow
from ttr_core.plugin import Plugin, hookimpl
from ttr_core.state import Decision


@attrs.frozen
class SecondCard(Decision):
    """The player took one card and must take a second (R-DRAW-1)."""

    kind: str = "second-card"
    allowed: tuple[str, ...] = ("draw-card",)


def draw_from_deck(game) -> int | None:
    """The top card of the deck; an empty deck is first rebuilt from the shuffled discard (R-DRAW-3).
    None when both are empty."""
    st = game.state
    if not st.deck:
        if not st.discard:
            return None
        st.deck, st.discard = st.discard, []
        game.rng.shuffle(st.deck)
    return st.deck.pop()


def _takeable(game, seat: int, slot: int, card: int) -> bool:
    """Whether no rule forbids taking this face-up card (``ttr_card_takeable``)."""
    return False not in game.hook.ttr_card_takeable(game=game, seat=seat, slot=slot, card=card)


def _draw(slot: int | None) -> DrawCard:
    # Draw actions are immutable values: every legal-action list shares the same few.
    action = _DRAWS.get(slot)
    if action is None:
        action = _DRAWS[slot] = DrawCard(slot)
    return action


_DRAWS: dict[int | None, DrawCard] = {}


class TrainCards(Plugin):
    @attrs.frozen
    class Config:
        per_color: int = 12
        locomotives: int = 14
        starting_hand: int = 4
        #: R-DRAW-2: a face-up locomotive taken first ends the draw and may not be the second card
        face_up_locomotive_ends_draw: bool = True

    @hookimpl
    def ttr_deck_cards(self):
        return {**{c: self.config.per_color for c in COLORS}, LOCOMOTIVE: self.config.locomotives}

    @hookimpl
    def ttr_register_actions(self, registry):
        registry.add(DrawCard, self)

    @hookimpl(tryfirst=True)
    def ttr_setup_table(self, game):
        for player in game.state.players:
            for _ in range(self.config.starting_hand):
                card = draw_from_deck(game)
                if card is not None:
                    player.hand[card] += 1

    # --- the draw-card action ---------------------------------------------------------------

    def legal(self, game, seat) -> Iterator[DrawCard]:
        st = game.state
        second = st.players[seat].decision is not None
        if st.deck or st.discard:
            yield _draw(None)
        loco = game.cards.locomotive
        restricted = self._row_restricted(game)
        for slot, card in enumerate(st.open_row):
            if card >= 0 and not (second and card == loco and self.config.face_up_locomotive_ends_draw):
                if not restricted or _takeable(game, seat, slot, card):
                    yield _draw(slot)

    def _row_restricted(self, game) -> bool:
        # Asked once per ruleset (this instance serves its games): does any plugin forbid some
        # face-up cards? Most variants have none, and the hook would be called per slot per turn.
        try:
            return self._restricted
        except AttributeError:
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
        if self._row_restricted(game) and not _takeable(game, seat, slot, st.open_row[slot]):
            name = game.cards.names[st.open_row[slot]]
            raise NotLegalNow(seat, action, f"the face-up {name} in slot {slot} cannot be taken (R-CTL-5)")

    def apply(self, game, seat, action: DrawCard) -> None:
        st = game.state
        player = st.players[seat]
        second = player.decision is not None
        if action.slot is None:
            card = draw_from_deck(game)
        else:
            card, st.open_row[action.slot] = st.open_row[action.slot], -1
        player.hand[card] += 1
        game.hook.ttr_card_taken(game=game, seat=seat, slot=action.slot, card=card)
        if second:
            player.decision = None
        elif action.slot is not None and card == game.cards.locomotive and self.config.face_up_locomotive_ends_draw:
            player.decision = None  # R-DRAW-2: counts as both cards
        else:
            player.decision = SecondCard()
            if next(self.legal(game, seat), None) is None:
                player.decision = None  # R-DRAW-3: only one card could be taken
