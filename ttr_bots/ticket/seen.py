"""What the ticket bot's seat knows, read from its view only: :class:`Seen`, one a decision, and
what is kept from one reading to the next (the routes' owners, :class:`RouteOwners`; what the
ruleset shows, :class:`RulesMemo`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import compress
from operator import ne
from typing import Any

import attrs

from ttr_core.cards import COLORS
from ttr_core.seat_view import SeatView

_COLOR_CARDS = len(COLORS)


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


def read_view(view: SeatView, owner: Mapping[int, int] | None = None) -> Seen:
    """What the seat knows, from its view; ``owner``: the view's route owners by route index, if
    already worked out. (A bot reading at every decision keeps a :class:`SeatReader`.)"""
    if owner is None:
        owner = {r: s for r, s in enumerate(view.owner) if s >= 0}
    stations = view.rules.get("stations") or ()
    return SeatReader().read(view, owner, stations)


class RulesMemo:
    """What a bot works out once for the ruleset it plays: whether its views show stations
    (``shows_stations``: a plugin's part of the view). A bot keeps the memo of the ruleset it was
    last asked about (:meth:`~ttr_bots.ticket.TicketBot.rules_memo`), the ruleset itself kept as
    the key; a copy of the bot shares it."""

    __slots__ = ("ruleset", "shows_stations")

    def __init__(self, view: SeatView):
        self.ruleset = view.ruleset
        self.shows_stations = "stations" in view.rules

    def __deepcopy__(self, memo: dict) -> RulesMemo:
        return self  # it holds only what the ruleset fixes


class RouteOwners:
    """The routes' owners as one bot last saw them, kept from decision to decision: ``owners`` (by
    route index, -1 for free, as the view gave them), ``owner`` (the owned ones, a dict), a
    ``version`` that changes whenever they do, and the routes ``moved`` (claimed or released)
    since its planner last looked (the planner empties it)."""

    __slots__ = ("owners", "owner", "version", "moved", "_routes_seen")

    def __init__(self) -> None:
        self.owners: Sequence[int] | None = None
        self.owner: dict[int, int] = {}
        self.version = 0
        self.moved: set[int] = set()
        self._routes_seen: list[tuple[int, ...]] | None = None  # each player's routes, as last seen

    def see(self, owners: Sequence[int], players: Sequence[Any]) -> None:
        """Take the routes' owners (by route index, -1 for free): the routes claimed or released
        (a controller's dismantling, R-CTL-2) since last seen join ``moved``, and ``version``
        changes. ``players``: the players' states, whose public lists of routes tell the routes
        claimed since without comparing every route's owner."""
        changed = self._claimed_since(owners, players)
        if changed is None:
            before = self.owners or [-1] * len(owners)
            changed = list(compress(range(len(owners)), map(ne, before, owners)))
            self._routes_seen = [p.routes for p in players]
        owner = dict(self.owner)  # a new dict: the seen of earlier decisions keep theirs
        for r in changed:
            if owners[r] >= 0:
                owner[r] = owners[r]
            else:
                del owner[r]
        self.moved.update(changed)
        self.owners, self.owner = owners, owner
        self.version += 1

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


class SeatReader:
    """:func:`read_view` for one bot, keeping what comes back read after read: the routes' owners
    (:class:`RouteOwners`, ``owners``), the last decision read and what its player sees of it
    (decisions are frozen values, and the same one, the second card's, is read turn after turn)."""

    __slots__ = ("owners", "_decision", "_private")

    def __init__(self) -> None:
        self.owners = RouteOwners()
        self._decision: Any = None
        self._private: Mapping[str, Any] | None = None

    def read_turn(self, view: SeatView, rules: RulesMemo) -> Seen:
        """What the seat knows now, the owners taken into ``owners``; the stations, a plugin's
        part of the view, where the variant has them (``rules``: the ruleset's memo)."""
        stations = view.rules["stations"] if rules.shows_stations else ()
        owners = view.owner
        kept = self.owners
        if owners != kept.owners:
            kept.see(owners, view.players)
        return self.read(view, kept.owner, stations)

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
