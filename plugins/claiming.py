"""Claiming a route: what must be paid and what happens when it is (R-ROUTE-1..5, R-SCORE-1).

Ferries (R-FER) and tunnels (R-TUN) plug in here through ``ttr_ferry_payment`` and
``ttr_claim_started``; parallel routes through ``ttr_closed_routes``.
"""

from __future__ import annotations

from ttr_core.actions import ClaimRoute
from ttr_core.board import Route
from ttr_core.cards import COLORS, GRAY
from ttr_core.errors import CannotPay, MalformedAction, RouteTaken
from ttr_core.plugin import Plugin, hookimpl

_COLOR_ID = {c: i for i, c in enumerate(COLORS)}

# Actions are immutable values, so the legal-action lists of every game share them: building
# ~100 ClaimRoute objects per turn was most of the cost of listing legal actions.
_CLAIMS: dict[tuple, ClaimRoute] = {}
_CLAIMS_LIMIT = 200_000


def _claim(route_id: str, color: int, locomotives: int, triples: int) -> ClaimRoute:
    key = (route_id, color, locomotives, triples)
    action = _CLAIMS.get(key)
    if action is None:
        if len(_CLAIMS) >= _CLAIMS_LIMIT:
            _CLAIMS.clear()
        action = _CLAIMS[key] = ClaimRoute(route_id, COLORS[color] if color >= 0 else None, locomotives, triples)
    return action


def closed_routes(game, seat) -> dict[int, str]:
    closed: dict[int, str] = {}
    for answer in game.hook.ttr_closed_routes(game=game, seat=seat):
        closed.update(answer or {})
    return closed


def spent_cards(game, route: Route, action: ClaimRoute) -> list[tuple[int, int]]:
    """The cards a checked payment takes from the hand, as ``[(card id, count), ...]``."""
    colored = route.length - action.locomotives - action.triples
    out = []
    if colored + action.triples:
        out.append((_COLOR_ID[action.color], colored + 3 * action.triples))
    if action.locomotives:
        out.append((game.cards.locomotive, action.locomotives))
    return out


def build_route(game, seat: int, route: Route, paid: list[tuple[int, int]]) -> None:
    """Make ``route`` ``seat``'s: the paid cards (already out of the hand) go to the discard, trains
    are placed and the route scores at once (R-ROUTE-2)."""
    st = game.state
    for card, n in paid:
        st.discard.extend([card] * n)
    player = st.players[seat]
    st.owner[route.index] = seat
    player.trains -= route.length
    player.routes.append(route.index)
    player.route_points += game.route_points(route.length)
    game.hook.ttr_route_claimed(game=game, seat=seat, route=route)


def take_from_hand(hand: list[int], paid: list[tuple[int, int]]) -> None:
    for card, n in paid:
        hand[card] -= n


class Claiming(Plugin):
    @hookimpl
    def ttr_register_actions(self, registry):
        registry.add(ClaimRoute, self)

    @staticmethod
    def _ferry(game):
        return game.policy("ttr_ferry_payment")

    # --- legal actions ------------------------------------------------------------------------

    def _routes(self, board) -> list[tuple]:
        # Board facts flattened once per ruleset (this instance serves its games, on its board):
        # this loop runs for every route at every turn, so it reads tuples, not attrs objects.
        try:
            return self._table
        except AttributeError:
            self._table = [
                (r.index, r.id, r.length, _COLOR_ID.get(r.color, -1), r.ferry, r) for r in board.routes
            ]
            return self._table

    def legal(self, game, seat) -> list[ClaimRoute]:
        """One payment per route and paying colour, the cheapest (fewest locomotives), from card counts."""
        st = game.state
        player = st.players[seat]
        hand, trains, owner = player.hand, player.trains, st.owner
        closed = closed_routes(game, seat)
        ferry = self._ferry(game)
        nl = hand[game.cards.locomotive]
        have = [c for c in range(len(COLORS)) if hand[c]]
        out: list[ClaimRoute] = []
        add = out.append
        for index, rid, length, color, marks, route in self._routes(game.board):
            if owner[index] >= 0 or length > trains or index in closed:
                continue
            colors = have if color < 0 else ((color,) if hand[color] else ())
            if marks and ferry is not None:
                for c in colors:
                    for locos, triples in ferry.options(route, hand[c], nl):
                        # the all-locomotive payment is offered once, below, without a colour; a
                        # payment of triples only (R-FER-2, every space marked) does use the colour
                        if locos < length:
                            add(_claim(rid, c, locos, triples))
            else:
                for c in colors:
                    locos = length - hand[c]
                    if locos <= nl:
                        add(_claim(rid, c, locos if locos > 0 else 0, 0))
            if nl >= length:
                add(_claim(rid, -1, length, 0))
        return out

    # --- checking and applying ---------------------------------------------------------------

    def check(self, game, seat, action: ClaimRoute) -> None:
        route = self._route(game, seat, action)
        st = game.state
        if st.owner[route.index] >= 0:
            raise RouteTaken(seat, action, f"{route.id} belongs to seat {st.owner[route.index]} already (R-ROUTE-5)")
        reason = closed_routes(game, seat).get(route.index)
        if reason:
            raise RouteTaken(seat, action, reason)
        player = st.players[seat]
        if player.trains < route.length:
            raise CannotPay(seat, action, f"{route.id} needs {route.length} trains, seat has {player.trains} (R-ROUTE-2)")
        problem = self.payment_problem(game, route, action)
        if problem:
            raise CannotPay(seat, action, problem)
        for card, n in spent_cards(game, route, action):
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
        route = game.board.routes[game.board.route_index[action.route]]
        paid = spent_cards(game, route, action)
        take_from_hand(game.state.players[seat].hand, paid)
        decision = game.hook.ttr_claim_started(game=game, seat=seat, route=route, payment=action)
        if decision is None:
            build_route(game, seat, route, paid)
        else:
            game.state.players[seat].decision = decision
