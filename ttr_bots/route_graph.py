"""Shortest connections between a board's cities, for the bots' planning: cities by index, each
with a dict of its neighbours and the weight of the edge to each, and a bidirectional Dijkstra
(``heapq``) over them.

The search visits neighbours in the order networkx would (the order the edges were first added;
a copy lists smaller neighbours first, as ``networkx.Graph.copy`` does) and breaks ties between
equally short paths exactly as ``networkx.bidirectional_dijkstra`` does, so that a plan made
here is the plan networkx would make: seeded bot games play the same moves.
"""

from __future__ import annotations

from heapq import heappop, heappush

from ttr_core.board import Board, Route


class RouteGraph:
    """Cities ``0..n-1`` joined by undirected edges, at most one between two cities, each with an
    integer weight; ``station`` marks the edges a station would borrow (another player's route).

    ``adj[u][v]`` is the weight of the edge between ``u`` and ``v``."""

    __slots__ = ("adj", "station", "_alone")

    def __init__(self, cities: int):
        self.adj: list[dict[int, int]] = [{} for _ in range(cities)]
        self.station: set[tuple[int, int]] = set()
        self._alone: dict[tuple[int, int], tuple[int, list[int]] | None] = {}

    def set_edge(self, u: int, v: int, weight: int) -> None:
        """Add the edge, or give an existing one this weight (it keeps its place among the neighbours)."""
        self.adj[u][v] = weight
        self.adj[v][u] = weight
        if self._alone:
            self._alone.clear()

    def path_alone(self, source: int, target: int) -> tuple[int, list[int]] | None:
        """``shortest_path`` with no edge chosen yet, kept while the graph stands (the options of a
        decision are planned on one graph, and search it for the same tickets again and again)."""
        key = (source, target)
        found = self._alone.get(key, False)
        if found is False:
            found = self._alone[key] = shortest_path(self, [_NO_CITIES] * len(self.adj), source, target)
        return found

    def has_edge(self, u: int, v: int) -> bool:
        return v in self.adj[u]

    def weight(self, u: int, v: int) -> int:
        return self.adj[u][v]

    def copy(self) -> RouteGraph:
        """An independent copy whose neighbours are in the order a networkx copy has them."""
        twin = RouteGraph(len(self.adj))
        adj = twin.adj
        for u, nbrs in enumerate(self.adj):
            for v, w in nbrs.items():
                if v not in adj[u]:
                    adj[u][v] = w
                    adj[v][u] = w
        twin.station = set(self.station)
        return twin


_NO_CITIES: frozenset[int] = frozenset()


def shortest_path(graph: RouteGraph, zero: list[set[int]], source: int, target: int) -> tuple[int, list[int]] | None:
    """The shortest path from ``source`` to ``target`` as ``(length, cities)``, or None if none
    joins them. An edge costs its weight, or nothing if ``v in zero[u]`` (an edge the plan has
    chosen already; ``zero`` must hold both directions)."""
    if source == target:
        return 0, [source]
    adj = graph.adj
    # each direction's heap, settled distances, tentative distances and predecessors
    forward = ([(0, 0, source)], {}, {source: 0}, {source: None})
    backward = ([(0, 1, target)], {}, {target: 0}, {target: None})
    here, there = backward, forward  # swapped before each step: the first step is forward
    counter = 2  # the heap's tie-breaker: the order in which nodes were pushed
    finaldist = meetnode = None
    while forward[0] and backward[0]:
        here, there = there, here
        heap, done, reached, pred = here
        dist, _, v = heappop(heap)
        if v in done:
            continue
        done[v] = dist
        if v in there[1]:
            return finaldist, _path(forward[3], backward[3], meetnode)
        other, free = there[2], zero[v]
        for w, weight in adj[v].items():
            if w in done:
                continue
            length = dist if w in free else dist + weight
            old = reached.get(w)
            if old is None or length < old:
                reached[w] = length
                heappush(heap, (length, counter, w))
                counter += 1
                pred[w] = v
                if w in other:
                    through = length + other[w]
                    if finaldist is None or finaldist > through:
                        finaldist, meetnode = through, w
    return None


def _path(forward: dict[int, int | None], backward: dict[int, int | None], meet: int) -> list[int]:
    path = []
    node = meet
    while node is not None:
        path.append(node)
        node = forward[node]
    path.reverse()
    node = backward[meet]
    while node is not None:
        path.append(node)
        node = backward[node]
    return path


# --- a board's routes by city pair ------------------------------------------------------------


class BoardIndex:
    """A board's routes looked up by cities: ``between[(u, v)]`` (``u < v``) the routes joining
    two cities, ``pair_at[route index]`` the cities a route joins, ``edges`` every route as
    ``(index, city, city, length)``, ``at[city]`` the routes of a city (made when first asked
    for: only stations ask).

    Made once for a board by whoever plans on it and kept beside it, the board itself as the key
    (a bot keeps the index of the board it plays on, ``TicketBot.board_index``); a copy of its
    keeper (``copy.deepcopy``) shares it, as nothing changes it once made."""

    __slots__ = ("board", "between", "pair_at", "edges", "_at")

    def __init__(self, board: Board):
        self.board = board
        routes = board.routes
        self.pair_at: tuple[tuple[int, int], ...] = tuple([(r.ai, r.bi) if r.ai < r.bi else (r.bi, r.ai) for r in routes])
        between: dict[tuple[int, int], tuple[Route, ...]] = {}
        for r, cities in zip(routes, self.pair_at):
            joining = between.get(cities)
            between[cities] = (r,) if joining is None else (*joining, r)
        self.between = between
        self.edges: tuple[tuple[int, int, int, int], ...] = tuple([(r.index, r.ai, r.bi, r.length) for r in routes])
        self._at: tuple[tuple[Route, ...], ...] | None = None

    @property
    def at(self) -> tuple[tuple[Route, ...], ...]:
        """The routes of each city, by city index."""
        if self._at is None:
            at: list[list[Route]] = [[] for _ in self.board.cities]
            for r in self.board.routes:
                at[r.ai].append(r)
                if r.bi != r.ai:
                    at[r.bi].append(r)
            self._at = tuple(map(tuple, at))
        return self._at

    def __deepcopy__(self, memo: dict) -> BoardIndex:
        return self


def pair(u: int, v: int) -> tuple[int, int]:
    """Two cities as a key, the smaller index first."""
    return (u, v) if u < v else (v, u)
