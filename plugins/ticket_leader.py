"""The ticket-leader bonus (R-BON-2, ``wor`` rules version 2): +10 to the single player with the
most completed tickets, among those who have not resigned, if that is at least one ticket."""

from __future__ import annotations

import attrs

from ttr_core.plugin import Bonus, Plugin, hookimpl, parameter

NAME = "ticket-leader"


class TicketLeader(Plugin):
    title = "Most tickets"
    deterministic = True

    @attrs.frozen
    class Config:
        points: int = parameter(
            "points of the ticket-leader bonus, to the single player with the most completed tickets",
            default=10, rule="R-BON-2",
        )

    def bonus_titles(self):
        return {NAME: "Most tickets"}

    @hookimpl
    def ttr_end_bonuses(self, game, outcomes):
        players = game.state.players
        # starting and drawn tickets alike, each once; their points do not matter
        done = {o.seat: len(o.completed) for o in outcomes if not players[o.seat].resigned}
        top = max(done.values(), default=0)
        leaders = [seat for seat, n in done.items() if n == top]
        if top < 1 or len(leaders) != 1:
            return []  # nobody completed a ticket, or a tie at the top: nobody gets it (5/5/3)
        return [Bonus(leaders[0], NAME, self.config.points, f"{top} tickets completed, the most")]
