"""The route-value bot: the ticket-seeking bot planning its connections by what a route is worth
in turns and points, not by its length alone.

The ticket bot joins its tickets by the fewest trains (each free route weighs its length). A route
costs more than its trains, though: a turn to claim it, besides the cards; and a long route scores
far more per train than a short one (R-SCORE-1: 1, 2, 4, 7, 10, 15 points for 1 to 6 spaces). So
this bot weighs a free route of ``n`` spaces ``n + TURN_WEIGHT - (points(n) - n) * POINTS_WEIGHT``
(its own routes still nothing): between two paths of about as many trains it takes the one of
fewer, longer routes. Everything else (which tickets to keep, drawing, claiming, the end of the
game) is the ticket bot's, reading the plan made so; the plan's cost, in these weights, is what
its budget of trains is compared with, which keeps it a little more careful with tickets.

Measured against three ticket bots (usa, 4 players, its seat rotating, 400 games each on two seed
ranges; the ticket bot itself wins 24% there): 43.8% of the games, for weights from
``TURN_WEIGHT`` 1 to 3 and ``POINTS_WEIGHT`` 0 to 1/2 this pair measured best; against one ticket
bot in 2-player games, 70.5% (the experiments are in ``bench/data/route-value-experiments.jsonl``).
"""

from __future__ import annotations

import random

from ttr_bots.route_graph import RouteGraph
from ttr_bots.ticket_bot import TicketBot, build_graph

#: what a route weighs for its turn to claim, in trains
TURN_WEIGHT = 2.0
#: how much of a route's points beyond one per train its weight loses
POINTS_WEIGHT = 1 / 3


class RouteValueBot(TicketBot):
    """The ticket bot planning by routes' worth: fewer, longer routes between two paths of about as many trains."""

    name = "route-value"

    def __init__(self, seed: int, seat: int):
        super().__init__(seed, seat)
        self.rng = random.Random(f"route-value-bot:{seed}:{seat}")
        self._weights: dict[int, float] | None = None  # by route length, from the rules' route points

    def choose(self, game, seat: int):
        if self._weights is None:
            lengths = {r.length for r in game.board.routes}
            self._weights = {n: route_weight(n, game.route_points(n)) for n in lengths}
        return super().choose(game, seat)

    def _graph_for(self, board, seen) -> RouteGraph:
        key = (self._owner_version, seen.trains, len(self._blocked), seen.my_stations)
        if key != self._graph_key:
            self._graph = weighted_graph(board, seen, self._blocked, self._weights)
            self._graph_key = key
        return self._graph


def route_weight(length: int, points: int) -> float:
    """A free route's weight in the plan: its trains, a turn, less what it scores beyond a point a train."""
    return length + TURN_WEIGHT - (points - length) * POINTS_WEIGHT


def weighted_graph(board, seen, blocked, weights: dict[int, float]) -> RouteGraph:
    """The ticket bot's graph (:func:`ttr_bots.ticket_bot.build_graph`: its own routes at 0, the
    free routes it could claim, between two cities the cheapest) with free routes weighed by
    ``weights`` (by length) instead of their length."""
    return build_graph(board, seen, blocked, weights)


__all__ = ["RouteValueBot", "route_weight", "weighted_graph"]
