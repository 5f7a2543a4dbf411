"""Graph helpers on small integer-indexed structures: connectivity and the longest trail.

These are algorithms, not rules: plugins decide which routes count and what a result is worth.
They avoid networkx on purpose, because they run on every claim and every end-of-game score, and
a player's network is tiny (at most ~45 edges), where plain lists and bit masks win.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


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

    Why only odd-degree starts: a longest trail cannot be extended, so every edge at its start is
    in it; an open trail then starts where the degree is odd. A component without odd-degree
    vertices has an Euler circuit, which uses every edge.
    """
    if not edges:
        return 0
    adj: dict[int, list[tuple[int, int, int]]] = {}
    for i, (u, v, w) in enumerate(edges):
        adj.setdefault(u, []).append((1 << i, v, w))
        adj.setdefault(v, []).append((1 << i, u, w))
    best = 0
    for comp in _components(adj):
        total = sum(w for v in comp for _, _, w in adj[v]) // 2
        if total <= best:
            continue
        odd = [v for v in comp if len(adj[v]) % 2]
        if not odd:
            best = total
            continue
        for start in odd:
            best = max(best, _walk(adj, start, 0, total))
            if best == total:
                break
    return best


def _walk(adj: dict[int, list[tuple[int, int, int]]], v: int, used: int, cap: int) -> int:
    best = 0
    for bit, other, w in adj[v]:
        if not used & bit:
            got = w + _walk(adj, other, used | bit, cap - w)
            if got > best:
                best = got
                if best == cap:
                    break
    return best


def _components(adj: dict[int, list[tuple[int, int, int]]]) -> Iterable[list[int]]:
    seen: set[int] = set()
    for root in adj:
        if root in seen:
            continue
        seen.add(root)
        comp, stack = [], [root]
        while stack:
            v = stack.pop()
            comp.append(v)
            for _, o, _ in adj[v]:
                if o not in seen:
                    seen.add(o)
                    stack.append(o)
        yield comp
