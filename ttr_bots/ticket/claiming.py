"""The ticket bot's claims: which routes the hand may pay, which claim of the rules' listing to
make and with which payment, a station or a controller's build along the plan, and the claims
for points once the tickets are done or on the last turn.

The claims themselves are always the rules' own (``view.actions("claim-route")``), listed only on
a turn where the hand may pay a route that matters (:func:`may_pay`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence, Sized
from functools import partial

from ttr_core.actions import Action
from ttr_core.board import Board, Route
from ttr_core.cards import GRAY, LOCOMOTIVE
from ttr_core.network import DisjointSets
from ttr_core.seat_view import SeatView
from ttr_bots.legal_by_kind import Listing
from ttr_bots.route_graph import BoardIndex, pair as _pair
from ttr_bots.ticket.cards import cards_lacking, spare_cards
from ttr_bots.ticket.planning import Plan
from ttr_bots.ticket.seen import Seen


def listing(view: SeatView, kind: str) -> Listing:
    """The view's legal actions of ``kind``, listed on first use (iterating, ``len``, ``bool``)."""
    return Listing(partial(view.actions, kind))


def claims_of(claims: Sequence[Action], routes: Sequence[Route]) -> list[Action]:
    """The claims of ``routes`` among ``claims`` (the rules' listing, ``view.actions("claim-route")``)."""
    wanted = {r.id for r in routes}
    return [c for c in claims if c.route in wanted]


def may_pay(seen: Seen, routes: Iterable[Route]) -> list[Route]:
    """Of ``routes``, those the seat has the trains and enough cards for: every space takes a card
    of the route's colour (any one colour for grey) or a locomotive (R-ROUTE-2..3), a 3-for-1
    triple three cards of that colour (R-FER-2). No other route can be claimed now, so a bot
    lists its legal claims only when some route passes."""
    hand, trains = seen.hand, seen.trains
    locos = hand.get(LOCOMOTIVE, 0)
    most = seen.most_of_a_color + locos
    return [r for r in routes if r.length <= trains and r.length <= (most if r.color == GRAY else hand.get(r.color, 0) + locos)]


def could_pay(route: Route, seen: Seen) -> bool:
    """Whether the hand holds the cards for ``route`` (a ferry's locomotives included, R-FER-1),
    trains aside."""
    return cards_lacking(route, seen) == 0


def worth_trying(board: Board, seen: Seen, planned: list[Action], payable: Sequence[Route], can_draw: Sized | bool) -> list[Action]:
    """Of the claims ``planned`` (of the routes ``payable``), those worth making now: a tunnel may
    ask for extra cards (R-TUN-2), so it is tried with a spare card in hand, or when there is
    nothing else to do (``can_draw``'s truth: no card can be drawn)."""
    if not any(r.tunnel for r in payable):
        return planned

    def ok(c: Action) -> bool:
        route = board.routes[board.route_index[c.route]]
        return not route.tunnel or not can_draw or _spare(seen, route, c) >= 1

    return [c for c in planned if ok(c)]


def cheapest_payment(board: Board, planned: Sequence[Action], needs: Mapping[str, int]) -> Action:
    """The claim to make of ``planned``: the longest route, paid with the cards the rest of the
    plan (its colour ``needs``) needs least (:func:`pay_cost`)."""
    return min(planned, key=lambda c: (-board.routes[board.route_index[c.route]].length, pay_cost(board, c, needs), c.route, c.color or ""))


def pay_cost(board: Board, claim: Action, needs: Mapping[str, int]) -> float:
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


def station_to_build(plan: Plan, builds: Sequence[Action]) -> Action | None:
    """The station the plan asks for, of the legal ``builds`` (R-STA-1): the fewest locomotives,
    then the plan's first city, then the colour's name."""
    if not plan.stations:
        return None
    wanted = [b for b in builds if b.city in plan.stations]
    if not wanted:
        return None
    return min(wanted, key=lambda b: (b.locomotives, plan.stations.index(b.city), b.color or ""))


def controller_claim(board: Board, index: BoardIndex, plan: Plan, plays: Sequence[Action]) -> Action | None:
    """A controller (``ussr``, R-CTL-2) builds a planned route the hand cannot pay yet: the
    longest one, as it saves the most cards. Dismantling is left alone: it helps against one
    opponent and costs the turn."""
    if not plan.pairs:
        return None
    pair_at, route_index = index.pair_at, board.route_index
    builds = [a for a in plays if getattr(a, "mode", None) == "build" and pair_at[route_index[a.route]] in plan.pairs]
    if not builds:
        return None
    return max(builds, key=lambda a: (board.routes[board.route_index[a.route]].length, a.route))


def claim_for_points(board: Board, seen: Seen, claims: Sequence[Action]) -> Action | None:
    """With the tickets done: the longest route, to score and to end the game while ahead.
    ``claims`` are listed only if the hand may pay some free route (:func:`may_pay`)."""
    def key(c: Action) -> tuple:
        return board.routes[board.route_index[c.route]].length, -c.locomotives, -c.triples, c.route, c.color or ""

    if not may_pay(seen, [r for r in board.routes if r.index not in seen.owner]):
        return None
    return max(claims, key=key) if claims else None


#: Near the end (every other player down to this many trains, R-END-1), cards the plan does not
#: need pay routes of at least ``SPARE_CLAIM_LENGTH`` for their points instead of waiting in the
#: hand: measured against three ticket bots (bench/data/ticket-bot-end-experiments.jsonl), shorter routes
#: or an earlier start cost more tickets than their points bring.
SPARE_CLAIM_TRAINS = 8
SPARE_CLAIM_LENGTH = 4


def claim_with_spare_cards(board: Board, seen: Seen, plan: Plan, needs: Mapping[str, int], planned: Sequence[Route],
                           claims: Sequence[Action]) -> Action | None:
    """Near the end, with the plan unfinished: the longest route off the plan (``planned``: its
    free routes) that the cards its colour ``needs`` leave pay, with the trains it leaves too; a
    tunnel only with a card to spare for its extra (R-TUN-2). ``claims`` (the rules' listing) are
    asked for only if some route could be paid so."""
    trains = seen.trains - plan.cost
    if seen.min_other_trains > SPARE_CLAIM_TRAINS or trains < SPARE_CLAIM_LENGTH:
        return None
    spare, locos = spare_cards(needs, seen)
    most = max(spare.values(), default=0) + locos
    on_plan = {r.index for r in planned}
    if not any(SPARE_CLAIM_LENGTH <= r.length <= min(trains, most) and r.index not in seen.owner and r.index not in on_plan
               for r in board.routes):
        return None
    on_plan_ids = {r.id for r in planned}
    best: tuple[tuple, Action] | None = None
    for c in claims:
        if c.route in on_plan_ids:
            continue
        route = board.routes[board.route_index[c.route]]
        colored = route.length - c.locomotives + 2 * c.triples  # (a triple's three cards pay one space)
        if not SPARE_CLAIM_LENGTH <= route.length <= trains or c.locomotives > locos or colored > spare.get(c.color, 0):
            continue
        if route.tunnel and spare.get(c.color, 0) - colored + locos - c.locomotives < 1:
            continue
        key = (route.length, -c.locomotives, c.route, c.color or "")
        if best is None or key > best[0]:
            best = (key, c)
    return None if best is None else best[1]


def last_turn_action(board: Board, index: BoardIndex, seen: Seen, claims: Sequence[Action], builds: Sequence[Action]) -> Action | None:
    """The last turn: the claim or station worth most points now (route points, plus twice
    the points of each ticket it completes, as a failed ticket counts against); None if none
    gains anything."""
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
    for b in builds:
        ci = board.city_index[b.city]
        joins = [(r.ai, r.bi) for r in index.at[ci] if seen.owner.get(r.index, seen.seat) != seen.seat]
        gain = max((completes(j) for j in joins), default=0) - 4.5  # the 4 points of a station kept
        key = (gain, b.city + (b.color or ""), b)
        best = key if best is None or key[:2] > best[:2] else best
    return best[2] if best is not None and best[0] > 0 else None


def fallback(legal: Sequence[Action], rng: random.Random) -> Action:
    """Nothing planned can be done and no card can be drawn: anything but what costs points
    (a station is 4 points kept, R-STA-5; new tickets may fail), those only if nothing else; of
    several, one by ``rng``."""
    costly = ("build-station", "draw-tickets")
    rest = [a for a in legal if a.kind not in costly] or [a for a in legal if a.kind == "draw-tickets"] or legal
    return rest[0] if len(rest) == 1 else rng.choice(rest)
