"""Which routes make a player's longest trail (R-BON-1), to draw it: the engine measures the
trail's length (``ttr_core.network.longest_trail``, fast and exact); this finds one trail of that
length, route by route.

A depth-first search over the player's own routes (cities may repeat, each route once) that
stops as soon as it reaches the engine's length. A network a player builds is small (at most
the trains they hold), so this is quick in practice; a ``budget`` of steps bounds the worst case,
and then the longest trail found so far is returned.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ttr_core.game import Game
from ttr_core.network import longest_trail

#: steps of the search before it settles for the longest trail found so far
BUDGET = 200_000


def trail_routes(game: Game, seat: int, budget: int = BUDGET) -> tuple[str, ...]:
    """The route ids of one longest trail of ``seat``'s own routes, in walking order."""
    routes = [game.board.routes[r] for r in sorted(game.state.players[seat].routes)]
    edges = [(r.ai, r.bi, r.length) for r in routes]
    found = longest_edges(edges, longest_trail(edges), budget)
    return tuple(routes[i].id for i in found)


def longest_edges(edges: Sequence[tuple[int, int, int]], target: int, budget: int = BUDGET) -> list[int]:
    """Indices of ``edges`` ``(u, v, length)`` forming a trail of total length ``target`` (or the
    longest found within ``budget`` steps)."""
    at: dict[int, list[int]] = defaultdict(list)
    for i, (u, v, _) in enumerate(edges):
        at[u].append(i)
        at[v].append(i)
    best: list[int] = []
    best_len = 0
    steps = 0
    path: list[int] = []
    used = [False] * len(edges)

    class Done(Exception):
        pass

    def walk(v: int, length: int) -> None:
        nonlocal best, best_len, steps
        steps += 1
        if length > best_len:
            best, best_len = list(path), length
            if best_len >= target:
                raise Done
        if steps > budget:
            raise Done
        for i in at[v]:
            if used[i]:
                continue
            u, w, n = edges[i]
            used[i] = True
            path.append(i)
            walk(w if v == u else u, length + n)
            path.pop()
            used[i] = False

    # odd-degree cities first: an open trail that uses most edges starts at one
    starts = sorted(at, key=lambda c: (len(at[c]) % 2 == 0, -len(at[c])))
    try:
        for city in starts:
            walk(city, 0)
    except Done:
        pass
    return best
