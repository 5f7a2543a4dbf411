"""The two house rules. Each adjusts the answer the variant's own plugin gives, through a pluggy
wrapper: it imports only ttr-engine's public plugin API and works on top of whatever plugin
answers the hook (the built-in one, or another house rule's)."""

from __future__ import annotations

import attrs

from ttr_core.plugin import Plugin, hookimpl


class NoTicketPenalty(Plugin):
    """An unfinished ticket costs nothing: it is still listed as failed, and only completed tickets
    count. Dealing, drawing and keeping tickets stay the variant's."""

    deterministic = True

    @hookimpl(wrapper=True)
    def ttr_ticket_outcomes(self, game):
        outcome = yield  # what the variant's ticket plugin answered
        # every choice the owner may still make (stations, R-STA-4) is adjusted alike
        return outcome.each(lambda o: attrs.evolve(o, points=sum(game.board.tickets[t].points for t in o.completed)))


class SixScores18(Plugin):
    """The variant's route points table, except that a route of length 6 scores ``points`` (18)."""

    deterministic = True

    @attrs.frozen
    class Config:  # the variant's [rules.six-scores-18] table
        points: int = 18

    @hookimpl(wrapper=True)
    def ttr_route_points(self):
        table = yield
        return {**table, 6: self.config.points}
