"""The board: cities, routes and tickets of one map, read from a map file and checked.

A map file is TOML (see ``variants/maps/usa.toml``). The board is plain data; what the data means
for play (points, payments, parallel routes) is decided by plugins. Routes and tickets are
numbered in file order; those numbers are what the game state stores.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path

import attrs

from ttr_core.cards import ROUTE_COLORS
from ttr_core.errors import VariantError
from ttr_core.files import read_toml, register_renames, structure
from ttr_core.network import DisjointSets

# --- the file, as written ---------------------------------------------------------------------


@attrs.frozen
class CityEntry:
    name: str
    lat: float
    lon: float
    #: Where the city is drawn, in board units (x to the east, y to the south), when the map's
    #: board is not a projection of its coordinates (a drawn board gives crowded regions room).
    #: Every city has them or none; nothing but drawing reads them.
    x: float | None = None
    y: float | None = None


@attrs.frozen
class RouteEntry:
    a: str
    b: str
    length: int
    color: str
    tunnel: bool = False
    ferry: int = 0


@attrs.frozen
class TicketEntry:
    a: str
    b: str
    points: int
    kind: str = "short"


@attrs.frozen
class PlayerRange:
    min: int = 2
    max: int = 6


@attrs.frozen
class MapFile:
    id: str
    title: str
    trains: int
    cities: list[CityEntry]
    routes: list[RouteEntry]
    tickets: list[TicketEntry]
    players: PlayerRange = PlayerRange()
    source: str = ""


register_renames(RouteEntry, a="from", b="to")
register_renames(TicketEntry, a="from", b="to")

# --- the board, as the engine uses it --------------------------------------------------------


@attrs.frozen
class City:
    index: int
    name: str
    lat: float
    lon: float
    x: float | None = None  # board units, see CityEntry
    y: float | None = None


@attrs.frozen
class Route:
    index: int
    id: str  # "Denver-Omaha", or "Denver-Kansas City/black" for one of a double
    a: str
    b: str
    ai: int
    bi: int
    length: int
    color: str  # one of cards.COLORS, or "gray"
    tunnel: bool
    ferry: int  # locomotive marks (R-FER-1)
    parallel: tuple[int, ...]  # the other routes joining the same two cities (R-PAR)


@attrs.frozen
class Ticket:
    index: int
    id: str
    a: str
    b: str
    ai: int
    bi: int
    points: int
    kind: str  # "short" or "long"


@attrs.frozen
class Board:
    id: str
    title: str
    trains: int
    players: PlayerRange
    cities: tuple[City, ...]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    source: str = ""
    city_index: Mapping[str, int] = attrs.field(factory=dict, eq=False, repr=False)
    route_index: Mapping[str, int] = attrs.field(factory=dict, eq=False, repr=False)
    ticket_index: Mapping[str, int] = attrs.field(factory=dict, eq=False, repr=False)

    def find_route(self, text: str, exclude: frozenset[int] = frozenset()) -> Route:
        """A route by its id, or by its two cities in either order (``Seattle-Portland/1`` is
        ``Portland-Seattle/1``): one of a double is named by its colour or number (``/black``,
        ``/1``), and a bare ``A-B`` takes the first route of the pair not in ``exclude`` (the
        first of all when every one is: the caller says why it cannot have it). A route named
        exactly is returned whether ``exclude`` holds it or not.

        KeyError when no route fits, saying what the map has: the names of a double misnamed
        (``Denver-Kansas City/blue``: its routes are ``/black`` and ``/orange``), or that two
        cities are not joined."""
        if text in self.route_index:
            return self.routes[self.route_index[text]]
        name, slash, which = text.partition("/")
        for a, b in _city_splits(name, self.city_index):
            group = [r for r in self.routes if {r.a, r.b} == {a, b}]
            if not group:
                raise KeyError(f"no route {text!r} on map {self.id!r}: no route joins {a} and {b}")
            if slash:
                named = [r for r in group if r.id.partition("/")[2] == which]
                if named:
                    return named[0]
                if len(group) == 1:
                    raise KeyError(
                        f"no route {text!r} on map {self.id!r}: {a} and {b} are joined by one route, {group[0].id}"
                    )
                raise KeyError(
                    f"no route {text!r} on map {self.id!r}: the routes between {a} and {b} are "
                    + ", ".join(r.id for r in group)
                )
            free = [r for r in group if r.index not in exclude]
            return (free or group)[0]
        raise KeyError(f"no route {text!r} on map {self.id!r}")

    def find_ticket(self, text: str) -> Ticket:
        if text in self.ticket_index:
            return self.tickets[self.ticket_index[text]]
        for a, b in _city_splits(text, self.city_index):
            for t in self.tickets:
                if {t.a, t.b} == {a, b}:
                    return t
        raise KeyError(f"no ticket {text!r} on map {self.id!r}")


def _city_splits(text: str, cities: Mapping[str, int]):
    for i, ch in enumerate(text):
        if ch == "-" and text[:i] in cities and text[i + 1 :] in cities:
            yield text[:i], text[i + 1 :]


def load_map(path: Path) -> Board:
    return build_board(structure(read_toml(path), MapFile, str(path)), str(path))


def build_board(mf: MapFile, where: str) -> Board:
    problems = _check(mf, where)
    if problems:
        raise VariantError(problems)
    cities = tuple(City(i, c.name, c.lat, c.lon, c.x, c.y) for i, c in enumerate(mf.cities))
    city_index = {c.name: c.index for c in cities}
    ids = _route_ids(mf.routes)
    pairs: dict[frozenset[str], list[int]] = defaultdict(list)
    for i, r in enumerate(mf.routes):
        pairs[frozenset((r.a, r.b))].append(i)
    routes = tuple(
        Route(
            i, ids[i], r.a, r.b, city_index[r.a], city_index[r.b], r.length, r.color, r.tunnel, r.ferry,
            tuple(j for j in pairs[frozenset((r.a, r.b))] if j != i),
        )
        for i, r in enumerate(mf.routes)
    )
    tickets = tuple(
        Ticket(i, f"{t.a}-{t.b}", t.a, t.b, city_index[t.a], city_index[t.b], t.points, t.kind)
        for i, t in enumerate(mf.tickets)
    )
    return Board(
        mf.id, mf.title, mf.trains, mf.players, cities, routes, tickets, mf.source,
        city_index, {r.id: r.index for r in routes}, {t.id: t.index for t in tickets},
    )


def _route_ids(routes: list[RouteEntry]) -> list[str]:
    groups: dict[frozenset[str], list[int]] = defaultdict(list)
    for i, r in enumerate(routes):
        groups[frozenset((r.a, r.b))].append(i)
    ids = [f"{r.a}-{r.b}" for r in routes]
    for members in groups.values():
        if len(members) == 1:
            continue
        colors = [routes[i].color for i in members]
        distinct = len(set(colors)) == len(colors)
        for k, i in enumerate(members, 1):
            ids[i] += f"/{routes[i].color}" if distinct else f"/{k}"
    return ids


def _ends_problems(at: str, what: str, a: str, b: str, cities) -> list[str]:
    """What is wrong with the two cities a route or a ticket joins."""
    problems = [f"{at}: unknown city {end!r}" for end in (a, b) if end not in cities]
    if a == b:
        problems.append(f"{at}: a {what} must join two different cities, not {a!r} to itself")
    return problems


def _route_problems(at: str, r: RouteEntry, cities) -> list[str]:
    p = _ends_problems(at, "route", r.a, r.b, cities)
    if r.length < 1:
        p.append(f"{at}.length: must be at least 1, got {r.length}")
    if r.color not in ROUTE_COLORS:
        p.append(f"{at}.color: unknown colour {r.color!r} (one of {', '.join(sorted(ROUTE_COLORS))})")
    if not 0 <= r.ferry <= max(r.length, 0):  # a bad length is reported once, above
        p.append(f"{at}.ferry: locomotive marks must be between 0 and the length {r.length}, got {r.ferry}")
    return p


def _ticket_problems(at: str, t: TicketEntry, cities) -> list[str]:
    p = _ends_problems(at, "ticket", t.a, t.b, cities)
    if t.points < 1:
        p.append(f"{at}.points: must be at least 1, got {t.points}")
    if t.kind not in ("short", "long"):
        p.append(f"{at}.kind: must be 'short' or 'long', got {t.kind!r}")
    return p


def _check(mf: MapFile, where: str) -> list[str]:
    p: list[str] = []
    names = [c.name for c in mf.cities]
    seen: set[str] = set()
    for i, n in enumerate(names):
        if n in seen:
            p.append(f"{where}: $.cities[{i}].name: duplicate city {n!r}")
        if not n.strip() or "-" in n or "/" in n:
            p.append(f"{where}: $.cities[{i}].name: {n!r} is not a usable city name (empty, or has '-' or '/')")
        seen.add(n)
    for i, c in enumerate(mf.cities):
        for key, value, limit in (("lat", c.lat, 90), ("lon", c.lon, 180)):
            if not -limit <= value <= limit:
                p.append(f"{where}: $.cities[{i}].{key}: must be between -{limit} and {limit} degrees, got {value}")
    drawn = [c.x is not None and c.y is not None for c in mf.cities]
    for i, c in enumerate(mf.cities):
        if (c.x is None) != (c.y is None) or (any(drawn) and not drawn[i]):
            p.append(f"{where}: $.cities[{i}]: board coordinates (x and y) are given for every city or for none")
    if mf.trains < 1:
        p.append(f"{where}: $.trains: must be at least 1, got {mf.trains}")
    if not 2 <= mf.players.min <= mf.players.max:
        p.append(f"{where}: $.players: need 2 <= min <= max, got {mf.players.min}..{mf.players.max}")
    if not mf.routes:
        p.append(f"{where}: $.routes: the map has no routes")
    for i, r in enumerate(mf.routes):
        p += _route_problems(f"{where}: $.routes[{i}]", r, seen)
    if not mf.tickets:
        p.append(f"{where}: $.tickets: the map has no tickets")
    for i, t in enumerate(mf.tickets):
        p += _ticket_problems(f"{where}: $.tickets[{i}]", t, seen)
    if not p:
        p += _check_connected(mf, where)
    return p


def _check_connected(mf: MapFile, where: str) -> list[str]:
    index = {c.name: i for i, c in enumerate(mf.cities)}
    sets = DisjointSets(len(index))
    for r in mf.routes:
        sets.union(index[r.a], index[r.b])
    roots = {sets.find(i) for i in range(len(index))}
    if len(roots) == 1:
        return []
    main = sets.find(index[mf.routes[0].a])
    cut = sorted(c.name for c in mf.cities if sets.find(index[c.name]) != main)
    return [f"{where}: $.routes: the map is not connected; cut off from {mf.routes[0].a}: {', '.join(cut)}"]
