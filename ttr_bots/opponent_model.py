"""Which tickets another player likely holds, judged from the routes it claimed (public).

A player playing for its tickets claims routes along short paths between its tickets' cities
(R-TIX-2: a ticket is completed when its two cities are joined by the player's own routes). So a ticket
whose cities the player's network brings much closer is more likely one of its tickets than a
ticket its network does nothing for. :class:`TicketModel` weighs every ticket ``t`` for a seat
``s`` by ``exp(SAVING_WEIGHT * saving + SHARE_WEIGHT * saving / length)``, where ``saving`` is
how many trains ``s``'s routes save on ``t``'s shortest connection (``length``: the shortest
path between ``t``'s cities over the whole map by route length; less the same with ``s``'s own
routes free, the saving). A ticket already joined by ``s``'s routes saves its whole length.

The search bot draws the other players' tickets in its sampled games by these weights
(:func:`ttr_core.hidden.redeal_tickets`), so that its play-outs see the plans those players
actually follow (which routes they race for, which a block would break), instead of tickets
dealt at random.

Fairness: it reads the routes' owners only (public, R-ROUTE-5), never another seat's tickets.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from heapq import heappop, heappush

from ttr_core.board import Board, Route
from ttr_bots.route_graph import BoardIndex, pair

#: a ticket's weight grows by e for every ``1 / SAVING_WEIGHT`` trains the seat's routes save on
#: it, and by e ** SHARE_WEIGHT if they join it whole (in proportion to the share they save). Fitted
#: on ticket bots' games (usa, 4 players, seeds 500-539, every 25th action: the true tickets'
#: likelihood against the unseen ones'); the figures are in ``bench/data/search-model-experiments.jsonl``
SAVING_WEIGHT = 0.1
SHARE_WEIGHT = 4.0
#: no weight above ``exp(MAX_EXPONENT)``: a ticket's weight stays a float
MAX_EXPONENT = 30.0

_FAR = math.inf


class TicketModel:
    """Ticket weights for the other seats of one board, from the routes each owns."""

    def __init__(self, board: Board, saving_weight: float = SAVING_WEIGHT, share_weight: float = SHARE_WEIGHT):
        self.board = board
        self.saving_weight = saving_weight
        self.share_weight = share_weight
        self._cities = sorted({c for t in board.tickets for c in (t.ai, t.bi)})
        self._base = self._ticket_distances(frozenset())
        self._cache: dict[tuple[int, frozenset[int]], dict[int, float]] = {}

    def weights(self, owner: Mapping[int, int], seat: int) -> dict[int, float]:
        """Each ticket's weight (by ticket index) of being one of ``seat``'s, given the route
        owners (route index -> seat)."""
        mine = frozenset(r for r, s in owner.items() if s == seat)
        key = (seat, mine)
        got = self._cache.get(key)
        if got is None:
            if len(self._cache) > 64:
                self._cache.clear()
            got = self._cache[key] = self._weights_for(mine)
        return got

    def savings(self, routes: frozenset[int]) -> dict[int, float]:
        """How many trains ``routes`` (free to their owner) save on each ticket's shortest connection."""
        near = self._ticket_distances(routes)
        return {t: self._base[t] - near[t] for t in self._base}

    def _weights_for(self, routes: frozenset[int]) -> dict[int, float]:
        k, share, base = self.saving_weight, self.share_weight, self._base
        return {t: math.exp(min(MAX_EXPONENT, k * s + share * s / max(1.0, base[t]))) for t, s in self.savings(routes).items()}

    def _ticket_distances(self, free: frozenset[int]) -> dict[int, float]:
        """Each ticket's shortest connection over the whole map, routes in ``free`` at 0."""
        board = self.board
        n = len(board.cities)
        adj: list[list[tuple[int, float]]] = [[] for _ in range(n)]
        for r in board.routes:
            w = 0.0 if r.index in free else float(r.length)
            adj[r.ai].append((r.bi, w))
            adj[r.bi].append((r.ai, w))
        from_city = {c: _distances(adj, c) for c in self._cities}
        return {t.index: from_city[t.ai][t.bi] for t in board.tickets}


def likely_tickets(weights: Mapping[int, float], count: int) -> list[int]:
    """The ``count`` tickets of the highest weights (ties by index)."""
    return sorted(weights, key=lambda t: (-weights[t], t))[:count]


def route_needs(board: Board, owner: Mapping[int, int], seat: int, tickets: Sequence[int], twins_open: bool,
                index: BoardIndex | None = None) -> dict[int, float]:
    """For each free route on the shortest connection of one of ``seat``'s ``tickets`` not yet
    joined, what ``seat`` would lose if another player took it: the trains of the detour, or the
    ticket's points twice (it then counts against, R-SCORE-2) if nothing else joins its cities.
    ``twins_open``: whether parallel routes stay open once one is taken (R-PAR-2: in usa, with 4
    players or more); a route with a free twin then costs it nothing (it takes the twin).
    ``index``: the board's index, if the caller keeps one."""
    between = (BoardIndex(board) if index is None else index).between
    adj = _seat_graph(board, owner, seat, frozenset())
    needs: dict[int, float] = {}
    for t in tickets:
        ticket = board.tickets[t]
        dist, pred = _dijkstra_pred(adj, ticket.ai)
        if dist[ticket.bi] in (0.0, _FAR):
            continue
        for r in _path_routes(between, owner, seat, pred, ticket.bi):
            if twins_open and _free_twin(board, owner, r):
                continue
            closed = frozenset([r]) if twins_open else frozenset([r, *board.routes[r].parallel])
            without = _seat_graph(board, owner, seat, closed)
            detour = _distances(without, ticket.ai)[ticket.bi]
            loss = 2 * ticket.points if detour == _FAR else detour - dist[ticket.bi]
            needs[r] = needs.get(r, 0.0) + loss
    return needs


def _seat_graph(board: Board, owner: Mapping[int, int], seat: int, closed: frozenset[int]) -> list[list[tuple[int, float]]]:
    """``seat``'s graph: its routes at 0, free ones (not in ``closed``) at their length."""
    adj: list[list[tuple[int, float]]] = [[] for _ in board.cities]
    for r in board.routes:
        who = owner.get(r.index, -1)
        if (who >= 0 and who != seat) or r.index in closed:
            continue
        w = 0.0 if who == seat else float(r.length)
        adj[r.ai].append((r.bi, w))
        adj[r.bi].append((r.ai, w))
    return adj


def _distances(adj: list[list[tuple[int, float]]], source: int) -> list[float]:
    return _dijkstra_pred(adj, source)[0]


def _dijkstra_pred(adj: list[list[tuple[int, float]]], source: int) -> tuple[list[float], list[int]]:
    dist, pred = [_FAR] * len(adj), [-1] * len(adj)
    dist[source] = 0.0
    heap = [(0.0, source)]
    while heap:
        d, u = heappop(heap)
        if d > dist[u]:
            continue
        for v, w in adj[u]:
            if d + w < dist[v]:
                dist[v], pred[v] = d + w, u
                heappush(heap, (d + w, v))
    return dist, pred


def _path_routes(between: Mapping[tuple[int, int], Sequence[Route]], owner: Mapping[int, int], seat: int,
                 pred: list[int], target: int) -> list[int]:
    """The free routes along ``seat``'s path ending at ``target`` (the shortest free one of each
    step that ``seat`` has not joined already; ``between``: the board's routes by cities)."""
    out, v = [], target
    while pred[v] >= 0:
        u = pred[v]
        routes = between[pair(u, v)]
        free = [r for r in routes if r.index not in owner]
        if free and not any(owner.get(r.index) == seat for r in routes):
            out.append(min(free, key=lambda r: (r.length, r.index)).index)
        v = u
    return out


def _free_twin(board: Board, owner: Mapping[int, int], route: int) -> bool:
    """Whether another route joining the same two cities is free too."""
    return any(p not in owner for p in board.routes[route].parallel)


__all__ = ["TicketModel", "SAVING_WEIGHT", "SHARE_WEIGHT", "likely_tickets", "route_needs"]
