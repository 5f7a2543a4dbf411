"""Stations (R-STA-1..5, R-BON-4): build one in a free city, then at the end borrow one route of
another player touching that city, for tickets only.

State (:class:`StationsState`, per seat): ``built``, stations taken from the supply, and
``cities``, the board, in build order (the order of the notes). ``built`` is a counter kept beside
the board on purpose: the invariant "on the board + in supply = ``count``" compares the two, so a
handler that moves one and forgets the other is caught.

Which route each station borrows is not stored: the owner chooses only at the end (R-STA-4), so
the choice is made when the game is scored. This plugin answers ``ttr_borrowable_routes``
(declared by the ``tickets`` plugin, hence ``requires``) with one group per station, labelled
``station in <city>``; the tickets plugin answers every set of tickets the stations can complete
as an alternative, and the core chooses the one the owner would (``ttr_core.scoring.resolve_choices``)
by the order of preference this plugin answers (``ttr_choice_preference``, R-STA-4: the best
final total, then the most completed tickets, then the fewest borrows). The
groups are pruned and deduplicated here (``borrow_groups``) so that the combinations are few
without ever dropping one that could complete more. Afterwards ``ttr_player_facts`` reports each
station's city and the route it borrowed, or None. It also answers the winner plugin's
``ttr_tie_breaker`` for ``fewest-stations`` (europe's last tie-breaker).
"""

from __future__ import annotations

import itertools
from types import MappingProxyType
from typing import ClassVar, Literal

import attrs

from ttr_core.plugin import (
    COLORS, GRAY, Action, Bonus, CannotPay, DisjointSets, Highlight, IllegalAction, MalformedAction, NotLegalNow, ObservationPart, Plugin,
    RecordError, hookimpl, parameter,
)

NAME = "stations"
BONUS = "unused-stations"
_COLOR_ID = MappingProxyType({c: i for i, c in enumerate(COLORS)})


@attrs.frozen
class BuildStation(Action):
    """Build a station in ``city``, paying the next station's cost (R-STA-2) in ``color`` with
    ``locomotives`` locomotives; ``color`` is None for an all-locomotive payment."""

    kind: ClassVar[str] = "build-station"
    city: str
    color: str | None = None
    locomotives: int = 0


def _check_costs(instance, _attribute, costs: list[int]) -> None:
    if any(c < 1 for c in costs):
        raise ValueError(f"costs: every station costs at least 1 card, got {costs}")


def _check_count(instance, _attribute, count: int) -> None:
    if count < 0:
        raise ValueError(f"count: must not be negative, got {count}")


@attrs.define
class StationsState:
    """Per seat: stations taken from the supply, and the cities they stand in (in build order)."""

    built: dict[int, int]
    cities: dict[int, list[str]]


def _payments(colors, hand: list[int], nl: int, cost: int) -> tuple[tuple[int, int], ...]:
    """The cheapest payments of a station costing ``cost`` in each of ``colors`` the hand can pay,
    then all in locomotives: ``(colour id or -1, locomotives)`` (R-STA-2)."""
    return tuple(
        [(c, max(0, cost - hand[c])) for c in colors if hand[c] and cost - hand[c] <= nl]
        + ([(-1, cost)] if nl >= cost else [])
    )


class Stations(Plugin):
    State = StationsState
    requires = ("tickets",)
    provides = ("tie-breaker:fewest-stations",)
    title = "Stations"
    deterministic = True

    @attrs.frozen
    class Config:
        count: int = parameter("stations per player", default=3, rule="R-SET-5, R-STA-1", validator=_check_count)
        costs: list[int] = parameter(
            "cards of one colour for the 1st, 2nd, ... station (locomotives wild)",
            factory=lambda: [1, 2, 3], rule="R-STA-2", validator=_check_costs,
        )
        first_card: Literal["any", "route-color"] = parameter(
            'the 1st station\'s card: "any" colour (europe), or "route-color", the colour of one of the '
            "routes leaving the city, any colour if one of them is grey (ussr)", default="any", rule="R-STA-2",
        )
        points_per_unused: int = parameter(
            "points per station left in supply at the end", default=4, rule="R-STA-5, R-BON-4",
        )

        def __attrs_post_init__(self):
            if len(self.costs) < self.count:
                raise ValueError(f"costs: {self.count} stations need {self.count} costs, got {self.costs}")

    #: tables about the ruleset filled as its games ask (see ``Plugin.caches``)
    caches = ("_stations_paid",)

    def __init__(self, config=None):
        super().__init__(config)
        #: a station in every city paid every way, made at the first listing (``_stations_by_payment``)
        self._stations_paid: dict[tuple[int, int], tuple[BuildStation, ...]] | None = None

    def bonus_titles(self):
        return {BONUS: "Stations kept"}

    # --- setup ------------------------------------------------------------------------------

    @hookimpl
    def ttr_register_actions(self, registry):
        registry.add(BuildStation, self)

    def new_state(self, players: int) -> StationsState:
        return StationsState({s: 0 for s in range(players)}, {s: [] for s in range(players)})

    # --- reading the state ---------------------------------------------------------------------

    def cities_of(self, game, seat: int) -> list[str]:
        return self.state(game).cities[seat]

    def owner_of(self, game, city: str) -> int | None:
        for seat, cities in self.state(game).cities.items():
            if city in cities:
                return seat
        return None

    def left(self, game, seat: int) -> int:
        return self.config.count - self.state(game).built[seat]

    def _paying_colors(self, game, seat: int, city: str) -> tuple[int, ...]:
        """Colour ids that may pay the next station in ``city`` (R-STA-2); locomotives always may."""
        if self.config.first_card == "route-color" and self.state(game).built[seat] == 0:
            colors = {r.color for r in game.board.routes if city in (r.a, r.b)}
            if GRAY not in colors:
                return tuple(sorted(_COLOR_ID[c] for c in colors))
        return tuple(range(len(COLORS)))

    # --- the build-station action -------------------------------------------------------------

    def legal(self, game, seat) -> list[BuildStation]:
        """One payment per free city and paying colour, with as few locomotives as the hand allows:
        cities in map order, colours in card order, then all in locomotives."""
        state = self.state(game)
        built = state.built[seat]
        if self.config.count - built <= 0:
            return []
        cost = self.config.costs[built]
        hand = game.state.players[seat].hand
        nl = hand[game.cards.locomotive]
        taken = {c for cities in state.cities.values() for c in cities}
        columns = self._stations_paid or self._stations_by_payment(game.board)
        if self.config.first_card == "route-color" and built == 0:
            # only a first station paid in its city's route colours (R-STA-2, ussr) depends on the city
            out: list[BuildStation] = []
            for i, city in enumerate(game.board.cities):
                if city.name not in taken:
                    paid = _payments(self._paying_colors(game, seat, city.name), hand, nl, cost)
                    out += [columns[payment][i] for payment in paid]
            return out
        paid = _payments(range(len(COLORS)), hand, nl, cost)
        if not paid:
            return []
        # the same payments in every free city: the columns of stations paid each way, read city by city
        rows = zip(*[columns[payment] for payment in paid])
        if taken:
            rows = itertools.compress(rows, [city.name not in taken for city in game.board.cities])
        return list(itertools.chain.from_iterable(rows))

    def _stations_by_payment(self, board) -> dict[tuple[int, int], tuple[BuildStation, ...]]:
        """By payment ``(colour id or -1, locomotives)``: a station in every city of the map, in map
        order, paid that way. Made once per ruleset (this instance serves one map); actions are
        immutable values, so every listing of its games shares them."""
        if self._stations_paid is None:
            self._stations_paid = {
                (c, n): tuple(BuildStation(city.name, COLORS[c] if c >= 0 else None, n) for city in board.cities)
                for c in range(-1, len(COLORS))
                for n in range(max(self.config.costs, default=0) + 1)
            }
        return self._stations_paid

    def check(self, game, seat, action: BuildStation) -> None:
        if not isinstance(action.city, str) or action.city not in game.board.city_index:
            raise MalformedAction(seat, action, f"no city {action.city!r} on map {game.board.id!r}")
        if isinstance(action.locomotives, bool) or not isinstance(action.locomotives, int) or action.locomotives < 0:
            raise MalformedAction(seat, action, "locomotives must be a whole number from 0")
        if self.left(game, seat) <= 0:
            raise NotLegalNow(seat, action, f"all {self.config.count} stations are built (R-STA-1)")
        owner = self.owner_of(game, action.city)
        if owner is not None:
            raise IllegalAction(
                seat, action, f"{action.city} has a station of seat {owner} already: one per city (R-STA-1)"
            )
        problem = self.payment_problem(game, seat, action)
        if problem:
            raise CannotPay(seat, action, problem)

    def payment_problem(self, game, seat: int, action: BuildStation) -> str | None:
        """Why this payment does not pay the next station (R-STA-2), or None."""
        nth = self.state(game).built[seat]
        cost = self.config.costs[nth]
        colored = cost - action.locomotives
        what = f"station {nth + 1} costs {cost} card(s) of one colour, locomotives wild (R-STA-2)"
        if colored < 0:
            return f"{what}: {action.locomotives} locomotives pay more"
        if colored > 0 and action.color not in _COLOR_ID:
            return f"{what}: color must be one of {', '.join(COLORS)}, not {action.color!r}"
        if colored == 0 and action.color is not None and action.color not in _COLOR_ID:
            return f"unknown colour {action.color!r}"
        if colored > 0 and _COLOR_ID[action.color] not in self._paying_colors(game, seat, action.city):
            allowed = ", ".join(COLORS[c] for c in self._paying_colors(game, seat, action.city))
            return f"the 1st station's card must match a route leaving {action.city}: {allowed} or a locomotive (R-STA-2)"
        hand = game.state.players[seat].hand
        for card, n in self._spent(game, action, colored):
            if hand[card] < n:
                return f"the payment needs {n} {game.cards.names[card]}, the hand has {hand[card]}"
        return None

    @staticmethod
    def _spent(game, action: BuildStation, colored: int) -> list[tuple[int, int]]:
        out = []
        if colored:
            out.append((_COLOR_ID[action.color], colored))
        if action.locomotives:
            out.append((game.cards.locomotive, action.locomotives))
        return out

    def apply(self, game, seat, action: BuildStation) -> None:
        state = self.state(game)
        cost = self.config.costs[state.built[seat]]
        st = game.state
        hand = st.players[seat].hand
        for card, n in self._spent(game, action, cost - action.locomotives):
            hand[card] -= n
            st.discard.extend([card] * n)
        state.built[seat] += 1
        state.cities[seat].append(action.city)

    # --- the end of the game ------------------------------------------------------------------

    @hookimpl
    def ttr_borrowable_routes(self, game, seat):
        return borrow_groups(game, seat, self.cities_of(game, seat))

    @hookimpl
    def ttr_player_facts(self, game, seat, outcome):
        # R-STA-3: which route each station borrowed in the end, or None; in build order
        borrowed = {b.label: b.route for b in outcome.borrows}
        return {NAME: [{"city": c, "borrowed": borrowed.get(label(c))} for c in self.cities_of(game, seat)]}

    @hookimpl
    def ttr_highlights(self, game, seat, score):
        # R-STA-3: the route each of the seat's stations borrows in the end, for a page to mark
        mine = {label(c) for c in self.cities_of(game, seat)}
        return [
            Highlight(seat, NAME, f"{b.label} borrows {b.route}", (b.route,))
            for b in score.borrows if b.route is not None and b.label in mine
        ]

    @hookimpl
    def ttr_choice_preference(self, outcome, points):
        # R-STA-4: the best final total (routes are fixed: the points of the choice), then what
        # wins the tie-break of every rule set with stations (the most completed tickets), then
        # the fewest borrowed routes
        return (points, len(outcome.completed), -outcome.borrowed)

    @hookimpl(optionalhook=True)
    def ttr_tie_breaker(self, game, name, score):
        # declared by the winner plugin; optional, as a variant may decide winners another way
        if name == "fewest-stations":
            return -self.state(game).built[score.seat]
        return None

    @hookimpl
    def ttr_end_bonuses(self, game):
        out = []
        for seat in range(len(game.state.players)):
            unused = self.left(game, seat)
            if unused and self.config.points_per_unused:
                out.append(Bonus(seat, BONUS, unused * self.config.points_per_unused, f"{unused} unused"))
        return out

    # --- positions, views, invariants ----------------------------------------------------------

    @hookimpl
    def ttr_load_position(self, game, seat, entry):
        if "stations" not in entry:
            return [NAME]
        at = f"$.players[{seat}].stations"
        cities = entry["stations"]
        if not isinstance(cities, list) or not all(isinstance(c, str) for c in cities):
            raise RecordError([f"{at}: a list of city names"])
        problems = []
        if len(cities) > self.config.count:
            problems.append(f"{at}: {len(cities)} stations; a player has {self.config.count} (R-STA-1)")
        for i, city in enumerate(cities):
            owner = self.owner_of(game, city)
            if city not in game.board.city_index:
                problems.append(f"{at}[{i}]: unknown city {city!r}")
            elif owner is not None or city in cities[:i]:
                who = "this player" if owner in (None, seat) else f"seat {owner}"
                problems.append(f"{at}[{i}]: {city} has a station of {who} already: one per city (R-STA-1)")
        if problems:
            raise RecordError(problems)
        state = self.state(game)
        state.cities[seat] = list(cities)
        state.built[seat] = len(cities)
        return [NAME]

    @hookimpl
    def ttr_dump_position(self, game, seat):
        # Written only when there are stations, so that a game without any can be rescored under a
        # variant that has no stations (its loader would reject the key).
        cities = self.cities_of(game, seat)
        return {NAME: list(cities)} if cities else None

    @hookimpl
    def ttr_view(self, game, seat):
        # Stations are public (they stand on the board); which route each will borrow is decided
        # only at the end (R-STA-4) and appears in the result (its borrows, facts and notes).
        return {
            NAME: [
                {"cities": list(self.cities_of(game, s)), "left": self.left(game, s)}
                for s in range(len(game.state.players))
            ]
        }

    @hookimpl
    def ttr_observation_parts(self, game):
        # what the board shows (R-STA-1): per city, one-hot of who has a station there (nobody,
        # seat +0, +1...), then the stations each relative seat has left
        n, C = len(game.state.players), len(game.board.cities)
        most = max(len(self.cities_of(game, s)) + self.left(game, s) for s in range(n))
        return [ObservationPart(
            NAME, C * (n + 1) + n, (1,) * (C * (n + 1)) + (most,) * n, f"{C} cities x one-hot: none, seat +0..; left per seat",
        )]

    @hookimpl
    def ttr_observation_values(self, board, view, seat):
        stations = view["rules"].get(NAME) or []
        # one entry per seat: the rest of the view is built only if an answer reads it
        n, C = len(stations) or len(view["players"]), len(board.cities)
        out = [0.0] * (C * (n + 1) + n)
        taken: dict[int, int] = {}
        for s, entry in enumerate(stations):
            for city in entry["cities"]:
                taken[board.city_index[city]] = (s - seat) % n
            out[C * (n + 1) + (s - seat) % n] = entry["left"]
        for c in range(C):
            out[c * (n + 1) + (1 + taken[c] if c in taken else 0)] = 1
        return {NAME: out}

    @hookimpl
    def ttr_invariant_problems(self, game):
        state = self.state(game)
        problems = []
        seen: dict[str, int] = {}
        for s in range(len(game.state.players)):
            built, cities = state.built.get(s), state.cities.get(s)
            if built is None or cities is None:
                problems.append(f"stations: seat {s} has no station record")
                continue
            left = self.config.count - built
            if left < 0 or len(cities) + left != self.config.count:
                problems.append(
                    f"stations: seat {s} has {len(cities)} on the board + {left} in supply != {self.config.count}"
                )
            for city in cities:
                if city not in game.board.city_index:
                    problems.append(f"stations: seat {s} has a station in unknown city {city!r}")
                if city in seen:
                    problems.append(f"stations: {city} has two stations (seats {seen[city]} and {s}, R-STA-1)")
                seen[city] = s
        return problems


# --- choosing what a station may borrow ------------------------------------------------------


def label(city: str) -> str:
    """How a station is named in the result's borrows and notes."""
    return f"station in {city}"


def raw_candidates(game, seat: int, cities: list[str]) -> list[tuple[str, list[int]]]:
    """Every route each station could borrow (R-STA-3): another player's route touching its city."""
    board, owner = game.board, game.state.owner
    out = []
    for city in cities:
        ci = board.city_index[city]
        routes = [r.index for r in board.routes if ci in (r.ai, r.bi) and owner[r.index] not in (-1, seat)]
        out.append((label(city), routes))
    return out


def borrow_groups(game, seat: int, cities: list[str]) -> list[tuple[str, list[int]]]:
    """One group per station: the routes worth trying, with nothing dropped that could score more
    (R-STA-3..4). A station with nothing worth borrowing gets an empty group.

    A borrowed route joins two components of the owner's own network; nothing else changes. So:

    1. routes whose far end lies in the same own component are equivalent: keep one (the lowest
       index, so the choice and the note are reproducible). A far end in the station's own
       component joins nothing: drop it.
    2. Think of components as nodes and the remaining candidates as edges, each labelled with its
       station. Under any choice, a ticket the borrowed routes complete has a simple path between
       its ends' components over chosen edges, and such a path uses each station at most once
       (a station borrows one route). Keep only the edges that lie on such a path, for some
       ticket the own routes leave open; the others are needed by no choice.

    A choice that uses a dropped route completes exactly the tickets of the same choice with that
    station borrowing instead the kept route to the same far component (step 1), or nothing (a
    route within the station's own component, step 1; a route on no path that a completed ticket
    uses, step 2). So the search over what is kept,
    each station borrowing one kept route or nothing, reaches every set of tickets the raw
    candidates reach, each with no more borrowed routes (R-STA-4 chooses among those sets). Step 2
    is what keeps the search small: a station far from the owner's network whose one route leads
    nowhere, or a ticket whose connection would need two routes of one station, contributes no
    combinations.
    """
    board, st = game.board, game.state
    player = st.players[seat]
    raw = raw_candidates(game, seat, cities)
    own = DisjointSets(len(board.cities))
    for r in player.routes:
        own.union(board.routes[r].ai, board.routes[r].bi)
    comp = [own.find(c) for c in range(len(board.cities))]

    # 1. one candidate per (station, far component)
    edges: list[dict[int, int]] = []  # per station: far component -> route
    adjacent: dict[int, list[tuple[int, int]]] = {}  # component -> [(station, other component)]
    for s, (city, (_, routes)) in enumerate(zip(cities, raw)):
        home = comp[board.city_index[city]]
        by_far: dict[int, int] = {}
        for r in routes:
            route = board.routes[r]
            far = comp[route.bi] if comp[route.ai] == home else comp[route.ai]
            if far != home and far not in by_far:
                by_far[far] = r
                adjacent.setdefault(home, []).append((s, far))
                adjacent.setdefault(far, []).append((s, home))
        edges.append(by_far)

    # 2. keep the edges on a path of distinct stations between the ends of an open ticket
    open_ends = {
        (a, b) if a < b else (b, a)
        for t in player.tickets
        for a, b in [(comp[board.tickets[t].ai], comp[board.tickets[t].bi])]
        if a != b and a in adjacent and b in adjacent
    }
    useful: set[tuple[int, int]] = set()  # (station, far component)
    path: list[tuple[int, int]] = []

    def walk(node: int, goal: int, used_stations: set[int], visited: set[int]) -> None:
        for s, other in adjacent[node]:
            if s in used_stations or other in visited:
                continue
            home_side_far = other if other in edges[s] else node  # the edge's far end names it
            path.append((s, home_side_far))
            if other == goal:
                useful.update(path)
            else:
                visited.add(other)
                used_stations.add(s)
                walk(other, goal, used_stations, visited)
                used_stations.discard(s)
                visited.discard(other)
            path.pop()

    for a, b in open_ends:
        walk(a, b, set(), {a})

    return [
        (name, sorted(r for far, r in by_far.items() if (s, far) in useful))
        for s, ((name, _), by_far) in enumerate(zip(raw, edges))
    ]
