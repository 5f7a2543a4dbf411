"""The ticket bot's planning: the connections its tickets still need (shortest paths over the
free routes and its own, :mod:`ttr_bots.route_graph`), stations saving tickets the free routes can
no longer join, whether a plan still holds, and which offer of tickets to keep by the plan it makes.
These are functions of what the seat knows (:class:`~ttr_bots.ticket.seen.Seen`); the plan kept
from turn to turn is the :class:`~ttr_bots.ticket.planner.Planner`'s.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import attrs

from ttr_core.actions import Action
from ttr_core.board import Board, Route
from ttr_core.cards import GRAY
from ttr_bots.route_graph import BoardIndex, RouteGraph, pair as _pair, shortest_path
from ttr_bots.ticket.cards import fixed_needs
from ttr_bots.ticket.seen import Seen

#: A station edge's weight in the planner: a station uses no trains but costs cards and 4 points.
STATION_WEIGHT = 3
#: Keep tickets only while the plan leaves this share of the trains unplanned: opponents take
#: routes, and detours cost trains the plan did not count. 0.25 measured best of 0.1-0.4 against
#: three bots at 0.2 (wor: 37% wins in 160 games where 25% is par; usa and wor-europe: par).
TRAIN_RESERVE = 0.25
#: Draw new tickets only with this many trains left, and every opponent with this many too.
SAFE_TRAINS = 12
#: Guessing the turns left: an opponent places about this many trains per turn on average
#: (45 trains over a game of about 40 turns each), and a turn brings in about this many of the
#: cards a plan needs (two drawn, less the turns spent claiming).
TRAINS_PER_TURN = 1.2
CARDS_PER_TURN = 1.2
#: Near the end (every other player down to this many trains, R-END-1) the cards still to draw
#: matter more than the trains: a plan whose routes the hand lacks cards for is planned again
#: around the hand, each card it lacks for a route weighing this many trains. Measured against
#: three ticket bots on 600 4-player games each (bench/data/ticket-bot-end-experiments.jsonl): seats ending
#: with 10+ trains and 10+ cards fell from 13% to 5% on wor, 12% to 4% on usa, at the same score.
LATE_TRAINS = 12
LACKING_CARD_WEIGHT = 6


@attrs.frozen
class Plan:
    """The connections still to make: city pairs to claim and stations to build."""

    pairs: frozenset[tuple[int, int]]
    stations: tuple[str, ...]  # cities to build a station in
    cost: int  # trains the pairs need
    done: tuple[int, ...]  # tickets already completed
    planned: tuple[int, ...]  # tickets the plan completes
    dropped: tuple[int, ...]  # tickets given up


@attrs.define(eq=False)
class FreePlanned:
    """The free routes of a plan's connections, as the board stands. Nothing changes one once made
    (not frozen, as ``Seen``: one is made whenever a plan's connections change hands)."""

    plan: Plan
    groups: list[list[Route]]  # by connection (those with a free route), connections in order
    routes: list[Route]  # all of them
    beside_taken: list[Route]  # those with a parallel route someone owns (R-PAR may close them)
    # what the connections with one free route ask for whatever the hand (``cards.fixed_needs``)
    fixed_needs: tuple[dict[str, int], list[tuple[int, Route]]]
    # the connections with parallel free routes, by place among the groups: which route of each
    # the colour needs count depends on the hand
    choices: list[tuple[int, list[Route]]]

    @classmethod
    def of(cls, index: BoardIndex, seen: Seen, plan: Plan) -> FreePlanned:
        """The free routes of ``plan`` on the board of ``index``."""
        between, owner = index.between, seen.owner
        taken = owner.keys()
        groups: list[list[Route]] = []
        routes: list[Route] = []
        beside: list[Route] = []
        single: list[tuple[int, Route]] = []  # a connection's one free route counts whatever the hand,
        choices: list[tuple[int, list[Route]]] = []  # and so does the first of parallel grey ones
        for p in sorted(plan.pairs):
            g = [r for r in between[p] if r.index not in owner]
            if not g:
                continue
            i = len(groups)
            groups.append(g)
            routes += g
            for r in g:
                if r.parallel and not taken.isdisjoint(r.parallel):
                    beside.append(r)
            if len(g) == 1:
                single.append((i, g[0]))
            elif all(r.color == GRAY for r in g):
                single.append((i, min(g, key=_by_index)))  # (the hand pays them alike: the first counts)
            else:
                choices.append((i, g))
        return cls(plan, groups, routes, beside, fixed_needs(single), choices)


def _by_index(route: Route) -> int:
    return route.index


#: Searches already made within one decision, by (ticket, the pairs chosen before it): the
#: options of a decision plan the same held tickets again and again.
Searches = dict[tuple[int, frozenset], "tuple[int, list[int]] | None"]


def build_graph(board: Board, seen: Seen, blocked: frozenset[int] | set[int],
                weights: Mapping[int, float] | None = None, index: BoardIndex | None = None,
                extra: Mapping[int, float] | None = None) -> RouteGraph:
    """Cities joined by the seat's own routes (weight 0) and the free routes it could still claim
    (weight = length, or ``weights[length]`` where given, plus ``extra[route index]`` where given);
    between two cities, the cheapest. Routes of other players are left out. ``index``: the
    board's index, if the caller keeps one."""
    if index is None:
        index = BoardIndex(board)
    g = RouteGraph(len(board.cities))
    adj = g.adj
    owner, seat, trains = seen.owner, seen.seat, seen.trains
    for route, a, b, length in index.edges:  # (``g.set_edge``, written out)
        who = owner.get(route, -1)
        if who == seat:
            w = 0
        elif who >= 0 or route in blocked or length > trains:
            continue
        else:
            w = length if weights is None else weights[length]
            if extra:
                w += extra.get(route, 0)
        near = adj[a]
        now = near.get(b)
        if now is None or w < now:
            near[b] = w
            adj[b][a] = w
    # A station of the seat's already borrows an adjacent route of another player (R-STA-3):
    # count those as joined, so that a ticket the station saves is seen as done.
    for city in seen.my_stations:
        for r in index.at[board.city_index[city]]:
            if owner.get(r.index, seat) != seat:
                g.set_edge(r.ai, r.bi, 0)
    return g


def plan_tickets(
    board: Board, graph: RouteGraph, seen: Seen, tickets: Sequence[int], budget: float, searches: Searches | None = None,
    below: float | None = None,
) -> Plan | None:
    """Greedy: the most valuable ticket first, each by the shortest path given what the plan has
    chosen so far (chosen pairs cost nothing more); a ticket that does not fit the budget is
    dropped. Then stations for the dropped ones, if the seat has any left. ``searches`` keeps the
    paths found, for the next plan of the same decision.

    ``below``: give up (None) as soon as the plan is sure to score below it as :func:`best_offer`
    scores plans (the tickets' points, less twice those dropped, less a quarter of the cost): the
    cost only grows, and a ticket dropped stays dropped where no station can save it."""
    chosen: set[tuple[int, int]] = set()
    zero: list[Collection[int]] = [_NO_CITY_IDS] * len(board.cities)  # a set where an edge is chosen (``_add_zero``)
    adj = graph.adj
    cost, done, planned, dropped = 0, [], [], []
    if below is not None:
        best = sum([board.tickets[t].points for t in tickets])  # the most the plan may still score
        lose = 0 if seen.stations_left else 2
    for t in sorted(tickets, key=lambda t: (-board.tickets[t].points, t)):
        ticket = board.tickets[t]
        if below is not None and best - 0.25 * cost < below:
            return None
        if not chosen:
            found = graph.path_alone(ticket.ai, ticket.bi)
        elif searches is None:
            found = shortest_path(graph, zero, ticket.ai, ticket.bi)
        else:
            key = (t, frozenset(chosen))
            found = searches[key] if key in searches else searches.setdefault(key, shortest_path(graph, zero, ticket.ai, ticket.bi))
        if found is None:
            dropped.append(t)
            if below is not None:
                best -= lose * ticket.points
            continue
        length, path = found
        if length == 0:
            (planned if _uses(path, chosen) else done).append(t)
            continue
        if cost + length > budget:
            dropped.append(t)
            if below is not None:
                best -= lose * ticket.points
            continue
        cost += length
        for u, v in zip(path, path[1:]):
            if adj[u][v] > 0:
                _choose(chosen, zero, u, v)
        planned.append(t)
    stations: list[str] = []
    if dropped and seen.stations_left:
        dropped = _plan_stations(board, graph, seen, dropped, chosen, zero, stations, budget - cost, planned)
        cost = sum(adj[u][v] for u, v in chosen)
    if below is not None and best - 0.25 * cost < below:
        return None
    return Plan(frozenset(chosen), tuple(stations), cost, tuple(done), tuple(planned), tuple(dropped))


def opening_bound(board: Board, graph: RouteGraph, seen: Seen, tickets: Sequence[int], budget: float, points: int) -> float:
    """At most the score :func:`best_offer` gives the plan of ``tickets`` (``points``: all of theirs):
    ``plan_tickets`` searches its first tickets with nothing chosen yet (searches kept by the
    graph); the first that costs trains costs at least that to the plan, and those it drops
    before it stay dropped where no station can save them."""
    pts = board.tickets
    lost = 0
    for t in sorted(tickets, key=lambda t: (-pts[t].points, t)):
        ticket = pts[t]
        found = graph.path_alone(ticket.ai, ticket.bi)
        if found is None or found[0] > budget:
            if not seen.stations_left:
                lost += 2 * ticket.points
            continue
        if found[0] > 0:
            return points - lost - 0.25 * found[0]
    return points - lost


def _choose(chosen: set[tuple[int, int]], zero: list[Collection[int]], u: int, v: int) -> None:
    chosen.add(_pair(u, v))
    _add_zero(zero, u, v)


def _add_zero(zero: list[Collection[int]], u: int, v: int) -> None:
    """Mark the edge ``u``-``v`` free in ``zero``, whose cities share one empty set until they have one."""
    for a, b in ((u, v), (v, u)):
        near = zero[a]
        if near is _NO_CITY_IDS:
            zero[a] = {b}
        else:
            near.add(b)


#: the empty set every city starts with in ``zero``, shared and never changed (``_add_zero``
#: gives a city its own set on its first chosen edge)
_NO_CITY_IDS: frozenset[int] = frozenset()


def _uses(path: Sequence[int], chosen: set[tuple[int, int]]) -> bool:
    return any(_pair(u, v) in chosen for u, v in zip(path, path[1:]))


def _plan_stations(
    board: Board, graph: RouteGraph, seen: Seen, dropped: list[int], chosen: set[tuple[int, int]],
    zero: list[Collection[int]], stations: list[str], budget: float, planned: list[int],
) -> list[int]:
    """Save dropped tickets with stations: another player's route becomes an edge of weight
    ``STATION_WEIGHT`` (no trains) if one of its cities can still take a station. Returns the
    tickets still dropped; fills ``chosen`` (and ``zero``), ``stations`` and ``planned``."""
    g = graph.copy()
    free_city = [c.name not in seen.station_cities for c in board.cities]
    for r in board.routes:
        owner = seen.owner.get(r.index, -1)
        if owner in (-1, seen.seat) or g.has_edge(r.ai, r.bi) or not (free_city[r.ai] or free_city[r.bi]):
            continue
        g.set_edge(r.ai, r.bi, STATION_WEIGHT)
        g.station.add(_pair(r.ai, r.bi))
    # an edge costs nothing once chosen (a route) or borrowed (a station): the two never overlap
    borrowed: dict[tuple[int, int], str] = {}
    still = []
    left = seen.stations_left
    for t in dropped:
        ticket = board.tickets[t]
        found = shortest_path(g, zero, ticket.ai, ticket.bi)
        if found is None:
            still.append(t)
            continue
        path = found[1]
        edges = [_pair(u, v) for u, v in zip(path, path[1:])]
        new_borrow = [e for e in edges if e in g.station and e not in borrowed]
        trains = sum(g.weight(*e) for e in edges if e not in g.station and e not in chosen)
        cities = _station_cities(board, new_borrow, free_city, set(stations))
        if not new_borrow and not trains or cities is None or len(cities) > left or trains > budget:
            still.append(t)
            continue
        for e, city in zip(new_borrow, cities):
            borrowed[e] = city
            _add_zero(zero, *e)
        stations.extend(cities)
        left -= len(cities)
        budget -= trains
        for e in edges:
            if e not in g.station:
                _choose(chosen, zero, *e)
        planned.append(t)
    return still


def _station_cities(board, edges, free_city, taken) -> list[str] | None:
    """One station city per borrowed edge: an end with no station yet, not used twice."""
    out = []
    for u, v in edges:
        for c in (u, v):
            name = board.cities[c].name
            if free_city[c] and name not in taken and name not in out:
                out.append(name)
                break
        else:
            return None
    return out


def time_budget(seen: Seen) -> float:
    """About how many trains' worth of routes the seat can still pay before the game ends: the
    cards in hand plus about two per turn left, where the turns left are guessed from the
    opponent nearest the end (placing a little over one train per turn, R-END-1)."""
    turns_left = seen.min_other_trains / TRAINS_PER_TURN
    return sum(seen.hand.values()) + CARDS_PER_TURN * turns_left


def safe_to_draw_tickets(seen: Seen, plan: Plan) -> bool:
    """Every ticket held is done, trains are left for a new one, and nobody is close to ending the
    game (R-END-1): the last moment to take on a ticket without much risk."""
    return (
        not plan.dropped and not seen.final_round
        and seen.trains >= SAFE_TRAINS and seen.min_other_trains >= SAFE_TRAINS
    )


def still_valid(index: BoardIndex, seen: Seen, plan: Plan, blocked: set[int]) -> Plan | None:
    """``plan`` without the connections the seat has made since, or None if a planned connection
    or station can no longer be built, or the trains no longer suffice (``index``: the board's)."""
    owner, seat, trains, between = seen.owner, seen.seat, seen.trains, index.between
    pairs, cost = [], 0
    for p in plan.pairs:
        shortest = None  # of the routes the seat may still claim here
        for r in between[p]:
            who = owner.get(r.index)
            if who == seat:
                break  # made already
            if who is None and r.index not in blocked and r.length <= trains and (shortest is None or r.length < shortest):
                shortest = r.length
        else:
            if shortest is None:
                return None
            pairs.append(p)
            cost += shortest
    if cost > trains or any(c in seen.station_cities for c in plan.stations):
        return None
    if len(pairs) == len(plan.pairs):
        return plan
    return Plan(frozenset(pairs), plan.stations, cost, plan.done, plan.planned, plan.dropped)


def best_offer(board: Board, graph: RouteGraph, seen: Seen, offers: Sequence[Action], budget: float,
               searches: Searches) -> Action:
    """The offer of tickets (R-TIX-1) whose tickets, planned with those held within ``budget``,
    score best: their points done or planned, less those dropped, less a quarter of the plan's
    cost; of equals, the one keeping fewer, then the first, as ``max(offers, key=...)`` would."""
    pts = board.tickets
    held = sum([pts[t].points for t in seen.tickets])
    # An offer scores at most the points of all its tickets and those held (all done, no
    # trains spent): planned from the highest such bound down, the offers that could not
    # beat (or, earlier in the list, tie) the best found are not planned at all.
    bounded = []
    for i, offer in enumerate(offers):
        kept = tuple([board.ticket_index[t] for t in offer.tickets])
        bounded.append(((held + sum([pts[t].points for t in kept]), -len(kept)), -i, kept))
    bounded.sort(reverse=True)
    best: tuple | None = None  # ((value, -tickets kept), -place)
    for bound, place, kept in bounded:
        if best is not None:
            if bound < best[0]:
                break
            if (opening_bound(board, graph, seen, seen.tickets + kept, budget, bound[0]), bound[1]) < best[0]:
                continue
        plan = plan_tickets(board, graph, seen, seen.tickets + kept, budget, searches, None if best is None else best[0][0])
        if plan is None:
            continue  # sure to score below the best
        gain = sum([pts[t].points for t in (*plan.done, *plan.planned)])
        loss = sum([pts[t].points for t in plan.dropped])
        scored = ((gain - loss - 0.25 * plan.cost, -len(kept)), place)
        if best is None or scored > best:
            best = scored
    return offers[-best[1]]
