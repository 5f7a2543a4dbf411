"""Graph helpers on small integer-indexed structures: connectivity and the longest trail.

These are algorithms, not rules: plugins decide which routes count and what a result is worth.
They avoid networkx on purpose, because they run on every claim and every end-of-game score, and
a player's network is tiny (at most ~45 edges), where plain lists and bit masks win.
"""

from __future__ import annotations

from collections.abc import Sequence


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
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb

    def connected(self, a: int, b: int) -> bool:
        return self.find(a) == self.find(b)


def longest_trail(edges: Sequence[tuple[int, int, int]]) -> int:
    """The longest trail (cities may repeat, each edge at most once) over weighted edges ``(u, v, w)``.

    Why this is fast enough for any network a player can build:

    * a longest trail cannot be extended, so every edge at its start is in it; an open trail
      therefore starts at an odd-degree vertex, and a component without one has an Euler
      circuit, which uses every edge;
    * such a trail never ends at a degree-2 vertex either, so it crosses each one straight
      through, and a chain of degree-2 vertices is searched as one weighted edge.
    """
    if not edges:
        return 0
    best = 0
    for comp_edges in _split_components(edges):
        total = sum(w for _, _, w in comp_edges)
        if total <= best:
            continue
        adj = _contracted(comp_edges)
        odd = [v for v, links in adj.items() if len(links) % 2]
        if not odd:
            best = total
            continue
        memo: dict[int, int] = {}
        shift = max(adj).bit_length()
        for start in odd:
            best = max(best, _walk(adj, start, 0, memo, shift))
            if best == total:
                break
    return best


def _split_components(edges: Sequence[tuple[int, int, int]]) -> list[list[tuple[int, int, int]]]:
    sets: dict[int, int] = {}

    def find(x: int) -> int:
        while sets.setdefault(x, x) != x:
            sets[x] = sets[sets[x]]
            x = sets[x]
        return x

    for u, v, _ in edges:
        sets[find(u)] = find(v)
    groups: dict[int, list[tuple[int, int, int]]] = {}
    for e in edges:
        groups.setdefault(find(e[0]), []).append(e)
    return list(groups.values())


def _contracted(edges: list[tuple[int, int, int]]) -> dict[int, list[tuple[int, int, int]]]:
    """Adjacency ``{v: [(edge bit, other end, weight)]}`` with chains of degree-2 vertices merged."""
    live: dict[int, tuple[int, int, int]] = dict(enumerate(edges))
    at: dict[int, set[int]] = {}
    for i, (u, v, _) in live.items():
        at.setdefault(u, set()).add(i)
        at.setdefault(v, set()).add(i)
    next_id = len(edges)
    queue = [v for v, ids in at.items() if len(ids) == 2]
    while queue:
        v = queue.pop()
        ids = at.get(v)
        if not ids or len(ids) != 2:
            continue
        i, j = ids
        (a1, b1, w1), (a2, b2, w2) = live[i], live[j]
        a = b1 if a1 == v else a1
        b = b2 if a2 == v else a2
        if a == v or b == v:
            continue  # a self-loop at v: nothing to merge
        del live[i], live[j], at[v]
        at[a].discard(i)
        at[b].discard(j)
        live[next_id] = (a, b, w1 + w2)
        at[a].add(next_id)
        at[b].add(next_id)
        next_id += 1
        queue += [a, b]
    adj: dict[int, list[tuple[int, int, int]]] = {}
    for k, (i, (u, v, w)) in enumerate(sorted(live.items())):
        bit = 1 << k
        adj.setdefault(u, []).append((bit, v, w))
        adj.setdefault(v, []).append((bit, u, w))
    return adj


def _walk(adj: dict[int, list[tuple[int, int, int]]], v: int, used: int, memo: dict[int, int], shift: int) -> int:
    """The longest continuation from ``v`` with the edges in ``used`` spent. Memoised on (v, used):
    walking a cycle one way or the other reaches the same state, and so do different starts."""
    key = used << shift | v  # one int is a cheaper key than a tuple
    got = memo.get(key)
    if got is not None:
        return got
    best = 0
    for bit, other, w in adj[v]:
        if not used & bit:
            n = w + _walk(adj, other, used | bit, memo, shift)
            if n > best:
                best = n
    memo[key] = best
    return best
