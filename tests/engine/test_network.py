"""The longest-trail search against a brute force, on random multigraphs (R-BON-1 counts a trail)."""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_core.network import DisjointSets, GrowingNetwork, longest_trail


def brute_force(edges):
    """Every trail from every vertex, memoised on (vertex, edges used) and nothing else."""
    adj = {}
    for i, (u, v, w) in enumerate(edges):
        adj.setdefault(u, []).append((i, v, w))
        adj.setdefault(v, []).append((i, u, w))

    @cache
    def walk(v, used):
        return max((w + walk(o, used | 1 << i) for i, o, w in adj[v] if not used >> i & 1), default=0)

    return max((walk(v, 0) for v in adj), default=0)


# parallel edges, self-loops and disconnected pieces all come up
multigraphs = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(1, 6)), max_size=12)


@st.composite
def cores_with_leaves(draw):
    """A dense piece (many cycles and odd vertices: the bounds matter) with leaves and chains hanging off it."""
    core = draw(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 6)), min_size=5, max_size=10))
    hanging = draw(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 6), st.booleans()), max_size=6))
    edges = list(core)
    for k, (at, w, longer) in enumerate(hanging):
        edges.append((at, 10 + k, w))
        if longer:  # a chain, or a branch when another leaf hangs from the same vertex
            edges.append((10 + k, 20 + k % 3, draw(st.integers(1, 6))))
    return edges


@st.composite
def pieces_joined_by_bridges(draw):
    """Small dense pieces (cycles, parallel routes, loops) joined into a tree by single routes, the
    bridges, with leaves: how most players' networks look, many odd cities and few cycles."""
    pieces = draw(st.integers(2, 5))
    edges = []
    for p in range(pieces):
        base = 10 * p
        edges += [(base + a, base + b, w) for a, b, w in
                  draw(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(1, 6)), max_size=5))]
        if p:  # the bridge to an earlier piece
            edges.append((10 * draw(st.integers(0, p - 1)) + draw(st.integers(0, 3)), base + draw(st.integers(0, 3)),
                          draw(st.integers(1, 6))))
    for k in range(draw(st.integers(0, 4))):
        edges.append((draw(st.sampled_from([u for u, _, _ in edges] or [0])), 100 + k, draw(st.integers(1, 6))))
    return edges


@st.composite
def forests_and_circuits(draw):
    """Pieces side by side, each grown city by city from an earlier one (a tree), some with a few more
    routes closing cycles, doubling a route or looping at a city: how end-of-game networks look, most
    pieces one trail, the others mostly trees."""
    edges = []
    for p in range(draw(st.integers(1, 6))):
        base = 10 * p
        size = draw(st.integers(1, 8))
        edges += [(base + draw(st.integers(0, k - 1)), base + k, draw(st.integers(0, 6))) for k in range(1, size)]
        edges += [(base + a, base + b, w) for a, b, w in draw(
            st.lists(st.tuples(st.integers(0, size - 1), st.integers(0, size - 1), st.integers(0, 6)), max_size=2))]
    return edges


@given(forests_and_circuits())
@settings(max_examples=1500, deadline=None)
def test_longest_trail_matches_brute_force_piece_by_piece(edges):
    """A piece's total (one trail), a tree's longest path, or a search: whichever piece is longest."""
    assert longest_trail(edges) == brute_force(edges)


@given(pieces_joined_by_bridges())
@settings(max_examples=600, deadline=None)
def test_longest_trail_matches_brute_force_across_bridges(edges):
    """A trail crosses a bridge once at most: it runs through the pieces along one path of the tree."""
    assert longest_trail(edges) == brute_force(edges)


@given(multigraphs)
@settings(max_examples=1500, deadline=None)
def test_longest_trail_matches_brute_force(edges):
    assert longest_trail(edges) == brute_force(edges)


@given(cores_with_leaves())
@settings(max_examples=1000, deadline=None)
def test_longest_trail_matches_brute_force_where_bounds_prune(edges):
    assert longest_trail(edges) == brute_force(edges)


@given(forests_and_circuits(), st.randoms(use_true_random=False))
@settings(max_examples=300, deadline=None)
def test_a_network_grown_route_by_route_keeps_the_right_trail_with_what_was_found_kept(edges, rng):
    """R-BON-1 as a game goes: each claim adds a route, and what searches found of the pieces is kept
    between the questions; a piece found again, or another piece beside it, never misleads."""
    rng.shuffle(edges)
    known: dict = {}
    for n in range(len(edges) + 1):
        assert longest_trail(edges[:n], known) == brute_force(edges[:n])
    for n in range(len(edges), -1, -1):  # routes given back (R-CTL-2): smaller networks, the same kept
        assert longest_trail(edges[:n], known) == brute_force(edges[:n])


def test_R_BON_1_a_piece_searched_beside_a_longer_one_is_searched_again_once_alone():
    """A triangle with a long dead end at each corner (18 spaces, its longest trail 12) searched
    beside a single 15-space route: the search stops at 15. Once that route is given back (R-CTL-2),
    the triangle's own trail counts: 12, not the 15 it was measured against."""
    triangle = [(0, 1, 1), (1, 2, 1), (2, 0, 1), (0, 3, 5), (1, 4, 5), (2, 5, 5)]
    known: dict = {}
    assert longest_trail([*triangle, (10, 11, 15)], known) == 15
    assert longest_trail(triangle, known) == 12 == brute_force(triangle)
    assert longest_trail([*triangle, (10, 11, 15)], known) == 15


def test_a_grown_network_joins_the_cities_of_its_routes_and_follows_a_list_given_anew():
    ends = [(0, 1), (1, 2), (3, 4), (2, 3)]
    network = GrowingNetwork(5)
    routes = [0]
    assert network.follow(routes, ends).connected(0, 1) and not network.connected(0, 2)
    routes += [1, 2]
    assert network.follow(routes, ends).connected(0, 2) and not network.connected(2, 3)
    routes.append(3)
    assert network.follow(routes, ends).connected(0, 4)
    twin = network.copy()
    routes.remove(1)  # a route given back (R-CTL-2): the list no longer starts with what was followed
    assert network.follow(routes, ends).connected(2, 4) and not network.connected(0, 2)
    assert twin.connected(0, 4)  # a copy goes its own way


def test_R_BON_1_a_loop_with_a_tail_counts_whole():
    # triangle 0-1-2 (lengths 1, 2, 3) with a tail 2-3 of length 4: one trail uses all four routes
    assert longest_trail([(0, 1, 1), (1, 2, 2), (2, 0, 3), (2, 3, 4)]) == 10


def test_R_BON_1_disconnected_pieces_never_add_up():
    assert longest_trail([(0, 1, 5), (2, 3, 6)]) == 6


def test_R_BON_1_a_figure_eight_is_one_trail():
    # two triangles sharing vertex 0: every vertex has even degree, the circuit uses all edges
    assert longest_trail([(0, 1, 1), (1, 2, 1), (2, 0, 1), (0, 3, 2), (3, 4, 2), (4, 0, 2)]) == 9


def test_a_trail_uses_two_of_the_leaves_at_a_city():
    assert longest_trail([(0, 1, 3), (0, 2, 5), (0, 3, 4), (0, 4, 1)]) == 9


def test_a_triangle_hanging_off_a_city_is_walked_round():
    # K4 on 0-3 (lengths 1..6) with a triangle 4-5-6 hanging off 3 by a route of length 2
    k4 = [(0, 1, 1), (0, 2, 2), (0, 3, 3), (1, 2, 4), (1, 3, 5), (2, 3, 6)]
    edges = k4 + [(3, 4, 2), (4, 5, 1), (5, 6, 1), (6, 4, 1)]
    assert longest_trail(edges) == brute_force(edges) == 25  # all but route 0-1


def test_R_BON_1_the_longest_path_of_a_tree_bends_at_one_city():
    # a spider: legs 0-1-2 (3+4), 0-3 (6), 0-4-5 (1+1): the two longest legs, 7 and 6
    assert longest_trail([(0, 1, 3), (1, 2, 4), (0, 3, 6), (0, 4, 1), (4, 5, 1)]) == 13


def test_R_BON_1_a_lighter_piece_is_not_the_trail():
    # a tree of 12 beside a single route of 13: the route, wherever the pieces come in the list
    tree = [(0, 1, 4), (0, 2, 4), (0, 3, 4), (3, 4, 4)]
    assert longest_trail(tree + [(7, 8, 13)]) == longest_trail([(7, 8, 13)] + tree) == 13
    assert longest_trail(tree + [(7, 8, 11)]) == 12


def test_disjoint_sets_join_and_separate():
    sets = DisjointSets(4)
    sets.union(0, 1)
    sets.union(2, 3)
    assert sets.connected(0, 1) and sets.connected(2, 3) and not sets.connected(1, 2)
