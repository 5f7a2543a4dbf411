"""Graph helpers on small integer-indexed structures: connectivity and the longest trail.

These are algorithms, not rules: plugins decide which routes count and what a result is worth.
They avoid networkx on purpose, because they run on every claim and every end-of-game score, and
a player's network is tiny (at most ~45 edges), where plain lists and bit masks win.
:func:`longest_trail` measures the longest trail; :func:`longest_trail_edges` walks one, edge by
edge, for a page to draw. :class:`GrowingNetwork` keeps the pieces a seat's routes join as the
list of them grows, so that asking again joins only the routes claimed since.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from heapq import heappop, heappush
from operator import itemgetter
from typing import NamedTuple

_Adjacency = dict[int, list[tuple[int, int, int]]]  # {v: [(edge bit, other end, weight)]}
_Ends = dict[int, list[tuple[int, int]]]  # {anchor: [(leaf edge weight or 0, odd vertex)], heaviest first}


class DisjointSets:
    """Union-find with path halving, over the integers ``0..n-1``."""

    __slots__ = ("parent",)

    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        parent = self.parent
        while parent[a] != a:  # find(a) and find(b), written out: union is called once per route
            parent[a] = parent[parent[a]]
            a = parent[a]
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        if a != b:
            parent[a] = b

    def connected(self, a: int, b: int) -> bool:
        return self.find(a) == self.find(b)


class GrowingNetwork(DisjointSets):
    """The cities a list of edges joins, for a list that mostly grows between two questions: one
    seat's own routes, asked about again as the game goes (which tickets they complete, R-TIX-2).

    :meth:`follow` brings it up to the list as it is now. When the edges it followed last start
    the list, only the edges after them are joined; any other list (an edge was taken away, such
    as a route a controller dismantled, R-CTL-2, or another state was put under the game) is
    joined afresh. What it answers (``find``, ``connected``) is about the list it was last given,
    however that list came to be: it needs no word of each claim.
    """

    __slots__ = ("followed",)

    def __init__(self, n: int):
        super().__init__(n)
        self.followed: list[int] = []  # the edges joined, in the list's order

    def follow(self, edges: list[int], ends: Sequence[tuple[int, int]]) -> GrowingNetwork:
        """Join what ``edges`` (indices into ``ends``, each edge's two vertices) adds to the edges
        followed so far, or join them afresh if they do not start with those; returns itself."""
        known = self.followed
        k = len(known)
        if len(edges) < k or edges[:k] != known:
            self.parent[:] = range(len(self.parent))
            known.clear()
            k = 0
        if len(edges) > k:
            union = self.union
            for e in edges[k:]:
                a, b = ends[e]
                union(a, b)
            known += edges[k:]
        return self

    def copy(self) -> GrowingNetwork:
        twin = GrowingNetwork.__new__(GrowingNetwork)
        twin.parent, twin.followed = self.parent[:], self.followed[:]
        return twin


class NetworksBySeat:
    """A :class:`GrowingNetwork` of each seat's edges, over ``n`` vertices, each edge ``e`` joining
    ``ends[e]``; each made as first asked for. What a plugin keeps in ``game.memo``, where a clone
    of the game keeps a :meth:`copy`: copies of the networks, which the clone then grows alone."""

    __slots__ = ("n", "ends", "by_seat")

    def __init__(self, n: int, ends: Sequence[tuple[int, int]]):
        self.n, self.ends = n, ends
        self.by_seat: dict[int, GrowingNetwork] = {}

    def of(self, seat: int, edges: list[int]) -> GrowingNetwork:
        """``seat``'s network, brought up to ``edges`` (:meth:`GrowingNetwork.follow`)."""
        network = self.by_seat.get(seat)
        if network is None:
            network = self.by_seat[seat] = GrowingNetwork(self.n)
        return network.follow(edges, self.ends)

    def copy(self) -> NetworksBySeat:
        twin = NetworksBySeat(self.n, self.ends)
        twin.by_seat = {seat: network.copy() for seat, network in self.by_seat.items()}
        return twin


def longest_trail(edges: Sequence[tuple[int, int, int]],
                  known: dict[tuple[tuple[int, int, int], ...], PieceTrail] | None = None) -> int:
    """The longest trail (cities may repeat, each edge at most once) over weighted edges ``(u, v, w)``
    between vertices that are small integers (city indices).

    ``known``: what searches found of pieces of a network, by their edges, read and added to. A
    seat's network asked about again after a claim thus searches only the piece that claim
    changed: every other piece is as it was (the pieces that need no search are quick to measure).

    Exact for lengths ``w >= 0``. Why it is fast enough for any network a player can build:

    * a trail stays in one connected piece, and a piece whose total cannot beat the best trail so
      far is not searched: the heaviest go first;
    * a longest trail cannot be extended, so every edge at either end is in it: an open trail runs
      between two odd-degree vertices, and a piece with at most two of them is one trail (Euler)
      using every edge. Most pieces of a network are, and need no more than their total;
    * in a piece without cycles (a tree) a trail never comes back to a city: it is a path, and the
      longest path bends at some city through the two longest branches below it (``_tree_path``);
    * in a piece with cycles, a trail crosses a vertex with two routes straight through, or not at
      all: chains of such vertices are searched as one weighted edge (``_contracted``);
    * a city with leaves (dead-end routes) needs one start, and the edges a trail leaves unused
      weigh at least a matching of the odd vertices other than its ends: that bounds the trails
      from each start (``_starts``). Starts go best bound first, a search stops as soon as a trail
      reaches its bound, and a start whose bound cannot beat the best trail is not searched;
    * the depth-first search is memoised on (vertex, edges used): the rest of a trail depends on
      nothing else, and a cycle walked either way, or reached from another start, ends in one state.
    """
    at = _touching(edges)
    best, hard, piece = _pieces(edges, at)
    for total, tree, label, comp in sorted(hard, reverse=True):
        if total <= best:
            break
        if tree:
            got = _tree_path(at, comp)
        else:
            got = _searched_piece([e for e in edges if piece[e[0]] == label], total, best, known)
        if got > best:
            best = got
    return best


class PieceTrail(NamedTuple):
    """What a search found of one piece of a network (``longest_trail``'s ``known``): its longest
    trail's ``length`` if ``exact``; else no more than ``length``, the longest trail of another
    piece, beside which the search gave up."""

    length: int
    exact: bool


def _searched_piece(edges: list[tuple[int, int, int]], total: int, best: int,
                    known: dict[tuple[tuple[int, int, int], ...], PieceTrail] | None) -> int:
    """``best``, or the longest trail of the piece made of ``edges`` if that is longer: what
    ``known`` holds of the piece (by its edges, sorted) when it says enough, else searched."""
    key = None
    if known is not None:
        key = tuple(sorted(edges))
        kept = known.get(key)
        if kept is not None and (kept.exact or kept.length <= best):
            return max(kept.length, best)
    adj = _contracted(edges)
    got = _search(adj, list(adj), [v for v in adj if len(adj[v]) % 2], total, best)
    if key is not None:
        known[key] = PieceTrail(got, got > best)
    return got


_Touching = list[list[tuple[int, int, int]] | None]  # [v]: the edges at v (a loop twice), None if none


def _touching(edges: Sequence[tuple[int, int, int]]) -> _Touching:
    top = 0
    for u, v, _ in edges:
        if u > top:
            top = u
        if v > top:
            top = v
    at: _Touching = [None] * (top + 1)
    for e in edges:
        u, v, _ = e
        if at[u] is None:
            at[u] = [e]
        else:
            at[u].append(e)
        if at[v] is None:
            at[v] = [e]
        else:
            at[v].append(e)
    return at


def _pieces(edges: Sequence[tuple[int, int, int]], at: _Touching
            ) -> tuple[int, list[tuple[int, bool, int, list[int]]], list[int]]:
    """The longest total of a piece with at most two odd vertices; ``(total, is a tree, label,
    vertices)`` of every other piece; and the label of each vertex's piece (0: none)."""
    piece = [0] * len(at)
    best = 0
    hard = []
    for root, _, _ in edges:
        if piece[root]:
            continue
        label = root + 1
        piece[root] = label
        comp = [root]
        total = odd = ends = 0
        for x in comp:
            here = at[x]
            k = len(here)
            odd += k & 1
            ends += k
            for o, b, w in here:
                total += w
                if o == x:
                    o = b
                if not piece[o]:
                    piece[o] = label
                    comp.append(o)
        total >>= 1  # each edge was met from both ends
        if odd > 2:
            hard.append((total, ends >> 1 == len(comp) - 1, label, comp))
        elif total > best:
            best = total
    return best, hard, piece


def _tree_path(at: _Touching, comp: list[int]) -> int:
    """The longest path of a tree whose vertices ``comp`` are listed breadth first: at each vertex,
    from the last, the two longest branches down to its children (its neighbours listed later)."""
    down: dict[int, int] = {}
    best = 0
    for x in reversed(comp):
        first = second = 0
        for o, b, w in at[x]:
            if o == x:
                o = b
            if o in down:
                d = down[o] + w
                if d > first:
                    first, second = d, first
                elif d > second:
                    second = d
        down[x] = first
        if first + second > best:
            best = first + second
    return best


#: steps of :func:`longest_trail_edges`'s walk before it settles for the longest trail found so far
TRAIL_WALK_BUDGET = 200_000


def longest_trail_edges(edges: Sequence[tuple[int, int, int]], budget: int = TRAIL_WALK_BUDGET) -> list[int]:
    """The indices of ``edges`` ``(u, v, w)`` that make one longest trail, in walking order (empty
    when there are no edges).

    :func:`longest_trail` gives the length to reach; a depth-first walk (cities may repeat, each
    edge once) stops as soon as it reaches it. A player's network is small, so this is quick in
    practice; ``budget`` steps bound the worst case, and then the longest trail found so far is
    returned. Slower than measuring: for showing a trail, not for scoring it.
    """
    target = longest_trail(edges)
    at: dict[int, list[int]] = {}
    for i, (u, v, _) in enumerate(edges):
        at.setdefault(u, []).append(i)
        at.setdefault(v, []).append(i)
    walk = _TrailWalk(edges, at, target, budget)
    # odd-degree cities first: an open trail that uses most edges starts at one
    for city in sorted(at, key=lambda c: (len(at[c]) % 2 == 0, -len(at[c]))):
        try:
            walk.walk(city, 0)
        except _Reached:
            break
    return walk.best


class _TrailWalk:
    """The depth-first walk of :func:`longest_trail_edges`: the trail so far and the best one."""

    def __init__(self, edges: Sequence[tuple[int, int, int]], at: dict[int, list[int]], target: int, budget: int):
        self.edges, self.at, self.target, self.budget = edges, at, target, budget
        self.path: list[int] = []
        self.used = [False] * len(edges)
        self.best: list[int] = []
        self.best_length = 0
        self.steps = 0

    def walk(self, v: int, length: int) -> None:
        """Extend the trail from ``v``; raises ``_Reached`` at the target length or out of steps."""
        self.steps += 1
        if length > self.best_length:
            self.best, self.best_length = list(self.path), length
            if length >= self.target:
                raise _Reached
        if self.steps > self.budget:
            raise _Reached
        for i in self.at[v]:
            if self.used[i]:
                continue
            u, w, _ = self.edges[i]
            self.used[i] = True
            self.path.append(i)
            self.walk(w if v == u else u, length + self.edges[i][2])
            self.path.pop()
            self.used[i] = False


class _Reached(Exception):
    """A trail reached the length sought (its start's bound, or the longest trail's length): no
    longer one is to be found."""


def _search(adj: _Adjacency, comp: list[int], odd: list[int], total: int, best: int) -> int:
    """``best``, or the longest trail of one component if that is longer."""
    memo: dict[tuple[int, int], int] = {}  # by the vertex and the edges spent (a set of bits)
    get = memo.get

    def walk(v: int, used: int, need: int) -> int:
        """The longest continuation from ``v`` with the edges in ``used`` spent; raises once it reaches ``need``."""
        key = (v, used)
        got = get(key)
        if got is None:
            got = 0
            for bit, other, w in adj[v]:
                if not used & bit:
                    n = w + walk(other, used | bit, need - w)
                    if n > got:
                        got = n
            memo[key] = got  # exact: a search that stops early raises before storing anything
        if got >= need:
            raise _Reached
        return got

    for bound, start in _starts(adj, comp, odd, total):
        if bound <= best:
            break
        try:
            best = max(best, walk(start, 0, bound))
        except _Reached:
            best = bound
    del walk  # it refers to itself: left alone, it and the memo would wait for the garbage collector
    return best


def _starts(adj: _Adjacency, comp: list[int], odd: list[int], total: int) -> list[tuple[int, int]]:
    """``(upper bound, start)`` for each start worth searching, the most promising first.

    A trail ending at a leaf ends at the leaf's neighbour, its anchor, plus the leaf edge; any other
    odd vertex is its own anchor. An anchor needs one start, through its heaviest leaf: a trail
    starting at the anchor any other way either leaves that leaf unused, and then starting through
    it is no shorter, or ends through it, and reversed it starts there. A trail uses at most two
    leaf edges, at its ends, so it is at most ``spare`` (all but the leaf edges) plus its ends' leaf
    edges, less what else it leaves unused (``_unused``).
    """
    ends: _Ends = {}
    for x in odd:
        if len(adj[x]) == 1:
            (_, anchor, w), = adj[x]
        else:
            anchor, w = x, 0
        ends.setdefault(anchor, []).append((w, x))
    for at in ends.values():
        at.sort(reverse=True)
    cycles = sum(len(adj[v]) for v in comp) // 2 - len(comp) + 1
    # few cycles and few starts make a cheap search, cheaper than the matching: 0 is a bound too
    unused = _unused(adj, comp, ends, cycles) if cycles >= 3 or len(ends) >= 5 else _nothing
    spare = total - sum(w for at in ends.values() for w, _ in at)
    bound = dict.fromkeys(ends, 0)
    anchors = list(ends)
    for k, p in enumerate(anchors):
        if len(ends[p]) > 1:  # both ends at p: its two heaviest
            bound[p] = spare + ends[p][0][0] + ends[p][1][0] - unused(p, p)
        for q in anchors[k + 1:]:  # ends at p and q: the heaviest at each
            b = spare + ends[p][0][0] + ends[q][0][0] - unused(p, q)
            if b > bound[p]:
                bound[p] = b
            if b > bound[q]:
                bound[q] = b
    return sorted(((b, ends[p][0][1]) for p, b in bound.items()), reverse=True)


def _unused(adj: _Adjacency, comp: list[int], ends: _Ends, cycles: int) -> Callable[[int, int], int]:
    """``unused(p, q)``: no more than the weight, leaf edges aside, that a trail with ends at anchors
    ``p`` and ``q`` leaves unused.

    The edges a trail leaves unused have odd degree exactly at the odd vertices other than its ends.
    Without the unused leaf edges, that is at the anchors of odd degree once leaf edges are dropped,
    toggled by ``p`` and ``q``. Edges with odd degree at some vertices hold paths pairing them up,
    so they weigh at least a minimum matching of those vertices by shortest paths. Leaves do not
    count, so there are few such vertices, and the matching is a small memoised recursion.
    """
    core = [v for v in comp if len(adj[v]) > 1]  # no shortest path between core vertices uses a leaf
    odd_core = {v for v in core if (len(adj[v]) - sum(x != v for _, x in ends.get(v, ()))) % 2}
    if len(odd_core) > 2 * cycles + 2:  # odd vertices made by trees, not cycles: an easy search, a costly matching
        return _nothing
    core.sort(key=odd_core.__contains__)  # the toggled ends get paired first, so the rest share memo entries
    index = {v: i for i, v in enumerate(core)}
    links = [[(index[o], w) for _, o, w in adj[v] if o != v and o in index] for v in core]
    must_pair = sum(1 << index[v] for v in odd_core)
    dist = {i: _distances(links, i) for i in _bits(must_pair | sum(1 << index[p] for p in ends))}
    matched = {0: 0}
    return lambda p, q: _matching(must_pair ^ 1 << index[p] ^ 1 << index[q], dist, matched)


def _matching(group: int, dist: dict[int, list[int]], matched: dict[int, int]) -> int:
    """The minimum perfect matching of the vertices in ``group`` by ``dist``, memoised in ``matched``."""
    got = matched.get(group)
    if got is None:
        low = group & -group  # the lowest vertex is matched to someone: try each
        rest = group ^ low
        row = dist[low.bit_length() - 1]
        got = 1 << 62
        for i in _bits(rest):
            m = row[i] + _matching(rest ^ 1 << i, dist, matched)
            if m < got:
                got = m
        matched[group] = got
    return got


def _nothing(p: int, q: int) -> int:
    """No bound on the unused edges but the leaf edges: valid always, and free."""
    return 0


def _distances(links: list[list[tuple[int, int]]], source: int) -> list[int]:
    """Dijkstra from ``source`` over ``links[v] = [(other end, weight)]``."""
    dist = [1 << 62] * len(links)
    dist[source] = 0
    heap = [(0, source)]
    while heap:
        d, v = heappop(heap)
        if d == dist[v]:
            for o, w in links[v]:
                if d + w < dist[o]:
                    dist[o] = d + w
                    heappush(heap, (d + w, o))
    return dist


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _contracted(edges: Sequence[tuple[int, int, int]]) -> _Adjacency:
    """The adjacency, heaviest edges first, with every vertex a longest trail crosses straight through
    merged away.

    A vertex with two routes is one: a longest trail uses both or neither, as it could go on
    otherwise. A longest trail also takes every loop at a vertex it visits; at a vertex with one or
    two other routes, it visits exactly when it uses all of those, so the loops are added to one of
    them, and the vertex may then merge away too. Heaviest first finds long trails early.
    """
    at: dict[int, list[int]] = {}
    for i, (u, v, _) in enumerate(edges):
        at.setdefault(u, []).append(i)
        at.setdefault(v, []).append(i)
    walked = [False] * len(edges)
    merged = []
    for v, ids in at.items():
        if len(ids) != 2:
            for i in ids:
                if not walked[i]:
                    merged.append(_chain(edges, at, walked, v, i))
    # what is left are cycles of two-route vertices, each a component and a loop
    merged += [_chain(edges, at, walked, edges[i][0], i) for i in range(len(edges)) if not walked[i]]

    loops = [(u, w) for u, v, w in merged if u == v]
    if loops and (folding := _foldable(loops, merged)):
        kept = [(u, v, w) for u, v, w in merged if u != v or u not in folding]
        for k, (u, v, w) in enumerate(kept):
            if u != v and (u in folding or v in folding):
                kept[k] = (u, v, w + folding.pop(u, 0) + folding.pop(v, 0))
        return _contracted(kept)

    adj: _Adjacency = {}
    for k, (u, v, w) in enumerate(sorted(merged, key=itemgetter(2), reverse=True)):
        bit = 1 << k
        adj.setdefault(u, []).append((bit, v, w))
        adj.setdefault(v, []).append((bit, u, w))
    return adj


def _foldable(loops: list[tuple[int, int]], edges: list[tuple[int, int, int]]) -> dict[int, int]:
    """The total length of the loops at each vertex with one or two other routes."""
    routes: dict[int, int] = {}
    for u, v, _ in edges:
        if u != v:
            routes[u] = routes.get(u, 0) + 1
            routes[v] = routes.get(v, 0) + 1
    folding: dict[int, int] = {}
    for v, w in loops:
        if 0 < routes.get(v, 0) <= 2:
            folding[v] = folding.get(v, 0) + w
    return folding


def _chain(edges: Sequence[tuple[int, int, int]], at: dict[int, list[int]], walked: list[bool], v: int, i: int
           ) -> tuple[int, int, int]:
    """The edge from ``v`` that edge ``i`` starts, walking on through vertices with two routes."""
    start, length = v, 0
    while True:
        walked[i] = True
        a, b, w = edges[i]
        length += w
        v = b if a == v else a
        ids = at[v]
        if len(ids) != 2 or v == start:
            return start, v, length
        i = ids[1] if ids[0] == i else ids[0]
