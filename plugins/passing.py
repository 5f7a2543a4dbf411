"""Passing (R-TURN-2, an engine decision): the only action left when nothing else is legal; when
every active player passes in a row, nothing can change any more and the game ends."""

from __future__ import annotations

from typing import ClassVar

import attrs

from ttr_core.plugin import Action, NotLegalNow, Plugin, hookimpl


@attrs.frozen
class Pass(Action):
    """Do nothing this turn: legal only when no other action is (R-TURN-2)."""

    kind: ClassVar[str] = "pass"


@attrs.frozen
class PassingState:
    passes_in_a_row: int = 0


class Passing(Plugin):
    State = PassingState
    title = "Passing when stuck"
    deterministic = True

    @hookimpl
    def ttr_register_actions(self, registry):
        registry.add(Pass, self, fallback=True)

    def legal(self, game, seat):
        yield Pass()

    def check(self, game, seat, action):
        if game.has_regular_action(seat):
            raise NotLegalNow(seat, action, "passing is allowed only when no other action is (R-TURN-2)")

    def apply(self, game, seat, action):
        self.set_state(game, PassingState(self.state(game).passes_in_a_row + 1))

    @hookimpl
    def ttr_turn_ended(self, game, action):
        passes = self.state(game).passes_in_a_row
        # the game admits an action by its exact class (the registry's): a pass is a Pass; its
        # kind, a class attribute read from actions of every class, is a slower question
        if type(action) is not Pass:
            if passes:
                self.set_state(game, PassingState())
        elif passes >= len(game.active_seats()):
            game.finish("every player passed in a row: nothing is left to do (R-TURN-2)")
