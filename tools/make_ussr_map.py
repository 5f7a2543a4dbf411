"""Make the ``ussr`` map (variants/maps/ussr.toml) from real geography.

No data of the published "By Train across the USSR" board was available to this project, so this
board is our own: real cities of the USSR (the capitals of the fifteen republics and the big rail
hubs, from Kaliningrad and Murmansk to Vladivostok and Sakhalin) joined where a real railway (or a
real train ferry) ran between them with no other city of this map in between. Everything that is
a choice is made here, in code, so that the file can be re-made and reviewed:

* **lengths** come from the great-circle distance between the two cities, by the bands of
  :data:`LENGTH_BANDS`. The bands widen with distance, so the thin far east is not three times
  wider than a player's 45 trains, while the dense west keeps its short hops;
* **colours** are dealt by :func:`assign_colors`, which keeps the 8 colours level (in routes and
  in spaces) and, where it can, avoids two routes of one colour at the same city;
* **tunnels** mark lines through mountains (Carpathians, Caucasus, Urals, the Pamir-Alay edge,
  the Baikal shore and the BAM ranges), **ferries** the real train ferries (Caspian, Kerch strait,
  Tatar strait), their marks being the spaces at sea;
* **tickets** are pairs chosen by hand; their points are the shortest path in cars on this map,
  computed with networkx (:func:`ticket_points`);
* **where the cities are drawn** (each city's ``x``, ``y``: board coordinates, which the page
  draws instead of projecting ``lat``, ``lon``) is a deliberate distortion of the real map, as a
  published board is: projected, the Baltic, Byelorussia and Moscow crowd into a tenth of the
  board while Siberia is empty, so the names overlap and routes are too close to click. Each axis
  is stretched where cities crowd along it, then cities still too close for their names push each
  other apart (:func:`board_positions`); two cities more than a degree apart keep their order
  from west to east and from north to south, so the geography stays recognisable. Only drawing
  reads these: lengths, tickets and every game are the same whatever they are.

Run from the repository root: ``python tools/make_ussr_map.py`` writes the map; ``--check``
only says whether the committed file is what this script makes (re-running gives the same bytes).
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import networkx as nx

COLORS = ("purple", "blue", "orange", "white", "green", "yellow", "black", "red")
GRAY = "gray"
OUT = Path(__file__).resolve().parents[1] / "variants" / "maps" / "ussr.toml"

# Names as they were in the late USSR (Leningrad, Gorky, Kuibyshev, Sverdlovsk, Frunze...), in ASCII
# and without '-' or '/', which the engine uses in route and ticket ids ("Alma Ata", not "Alma-Ata").
# Latitude and longitude of the real city, to 2 decimals.
CITIES: dict[str, tuple[float, float]] = {
    # the Baltic republics, Byelorussia and the north-west
    "Kaliningrad": (54.71, 20.51),
    "Vilnius": (54.69, 25.28),
    "Riga": (56.95, 24.11),
    "Tallinn": (59.44, 24.75),
    "Minsk": (53.90, 27.57),
    "Leningrad": (59.94, 30.31),
    "Murmansk": (68.97, 33.08),
    "Arkhangelsk": (64.54, 40.54),
    # Ukraine and Moldavia
    "Lvov": (49.84, 24.03),
    "Uzhgorod": (48.62, 22.30),
    "Kiev": (50.45, 30.52),
    "Kishinev": (47.01, 28.86),
    "Odessa": (46.48, 30.72),
    "Kharkov": (49.99, 36.23),
    "Simferopol": (44.95, 34.10),
    # central and southern Russia, the Volga
    "Moscow": (55.76, 37.62),
    "Gorky": (56.33, 44.00),
    "Voronezh": (51.67, 39.18),
    "Rostov": (47.24, 39.71),
    "Volgograd": (48.71, 44.51),
    "Krasnodar": (45.04, 38.98),
    "Sochi": (43.60, 39.73),
    "Kazan": (55.79, 49.12),
    "Kuibyshev": (53.20, 50.15),
    # Transcaucasia
    "Tbilisi": (41.72, 44.78),
    "Yerevan": (40.18, 44.51),
    "Baku": (40.41, 49.87),
    # the Urals
    "Perm": (58.01, 56.25),
    "Sverdlovsk": (56.84, 60.61),
    "Ufa": (54.74, 55.97),
    "Chelyabinsk": (55.16, 61.40),
    # Kazakhstan and Central Asia
    "Aktyubinsk": (50.28, 57.21),
    "Krasnovodsk": (40.02, 52.97),
    "Ashkhabad": (37.95, 58.38),
    "Samarkand": (39.65, 66.96),
    "Dushanbe": (38.56, 68.77),
    "Tashkent": (41.30, 69.24),
    "Frunze": (42.87, 74.59),
    "Alma Ata": (43.24, 76.89),
    # Siberia and the far east
    "Omsk": (54.99, 73.37),
    "Novosibirsk": (55.03, 82.92),
    "Krasnoyarsk": (56.01, 92.89),
    "Irkutsk": (52.29, 104.28),
    "Chita": (52.03, 113.50),
    "Severobaikalsk": (55.64, 109.31),
    "Tynda": (55.15, 124.72),
    "Khabarovsk": (48.48, 135.08),
    "Vladivostok": (43.12, 131.89),
    "Vanino": (49.09, 140.25),
    "Kholmsk": (47.05, 142.04),
}

#: The drawn board, in board units (the page scales it to the screen): a shape near the page's
#: board area, wider than tall, as the USSR is.
BOARD_SIZE = (1000.0, 780.0)
#: The share of each axis laid out by where the cities are, the rest by the real coordinate.
CROWDING = 0.65
#: How far along each axis (projected degrees) a city's claim to room reaches: x, then y.
REACH = (1.5, 1.2)
#: Board units two cities keep between them, side by side and one above the other: a name is
#: wider than it is tall. Then the rounds of pushing apart, and how hard each city is pulled back
#: to its stretched place in each.
ROOM_FOR_A_NAME = (80.0, 40.0)
SPACING_ROUNDS = 200
SPRING = 0.05

#: Great-circle kilometres below which a route has 1, 2, ... 6 spaces; 7 beyond the last band.
LENGTH_BANDS = (230, 420, 650, 900, 1150, 1400)


class Line(NamedTuple):
    """A railway (or train ferry) between two neighbouring cities of the map."""

    a: str
    b: str
    double: bool = False  # two parallel routes: the busiest lines (R-PAR)
    tunnel: bool = False  # through mountains (R-TUN)
    sea: int = 0  # ferry: spaces at sea, each a locomotive mark (R-FER-1); -1: every space
    gray: bool = False  # any one colour pays it


D, T, G = {"double": True}, {"tunnel": True}, {"gray": True}

LINES: tuple[Line, ...] = (
    # the Baltic and the north-west
    Line("Kaliningrad", "Vilnius", **G),  # via Kaunas
    Line("Kaliningrad", "Riga"),  # via Sovetsk and Siauliai
    Line("Vilnius", "Riga"),  # via Daugavpils
    Line("Vilnius", "Minsk", **G),
    Line("Minsk", "Riga", **G),  # via Polotsk
    Line("Riga", "Tallinn"),  # via Valga
    Line("Tallinn", "Leningrad"),  # via Narva
    Line("Riga", "Leningrad", **G),  # via Pskov
    Line("Vilnius", "Leningrad"),  # the Warsaw railway, via Daugavpils and Pskov
    Line("Riga", "Moscow"),  # via Rezekne and Velikiye Luki
    Line("Leningrad", "Moscow", **D),  # the October railway
    Line("Leningrad", "Murmansk"),  # the Kirov railway
    Line("Murmansk", "Arkhangelsk", **G),  # via Belomorsk and Obozersky
    Line("Arkhangelsk", "Moscow"),  # via Vologda and Yaroslavl
    # Byelorussia, Ukraine, Moldavia
    Line("Minsk", "Moscow", **D),  # via Smolensk
    Line("Minsk", "Kiev"),  # via Gomel
    Line("Minsk", "Lvov"),  # via Baranovichi and Rovno
    Line("Lvov", "Uzhgorod", **T),  # over the Carpathians (Beskid tunnel)
    Line("Lvov", "Kiev"),
    Line("Lvov", "Kishinev"),  # via Chernovtsy
    Line("Kiev", "Moscow", **D),  # via Bryansk
    Line("Kiev", "Kharkov"),  # via Poltava
    Line("Kiev", "Odessa"),
    Line("Kiev", "Kishinev", **G),  # via Zhmerinka
    Line("Kishinev", "Odessa", **G),
    Line("Odessa", "Simferopol"),  # via Nikolayev, Kherson and Dzhankoi
    Line("Kharkov", "Simferopol"),  # via Zaporozhye
    Line("Kharkov", "Odessa"),  # via Dnepropetrovsk and Nikolayev
    Line("Kharkov", "Moscow", **D),  # via Kursk and Orel
    Line("Kharkov", "Rostov", **D),  # through the Donbass
    Line("Kharkov", "Voronezh", **G),  # via Valuyki
    Line("Simferopol", "Krasnodar", sea=1, gray=True),  # the Kerch train ferry (1954)
    # central Russia, the Volga, the south
    Line("Moscow", "Voronezh"),
    Line("Moscow", "Gorky", **D),
    Line("Moscow", "Kazan"),  # via Ryazan and Ruzayevka
    Line("Moscow", "Kuibyshev"),  # via Penza and Syzran
    Line("Moscow", "Volgograd"),  # via Michurinsk and Povorino
    Line("Gorky", "Kazan", **G),
    Line("Gorky", "Perm"),  # the northern Trans-Siberian, via Kirov
    Line("Kazan", "Kuibyshev", **G),  # via Ulyanovsk
    Line("Kazan", "Sverdlovsk"),  # via Agryz
    Line("Kuibyshev", "Ufa", **G),
    Line("Kuibyshev", "Volgograd"),  # along the Volga, via Saratov
    Line("Kuibyshev", "Aktyubinsk", **G),  # via Orenburg
    Line("Voronezh", "Volgograd"),  # via Povorino
    Line("Voronezh", "Rostov"),  # via Likhaya
    Line("Rostov", "Volgograd", **G),
    Line("Rostov", "Krasnodar", **D),
    Line("Krasnodar", "Sochi", tunnel=True, gray=True),  # over the western Caucasus, via Tuapse
    # Transcaucasia and the Caspian
    Line("Sochi", "Tbilisi", **T),  # along the Black Sea, then the Surami pass
    Line("Rostov", "Baku"),  # via Grozny and Makhachkala
    Line("Volgograd", "Baku"),  # via Astrakhan and Makhachkala
    Line("Tbilisi", "Baku"),  # down the Kura valley
    Line("Tbilisi", "Yerevan", tunnel=True, gray=True),  # over the Lesser Caucasus
    Line("Yerevan", "Baku", **T),  # via Nakhichevan, along the Araks gorge
    Line("Baku", "Krasnovodsk", sea=-1, gray=True),  # the Caspian train ferry (1962)
    # the Urals
    Line("Perm", "Sverdlovsk", **T),  # over the Middle Urals
    Line("Ufa", "Chelyabinsk", **T),  # over the Southern Urals, via Zlatoust
    Line("Sverdlovsk", "Chelyabinsk", **D),
    Line("Sverdlovsk", "Omsk", **D),  # the Trans-Siberian, via Tyumen
    Line("Chelyabinsk", "Omsk"),  # via Kurgan and Petropavlovsk
    Line("Chelyabinsk", "Aktyubinsk", **G),  # via Kartaly and Orsk
    # Central Asia
    Line("Aktyubinsk", "Tashkent"),  # the Orenburg-Tashkent railway, via Kzyl Orda
    Line("Krasnovodsk", "Ashkhabad"),  # the Trans-Caspian railway
    Line("Ashkhabad", "Samarkand"),  # via Mary, Chardzhou and Bukhara
    Line("Samarkand", "Tashkent", **G),
    Line("Samarkand", "Dushanbe", **T),  # through the Pamir-Alay foothills, via Termez
    Line("Tashkent", "Frunze"),  # via Chimkent and Dzhambul
    Line("Frunze", "Alma Ata", **G),
    Line("Alma Ata", "Novosibirsk"),  # the Turksib, via Semipalatinsk and Barnaul
    # Siberia and the far east
    Line("Omsk", "Novosibirsk", **D),
    Line("Novosibirsk", "Krasnoyarsk", **D),
    Line("Krasnoyarsk", "Irkutsk", **D),  # the Trans-Siberian, via Tayshet
    Line("Irkutsk", "Chita", **T),  # round the south of Lake Baikal
    Line("Krasnoyarsk", "Severobaikalsk", **T),  # the BAM from Tayshet, through the Baikal tunnel
    Line("Severobaikalsk", "Tynda", **T),  # the BAM, through the Severomuysky ridge
    Line("Tynda", "Chita", **G),  # the Little BAM to Skovorodino, then the Trans-Siberian
    Line("Tynda", "Vanino", **T),  # the BAM, over the Bureya range and the Sikhote-Alin
    Line("Chita", "Khabarovsk"),  # the Amur railway
    Line("Khabarovsk", "Vanino", tunnel=True, gray=True),  # via Komsomolsk, the Kuznetsovsky tunnel
    Line("Khabarovsk", "Vladivostok", **D),  # the Ussuri railway
    Line("Vanino", "Kholmsk", sea=-1, gray=True),  # the Sakhalin train ferry (1973)
)

#: Long tickets (kind = "long"): across the Union.
LONG_TICKETS = (
    ("Murmansk", "Yerevan"),
    ("Minsk", "Alma Ata"),
    ("Moscow", "Irkutsk"),
    ("Tallinn", "Ashkhabad"),
    ("Lvov", "Frunze"),
    ("Arkhangelsk", "Dushanbe"),
    ("Novosibirsk", "Vladivostok"),
    ("Baku", "Krasnoyarsk"),
    ("Uzhgorod", "Omsk"),
    ("Kaliningrad", "Novosibirsk"),
    ("Sverdlovsk", "Khabarovsk"),
    ("Murmansk", "Tashkent"),
)

#: Short tickets: within a region, or to its neighbour.
SHORT_TICKETS = (
    ("Moscow", "Tbilisi"),
    ("Leningrad", "Kiev"),
    ("Riga", "Odessa"),
    ("Minsk", "Rostov"),
    ("Kiev", "Volgograd"),
    ("Kharkov", "Kazan"),
    ("Tallinn", "Minsk"),
    ("Kaliningrad", "Kiev"),
    ("Lvov", "Moscow"),
    ("Odessa", "Krasnodar"),
    ("Simferopol", "Tbilisi"),
    ("Rostov", "Yerevan"),
    ("Volgograd", "Tbilisi"),
    ("Baku", "Ashkhabad"),
    ("Tashkent", "Alma Ata"),
    ("Samarkand", "Frunze"),
    ("Dushanbe", "Alma Ata"),
    ("Aktyubinsk", "Samarkand"),
    ("Ufa", "Omsk"),
    ("Perm", "Novosibirsk"),
    ("Sverdlovsk", "Aktyubinsk"),
    ("Kazan", "Chelyabinsk"),
    ("Gorky", "Sverdlovsk"),
    ("Moscow", "Ufa"),
    ("Voronezh", "Kuibyshev"),
    ("Murmansk", "Moscow"),
    ("Arkhangelsk", "Leningrad"),
    ("Kishinev", "Kharkov"),
    ("Uzhgorod", "Minsk"),
    ("Uzhgorod", "Odessa"),
    ("Novosibirsk", "Irkutsk"),
    ("Krasnoyarsk", "Chita"),
    ("Irkutsk", "Tynda"),
    ("Chita", "Vladivostok"),
    ("Khabarovsk", "Kholmsk"),
    ("Tynda", "Vladivostok"),
    ("Omsk", "Krasnoyarsk"),
    ("Alma Ata", "Omsk"),
    ("Severobaikalsk", "Khabarovsk"),
    ("Krasnodar", "Baku"),
    ("Tbilisi", "Krasnovodsk"),
    ("Kiev", "Rostov"),
    ("Vilnius", "Kharkov"),
    ("Leningrad", "Gorky"),
)


# --- computing the board --------------------------------------------------------------------


def distance_km(a: str, b: str) -> float:
    """Great-circle distance between two cities (a sphere of radius 6371 km)."""
    (lat1, lon1), (lat2, lon2) = CITIES[a], CITIES[b]
    p1, p2, dl = math.radians(lat1), math.radians(lat2), math.radians(lon2 - lon1)
    cos = math.sin(p1) * math.sin(p2) + math.cos(p1) * math.cos(p2) * math.cos(dl)
    return 6371.0 * math.acos(max(-1.0, min(1.0, cos)))


def length_of(km: float) -> int:
    return 1 + sum(1 for bound in LENGTH_BANDS if km >= bound)


class Route(NamedTuple):
    a: str
    b: str
    length: int
    color: str
    tunnel: bool
    ferry: int


def routes() -> list[Route]:
    """Every route, a double line giving two, with its colour dealt by :func:`assign_colors`."""
    plain = []
    for line in LINES:
        length = length_of(distance_km(line.a, line.b))
        ferry = length if line.sea < 0 else line.sea
        for _ in range(2 if line.double else 1):
            plain.append(Route(line.a, line.b, length, GRAY if line.gray else "", line.tunnel, ferry))
    colors = assign_colors(plain)
    return [r._replace(color=c) for r, c in zip(plain, colors)]


def assign_colors(plain: list[Route]) -> list[str]:
    """Deal the 8 colours to the routes not marked gray.

    Longest routes first, each takes the colour that (1) has the fewest routes so far, then (2) the
    fewest spaces, then (3) is least used at the route's two cities; the two routes of a double
    always differ. Dealing long routes first and levelling counts before spaces keeps both even,
    as a longest-first schedule does; ties fall to the order of :data:`COLORS`, so the result is
    the same on every run.
    """
    colors = [r.color for r in plain]
    count: Counter = Counter()
    spaces: Counter = Counter()
    at_city: dict[str, Counter] = {}
    order = sorted((i for i, r in enumerate(plain) if r.color != GRAY), key=lambda i: (-plain[i].length, i))
    for i in order:
        r = plain[i]
        twins = {colors[j] for j, o in enumerate(plain) if j != i and {o.a, o.b} == {r.a, r.b}}
        here = at_city.setdefault(r.a, Counter()) + at_city.setdefault(r.b, Counter())
        best = min(
            (c for c in COLORS if c not in twins),
            key=lambda c: (count[c], spaces[c], here[c], COLORS.index(c)),
        )
        colors[i] = best
        count[best] += 1
        spaces[best] += r.length
        at_city[r.a][best] += 1
        at_city[r.b][best] += 1
    return colors


def graph(all_routes: list[Route]) -> nx.Graph:
    g = nx.Graph()
    for r in all_routes:
        if not g.has_edge(r.a, r.b) or g[r.a][r.b]["cars"] > r.length:
            g.add_edge(r.a, r.b, cars=r.length)
    return g


def ticket_points(g: nx.Graph, a: str, b: str) -> int:
    """A ticket is worth the cars of the shortest path between its cities."""
    return nx.shortest_path_length(g, a, b, weight="cars")


def board_positions() -> dict[str, tuple[float, float]]:
    """Where each city is drawn, in board units (x to the east, y to the south).

    Two steps. First the real positions, projected (equirectangular about the middle latitude),
    are stretched along each axis apart (:func:`_stretched`): where many cities lie close
    together on an axis, that stretch of the axis widens; empty stretches (Siberia, the Arctic)
    narrow, and every city keeps its order from west to east and from north to south. Then the
    cities still within each other's :data:`ROOM_FOR_A_NAME` push each other apart while each is
    pulled back to where the first step put it (:func:`_spaced`): Kaliningrad and Vilnius, at one
    latitude, or Frunze and Alma Ata, get room for their names between them; only cities less
    than a degree apart may change places on an axis there.
    """
    lats = [lat for lat, _ in CITIES.values()]
    mid = math.radians((min(lats) + max(lats)) / 2)
    xs = {name: lon * math.cos(mid) for name, (_, lon) in CITIES.items()}
    ys = {name: -lat for name, (lat, _) in CITIES.items()}
    (width, height), (reach_x, reach_y) = BOARD_SIZE, REACH
    along_x, along_y = _stretched(xs, reach_x), _stretched(ys, reach_y)
    spaced = _spaced({name: (width * along_x[name], height * along_y[name]) for name in CITIES})
    return _framed(spaced)


def _stretched(values: dict[str, float], reach: float) -> dict[str, float]:
    """Each value's place on its axis, from 0 to 1: a mix (:data:`CROWDING`) of its real
    coordinate and the share of the cities that lie before it, each city counted as a bell of
    width ``reach`` so that the stretch is smooth. Both parts rise along the axis."""
    lo, hi = min(values.values()), max(values.values())

    def share(v: float) -> float:
        return sum(1 + math.erf((v - u) / (reach * math.sqrt(2))) for u in values.values()) / (2 * len(values))

    first, last = share(lo), share(hi)
    return {
        name: (1 - CROWDING) * (v - lo) / (hi - lo) + CROWDING * (share(v) - first) / (last - first)
        for name, v in values.items()
    }


def _spaced(at: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Cities within each other's :data:`ROOM_FOR_A_NAME` pushed apart, each held by a spring to where it
    was: rounds in a fixed order, so the result is the same on every run."""
    room_x, room_y = ROOM_FOR_A_NAME
    home = dict(at)
    now = dict(at)
    names = list(now)
    for _ in range(SPACING_ROUNDS):
        moved = {n: [0.0, 0.0] for n in names}
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                (ax, ay), (bx, by) = now[a], now[b]
                d = math.hypot((bx - ax) / room_x, (by - ay) / room_y)  # 1 on the edge of the room
                if d >= 1 or d == 0:
                    continue
                push = (1 - d) / 4 / d
                moved[a][0] -= (bx - ax) * push
                moved[a][1] -= (by - ay) * push
                moved[b][0] += (bx - ax) * push
                moved[b][1] += (by - ay) * push
        for n in names:
            (x, y), (hx, hy) = now[n], home[n]
            now[n] = (x + moved[n][0] + (hx - x) * SPRING, y + moved[n][1] + (hy - y) * SPRING)
    return now


def _framed(at: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """The positions moved and scaled back into :data:`BOARD_SIZE`, to 0.1 of a unit."""
    (width, height) = BOARD_SIZE
    x0, x1 = min(x for x, _ in at.values()), max(x for x, _ in at.values())
    y0, y1 = min(y for _, y in at.values()), max(y for _, y in at.values())
    return {n: (round(width * (x - x0) / (x1 - x0), 1), round(height * (y - y0) / (y1 - y0), 1)) for n, (x, y) in at.items()}


# --- writing the file -----------------------------------------------------------------------


def _q(s: str) -> str:
    return '"' + s + '"'


def render() -> str:
    all_routes = routes()
    g = graph(all_routes)
    lengths = Counter(r.length for r in all_routes)
    out = [
        "# By Train across the USSR: made by tools/make_ussr_map.py; do not edit by hand.",
        "# This is NOT the published board (no data of it was available): it is a board made for this",
        "# project from real geography. Cities are real cities of the USSR (late-Soviet names) at their",
        "# real positions (lat, lon); a route joins two cities where a real railway or train ferry ran",
        f"# between them; its length comes from the great-circle distance (bands {', '.join(map(str, LENGTH_BANDS))}",
        "# km give 1..7 spaces); tunnels cross mountains, ferries are the real train ferries (Caspian,",
        "# Kerch, Tatar strait); colours are dealt evenly by the script; ticket points are the shortest",
        "# path in cars on this board (networkx). The page draws each city at x, y: the real map",
        "# distorted to give the crowded west room, keeping the order of cities west to east and north",
        "# to south (for cities more than a degree apart).",
        "# See the script's docstring for every choice.",
        f"# {len(CITIES)} cities, {len(all_routes)} routes ({sum(1 for l in LINES if l.double)} doubles), "
        f"{sum(r.length for r in all_routes)} spaces; lengths "
        + ", ".join(f"{n}:{lengths[n]}" for n in sorted(lengths)) + ".",
        'id = "ussr"',
        'title = "USSR"',
        "trains = 45",
        "players = { min = 2, max = 5 }",
        'source = "tools/make_ussr_map.py (real geography; not the published board)"',
        "",
        "cities = [",
    ]
    drawn = board_positions()
    for name, (lat, lon) in CITIES.items():
        x, y = drawn[name]
        out.append(f"  {{ name = {_q(name)}, lat = {lat}, lon = {lon}, x = {x}, y = {y} }},")
    out += ["]", "", "routes = ["]
    for r in all_routes:
        extra = (", tunnel = true" if r.tunnel else "") + (f", ferry = {r.ferry}" if r.ferry else "")
        out.append(f"  {{ from = {_q(r.a)}, to = {_q(r.b)}, length = {r.length}, color = {_q(r.color)}{extra} }},")
    out += ["]", "", "tickets = ["]
    for kind, pairs in (("long", LONG_TICKETS), ("short", SHORT_TICKETS)):
        for a, b in pairs:
            mark = ', kind = "long"' if kind == "long" else ""
            out.append(f"  {{ from = {_q(a)}, to = {_q(b)}, points = {ticket_points(g, a, b)}{mark} }},")
    out += ["]", ""]
    return "\n".join(out)


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        same = OUT.is_file() and OUT.read_text(encoding="utf-8") == text
        print(f"{OUT}: {'up to date' if same else 'differs from what tools/make_ussr_map.py makes'}")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
