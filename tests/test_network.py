"""The longest-trail search against a brute force, on random multigraphs (R-BON-1 counts a trail)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_core.network import DisjointSets, longest_trail


def brute_force(edges):
    adj = {}
    for i, (u, v, w) in enumerate(edges):
        adj.setdefault(u, []).append((i, v, w))
        adj.setdefault(v, []).append((i, u, w))

    def walk(v, used):
        return max((w + walk(o, used | {i}) for i, o, w in adj[v] if i not in used), default=0)

    return max((walk(v, frozenset()) for v in adj), default=0)


edges_strategy = st.lists(
    st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(1, 6)).filter(lambda e: e[0] != e[1]),
    max_size=10,
)


@given(edges_strategy)
@settings(max_examples=400, deadline=None)
def test_longest_trail_matches_brute_force(edges):
    assert longest_trail(edges) == brute_force(edges)


def test_R_BON_1_a_loop_with_a_tail_counts_whole():
    # triangle 0-1-2 (lengths 1, 2, 3) with a tail 2-3 of length 4: one trail uses all four routes
    assert longest_trail([(0, 1, 1), (1, 2, 2), (2, 0, 3), (2, 3, 4)]) == 10


def test_R_BON_1_disconnected_pieces_never_add_up():
    assert longest_trail([(0, 1, 5), (2, 3, 6)]) == 6


def test_R_BON_1_a_figure_eight_is_one_trail():
    # two triangles sharing vertex 0: every vertex has even degree, the circuit uses all edges
    assert longest_trail([(0, 1, 1), (1, 2, 1), (2, 0, 1), (0, 3, 2), (3, 4, 2), (4, 0, 2)]) == 9


def test_disjoint_sets_join_and_separate():
    sets = DisjointSets(4)
    sets.union(0, 1)
    sets.union(2, 3)
    assert sets.connected(0, 1) and sets.connected(2, 3) and not sets.connected(1, 2)
