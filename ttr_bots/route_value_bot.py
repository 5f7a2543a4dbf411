"""The route-value bot: the ticket-seeking bot planning its connections by what a route is worth
in turns and points, not by its length alone, joining its tickets in the order that costs least,
and drawing the cards that complete its nearest route first.

The ticket bot joins its tickets by the fewest trains (each free route weighs its length). A route
costs more than its trains, though: a turn to claim it, besides the cards; and a long route scores
far more per train than a short one (R-SCORE-1: 1, 2, 4, 7, 10, 15 points for 1 to 6 spaces). So
this bot weighs a free route of ``n`` spaces ``n + TURN_WEIGHT - (points(n) - n) * POINTS_WEIGHT``
(its own routes still nothing): measured best, a 6-space route weighs less than a 1-space one, so
it joins its tickets by few, long routes, even at some trains more.

Where the ticket bot plans its tickets greedily, the most valuable first, this bot tries every
order of up to ``ORDERS_UP_TO`` tickets and keeps the plan that scores best (a ticket joined later
reuses the routes chosen for earlier ones, so the order changes what the whole plan costs); that
plan is what it keeps tickets by, and what it plays.

Drawing, it takes the open card of a colour its plan lacks whose route is then nearest to being
paid (fewest cards short), rather than the colour most lacking overall: a route claimed sooner is
a route nobody else takes first.

Claiming, it keeps its locomotives while every other player has more than
``SAVE_LOCOMOTIVES_ABOVE`` trains: a planned route is claimed then only with coloured cards (R-ROUTE-3)
(a ferry's marks aside), and waits for them otherwise. A locomotive pays any colour, so it is
worth most to the long routes this plan prefers, whose one colour comes slowest, and at the end.

Everything else (which route to claim, the end of the game, and the measure by which it keeps
tickets) is the ticket bot's, reading the plan made so; the plan's cost, in these weights, is what
its budget of trains is compared with.

Measured against three ticket bots (usa, 4 players, its seat rotating; the ticket bot itself wins
24% there, par is 25%), of the route weights, the ordered plans, the nearest-route drawing and the
kept locomotives, the weights and the locomotives give most; every experiment, the failed ones
too, and its figures are in ``bench/data/route-value-experiments.jsonl``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import permutations

from ttr_core.board import Board
from ttr_core.cards import COLORS, GRAY, LOCOMOTIVE
from ttr_bots.route_graph import RouteGraph, pair, shortest_path
from ttr_bots.ticket import TicketBot
from ttr_bots.ticket.planner import Planner
from ttr_bots.ticket.planning import Plan, Searches, plan_tickets, time_budget
from ttr_bots.ticket.seen import RulesMemo, Seen

#: what a route weighs for its turn to claim, in trains
TURN_WEIGHT = 3.0
#: how much of a route's points beyond one per train its weight loses
POINTS_WEIGHT = 0.6
#: plans of at most this many tickets try every order (24 orders of 4); more are planned greedily
ORDERS_UP_TO = 4
#: a plan's score: the points of its tickets done or planned, less those dropped, less this share
#: of its cost (the ticket bot's own measure of an offer of tickets)
COST_SHARE = 0.25
#: how short of a route a colour is counted when no route lacks it (it is needed, but not yet)
NOT_SHORT = 99
#: while every other player has more trains than this, planned routes are paid without
#: locomotives (bar a ferry's marks): the locomotives are kept for the long routes, whose colour
#: comes slowest, and for the end
SAVE_LOCOMOTIVES_ABOVE = 15


class RouteValuePlanner(Planner):
    """The ticket bot's planner, its free routes weighed by their worth (:func:`route_weight`) and
    its tickets planned in their cheapest order (:func:`plan_in_best_order`)."""

    def __init__(self, owners):
        super().__init__(owners)
        #: a free route's weight by its length, from the route points of the ruleset played
        #: (:meth:`RouteValueBot.choose` sets them)
        self.weights: dict[int, float] = {}

    def route_weights(self) -> dict[int, float]:
        """Its routes' worth (:attr:`weights`), not their length alone."""
        return self.weights

    def plan_tickets(self, board, graph, seen, tickets, budget, searches) -> Plan:
        """The plan of its tickets in their best order (:func:`plan_in_best_order`), kept as the
        ticket bot keeps its own."""
        return plan_in_best_order(board, graph, seen, tickets, budget, searches)


class RouteValueBot(TicketBot):
    """The ticket bot planning by routes' worth, its tickets in their cheapest order, drawing for its nearest route."""

    name = "route-value"
    planner_class = RouteValuePlanner

    def __init__(self, seed: int, seat: int):
        super().__init__(seed, seat)
        self.rng = random.Random(f"route-value-bot:{seed}:{seat}")
        self._weighed_for: RulesMemo | None = None  # the memo of the ruleset the route weights were made for

    def choose(self, view):
        rules = self.rules_memo(view)
        if self._weighed_for is not rules:
            lengths = {r.length for r in view.board.routes}
            self.planner.weights = {n: route_weight(n, view.route_points(n)) for n in lengths}
            self._weighed_for = rules
        return super().choose(view)

    # --- tickets ----------------------------------------------------------------------------

    def keep_tickets(self, board, seen, offers):
        """The offer whose tickets, planned in their best order with those held, score best within
        the ticket bot's budget (R-SET-4, R-TIX-1); of equals, the one keeping fewer, then the first."""
        graph = self.planner.graph(board, seen)
        budget = min(seen.trains * (1 - self.reserve), time_budget(seen))
        searches = self.planner.searches_on(graph)
        best = None  # ((score, -tickets kept), offer)
        for offer in offers:
            kept = tuple([board.ticket_index[t] for t in offer.tickets])
            plan = plan_in_best_order(board, graph, seen, seen.tickets + kept, budget, searches)
            scored = (plan_score(board, plan), -len(kept))
            if best is None or scored > best[0]:
                best = (scored, offer)
        return best[1]

    # --- claims -----------------------------------------------------------------------------

    def payments_to_consider(self, board, seen, planned, can_draw):
        """The ticket bot's payments; but while every other player has more than
        ``SAVE_LOCOMOTIVES_ABOVE`` trains (far from the end, R-END-1) and a card can be drawn
        instead, only those without locomotives (R-ROUTE-3; a ferry's marks still take theirs,
        R-FER-1)."""
        if seen.min_other_trains <= SAVE_LOCOMOTIVES_ABOVE:
            return planned
        routes, index = board.routes, board.route_index
        plain = [c for c in planned if c.locomotives <= routes[index[c.route]].ferry]
        if len(plain) < len(planned) and not can_draw:
            return planned  # no card to draw: nothing better to do with the turn
        return plain

    # --- cards ------------------------------------------------------------------------------

    def draw_cards(self, board, seen, draws, second: bool):
        """The open card (R-DRAW-1) of a colour the plan lacks that leaves one of its routes
        fewest cards short of being paid; of equals, the colour most lacking, then the first slot.
        Without one, the ticket bot's draw (a locomotive the plan needs, else blind)."""
        planner = self.planner
        plan = planner.current(board, seen)
        short = _cards_short(seen, planner.free_planned(board, seen, plan).groups)
        needs = planner.color_needs(board, seen, plan)
        row, best = seen.open_row, None
        for d in draws:
            color = row[d.slot] if d.slot is not None else None
            lacking = needs.get(color, 0) - seen.cards(color) if color is not None and color != LOCOMOTIVE else 0
            if lacking > 0:
                key = (short.get(color, NOT_SHORT), -lacking, d.slot)
                if best is None or key < best[0]:
                    best = (key, d)
        return best[1] if best is not None else super().draw_cards(board, seen, draws, second)


def route_weight(length: int, points: int) -> float:
    """A free route's weight in the plan: its trains, a turn, less what it scores beyond a point a train."""
    return length + TURN_WEIGHT - (points - length) * POINTS_WEIGHT


def plan_score(board: Board, plan: Plan) -> float:
    """What a plan is worth: its tickets' points, less those it drops (R-SCORE-2), less a share of its cost."""
    tickets = board.tickets
    gain = sum([tickets[t].points for t in (*plan.done, *plan.planned)])
    return gain - sum([tickets[t].points for t in plan.dropped]) - COST_SHARE * plan.cost


def plan_in_best_order(board: Board, graph: RouteGraph, seen: Seen, tickets: Sequence[int], budget: float,
                       searches: Searches) -> Plan:
    """The best-scoring plan (:func:`plan_score`) of ``tickets`` over every order of those not
    yet done (a done ticket costs nothing in any order), each planned greedily in that order
    (:func:`plan_in_order`); the first best in the ticket bot's order (most points first). Where
    stations could save a dropped ticket, or there are too many tickets to try every order, the
    ticket bot's own plan."""
    by_points = sorted(tickets, key=lambda t: (-board.tickets[t].points, t))
    open_ = [t for t in by_points if not _done(board, graph, t)]
    if len(open_) < 2 or len(open_) > ORDERS_UP_TO or seen.stations_left:
        return plan_tickets(board, graph, seen, tickets, budget, searches)
    done = [t for t in by_points if t not in open_]
    best = None
    for order in permutations(open_):
        plan = plan_in_order(board, graph, (*done, *order), budget, searches)
        score = plan_score(board, plan)
        if best is None or score > best[0]:
            best = (score, plan)
    return best[1]


def _done(board: Board, graph: RouteGraph, ticket: int) -> bool:
    """Whether the seat's own routes join the ticket's cities already (R-TIX-2)."""
    t = board.tickets[ticket]
    found = graph.path_alone(t.ai, t.bi)
    return found is not None and found[0] == 0


def plan_in_order(board: Board, graph: RouteGraph, order: Sequence[int], budget: float, searches: Searches) -> Plan:
    """The ticket bot's greedy plan (:func:`ttr_bots.ticket.planning.plan_tickets`, without stations)
    taking ``order``'s tickets one by one: each by its cheapest path given the connections chosen
    so far (they cost nothing more, R-TIX-3), dropped if it does not fit the budget."""
    chosen: set[tuple[int, int]] = set()
    zero: list[set[int]] = [set() for _ in board.cities]
    adj = graph.adj
    cost, done, planned, dropped = 0, [], [], []
    for t in order:
        ticket = board.tickets[t]
        key = (t, frozenset(chosen))
        found = searches[key] if key in searches else searches.setdefault(key, shortest_path(graph, zero, ticket.ai, ticket.bi))
        if found is None:
            dropped.append(t)
            continue
        length, path = found
        edges = [pair(u, v) for u, v in zip(path, path[1:])]
        if length == 0:
            (planned if not chosen.isdisjoint(edges) else done).append(t)
            continue
        if cost + length > budget:
            dropped.append(t)
            continue
        cost += length
        for (u, v) in edges:
            if adj[u][v] > 0:
                chosen.add((u, v))
                zero[u].add(v)
                zero[v].add(u)
        planned.append(t)
    return Plan(frozenset(chosen), (), cost, tuple(done), tuple(planned), tuple(dropped))


def _cards_short(seen: Seen, groups: Sequence[Sequence]) -> dict[str, int]:
    """By colour: the fewest cards short of paying a free planned route in that colour (a grey
    route in any, R-ROUTE-2..3), locomotives in hand counted; colours of routes already payable
    left out."""
    locos = seen.cards(LOCOMOTIVE)
    short: dict[str, int] = {}
    for group in groups:
        for r in group:
            for color in COLORS if r.color == GRAY else (r.color,):
                n = r.length - seen.cards(color) - locos
                if 0 < n < short.get(color, NOT_SHORT):
                    short[color] = n
    return short


__all__ = [
    "RouteValueBot", "RouteValuePlanner", "plan_in_best_order", "plan_in_order", "plan_score", "route_weight",
]
