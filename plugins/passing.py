"""Passing (R-TURN-2, an engine decision): the only action left when nothing else is legal; when
every active player passes in a row, nothing can change any more and the game ends."""

from __future__ import annotations

from ttr_core.actions import Pass
from ttr_core.errors import NotLegalNow
from ttr_core.plugin import Plugin, hookimpl


class Passing(Plugin):
    @hookimpl
    def ttr_register_actions(self, registry):
        registry.add(Pass, self, fallback=True)

    @hookimpl
    def ttr_game_created(self, game):
        game.state.ext[self.name] = {"passes_in_a_row": 0}

    def legal(self, game, seat):
        yield Pass()

    def check(self, game, seat, action):
        if game.has_regular_action(seat):
            raise NotLegalNow(seat, action, "passing is allowed only when no other action is (R-TURN-2)")

    def apply(self, game, seat, action):
        self.ext(game)["passes_in_a_row"] += 1

    @hookimpl
    def ttr_turn_ended(self, game, action):
        ext = self.ext(game)
        if action.kind != Pass.kind:
            ext["passes_in_a_row"] = 0
        elif ext["passes_in_a_row"] >= len(game.active_seats()):
            game.finish("every player passed in a row: nothing is left to do (R-TURN-2)")
