"""The two house rules. Each builds on the built-in plugin it replaces, changing one answer."""

from __future__ import annotations

import attrs

from ttr_core.plugin import hookimpl
from ttr_plugins.route_points import RoutePoints
from ttr_plugins.tickets import Tickets


class NoTicketPenalty(Tickets):
    """Tickets as usual (dealing, drawing, keeping), but an unfinished ticket costs nothing: it is
    still listed as failed, and only completed tickets count."""

    @hookimpl
    def ttr_ticket_outcomes(self, game, seat):
        outcome = super().ttr_ticket_outcomes(game, seat)
        earned = sum(game.board.tickets[t].points for t in outcome.completed)
        return attrs.evolve(outcome, points=earned)


class SixScores18(RoutePoints):
    """The route points table of the variant, except that a route of length 6 scores 18."""

    POINTS_FOR_SIX = 18

    @hookimpl
    def ttr_route_points(self):
        return {**super().ttr_route_points(), 6: self.POINTS_FOR_SIX}
