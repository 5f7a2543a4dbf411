"""The ticket-seeking bot: plays for its tickets, as most people do, so that simulated games
resemble real ones.

What it knows is what a player knows: its seat's view (``game.seat_view(seat)``: the public
table, its own hand, tickets and decision, its legal actions, the public map). Its own
``random.Random``, seeded from the game seed and its seat, only breaks ties.

How it plays, turn by turn:

* **tickets**: it keeps the offered tickets it can plausibly finish, judged by planning them
  (below) against the trains it has, and keeps the fewest the rules allow when none fit;
* **plan**: the shortest missing connections for its tickets (Dijkstra over the free routes and
  its own, weighted by length, its own at 0, :mod:`ttr_bots.route_graph`; tickets by points, each
  reusing what the plan has already chosen), within a train budget. A ticket that the free routes can no longer
  join may be saved by stations borrowing other players' routes (where the variant has them).
  The plan is recomputed only when the board, its tickets, trains or stations changed;
* **cards**: it draws the colours the plan still lacks from the open row, else blind;
* **claims**: the rules' own listing of its claims (``view.actions("claim-route")``), asked for
  only on a turn where the hand may pay a planned route. It claims planned routes as soon as it
  can pay them, longest first, paying with the cards the rest of the plan needs least; tunnels
  it attempts with a spare card in hand, pays the extra when it can, otherwise declines;
* **the end**: with its tickets done it draws new tickets while that is safe (trains to spare,
  nobody close to the end), otherwise claims the longest routes it can for points; on its last
  turn it takes the action worth most points at once.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence, Sized
from functools import partial
from itertools import compress
from operator import ne
from typing import Any

import attrs

from ttr_core.actions import Action
from ttr_core.board import Board, Route
from ttr_core.cards import COLORS, GRAY, LOCOMOTIVE
from ttr_core.network import DisjointSets
from ttr_core.seat_view import SeatView
from ttr_bots.legal_by_kind import Listing
from ttr_bots.route_graph import BoardIndex, RouteGraph, pair as _pair, shortest_path

#: A station edge's weight in the planner: a station uses no trains but costs cards and 4 points.
STATION_WEIGHT = 3
#: Keep tickets only while the plan leaves this share of the trains unplanned: opponents take
#: routes, and detours cost trains the plan did not count. 0.25 measured best of 0.1-0.4 against
#: three bots at 0.2 (wor: 37% wins in 160 games where 25% is par; usa and wor-europe: par).
TRAIN_RESERVE = 0.25
#: Draw new tickets only with this many trains left, and every opponent with this many too.
SAFE_TRAINS = 12
#: Guessing the turns left: an opponent places about this many trains per turn on average
#: (45 trains over a game of about 40 turns each), and a turn brings in about this many of the
#: cards a plan needs (two drawn, less the turns spent claiming).
TRAINS_PER_TURN = 1.2
CARDS_PER_TURN = 1.2


# --- what the seat knows ---------------------------------------------------------------------


@attrs.define(eq=False)
class Seen:
    """What a seat knows at its turn, read from its view only. Nothing changes it once read (not
    frozen: one is read at every decision of every bot, and a frozen class's construction costs
    several times a plain one's)."""

    seat: int
    owner: Mapping[int, int]  # route index -> owning seat
    hand: Mapping[str, int]
    tickets: tuple[int, ...]
    trains: int
    stations_left: int
    my_stations: tuple[str, ...]
    station_cities: frozenset[str]  # cities with anyone's station
    final_round: bool
    min_other_trains: int
    tickets_left: int
    decision: Mapping[str, Any] | None
    open_row: tuple[str | None, ...]
    most_of_a_color: int  # the most cards of one colour in hand (what pays a grey route)

    def cards(self, name: str) -> int:
        return self.hand.get(name, 0)


_COLOR_CARDS = len(COLORS)


def read_view(view: SeatView, owner: Mapping[int, int] | None = None) -> Seen:
    """What the seat knows, from its view; ``owner``: the view's route owners by route index, if
    already worked out. (A bot reading at every decision keeps a :class:`SeatReader`.)"""
    if owner is None:
        owner = {r: s for r, s in enumerate(view.owner) if s >= 0}
    stations = view.rules.get("stations") or ()
    return SeatReader().read(view, owner, stations)


class SeatReader:
    """:func:`read_view` for one bot, keeping what comes back read after read: the last decision
    read and what its player sees of it (decisions are frozen values, and the same one, the second
    card's, is read turn after turn)."""

    __slots__ = ("_decision", "_private")

    def __init__(self) -> None:
        self._decision: Any = None
        self._private: Mapping[str, Any] | None = None

    def read(self, view: SeatView, owner: Mapping[int, int], stations: Sequence[Mapping[str, Any]] = ()) -> Seen:
        """What the seat of ``view`` knows; ``owner``: the route owners by route index;
        ``stations``: the view's ``rules["stations"]``, if the variant has stations."""
        seat = view.seat
        fewest = None  # the fewest trains of the other players still in the game
        for s, p in enumerate(view.players):
            if s != seat and (fewest is None or p.trains < fewest) and not p.resigned:
                fewest = p.trains
        if stations:
            mine = stations[seat] if seat < len(stations) else {"cities": (), "left": 0}
            left, cities, anyone = mine["left"], tuple(mine["cities"]), frozenset([c for s in stations for c in s["cities"]])
        else:
            left, cities, anyone = 0, (), frozenset()
        decision = view.decision
        return Seen(
            seat,
            owner,
            view.hand,
            view.tickets,
            view.trains,
            left,
            cities,
            anyone,
            view.final_round,
            99 if fewest is None else fewest,
            view.tickets_left,
            None if decision is None else self.private(decision),
            view.open_row,
            max(view.hand_counts[:_COLOR_CARDS]),  # card ids: the colours first
        )

    def private(self, decision) -> Mapping[str, Any]:
        """``decision.private()``, worked out again only for another decision."""
        if self._decision is not decision:
            self._decision, self._private = decision, decision.private()
        return self._private


# --- claims ----------------------------------------------------------------------------------


def listing(view: SeatView, kind: str) -> Listing:
    """The view's legal actions of ``kind``, listed on first use (iterating, ``len``, ``bool``)."""
    return Listing(partial(view.actions, kind))


def _by_index(route: Route) -> int:
    return route.index


def claims_of(claims: Sequence[Action], routes: Sequence[Route]) -> list[Action]:
    """The claims of ``routes`` among ``claims`` (the rules' listing, ``view.actions("claim-route")``)."""
    wanted = {r.id for r in routes}
    return [c for c in claims if c.route in wanted]


# --- planning --------------------------------------------------------------------------------


@attrs.frozen
class Plan:
    """The connections still to make: city pairs to claim and stations to build."""

    pairs: frozenset[tuple[int, int]]
    stations: tuple[str, ...]  # cities to build a station in
    cost: int  # trains the pairs need
    done: tuple[int, ...]  # tickets already completed
    planned: tuple[int, ...]  # tickets the plan completes
    dropped: tuple[int, ...]  # tickets given up


@attrs.define(eq=False)
class FreePlanned:
    """The free routes of a plan's connections, as the board stands. Nothing changes one once made
    (not frozen, as ``Seen``: one is made whenever a plan's connections change hands)."""

    plan: Plan
    groups: list[list[Route]]  # by connection (those with a free route), connections in order
    routes: list[Route]  # all of them
    beside_taken: list[Route]  # those with a parallel route someone owns (R-PAR may close them)
    # what the connections with one free route ask for whatever the hand (``_fixed_needs``)
    fixed_needs: tuple[dict[str, int], list[tuple[int, Route]]]
    # the connections with parallel free routes, by place among the groups: which route of each
    # the colour needs count depends on the hand
    choices: list[tuple[int, list[Route]]]

    @classmethod
    def of(cls, index: BoardIndex, seen: Seen, plan: Plan) -> FreePlanned:
        """The free routes of ``plan`` on the board of ``index``."""
        between, owner = index.between, seen.owner
        taken = owner.keys()
        groups: list[list[Route]] = []
        routes: list[Route] = []
        beside: list[Route] = []
        single: list[tuple[int, Route]] = []  # a connection's one free route counts whatever the hand,
        choices: list[tuple[int, list[Route]]] = []  # and so does the first of parallel grey ones
        for p in sorted(plan.pairs):
            g = [r for r in between[p] if r.index not in owner]
            if not g:
                continue
            i = len(groups)
            groups.append(g)
            routes += g
            for r in g:
                if r.parallel and not taken.isdisjoint(r.parallel):
                    beside.append(r)
            if len(g) == 1:
                single.append((i, g[0]))
            elif all(r.color == GRAY for r in g):
                single.append((i, min(g, key=_by_index)))  # (the hand pays them alike: the first counts)
            else:
                choices.append((i, g))
        return cls(plan, groups, routes, beside, _fixed_needs(single), choices)


#: Searches already made within one decision, by (ticket, the pairs chosen before it): the
#: options of a decision plan the same held tickets again and again.
Searches = dict[tuple[int, frozenset], "tuple[int, list[int]] | None"]


def build_graph(board: Board, seen: Seen, blocked: frozenset[int] | set[int],
                weights: Mapping[int, float] | None = None, index: BoardIndex | None = None) -> RouteGraph:
    """Cities joined by the seat's own routes (weight 0) and the free routes it could still claim
    (weight = length, or ``weights[length]`` where given); between two cities, the cheapest. Routes
    of other players are left out. ``index``: the board's index, if the caller keeps one."""
    if index is None:
        index = BoardIndex(board)
    g = RouteGraph(len(board.cities))
    adj = g.adj
    owner, seat, trains = seen.owner, seen.seat, seen.trains
    for route, a, b, length in index.edges:  # (``g.set_edge``, written out)
        who = owner.get(route, -1)
        if who == seat:
            w = 0
        elif who >= 0 or route in blocked or length > trains:
            continue
        else:
            w = length if weights is None else weights[length]
        near = adj[a]
        now = near.get(b)
        if now is None or w < now:
            near[b] = w
            adj[b][a] = w
    # A station of the seat's already borrows an adjacent route of another player (R-STA-3):
    # count those as joined, so that a ticket the station saves is seen as done.
    for city in seen.my_stations:
        for r in index.at[board.city_index[city]]:
            if owner.get(r.index, seat) != seat:
                g.set_edge(r.ai, r.bi, 0)
    return g


class RulesMemo:
    """What a bot works out once for the ruleset it plays: whether its views show stations
    (``shows_stations``: a plugin's part of the view). A bot keeps the memo of the ruleset it was
    last asked about (:meth:`TicketBot.rules_memo`), the ruleset itself kept as the key; a copy of
    the bot shares it."""

    __slots__ = ("ruleset", "shows_stations")

    def __init__(self, view: SeatView):
        self.ruleset = view.ruleset
        self.shows_stations = "stations" in view.rules

    def __deepcopy__(self, memo: dict) -> RulesMemo:
        return self  # it holds only what the ruleset fixes


def plan_tickets(
    board: Board, graph: RouteGraph, seen: Seen, tickets: Sequence[int], budget: float, searches: Searches | None = None,
    below: float | None = None,
) -> Plan | None:
    """Greedy: the most valuable ticket first, each by the shortest path given what the plan has
    chosen so far (chosen pairs cost nothing more); a ticket that does not fit the budget is
    dropped. Then stations for the dropped ones, if the seat has any left. ``searches`` keeps the
    paths found, for the next plan of the same decision.

    ``below``: give up (None) as soon as the plan is sure to score below it as ``keep_tickets``
    scores plans (the tickets' points, less twice those dropped, less a quarter of the cost): the
    cost only grows, and a ticket dropped stays dropped where no station can save it."""
    chosen: set[tuple[int, int]] = set()
    zero: list[Collection[int]] = [_NO_CITY_IDS] * len(board.cities)  # a set where an edge is chosen (``_add_zero``)
    adj = graph.adj
    cost, done, planned, dropped = 0, [], [], []
    if below is not None:
        best = sum([board.tickets[t].points for t in tickets])  # the most the plan may still score
        lose = 0 if seen.stations_left else 2
    for t in sorted(tickets, key=lambda t: (-board.tickets[t].points, t)):
        ticket = board.tickets[t]
        if below is not None and best - 0.25 * cost < below:
            return None
        if not chosen:
            found = graph.path_alone(ticket.ai, ticket.bi)
        elif searches is None:
            found = shortest_path(graph, zero, ticket.ai, ticket.bi)
        else:
            key = (t, frozenset(chosen))
            found = searches[key] if key in searches else searches.setdefault(key, shortest_path(graph, zero, ticket.ai, ticket.bi))
        if found is None:
            dropped.append(t)
            if below is not None:
                best -= lose * ticket.points
            continue
        length, path = found
        if length == 0:
            (planned if _uses(path, chosen) else done).append(t)
            continue
        if cost + length > budget:
            dropped.append(t)
            if below is not None:
                best -= lose * ticket.points
            continue
        cost += length
        for u, v in zip(path, path[1:]):
            if adj[u][v] > 0:
                _choose(chosen, zero, u, v)
        planned.append(t)
    stations: list[str] = []
    if dropped and seen.stations_left:
        dropped = _plan_stations(board, graph, seen, dropped, chosen, zero, stations, budget - cost, planned)
        cost = sum(adj[u][v] for u, v in chosen)
    if below is not None and best - 0.25 * cost < below:
        return None
    return Plan(frozenset(chosen), tuple(stations), cost, tuple(done), tuple(planned), tuple(dropped))


def _opening_bound(board: Board, graph: RouteGraph, seen: Seen, tickets: Sequence[int], budget: float, points: int) -> float:
    """At most the score ``keep_tickets`` gives the plan of ``tickets`` (``points``: all of theirs):
    ``plan_tickets`` searches its first tickets with nothing chosen yet (searches kept by the
    graph); the first that costs trains costs at least that to the plan, and those it drops
    before it stay dropped where no station can save them."""
    pts = board.tickets
    lost = 0
    for t in sorted(tickets, key=lambda t: (-pts[t].points, t)):
        ticket = pts[t]
        found = graph.path_alone(ticket.ai, ticket.bi)
        if found is None or found[0] > budget:
            if not seen.stations_left:
                lost += 2 * ticket.points
            continue
        if found[0] > 0:
            return points - lost - 0.25 * found[0]
    return points - lost


def _choose(chosen: set[tuple[int, int]], zero: list[Collection[int]], u: int, v: int) -> None:
    chosen.add(_pair(u, v))
    _add_zero(zero, u, v)


def _add_zero(zero: list[Collection[int]], u: int, v: int) -> None:
    """Mark the edge ``u``-``v`` free in ``zero``, whose cities share one empty set until they have one."""
    for a, b in ((u, v), (v, u)):
        near = zero[a]
        if near is _NO_CITY_IDS:
            zero[a] = {b}
        else:
            near.add(b)


_NO_CITY_IDS: frozenset[int] = frozenset()


def _uses(path: Sequence[int], chosen: set[tuple[int, int]]) -> bool:
    return any(_pair(u, v) in chosen for u, v in zip(path, path[1:]))


def _plan_stations(
    board: Board, graph: RouteGraph, seen: Seen, dropped: list[int], chosen: set[tuple[int, int]],
    zero: list[Collection[int]], stations: list[str], budget: float, planned: list[int],
) -> list[int]:
    """Save dropped tickets with stations: another player's route becomes an edge of weight
    ``STATION_WEIGHT`` (no trains) if one of its cities can still take a station. Returns the
    tickets still dropped; fills ``chosen`` (and ``zero``), ``stations`` and ``planned``."""
    g = graph.copy()
    free_city = [c.name not in seen.station_cities for c in board.cities]
    for r in board.routes:
        owner = seen.owner.get(r.index, -1)
        if owner in (-1, seen.seat) or g.has_edge(r.ai, r.bi) or not (free_city[r.ai] or free_city[r.bi]):
            continue
        g.set_edge(r.ai, r.bi, STATION_WEIGHT)
        g.station.add(_pair(r.ai, r.bi))
    # an edge costs nothing once chosen (a route) or borrowed (a station): the two never overlap
    borrowed: dict[tuple[int, int], str] = {}
    still = []
    left = seen.stations_left
    for t in dropped:
        ticket = board.tickets[t]
        found = shortest_path(g, zero, ticket.ai, ticket.bi)
        if found is None:
            still.append(t)
            continue
        path = found[1]
        edges = [_pair(u, v) for u, v in zip(path, path[1:])]
        new_borrow = [e for e in edges if e in g.station and e not in borrowed]
        trains = sum(g.weight(*e) for e in edges if e not in g.station and e not in chosen)
        cities = _station_cities(board, new_borrow, free_city, set(stations))
        if not new_borrow and not trains or cities is None or len(cities) > left or trains > budget:
            still.append(t)
            continue
        for e, city in zip(new_borrow, cities):
            borrowed[e] = city
            _add_zero(zero, *e)
        stations.extend(cities)
        left -= len(cities)
        budget -= trains
        for e in edges:
            if e not in g.station:
                _choose(chosen, zero, *e)
        planned.append(t)
    return still


def _station_cities(board, edges, free_city, taken) -> list[str] | None:
    """One station city per borrowed edge: an end with no station yet, not used twice."""
    out = []
    for u, v in edges:
        for c in (u, v):
            name = board.cities[c].name
            if free_city[c] and name not in taken and name not in out:
                out.append(name)
                break
        else:
            return None
    return out


# --- the bot ---------------------------------------------------------------------------------


class TicketBot:
    """Plays for its tickets, as most people do: plans their connections, draws and claims along the plan.

    It sees only what its seat may see; the module's docstring tells how it plays, turn by turn.
    A variation of it (the play-style bots) overrides its steps: ``keep_tickets``, ``take_turn``,
    ``plan_for``, ``claim_along_plan`` and ``draw_cards``.
    """

    name = "ticket"
    reserve = TRAIN_RESERVE  # a class attribute, so that a variation of the bot can be measured against it

    def __init__(self, seed: int, seat: int):
        self.rng = random.Random(f"ticket-bot:{seed}:{seat}")
        self.seat = seat
        self._plan_key: tuple | None = None
        self._plan: Plan | None = None
        self._plan_seen: tuple[Seen | None, int] = (None, 0)  # what the plan was last asked for with
        self._checked: tuple | None = None  # what the plan was last found valid against
        self._graph: RouteGraph | None = None
        self._graph_key: tuple | None = None
        self._searches: tuple[RouteGraph | None, Searches] = (None, {})  # those made on a graph, while it stands
        self._blocked: set[int] = set()  # free routes closed to this seat (R-PAR), learnt from legal actions
        # the routes' owners as last seen (a list by route index, and a dict of the owned ones),
        # and a number that changes whenever they do
        self._owners: tuple[int, ...] | None = None
        self._owner: dict[int, int] = {}
        self._owner_version = 0
        self._moved: set[int] = set()  # routes whose owner changed since the plan was last checked
        self._routes_seen: list[tuple[int, ...]] | None = None  # each player's routes, as last seen
        self._free: FreePlanned | None = None  # the plan's free routes, until they change
        self._needs: tuple | None = None  # (free routes, hand, the colour needs they make)
        self._board_index: BoardIndex | None = None  # of the board it was last asked about
        self._rules_memo: RulesMemo | None = None  # what it worked out for the ruleset last asked about
        self._reader = SeatReader()

    # --- entry point ----------------------------------------------------------------------

    def choose(self, view: SeatView) -> Action:
        """The seat's next action, from its view: a pending decision answered, else a turn. The
        legal actions are asked of the view kind by kind, when needed (most turns list no claims)."""
        board = view.board
        seen = self._read(view, self.rules_memo(view))
        if seen.decision is not None:
            return self._decide(board, seen, seen.decision, view)
        return self.take_turn(board, seen, view)

    def board_index(self, board: Board) -> BoardIndex:
        """The routes of ``board`` by cities: kept while this bot is asked about the same board
        object, made anew for another."""
        index = self._board_index
        if index is None or index.board is not board:
            index = self._board_index = BoardIndex(board)
        return index

    def start_from(self, index: BoardIndex, rules: RulesMemo) -> None:
        """Take ``index`` and ``rules`` from another bot (made for the board and ruleset this one
        is about to play, they hold the same for any bot) instead of making its own: a search's
        play-out bots take its own."""
        self._board_index, self._rules_memo = index, rules

    def rules_memo(self, view: SeatView) -> RulesMemo:
        """What this bot worked out for the ruleset of ``view``: kept while it is asked about games
        of the same ruleset object, made anew for another."""
        memo = self._rules_memo
        if memo is None or memo.ruleset is not view.ruleset:
            memo = self._rules_memo = RulesMemo(view)
        return memo

    def _read(self, view: SeatView, rules: RulesMemo) -> Seen:
        """What the seat knows now (:class:`SeatReader`); the stations, a plugin's part of the
        view, where the variant has them (``rules``: the ruleset's memo)."""
        stations = view.rules["stations"] if rules.shows_stations else ()
        owners = view.owner
        if owners != self._owners:
            self._see_owners(owners, view.players)
        return self._reader.read(view, self._owner, stations)

    def _see_owners(self, owners: Sequence[int], players: Sequence[Any]) -> None:
        """Take the routes' owners (by route index, -1 for free): the routes claimed or released
        (a controller's dismantling, R-CTL-2) since last seen join ``_moved``, and
        ``_owner_version`` changes. ``players``: the players' states, whose public lists of routes
        tell the routes claimed since without comparing every route's owner."""
        changed = self._claimed_since(owners, players)
        if changed is None:
            before = self._owners or [-1] * len(owners)
            changed = list(compress(range(len(owners)), map(ne, before, owners)))
            self._routes_seen = [p.routes for p in players]
        owner = dict(self._owner)  # a new dict: the seen of earlier decisions keep theirs
        for r in changed:
            if owners[r] >= 0:
                owner[r] = owners[r]
            else:
                del owner[r]
        self._moved.update(changed)
        self._owners, self._owner = owners, owner
        self._owner_version += 1

    def _claimed_since(self, owners: Sequence[int], players: Sequence[Any]) -> list[int] | None:
        """The routes claimed since the owners were last seen, where each player's list of routes
        only grew at its end (each route claimed is in its owner's list, R-ROUTE-5); None if a
        route was released, or the lists were not seen. The lists that grew are taken as seen."""
        seen = self._routes_seen
        if seen is None or len(seen) != len(players):
            return None
        claimed, grown = [], []
        for s, (player, before) in enumerate(zip(players, seen)):
            routes, n = player.routes, len(before)
            if len(routes) == n:
                if routes != before:
                    return None
            elif len(routes) < n or routes[:n] != before:
                return None
            else:
                for r in routes[n:]:
                    if owners[r] != s:
                        return None
                    claimed.append(r)
                grown.append(s)
        for s in grown:
            seen[s] = players[s].routes
        return claimed

    # --- pending decisions ------------------------------------------------------------------

    def _decide(self, board, seen, decision, view: SeatView) -> Action:
        kind = decision.get("kind")
        offers = view.actions("keep-tickets")
        if offers:
            return self.keep_tickets(board, seen, offers)
        if kind == "second-card" and view.actions("draw-card"):
            return self.draw_cards(board, seen, view.actions("draw-card"), second=True)
        if kind == "tunnel-extra":
            pays = view.actions("pay-tunnel")
            if pays:
                return min(pays, key=lambda a: (getattr(a, "locomotives", 0), repr(a)))
            if view.actions("decline-tunnel"):
                return view.actions("decline-tunnel")[0]
        return self.rng.choice(view.legal_actions())  # a decision of a rule this bot does not know

    def keep_tickets(self, board, seen, offers: list[Action]) -> Action:
        """The offer whose tickets, planned with those held, score best within the budget: the
        first of the best, as ``max(offers, key=...)`` would choose."""
        graph = self._graph_for(board, seen)
        budget = min(seen.trains * (1 - self.reserve), time_budget(seen))
        searches = self._searches_on(graph)
        pts = board.tickets
        held = sum([pts[t].points for t in seen.tickets])
        # An offer scores at most the points of all its tickets and those held (all done, no
        # trains spent): planned from the highest such bound down, the offers that could not
        # beat (or, earlier in the list, tie) the best found are not planned at all.
        bounded = []
        for i, offer in enumerate(offers):
            kept = tuple([board.ticket_index[t] for t in offer.tickets])
            bounded.append(((held + sum([pts[t].points for t in kept]), -len(kept)), -i, kept))
        bounded.sort(reverse=True)
        best: tuple | None = None  # ((value, -tickets kept), -place)
        for bound, place, kept in bounded:
            if best is not None:
                if bound < best[0]:
                    break
                if (_opening_bound(board, graph, seen, seen.tickets + kept, budget, bound[0]), bound[1]) < best[0]:
                    continue
            plan = plan_tickets(board, graph, seen, seen.tickets + kept, budget, searches, None if best is None else best[0][0])
            if plan is None:
                continue  # sure to score below the best
            gain = sum([pts[t].points for t in (*plan.done, *plan.planned)])
            loss = sum([pts[t].points for t in plan.dropped])
            scored = ((gain - loss - 0.25 * plan.cost, -len(kept)), place)
            if best is None or scored > best:
                best = scored
        return offers[-best[1]]

    # --- a turn -----------------------------------------------------------------------------

    def take_turn(self, board, seen, view: SeatView) -> Action:
        """The action opening the seat's turn (the module's docstring tells which). Each kind of
        action is listed only if this turn asks for it (:func:`listing`)."""
        claims = listing(view, "claim-route")
        builds = listing(view, "build-station")
        if seen.final_round and (claims or builds):
            best = self._last_turn(board, seen, claims, builds)
            if best is not None:
                return best
        plan = self.plan_for(board, seen, claims)
        station = self._station(plan, builds)
        if station is not None:
            return station
        # whether a card may be drawn matters for tunnels only: the draws are listed if one asks
        claim = self.claim_along_plan(board, seen, plan, claims, can_draw=listing(view, "draw-card"))
        if claim is not None:
            return claim
        free_claim = self._controller_claim(board, plan, listing(view, "play-controller"))
        if free_claim is not None:
            return free_claim
        if not plan.pairs:
            if view.actions("draw-tickets") and _safe_to_draw_tickets(seen, plan):
                return view.actions("draw-tickets")[0]
            extra = self._claim_for_points(board, seen, claims)
            if extra is not None:
                return extra
        if view.actions("draw-card"):
            return self.draw_cards(board, seen, view.actions("draw-card"), second=False)
        if claims:
            return self._claim_for_points(board, seen, claims)
        return self._fallback(view.legal_actions())

    def _fallback(self, legal: list[Action]) -> Action:
        """Nothing planned can be done and no card can be drawn: anything but what costs points
        (a station is 4 points kept, R-STA-5; new tickets may fail), those only if nothing else."""
        costly = ("build-station", "draw-tickets")
        rest = [a for a in legal if a.kind not in costly] or [a for a in legal if a.kind == "draw-tickets"] or legal
        return rest[0] if len(rest) == 1 else self.rng.choice(rest)

    # --- planning, cached -------------------------------------------------------------------

    def _graph_for(self, board, seen) -> RouteGraph:
        # blocked routes are only ever added: their number tells whether they changed
        key = (self._owner_version, seen.trains, len(self._blocked), seen.my_stations)
        if key != self._graph_key:
            self._graph = build_graph(board, seen, self._blocked, index=self.board_index(board))
            self._graph_key = key
        return self._graph

    def _searches_on(self, graph: RouteGraph) -> Searches:
        """The searches made on ``graph`` so far: the options of a decision, and then the plan of
        the tickets kept, search the same connections."""
        if self._searches[0] is not graph:
            self._searches = (graph, {})
        return self._searches[1]

    def plan_for(self, board, seen, claims: list[Action]) -> Plan:
        plan = self._cached_plan(board, seen)
        if self._learn_blocked(board, seen, plan, claims):
            plan = self._cached_plan(board, seen)
        return plan

    def _cached_plan(self, board, seen) -> Plan:
        """The plan, recomputed only when it no longer holds: new tickets, stations or blocked
        routes, or a planned connection that nobody can build any more. Routes taken elsewhere
        only make other paths longer, so a plan whose connections are all still free stays a
        shortest one: most turns then cost no search at all."""
        blocked = len(self._blocked)
        if self._plan_seen[0] is seen and self._plan_seen[1] == blocked:
            return self._plan  # asked again within one decision (choosing, then drawing a card)
        plan = self._plan_holding(board, seen, blocked)
        self._plan_seen = (seen, blocked)
        return plan

    def _plan_holding(self, board, seen, blocked: int) -> Plan:
        key = (seen.tickets, blocked, seen.my_stations, seen.stations_left)
        if self._plan is not None and key == self._plan_key:
            # valid when last checked, valid still while no route of its connections changed hands
            against = (seen.trains, seen.station_cities)
            checked = self._checked
            if checked is not None and checked[0] is self._plan and checked[1] == against and not self._touches(board, self._plan):
                self._moved.clear()  # none of them touches the plan: they never will
                return self._plan
            touched = self._touches(board, self._plan)
            kept = still_valid(self.board_index(board), seen, self._plan, self._blocked)
            self._moved.clear()
            if touched or kept is not self._plan:
                self._free = None  # (the free routes of the same connections are the same)
            if kept is not None:
                self._plan = kept
                self._checked = (kept, against)
                return kept
        graph = self._graph_for(board, seen)
        self._plan = plan_tickets(board, graph, seen, seen.tickets, seen.trains, self._searches_on(graph))
        self._plan_key = key
        return self._plan

    def _touches(self, board, plan: Plan) -> bool:
        """Whether a route that changed hands since the last check joins two cities of ``plan``."""
        if not self._moved:
            return False
        pair_at, pairs = self.board_index(board).pair_at, plan.pairs
        for r in self._moved:
            if pair_at[r] in pairs:
                return True
        return False

    def _free_planned(self, board, seen, plan: Plan) -> FreePlanned:
        """The free routes of ``plan``'s connections, worked out again when the plan changed or a
        route of its connections changed hands (``_cached_plan`` forgets them then)."""
        free = self._free
        if free is None or free.plan is not plan:
            free = self._free = FreePlanned.of(self.board_index(board), seen, plan)
        return free

    def _learn_blocked(self, board, seen, plan: Plan, claims: list[Action]) -> bool:
        """A free planned route the hand could pay but that no legal claim offers is closed to this
        seat (a parallel route rule, R-PAR): plan around it from now on."""
        suspects = [
            r for r in self._free_planned(board, seen, plan).beside_taken if r.length <= seen.trains and _could_pay(r, seen)
        ]
        if not suspects:
            return False
        offered = {c.route for c in claims_of(claims, suspects)}
        learnt = False
        for r in suspects:
            if r.id not in offered:
                self._blocked.add(r.index)
                learnt = True
        return learnt

    # --- choosing ------------------------------------------------------------------------------

    def _station(self, plan: Plan, builds: list[Action]) -> Action | None:
        if not plan.stations:
            return None
        wanted = [b for b in builds if b.city in plan.stations]
        if not wanted:
            return None
        return min(wanted, key=lambda b: (b.locomotives, plan.stations.index(b.city), b.color or ""))

    def claim_along_plan(self, board, seen, plan: Plan, claims: list[Action], can_draw: Sized | bool) -> Action | None:
        """The planned route to claim now, if the hand can pay one. Of ``claims`` (a list, or
        a listing), only those of the planned routes the hand may pay are asked for;
        ``can_draw``'s truth (a listing of the draws, say) only when a tunnel could be claimed."""
        payable = may_pay(seen, self._free_planned(board, seen, plan).routes)
        if not payable:
            return None
        planned = self.payments_to_consider(board, seen, claims_of(claims, payable), can_draw)
        if not planned:
            return None

        def ok(c: Action) -> bool:
            route = board.routes[board.route_index[c.route]]
            # a tunnel may ask for extra cards (R-TUN-2): try it with a spare card in hand, or when
            # there is nothing else to do
            return not route.tunnel or not can_draw or _spare(seen, route, c) >= 1

        if any(r.tunnel for r in payable):
            planned = [c for c in planned if ok(c)]
            if not planned:
                return None
        if len(planned) == 1:
            return planned[0]  # (the colour needs weigh payments against each other only)
        needs = self._color_needs(board, seen, plan)
        return min(planned, key=lambda c: (-board.routes[board.route_index[c.route]].length, _pay_cost(board, c, needs), c.route, c.color or ""))

    def payments_to_consider(self, board, seen, planned: list[Action], can_draw: Sized | bool) -> list[Action]:
        """Of the claims of the planned routes the hand may pay, those this bot would play now
        (all of them; a bot built on this one may keep some payments back)."""
        return planned

    def _controller_claim(self, board, plan: Plan, plays: list[Action]) -> Action | None:
        """A controller (``ussr``, R-CTL-2) builds a planned route the hand cannot pay yet: the
        longest one, as it saves the most cards. Dismantling is left alone: it helps against one
        opponent and costs the turn."""
        if not plan.pairs:
            return None
        pair_at, route_index = self.board_index(board).pair_at, board.route_index
        builds = [a for a in plays if getattr(a, "mode", None) == "build" and pair_at[route_index[a.route]] in plan.pairs]
        if not builds:
            return None
        return max(builds, key=lambda a: (board.routes[board.route_index[a.route]].length, a.route))

    def _claim_for_points(self, board, seen, claims: Sequence[Action]) -> Action | None:
        """With the tickets done: the longest route, to score and to end the game while ahead.
        ``claims`` are listed only if the hand may pay some free route (``may_pay``)."""
        def key(c: Action) -> tuple:
            return board.routes[board.route_index[c.route]].length, -c.locomotives, -c.triples, c.route, c.color or ""

        if not may_pay(seen, [r for r in board.routes if r.index not in seen.owner]):
            return None
        return max(claims, key=key) if claims else None

    def _last_turn(self, board, seen, claims: list[Action], builds: list[Action]) -> Action | None:
        """The last turn: the claim or station worth most points now (route points, plus twice
        the points of each ticket it completes, as a failed ticket counts against)."""
        sets = DisjointSets(len(board.cities))
        for r, s in seen.owner.items():
            if s == seen.seat:
                sets.union(board.routes[r].ai, board.routes[r].bi)
        open_tickets = [board.tickets[t] for t in seen.tickets if not sets.connected(board.tickets[t].ai, board.tickets[t].bi)]

        # a join completes the open tickets whose two cities' networks it joins: their points by
        # those two networks (each named by its root)
        find = sets.find
        by_roots: dict[tuple[int, int], int] = {}
        for t in open_tickets:
            roots = _pair(find(t.ai), find(t.bi))
            by_roots[roots] = by_roots.get(roots, 0) + 2 * t.points

        def completes(join: tuple[int, int]) -> int:
            return by_roots.get(_pair(find(join[0]), find(join[1])), 0) if by_roots else 0

        best: tuple[float, str, Action] | None = None  # the most points, then the last name
        worth: dict[str, float] = {}  # what claiming a route gains, by route (its claims differ in locomotives)
        routes, route_index = board.routes, board.route_index
        for c in claims:
            gain = worth.get(c.route)
            if gain is None:
                route = routes[route_index[c.route]]
                gain = worth[c.route] = route.length * 1.5 + completes((route.ai, route.bi))
            gain -= c.locomotives * 0.01
            if best is None or gain > best[0] or (gain == best[0] and c.route + (c.color or "") > best[1]):
                best = (gain, c.route + (c.color or ""), c)
        index = self.board_index(board)
        for b in builds:
            ci = board.city_index[b.city]
            joins = [(r.ai, r.bi) for r in index.at[ci] if seen.owner.get(r.index, seen.seat) != seen.seat]
            gain = max((completes(j) for j in joins), default=0) - 4.5  # the 4 points of a station kept
            key = (gain, b.city + (b.color or ""), b)
            best = key if best is None or key[:2] > best[:2] else best
        return best[2] if best is not None and best[0] > 0 else None

    def draw_cards(self, board, seen, draws: list[Action], second: bool) -> Action:
        needs = self._color_needs(board, seen, self._cached_plan(board, seen))
        hand = seen.hand
        wanted = {}  # the colours the plan lacks, and how many of each
        for c, n in needs.items():
            if c != LOCOMOTIVE:
                short = n - hand.get(c, 0)
                if short > 0:
                    wanted[c] = short
        row = seen.open_row
        if wanted:
            best = None  # the open card most lacking, then the first
            for d in draws:
                slot = d.slot
                if slot is not None:
                    short = wanted.get(row[slot])  # (a legal draw's slot is in the row)
                    if short is not None and (best is None or short > most or (short == most and slot < best.slot)):
                        best, most = d, short
            if best is not None:
                return best
        loco_short = needs.get(LOCOMOTIVE, 0) - seen.cards(LOCOMOTIVE)
        if not second and loco_short > 0:
            for d in draws:
                if d.slot is not None and row[d.slot] == LOCOMOTIVE:
                    return d
        blind = [d for d in draws if d.slot is None]
        if blind:
            return blind[0]
        # no deck left: the open card the plan can use most, else any
        return max(draws, key=lambda d: (wanted.get(row[d.slot], 0), row[d.slot] == LOCOMOTIVE, -d.slot))

    def _color_needs(self, board, seen, plan: Plan) -> dict[str, int]:
        """``_color_needs``, worked out again only when the plan, the hand or the board changed."""
        free = self._free_planned(board, seen, plan)
        # the hand matters only to grey routes and a choice among parallel ones
        hand = seen.hand if free.choices or free.fixed_needs[1] else None
        needs = self._needs
        if needs is None or needs[0] is not free or needs[1] != hand:
            needs = self._needs = (free, hand, _color_needs(seen, free))
        return needs[2]


# --- small helpers ---------------------------------------------------------------------------


def may_pay(seen: Seen, routes: Iterable[Route]) -> list[Route]:
    """Of ``routes``, those the seat has the trains and enough cards for: every space takes a card
    of the route's colour (any one colour for grey) or a locomotive (R-ROUTE-2..3), a 3-for-1
    triple three cards of that colour (R-FER-2). No other route can be claimed now, so a bot
    lists its legal claims only when some route passes."""
    hand, trains = seen.hand, seen.trains
    locos = hand.get(LOCOMOTIVE, 0)
    most = seen.most_of_a_color + locos
    return [r for r in routes if r.length <= trains and r.length <= (most if r.color == GRAY else hand.get(r.color, 0) + locos)]


def time_budget(seen: Seen) -> float:
    """About how many trains' worth of routes the seat can still pay before the game ends: the
    cards in hand plus about two per turn left, where the turns left are guessed from the
    opponent nearest the end (placing a little over one train per turn, R-END-1)."""
    turns_left = seen.min_other_trains / TRAINS_PER_TURN
    return sum(seen.hand.values()) + CARDS_PER_TURN * turns_left


def _safe_to_draw_tickets(seen: Seen, plan: Plan) -> bool:
    """Every ticket held is done, trains are left for a new one, and nobody is close to ending the
    game (R-END-1): the last moment to take on a ticket without much risk."""
    return (
        not plan.dropped and not seen.final_round
        and seen.trains >= SAFE_TRAINS and seen.min_other_trains >= SAFE_TRAINS
    )


def still_valid(index: BoardIndex, seen: Seen, plan: Plan, blocked: set[int]) -> Plan | None:
    """``plan`` without the connections the seat has made since, or None if a planned connection
    or station can no longer be built, or the trains no longer suffice (``index``: the board's)."""
    owner, seat, trains, between = seen.owner, seen.seat, seen.trains, index.between
    pairs, cost = [], 0
    for p in plan.pairs:
        shortest = None  # of the routes the seat may still claim here
        for r in between[p]:
            who = owner.get(r.index)
            if who == seat:
                break  # made already
            if who is None and r.index not in blocked and r.length <= trains and (shortest is None or r.length < shortest):
                shortest = r.length
        else:
            if shortest is None:
                return None
            pairs.append(p)
            cost += shortest
    if cost > trains or any(c in seen.station_cities for c in plan.stations):
        return None
    if len(pairs) == len(plan.pairs):
        return plan
    return Plan(frozenset(pairs), plan.stations, cost, plan.done, plan.planned, plan.dropped)


def _could_pay(route: Route, seen: Seen) -> bool:
    hand = seen.hand
    locos = hand.get(LOCOMOTIVE, 0)
    if locos < route.ferry:
        return False
    held = seen.most_of_a_color if route.color == GRAY else hand.get(route.color, 0)
    return held + locos >= route.length


def _color_needs(seen: Seen, free: FreePlanned) -> dict[str, int]:
    """Cards the plan's free routes ask for, by colour: coloured routes their colour, grey routes
    the colour the hand holds most of (beyond what coloured routes take), ferries locomotives. Of
    parallel free routes, the one the hand is closest to paying counts."""
    hand = seen.hand
    needs, grey = free.fixed_needs
    needs = dict(needs)
    if free.choices:
        most = seen.most_of_a_color
        chosen = []
        for i, group in free.choices:
            best = None  # the most cards of its colour, then the first
            for r in group:
                held = most if r.color == GRAY else hand.get(r.color, 0)
                if best is None or held > best_held or (held == best_held and r.index < best.index):
                    best, best_held = r, held
            chosen.append((i, best))
        grey = sorted([*grey, *_add_needs(needs, chosen)], key=_longest_first)
    if grey:
        _add_grey_needs(hand, needs, [r for _, r in grey])
    return needs


def _fixed_needs(routes: list[tuple[int, Route]]) -> tuple[dict[str, int], list[tuple[int, Route]]]:
    """What ``routes`` (each with the place of its connection) ask for whatever the hand: their
    colours and ferries' locomotives; and the grey routes, longest first, then by place (their
    colour depends on the hand)."""
    needs: dict[str, int] = {}
    grey = _add_needs(needs, routes)
    return needs, sorted(grey, key=_longest_first) if len(grey) > 1 else grey


def _add_needs(needs: dict[str, int], routes: list[tuple[int, Route]]) -> list[tuple[int, Route]]:
    """Add the colours and the ferries' locomotives of ``routes`` to ``needs``; their grey ones."""
    grey = []
    for i, r in routes:
        if r.ferry:
            needs[LOCOMOTIVE] = needs.get(LOCOMOTIVE, 0) + r.ferry
        if r.color == GRAY:
            grey.append((i, r))
        else:
            needs[r.color] = needs.get(r.color, 0) + r.length - r.ferry
    return grey


def _longest_first(placed: tuple[int, Route]) -> tuple[int, int]:
    return -placed[1].length, placed[0]


def _add_grey_needs(hand: Mapping[str, int], needs: dict[str, int], grey: list[Route]) -> None:
    """Each grey route (longest first) in the colour with the most cards to spare, the first in
    COLORS of equals."""
    if not grey:
        return
    spare = [hand.get(c, 0) - needs.get(c, 0) for c in COLORS]
    for r in grey:
        i = spare.index(max(spare))
        spare[i] -= r.length - r.ferry
        needs[COLORS[i]] = needs.get(COLORS[i], 0) + r.length - r.ferry


def _pay_cost(board: Board, claim: Action, needs: Mapping[str, int]) -> float:
    """How much a payment hurts the rest of the plan: locomotives are worth most, then cards of a
    colour other planned routes need."""
    route = board.routes[board.route_index[claim.route]]
    colored = route.length - claim.locomotives - claim.triples + 3 * claim.triples
    own_need = 0 if route.color == GRAY else route.length
    other_need = max(0, needs.get(claim.color or "", 0) - own_need)
    return claim.locomotives * 3 + colored + (colored if other_need else 0) * 0.5


def _spare(seen: Seen, route: Route, claim: Action) -> int:
    """Cards left after the base payment that could pay a tunnel's extra (R-TUN-5)."""
    colored = route.length - claim.locomotives - claim.triples + 3 * claim.triples
    left_color = seen.cards(claim.color) - colored if claim.color else 0
    return left_color + seen.cards(LOCOMOTIVE) - claim.locomotives
