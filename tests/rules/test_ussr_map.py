"""The ``ussr`` map (variants/maps/ussr.toml): this project's own board from real geography, made by
tools/make_ussr_map.py. It must pass the checks every map passes (R-SET-1, R-ROUTE-1, R-SCORE-1)
and keep the promises of its header: real cities, lengths from distances, even colours, tunnels
through mountains, real ferries, ticket points equal to the shortest path in cars."""

from __future__ import annotations

import importlib.util
import math
from collections import Counter

import networkx as nx
import pytest
from usa_kit import ROOT

from ttr_core.board import load_map
from ttr_core.cards import COLORS

MAP = ROOT / "variants" / "maps" / "ussr.toml"

CAPITALS = {  # the fifteen republics
    "Moscow", "Kiev", "Minsk", "Vilnius", "Riga", "Tallinn", "Kishinev", "Tbilisi", "Yerevan", "Baku",
    "Ashkhabad", "Tashkent", "Dushanbe", "Frunze", "Alma Ata",
}


@pytest.fixture(scope="module")
def board():
    return load_map(MAP)


@pytest.fixture(scope="module")
def maker():
    spec = importlib.util.spec_from_file_location("make_ussr_map", ROOT / "tools" / "make_ussr_map.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_file_is_what_the_script_makes(maker):
    """The map is generated, not hand-edited: re-running the script gives the same bytes."""
    assert MAP.read_text(encoding="utf-8") == maker.render()


def test_the_header_says_the_board_is_our_own(board):
    head = MAP.read_text(encoding="utf-8").split("id =")[0]
    assert "NOT the published board" in head and "real geography" in head
    assert "make_ussr_map.py" in board.source


def test_cities_are_real_ussr_cities_from_kaliningrad_and_murmansk_to_vladivostok(board):
    names = {c.name for c in board.cities}
    assert 40 <= len(names) <= 50
    assert CAPITALS <= names
    assert {"Kaliningrad", "Murmansk", "Vladivostok", "Leningrad", "Novosibirsk"} <= names
    for c in board.cities:
        assert c.name.isascii() and "-" not in c.name and "/" not in c.name, c.name
        # inside the USSR's bounding box
        assert 35 <= c.lat <= 70 and 19 <= c.lon <= 143, c
    west = min(board.cities, key=lambda c: c.lon)
    east = max(board.cities, key=lambda c: c.lon)
    north = max(board.cities, key=lambda c: c.lat)
    assert (west.name, north.name) == ("Kaliningrad", "Murmansk")
    assert east.name in {"Vladivostok", "Kholmsk", "Vanino"}


def _km(a, b) -> float:
    # haversine, written independently of the script's spherical law of cosines
    p1, p2 = math.radians(a.lat), math.radians(b.lat)
    dp, dl = p2 - p1, math.radians(b.lon - a.lon)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def test_r_route_1_lengths_follow_the_real_distances(board, maker):
    """Lengths 1..7, every one present, each the band of the great-circle distance; longer
    distances never give shorter routes."""
    cities = {c.name: c for c in board.cities}
    lengths = Counter(r.length for r in board.routes)
    assert set(lengths) == set(range(1, 8))
    by_distance = []
    for r in board.routes:
        km = _km(cities[r.a], cities[r.b])
        expected = 1 + sum(1 for bound in maker.LENGTH_BANDS if km >= bound)
        assert r.length == expected, (r.id, round(km))
        by_distance.append((km, r.length))
    by_distance.sort()
    assert [n for _, n in by_distance] == sorted(n for _, n in by_distance)


def test_colours_are_balanced_across_the_eight_colours_plus_gray(board):
    count = Counter(r.color for r in board.routes)
    spaces = Counter()
    for r in board.routes:
        spaces[r.color] += r.length
    assert set(count) == set(COLORS) | {"gray"}
    assert max(count[c] for c in COLORS) - min(count[c] for c in COLORS) <= 1
    assert max(spaces[c] for c in COLORS) - min(spaces[c] for c in COLORS) <= 2
    assert 0.15 <= count["gray"] / len(board.routes) <= 0.4


def test_r_par_doubles_on_the_busiest_lines_have_two_colours(board):
    doubles = [r for r in board.routes if r.parallel]
    pairs = {frozenset((r.a, r.b)) for r in doubles}
    assert {frozenset(("Leningrad", "Moscow")), frozenset(("Omsk", "Novosibirsk"))} <= pairs
    assert 5 <= len(pairs) <= 15
    for r in doubles:
        assert len(r.parallel) == 1
        other = board.routes[r.parallel[0]]
        assert other.color != r.color and other.length == r.length


@pytest.mark.parametrize(
    "pair, range_",
    [
        (("Lvov", "Uzhgorod"), "Carpathians"),
        (("Sochi", "Tbilisi"), "Caucasus"),
        (("Tbilisi", "Yerevan"), "Caucasus"),
        (("Perm", "Sverdlovsk"), "Urals"),
        (("Ufa", "Chelyabinsk"), "Urals"),
        (("Samarkand", "Dushanbe"), "Central Asia"),
        (("Severobaikalsk", "Tynda"), "BAM"),
    ],
)
def test_r_tun_tunnels_where_lines_cross_mountains(board, pair, range_):
    (route,) = [r for r in board.routes if {r.a, r.b} == set(pair)]
    assert route.tunnel, f"{route.id} crosses the {range_}"


def test_r_tun_plain_lines_are_not_tunnels(board):
    tunnels = [r for r in board.routes if r.tunnel]
    assert 8 <= len(tunnels) <= 20
    for pair in (("Leningrad", "Moscow"), ("Omsk", "Novosibirsk"), ("Kiev", "Odessa")):
        assert not any(r.tunnel for r in board.routes if {r.a, r.b} == set(pair))


@pytest.mark.parametrize("pair", [("Baku", "Krasnovodsk"), ("Vanino", "Kholmsk"), ("Simferopol", "Krasnodar")])
def test_r_fer_1_ferries_where_real_train_ferries_ran(board, pair):
    (route,) = [r for r in board.routes if {r.a, r.b} == set(pair)]
    assert 1 <= route.ferry <= route.length
    assert not route.tunnel


def test_only_the_ferries_have_locomotive_marks(board):
    assert {frozenset((r.a, r.b)) for r in board.routes if r.ferry} == {
        frozenset(p) for p in (("Baku", "Krasnovodsk"), ("Vanino", "Kholmsk"), ("Simferopol", "Krasnodar"))
    }


def test_r_set_4_enough_long_and_short_tickets_for_five_players(board):
    """6+ long and 30+ short tickets; 5 players are each dealt 2 long and 2 short (R-SET-4)."""
    kinds = Counter(t.kind for t in board.tickets)
    assert kinds["long"] >= max(6, 5 * 2)
    assert kinds["short"] >= max(30, 5 * 2)
    assert len({frozenset((t.a, t.b)) for t in board.tickets}) == len(board.tickets)


def test_ticket_points_are_the_shortest_path_in_cars(board):
    g = nx.Graph()
    for r in board.routes:
        g.add_edge(r.a, r.b, cars=min(r.length, g.get_edge_data(r.a, r.b, {"cars": 99})["cars"]))
    for t in board.tickets:
        assert t.points == nx.shortest_path_length(g, t.a, t.b, weight="cars"), t.id
    longs = [t.points for t in board.tickets if t.kind == "long"]
    shorts = [t.points for t in board.tickets if t.kind == "short"]
    assert min(longs) >= 20 and max(longs) <= board.trains  # achievable with one player's trains
    assert max(shorts) < min(longs)


def test_the_map_has_room_for_five_players(board):
    """More spaces than 5 players' trains, so the final round, not a full board, ends most games."""
    assert sum(r.length for r in board.routes) > 5 * board.trains


def test_map_players_and_trains(board):
    """R-SET-1 [engine decision]: 2-5 players; R-SET-5: 45 trains each."""
    assert (board.players.min, board.players.max) == (2, 5)
    assert board.trains == 45


def test_the_drawn_board_keeps_the_geography_and_gives_the_west_room(board):
    """The page draws the map's own board coordinates: the cities keep their places relative to
    each other (west of, north of) but the crowded west, a tenth of the real longitudes from
    Kaliningrad to Moscow, gets a fifth of the board's width or more, and no two cities crowd."""
    assert all(c.x is not None and c.y is not None for c in board.cities)
    for a in board.cities:
        for b in board.cities:
            if b.lon - a.lon > 1:
                assert a.x < b.x, (a.name, "west of", b.name)
            if a.lat - b.lat > 1:
                assert a.y < b.y, (a.name, "north of", b.name)  # y runs south
    cities = {c.name: c for c in board.cities}
    west, moscow, east = cities["Kaliningrad"], cities["Moscow"], max(board.cities, key=lambda c: c.x)
    real = (moscow.lon - west.lon) / (east.lon - west.lon)
    drawn = (moscow.x - west.x) / (east.x - west.x)
    assert real < 0.15 and drawn > 0.2
    width = max(c.x for c in board.cities) - min(c.x for c in board.cities)
    closest = min(math.dist((a.x, a.y), (b.x, b.y)) for a in board.cities for b in board.cities if a is not b)
    assert closest > 0.035 * width
