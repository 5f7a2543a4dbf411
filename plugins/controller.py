"""The controller cards of ``ussr`` (R-CTL-1..5, R-ROW-4, R-TUN-9).

Two controller cards are shuffled into the train-card deck (R-CTL-1). They are a card kind of their
own: the core numbers them after the locomotive, so payments, which only ever take colours and
locomotives (``claiming``, ``tunnels``, ``stations``), never see them.

* Drawn blind, a controller goes to the hand and counts as one drawn card (``train-cards`` adds
  any card to the hand the same way).
* A controller that turns face up resets the open row (R-ROW-4, R-CTL-5). The source gives the
  controller only to "whoever drew it blind from the deck", so a face-up controller is never taken:
  the row's reset sweeps it away, and if the reset limit of R-ROW-3 (an engine decision) leaves
  one in the row, it stays there, not takeable, until the next refill resets the row again
  (``face_up_takeable``, an engine decision documented in ``variants/ussr.toml``).
* Playing one is a whole turn (:class:`PlayController`): dismantle another player's route of
  length <= 4, whose trains and points go back to that player, or build a free route of length
  <= 4 without cards (R-CTL-2). The build places trains and scores like any claim, but goes
  straight to the core's ``game.place_route``: no payment is checked and no claim is started, so
  a tunnel reveals nothing (R-CTL-3, R-TUN-9). Parallel-route closures apply (R-PAR).
* It answers two hooks other plugins declare: ``ttr_card_takeable`` (``train-cards``) and
  ``ttr_open_row_needs_reset`` (``open-row``), hence its ``requires``.
* A played controller goes to the discard pile (R-CTL-4) and may come back with a reshuffle.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import attrs

from ttr_core.plugin import (
    TRAINS, Action, CannotPay, IllegalAction, MalformedAction, NotLegalNow, Plugin, RouteTaken, hookimpl, parameter,
)

#: the card's name in the deck, the hands and the views
CARD = "controller"
DISMANTLE = "dismantle"
BUILD = "build"
MODES = (DISMANTLE, BUILD)


@attrs.frozen
class PlayController(Action):
    """Play a controller instead of a turn: ``mode`` "dismantle" another player's ``route`` (its id),
    or "build" the free ``route`` for oneself without cards (R-CTL-2)."""

    kind: ClassVar[str] = "play-controller"
    mode: str
    route: str


class Controller(Plugin):
    requires = ("card-draws", "open-row")
    title = "Controller cards"
    deterministic = True

    @attrs.frozen
    class Config:
        count: int = parameter(
            "controller cards shuffled into the train-card deck", default=2, rule="R-CTL-1, R-SET-2",
            validator=attrs.validators.ge(0),
        )
        max_length: int = parameter(
            "the longest route a controller may dismantle or build", default=4, rule="R-CTL-2",
            validator=attrs.validators.ge(1),
        )
        face_up_takeable: bool = parameter(
            "whether a controller left face up (the R-ROW-3 reset limit reached) may be taken from the "
            "row; the source hands controllers out blind only [engine decision]",
            default=False, rule="R-CTL-5",
        )

    # --- the card -----------------------------------------------------------------------------

    @hookimpl
    def ttr_deck_cards(self):
        return {CARD: self.config.count}

    @hookimpl
    def ttr_open_row_needs_reset(self, game, row):
        # R-ROW-4, R-CTL-5: a controller turning face up sends the whole row to the discard
        card = game.cards.index.get(CARD)
        return card is not None and card in row

    @hookimpl
    def ttr_card_takeable(self, game, card):
        if game.cards.names[card] == CARD and not self.config.face_up_takeable:
            return "a controller is only ever drawn blind (R-CTL-5)"
        return None

    # --- the play-controller action -----------------------------------------------------------

    @hookimpl
    def ttr_register_actions(self, registry):
        registry.add(PlayController, self)

    def legal(self, game, seat) -> Iterator[PlayController]:
        st = game.state
        player = st.players[seat]
        if not self._held(game, seat):
            return
        short = [r for r in game.board.routes if r.length <= self.config.max_length]
        for route in short:
            if st.owner[route.index] not in (-1, seat):
                yield PlayController(DISMANTLE, route.id)
        closed = game.closed_routes(seat)
        for route in short:
            if st.owner[route.index] < 0 and route.index not in closed and route.length <= player.trains:
                yield PlayController(BUILD, route.id)

    def check(self, game, seat, action: PlayController) -> None:
        if action.mode not in MODES:
            raise MalformedAction(seat, action, f"mode must be one of {', '.join(MODES)}, not {action.mode!r}")
        if not isinstance(action.route, str) or action.route not in game.board.route_index:
            raise MalformedAction(seat, action, f"no route {action.route!r} on map {game.board.id!r}")
        if not self._held(game, seat):
            raise NotLegalNow(seat, action, "the hand holds no controller card (R-CTL-1)")
        route = game.board.routes[game.board.route_index[action.route]]
        if route.length > self.config.max_length:
            raise IllegalAction(
                seat, action,
                f"{route.id} has {route.length} spaces; a controller reaches routes of at most "
                f"{self.config.max_length} (R-CTL-2)",
            )
        st = game.state
        owner = st.owner[route.index]
        if action.mode == DISMANTLE:
            if owner < 0:
                raise IllegalAction(seat, action, f"{route.id} is free: there is nothing to dismantle (R-CTL-2)")
            if owner == seat:
                raise IllegalAction(seat, action, f"{route.id} is your own: a controller dismantles another player's route (R-CTL-2)")
            return
        refusal = game.claim_problem(seat, route)
        if refusal is not None and refusal.code != TRAINS:  # taken, or closed by any rule
            raise RouteTaken(seat, action, refusal.reason)
        if refusal is not None:
            # R-CTL-2: the controller replaces the cards, not the trains
            trains = st.players[seat].trains
            raise CannotPay(seat, action, f"{route.id} needs {route.length} trains, seat has {trains} (R-CTL-2)")

    def apply(self, game, seat, action: PlayController) -> None:
        st = game.state
        card = game.cards.id(CARD)
        st.players[seat].hand[card] -= 1
        st.discard.append(card)  # R-CTL-4
        route = game.board.routes[game.board.route_index[action.route]]
        if action.mode == DISMANTLE:
            game.free_route(route)
        else:
            # R-CTL-2..3: no cards, and straight to place_route, so no tunnel reveal is started
            game.place_route(seat, route)

    def _held(self, game, seat) -> bool:
        card = game.cards.index.get(CARD)
        return card is not None and game.state.players[seat].hand[card] > 0

    # --- views --------------------------------------------------------------------------------

    @hookimpl
    def ttr_view(self, game, seat):
        # Rules everybody may know; how many controllers a hand holds stays private (the own
        # hand shows it under "you").
        return {CARD: {"max_length": self.config.max_length, "face_up_takeable": self.config.face_up_takeable}}
