"""Claiming a route: what must be paid and what happens when it is (R-ROUTE-1..5, R-SCORE-1).

This plugin owns the ``claim-route`` action and declares the two hooks of the capability
``route-claims``: ``ttr_ferry_payment`` (what a ferry's locomotive marks demand, R-FER, answered
by ``ferries``) and ``ttr_claim_started`` (a claim that goes on as a decision, a tunnel, R-TUN,
answered by ``tunnels``), whose specs are in :mod:`ttr_core.roles.route_claims`. Parallel routes
close through the core's ``ttr_closed_routes``.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from itertools import repeat
from operator import add, sub
from types import MappingProxyType
from typing import ClassVar, NamedTuple

import attrs

from ttr_core.plugin import (
    CANNOT_PAY, COLORS, GRAY, TRAINS, Action, CannotPay, ClaimOptions, GameAPI, MalformedAction,
    Payment, Plugin, Refusal, Route, RouteTaken, hookimpl,
)
from ttr_core.roles.route_claims import RouteClaimHooks


@attrs.frozen(cache_hash=True)  # a listed claim is looked up by value at its check (``_Payable.fit_of``)
class ClaimRoute(Action):
    """Claim ``route`` (its id), paying in ``color`` with ``locomotives`` locomotives and ``triples``
    3-for-1 triples (R-FER-2); the other spaces are paid in ``color``. ``color`` is None for an
    all-locomotive payment."""

    kind: ClassVar[str] = "claim-route"
    route: str
    color: str | None = None
    locomotives: int = 0
    triples: int = 0


_COLOR_ID = MappingProxyType({c: i for i, c in enumerate(COLORS)})
_COLOR_IDS = range(len(COLORS))

_LOCOS = len(COLORS)  # the paying kind "all locomotives", after the colours
_FERRIES = _LOCOS + 1  # the paying kind "a ferry in colour c" is _FERRIES + c (with a ferry rule)

#: how many runs of free-route counts one ruleset's tables remember (``_Payable.fewer_after``):
#: they recur across games, but the runs a long series of games reaches are not bounded otherwise
_COUNTS_KEPT = 200_000


class _ClaimFit(NamedTuple):
    """A claim the tables list, checked to fit its route when they were built."""

    claim: ClaimRoute
    route: Route
    #: the cards the payment takes from the hand, ``((card id, count), ...)``
    paid: tuple[tuple[int, int], ...]


class _Payable:
    """Which routes a hand can pay, by paying kind and length, and the claim each payment is: what
    listing claims reads instead of every route.

    A route of ``L`` spaces can be paid in colour ``c`` (its own, or any for grey, R-ROUTE-3) with
    ``h > 0`` cards of it and ``n`` locomotives when ``L <= h + n``, with ``max(0, L - h)``
    locomotives; all in locomotives when ``L <= n``; by nobody with fewer than ``L`` trains. With a
    ferry rule, a ferry's claims are not tabled (their kinds are ``_FERRIES + c``): the rule says
    which payments fit, among those of ``L <= h + n`` (a payment takes a card per space, a triple
    three).

    Claims have places in one table, ``claim_at``, in the order they are listed: by route index,
    then paying colour in card order, all locomotives last. Each way to pay a route of ``L`` spaces
    (a route and a paying kind) has a block of ``L`` places from its *slot*: ``claim_at[slot]`` is
    the claim paying the route without locomotives (for the all-locomotive kind, all in
    locomotives), and ``claim_at[slot + h]`` the claim of a hand holding ``h`` cards of the
    colour, fewer than the route's length: the rest in locomotives. So a hand's claims are slices
    of the slots of its kinds, sorted, then looked up, with no step per claim in Python.
    ``route_at[place]`` is the route index of a place, and a route's places run from
    ``first_place[index]`` to ``first_place[index + 1]``.

    ``by_length[kind][L]`` are the slots of the routes of ``L`` spaces payable in
    ``kind``; by route index, ``slots_of`` are ``(kind, slot)`` for every way to pay it and
    ``length_of`` its spaces; ``fewer[L]`` is one for each length from ``L``: what a route of ``L``
    spaces takes from the counts of its kinds by length (``_FreeRoutes.ends``), and
    ``fewer_after[L]`` the counts that follow from each counts seen when a route of ``L`` spaces
    leaves (``_FreeRoutes._take``).
    ``unclaimed`` are the free routes of a game in which nobody owns a route yet;
    ``ferry_claims[(slot, h, n)]`` the claims of a ferry's slot for ``h`` cards of its colour and
    ``n`` locomotives (``Claiming._ferry_claims``; hands are few: the deck bounds them).
    ``actions`` holds every claim made from these tables, by ``(route id, colour id or -1,
    locomotives, triples)``: actions are immutable values, so the listings of every game of the
    ruleset share them, and a listed claim is known again by ``fit_of``.
    """

    def __init__(self, routes: Sequence[Route], ferry_rule: bool, locomotive: int):
        self.locomotive = locomotive
        self.top = max((r.length for r in routes), default=0)
        self.width = self.top + 1
        self.routes = [(r.id, r) for r in routes]
        self.index_of = {r.id: r.index for r in routes}
        self.ferries = ferry_rule and any(r.ferry for r in routes)
        kinds = _FERRIES + len(COLORS) if self.ferries else _LOCOS + 1
        self.actions: dict[tuple[str, int, int, int], ClaimRoute] = {}
        self.claim_at: list[ClaimRoute | None] = []
        self.route_at: list[int] = []
        self.first_place: list[int] = []
        self.by_length: list[list[list[int]]] = [[[] for _ in range(self.width)] for _ in range(kinds)]
        self.slots_of: list[list[tuple[int, int]]] = [[] for _ in routes]
        self.fewer = [(0,) * length + (1,) * (self.width - length) for length in range(self.width)]
        self.fewer_after: list[dict[tuple[int, ...], tuple[int, ...]]] = [{} for _ in range(self.width)]
        self.length_of = [r.length for r in routes]
        self.tabled: list[tuple[ClaimRoute, ...]] = []
        self.ferry_claims: dict[tuple[int, int, int], tuple[ClaimRoute, ...]] = {}
        self.fits: dict[ClaimRoute, _ClaimFit] = {}
        for r in routes:  # in index order: the board's routes are listed by index
            self.first_place.append(len(self.claim_at))
            colors = range(len(COLORS)) if r.color == GRAY else (_COLOR_ID[r.color],)
            for c in colors:
                if ferry_rule and r.ferry:
                    self._add(r, _FERRIES + c, c, None)
                else:
                    self._add(r, c, c, tuple(self.claim(r.id, c, locos, 0) for locos in range(r.length + 1)))
            self._add(r, _LOCOS, -1, tuple(self.claim(r.id, -1, locos, 0) for locos in range(r.length + 1)))
        self.first_place.append(len(self.claim_at))
        self.unclaimed = _FreeRoutes(self, [-1] * len(routes), 0)

    def claim(self, route_id: str, color: int, locomotives: int, triples: int) -> ClaimRoute:
        """The claim of ``route_id`` paid in colour id ``color`` (-1: all in locomotives), one
        object for every listing of the ruleset (``actions``)."""
        form = (route_id, color, locomotives, triples)
        action = self.actions.get(form)
        if action is None:
            action = self.actions[form] = ClaimRoute(route_id, COLORS[color] if color >= 0 else None, locomotives, triples)
        return action

    def _add(self, r: Route, kind: int, color: int, claims: tuple[ClaimRoute, ...] | None) -> None:
        """Give the way to pay ``r`` in ``kind`` its block of places, holding ``claims`` (by
        locomotives) if it is tabled."""
        slot = len(self.claim_at)
        self.by_length[kind][r.length].append(slot)
        self.slots_of[r.index].append((kind, slot))
        block: list[ClaimRoute | None] = [None] * r.length
        if claims is not None:
            self.tabled.append(claims)
            block[0] = claims[-1 if color < 0 else 0]
            for h in range(1, r.length):
                block[h] = claims[r.length - h]
        self.claim_at += block
        self.route_at += [r.index] * r.length

    def known_claims(self, routes: Sequence[Route], payment_problem) -> None:
        """``fits``: each tabled claim whose payment fits its route (``payment_problem``), with its
        route and the cards it takes. Listed claims are these objects, so checking and applying
        one needs no second look at its form and payment."""
        for claims in self.tabled:
            for claim in claims:
                route = routes[self.index_of[claim.route]]
                if payment_problem(route, claim) is None:
                    self.fits[claim] = _ClaimFit(claim, route, _spent(route, claim, self.locomotive))

    def fit_of(self, action: ClaimRoute) -> _ClaimFit | None:
        """How ``action`` fits, if it is one of the claims these tables list (the same object),
        else None: an equal claim made elsewhere is checked the long way, as its fields may be
        of other types (``True`` for 1)."""
        try:
            fit = self.fits.get(action)
        except TypeError:  # a field no listed claim has (a list, a dict): checked the long way
            return None
        return fit if fit is not None and fit.claim is action else None


class _FreeRoutes:
    """``_Payable.by_length`` less the routes someone owns, for one game (in ``game.memo``), with
    the owners it was sorted by. Ownership is compared, not assumed, before every use, so whatever
    changed the state (an action, a rollback, a position loaded by hand) is taken in.

    ``keyed[kind]`` are the keys of the free routes payable in ``kind``, by length then map order,
    and ``ends[kind][m]`` how many of them have at most ``m`` spaces: what a hand can pay in one
    kind is one slice, ``keyed[kind][:ends[kind][m]]``. A kind's counts are replaced, never
    changed, so copies share them. Keys are the slots of ``_Payable``."""

    __slots__ = ("owner", "counts", "keyed", "ends")

    def __init__(self, payable: _Payable, owner: list[int], players: int):
        """The free routes where ``owner`` gives each route's seat (-1: free), for ``players``
        players whose route lists are yet to be read (``sync``)."""
        self.owner = owner[:]
        self.counts = [0] * players
        route_at = payable.route_at
        free = [[[k for k in keys if owner[route_at[k]] < 0] for keys in kind] for kind in payable.by_length]
        self.keyed = [[k for keys in kind for k in keys] for kind in free]
        self.ends = [tuple(itertools.accumulate(map(len, kind))) for kind in free]

    def copy(self) -> _FreeRoutes:
        """An independent copy (``game.clone()`` takes one)."""
        twin = object.__new__(_FreeRoutes)
        twin.owner, twin.counts = self.owner[:], self.counts[:]
        twin.keyed = [keys[:] for keys in self.keyed]
        twin.ends = self.ends[:]
        return twin

    def sync(self, payable: _Payable, st: GameState) -> None:
        """Take in the owners of ``st``: the listing calls this when they differ from ``owner``."""
        owner, kept = st.owner, self.owner
        # a claim appends the route to its owner's list: the routes after those read last leave;
        # anything else (a route freed, a state replaced) leaves owners that still differ, and
        # then the free routes are worked out anew
        counts = self.counts
        for seat, player in enumerate(st.players):
            routes = player.routes
            if len(routes) != counts[seat]:
                for r in routes[counts[seat]:]:
                    if kept[r] < 0 <= owner[r]:
                        self._take(payable, r)
                        kept[r] = owner[r]
                counts[seat] = len(routes)
        if kept != owner:
            anew = _FreeRoutes(payable, owner, len(counts))
            self.owner, self.keyed, self.ends = anew.owner, anew.keyed, anew.ends

    def _take(self, payable: _Payable, r: int) -> None:
        """Route ``r`` is no longer free."""
        length = payable.length_of[r]
        keyed, ends, after = self.keyed, self.ends, payable.fewer_after[length]
        for kind, slot in payable.slots_of[r]:
            keyed[kind].remove(slot)
            # the same counts recur across kinds and games: one look-up, not one subtraction per length
            counts = ends[kind]
            fewer = after.get(counts)
            if fewer is None:
                if len(after) >= _COUNTS_KEPT:
                    after.clear()
                fewer = after[counts] = tuple(map(sub, counts, payable.fewer[length]))
            ends[kind] = fewer


def _drop_closed(keys: list[int], closed, first_place: list[int]) -> None:
    """Take the claims of the ``closed`` routes out of the sorted ``keys`` (a route's places lie
    from its ``first_place`` to the next route's)."""
    for index in closed:
        lo = bisect.bisect_left(keys, first_place[index])
        hi = bisect.bisect_left(keys, first_place[index + 1], lo)
        if lo < hi:
            del keys[lo:hi]


def spent_cards(game: GameAPI, route: Route, action: ClaimRoute) -> tuple[tuple[int, int], ...]:
    """The cards a checked payment takes from the hand, as ``((card id, count), ...)``."""
    return _spent(route, action, game.cards.locomotive)


def _spent(route: Route, action: ClaimRoute, locomotive: int) -> tuple[tuple[int, int], ...]:
    colored = route.length - action.locomotives - action.triples
    out = []
    if colored + action.triples:
        out.append((_COLOR_ID[action.color], colored + 3 * action.triples))
    if action.locomotives:
        out.append((locomotive, action.locomotives))
    return tuple(out)


class Claiming(Plugin):
    provides = ("route-claims",)
    title = "Claiming routes"
    deterministic = True

    @hookimpl
    def ttr_addhooks(self, pluginmanager):
        pluginmanager.add_hookspecs(RouteClaimHooks)

    @hookimpl
    def ttr_register_actions(self, registry):
        registry.add(ClaimRoute, self)

    @staticmethod
    def _ferry(game):
        return game.policy("ttr_ferry_payment")

    # --- legal actions ------------------------------------------------------------------------

    #: tables about the ruleset filled as its games ask (see ``Plugin.caches``)
    caches = ("_tables",)

    def __init__(self, config=None):
        super().__init__(config)
        #: board facts gathered at the first listing (this instance serves its games, on one board
        #: and one ferry rule), read for every seat at every turn: ``self._tables or self._payable(game)``
        self._tables: _Payable | None = None

    def _payable(self, game) -> _Payable:
        if self._tables is None:
            tables = _Payable(game.board.routes, self._ferry(game) is not None, game.cards.locomotive)
            tables.known_claims(game.board.routes, lambda route, claim: self.payment_problem(game, route, claim))
            self._tables = tables
        return self._tables

    def legal(self, game, seat) -> list[ClaimRoute]:
        """One payment per route and paying colour, the cheapest (fewest locomotives), from card
        counts: routes in map order, each in its paying colours in card order, then in locomotives.

        What the counts can pay is a slice of the free routes per paying kind (:class:`_Payable`,
        :class:`_FreeRoutes`), not a search route by route."""
        st = game.state
        player = st.players[seat]
        hand = player.hand
        payable = self._tables or self._payable(game)
        # the game's free routes (kept in ``game.memo``), brought up to date with the owners
        memo = getattr(game, "memo", None)
        free = None if memo is None else memo.get(self.name)
        if free is None:
            free = self._new_free_routes(game, payable, memo)
        elif free.owner != st.owner:
            free.sync(payable, st)
        keyed, ends = free.keyed, free.ends
        top = payable.top if payable.top < player.trains else player.trains
        nl = hand[payable.locomotive]
        m = nl if nl < top else top
        keys = keyed[_LOCOS][:ends[_LOCOS][m]] if m > 0 else []
        for c in _COLOR_IDS:
            h = hand[c]
            if h:
                # every payment takes a card per space, locomotives or of its colour (a triple, three):
                # the routes of up to h spaces take no locomotives, the longer ones the difference
                m = h + nl if h + nl < top else top
                if h < m:
                    by_length = ends[c]
                    keys += keyed[c][:by_length[h]]
                    keys += map(add, keyed[c][by_length[h]:by_length[m]], repeat(h))
                else:
                    keys += keyed[c][:ends[c][m]]
        keys.sort()
        closed = game.closures(seat)  # the routes the seat may not claim now (R-PAR)
        if closed:
            _drop_closed(keys, closed, payable.first_place)
        out = list(map(payable.claim_at.__getitem__, keys))
        if payable.ferries:
            self._add_ferries(game, payable, free, out, keys, hand, nl, top, closed)
        return out

    def _add_ferries(
        self, game, payable: _Payable, free: _FreeRoutes, out: list[ClaimRoute], keys: list[int],
        hand: Sequence[int], nl: int, top: int, closed,
    ) -> None:
        """Put the free ferries' claims among ``out`` (listed by ``keys``), in map order: their rule
        says which payments fit (R-FER-1..2), the cheapest for each number of triples."""
        route_at = payable.route_at
        known = payable.ferry_claims
        found = []
        for c in _COLOR_IDS:
            h = hand[c]
            m = h + nl if h + nl < top else top
            if not h or m <= 0:
                continue
            kind = _FERRIES + c
            for slot in free.keyed[kind][:free.ends[kind][m]]:
                if route_at[slot] in closed:
                    continue
                claims = known.get((slot, h, nl))
                if claims is None:
                    claims = self._ferry_claims(game, payable, slot, c, h, nl)
                if claims:
                    found.append((slot, claims))
        for slot, claims in sorted(found, reverse=True):  # from the last, so the places before stay put
            i = bisect.bisect_left(keys, slot)
            out[i:i] = claims

    def _ferry_claims(self, game, payable: _Payable, slot: int, c: int, h: int, nl: int) -> tuple[ClaimRoute, ...]:
        """The claims of the ferry payment at ``slot`` (a route in colour ``c``) open to a hand of
        ``h`` cards of ``c`` and ``nl`` locomotives, kept in ``payable.ferry_claims``."""
        rid, route = payable.routes[payable.route_at[slot]]
        # the all-locomotive payment is offered once, without a colour; a payment of
        # triples only (R-FER-2, every space marked) does use the colour
        options = self._ferry(game).options(route, h, nl)
        claims = tuple(payable.claim(rid, c, locos, t) for locos, t in options if locos < route.length)
        payable.ferry_claims[(slot, h, nl)] = claims
        return claims

    def _new_free_routes(self, game, payable: _Payable, memo: dict | None) -> _FreeRoutes:
        """The free routes of ``game``, which keeps none yet: kept in its ``memo`` (if it has one)."""
        free = payable.unclaimed.copy()
        free.counts = [0] * len(game.state.players)
        if memo is not None:
            memo[self.name] = free
        free.sync(payable, game.state)
        return free

    # --- every payment of a hand (ttr_core.claims.claim_options) --------------------------------

    @hookimpl
    def ttr_claim_options(self, game, seat, route: Route) -> ClaimOptions:
        """Every payment the seat's hand can make for ``route``: each paying colour (the route's, or
        any one for grey, R-ROUTE-3), each number of locomotives and of 3-for-1 triples, kept if this
        plugin's own check accepts it (R-ROUTE-2..3, ferry marks through ``ttr_ferry_payment``,
        R-FER-1..2) and the hand holds its cards. An all-locomotive payment is listed once, without
        a colour, as ``legal`` lists it."""
        hand = game.state.players[seat].hand
        colors = COLORS if route.color == GRAY else (route.color,)
        payable = self._tables or self._payable(game)
        found = []
        for color in (*colors, None):
            for triples in range(route.length + 1 if color is not None else 1):
                for locos in range(route.length - triples + 1):
                    if (color is None) != (locos == route.length):
                        continue
                    action = payable.claim(route.id, _COLOR_ID[color] if color is not None else -1, locos, triples)
                    if self.payment_problem(game, route, action):
                        continue
                    paid = spent_cards(game, route, action)
                    if all(hand[card] >= n for card, n in paid):
                        cards = {game.cards.names[card]: n for card, n in paid}
                        found.append((locos, sum(cards.values()), len(found), Payment(action, cards)))
        payments = tuple(p for *_, p in sorted(found, key=lambda f: f[:3]))
        if payments:
            return ClaimOptions(route.id, payments)
        held = ", ".join(f"{n} {name}" for name, n in game.cards.counts_by_name(hand).items()) or "no cards"
        spaces = f"{route.length} {route.color if route.color != GRAY else 'grey'} space(s)"
        marks = f", {route.ferry} of them locomotive marks (R-FER)" if route.ferry else ""
        return ClaimOptions(route.id, (), Refusal(
            CANNOT_PAY, f"the hand ({held}) cannot pay {route.id}: {spaces}{marks} (R-ROUTE-2..3)"
        ))

    # --- checking and applying ---------------------------------------------------------------

    def check(self, game, seat, action: ClaimRoute) -> None:
        # a claim this plugin lists (the same object) has its form and payment known to fit
        fit = (self._tables or self._payable(game)).fit_of(action)
        if fit is not None:
            route, paid = fit.route, fit.paid
        else:
            route, paid = self._route(game, seat, action), None
        refusal = game.claim_problem(seat, route)
        if refusal is not None:
            # R-ROUTE-2: too few trains is a payment the seat cannot make; every other refusal
            # (taken, a closure of any rule's code) means the route is not the seat's to take
            error = CannotPay if refusal.code == TRAINS else RouteTaken
            raise error(seat, action, refusal.reason)
        player = game.state.players[seat]
        if paid is None:
            problem = self.payment_problem(game, route, action)
            if problem:
                raise CannotPay(seat, action, problem)
            paid = spent_cards(game, route, action)
        for card, n in paid:
            if player.hand[card] < n:
                raise CannotPay(
                    seat, action, f"the payment needs {n} {game.cards.names[card]}, the hand has {player.hand[card]}"
                )

    def _route(self, game, seat, action: ClaimRoute) -> Route:
        if not isinstance(action.route, str) or action.route not in game.board.route_index:
            raise MalformedAction(seat, action, f"no route {action.route!r} on map {game.board.id!r}")
        for name in ("locomotives", "triples"):
            value = getattr(action, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise MalformedAction(seat, action, f"{name} must be a whole number from 0")
        return game.board.routes[game.board.route_index[action.route]]

    def payment_problem(self, game, route: Route, action: ClaimRoute) -> str | None:
        """Why this payment does not pay this route (R-ROUTE-2..3, R-FER), or None."""
        colored = route.length - action.locomotives - action.triples
        if colored < 0:
            return f"{route.id} has {route.length} spaces; {action.locomotives} locomotives and {action.triples} triples pay more"
        if colored + action.triples > 0:
            if action.color not in _COLOR_ID:
                return f"pay {colored} spaces in one colour: color must be one of {', '.join(COLORS)}, not {action.color!r}"
            if route.color != GRAY and action.color != route.color:
                return f"{route.id} is {route.color}: it cannot be paid in {action.color} (R-ROUTE-3)"
        elif action.color is not None and action.color not in _COLOR_ID:
            return f"unknown colour {action.color!r}"
        ferry = self._ferry(game)
        if ferry is not None:
            return ferry.problem(route, action.locomotives, action.triples)
        if action.triples:
            return "3-for-1 triples are not part of these rules"
        return None

    def apply(self, game, seat, action: ClaimRoute) -> None:
        fit = (self._tables or self._payable(game)).fit_of(action)
        if fit is not None:
            route, paid = fit.route, fit.paid
        else:
            route = game.board.routes[game.board.route_index[action.route]]
            paid = spent_cards(game, route, action)
        hand = game.state.players[seat].hand
        for card, n in paid:
            hand[card] -= n
        decision = None
        if "ttr_claim_started" in game.hook.implemented:  # tunnels (europe): a claim may wait for a decision
            decision = game.hook.ttr_claim_started(
                game=game, seat=seat, route=route, color=action.color, locomotives=action.locomotives, paid=paid
            )
        if decision is None:
            game.place_route(seat, route, paid)
        else:
            game.state.players[seat].decision = decision
