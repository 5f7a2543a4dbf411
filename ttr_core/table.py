"""Operations on the table that every rule set shares: drawing a card, placing a route with its
payment, freeing a route, and asking which routes are closed or why one cannot be claimed.

They are methods of the game (``game.draw_card()``, ``game.place_route(...)``), so that every
plugin, the position loader and the test kit move cards, trains and points the same way, and the
documented hooks (``ttr_deck_ran_out``, ``ttr_route_claimed``, ``ttr_route_released``,
``ttr_closed_routes``) fire whoever acts. What a payment must be, what a claim costs beyond the
cards, what a route scores and what happens when the deck runs out are rules: they stay in the
plugins (claiming, tunnels, ferries, controller, route-points, train-cards).
"""

from __future__ import annotations

import re

from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

import attrs

if TYPE_CHECKING:
    from ttr_core.board import Route
    from ttr_core.state import GameState
    from ttr_core.manager import RulesetHooks
    from ttr_core.prepared import PreparedRules

#: why a route cannot be claimed, as machine-readable codes (``Refusal.code``): the facts of the
#: table the core itself finds. A plugin closing routes gives codes of its own (``parallel-routes``:
#: ``own-parallel``, ``closed-parallel``), documented with it.
TAKEN = "taken"  # another seat, or this one, owns the route: a route has one owner (R-ROUTE-5)
CLOSED = "closed"  # closed by a rule that gave only a reason (a string answer of ttr_closed_routes)
TRAINS = "not-enough-trains"  # more spaces than the seat has trains (R-ROUTE-2)
CANNOT_PAY = "cannot-pay"  # no payment the hand can make fits the route (``ttr_core.claims``)


@attrs.frozen
class Refusal:
    """Why a seat cannot claim a route: ``code`` for programs (the core's ``taken``, ``closed``,
    ``not-enough-trains``, ``cannot-pay``, or the code of the plugin that refused, such as
    ``own-parallel``), ``reason`` (with its rule id) for people."""

    code: str
    reason: str

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules the reason cites, in order, as it cites them (``R-ROUTE-2``, docs/rules.md#R-ROUTE-2;
        ``R-ROUTE-2..3``): what a page may link to for why."""
        return tuple(m.group(0) for m in re.finditer(_RULE_ID, self.reason))

    @property
    def words(self) -> str:
        """The reason without its rule ids, for players."""
        return re.sub(r"\s{2,}", " ", re.sub(_CITED, "", self.reason)).strip()


#: patterns, not compiled objects: the re module keeps what it compiled
_RULE_ID = r"\bR-[A-Z]+(?:-\d+(?:\.\.\d+)?)?"
_CITED = r"\s*\((?:R-[A-Z]+(?:-[\w.]+)*(?:[,;/] *)?)+\)"  # "(R-ROUTE-2)", "(R-PAR-1, R-PAR-2)"

_OPEN = object()  # no rule closes the route

#: the key of the closed routes in ``game.memo`` (``TableOperations.closures``)
CLOSURES_MEMO = "ttr_closed_routes"


class _Closures(NamedTuple):
    """What the rules closed to one seat (``ttr_closed_routes``), and the owners of the routes
    when they were asked: the answer holds until a route changes hands."""

    owner: list[int]
    refusals: dict[int, Refusal]


def _as_refusal(why: str | Refusal) -> Refusal:
    """A ``ttr_closed_routes`` answer's entry as a refusal (a reason alone is ``closed``)."""
    return why if isinstance(why, Refusal) else Refusal(CLOSED, why)


class TableOperations:
    """Mixed into :class:`ttr_core.game.Game`: what ``state``, ``rng``, ``hook``, ``_points`` and
    ``_shared`` are."""

    state: GameState
    hook: RulesetHooks
    memo: dict
    _points: dict[int, int]
    _shared: PreparedRules
    #: the latest legal actions listed (``Game.legal_actions``), trusted by ``Game.apply``: a route
    #: placed or freed outside an action's apply (a position set up by hand) drops it
    _listed: object

    def route_points(self, length: int) -> int:
        """The points of a route of ``length`` spaces by the ruleset's length table
        (``ttr_route_points``, R-SCORE-1): what a program weighing routes by length reads. What
        a map route scores is ``route_score(route)``."""
        return self._points[length]

    def route_score(self, route: Route) -> int:
        """The points ``route`` scores when claimed (``ttr_route_score``, R-SCORE-1), asked once
        per ruleset."""
        return self._shared.route_scores[route.index]

    def draw_card(self) -> int | None:
        """Take the top card of the deck. An empty deck is first left to the rules
        (``ttr_deck_ran_out``: the train-cards plugin shuffles the discard into it, R-DRAW-3);
        None when it is still empty."""
        st = self.state
        if not st.deck:
            self.hook.ttr_deck_ran_out(game=self)
            if not st.deck:
                return None
        return st.deck.pop()

    def place_route(self, seat: int, route: Route, paid: Iterable[tuple[int, int]] = ()) -> None:
        """Make ``route`` ``seat``'s: the ``paid`` cards (``(card id, count)`` pairs, already out of
        the hand) go to the discard, trains are placed and the route scores at once (R-ROUTE-2);
        then ``ttr_route_claimed``. Nothing is checked: a plugin checks before it places."""
        st = self.state
        self._listed = None  # its claims of this route, and what its closures allowed, no longer hold
        for card, n in paid:
            st.discard.extend([card] * n)
        player = st.players[seat]
        st.owner[route.index] = seat
        player.trains -= route.length
        player.routes.append(route.index)
        player.route_points += self._shared.route_scores[route.index]
        if "ttr_route_claimed" in self.hook.implemented:
            self.hook.ttr_route_claimed(game=self, seat=seat, route=route)

    def free_route(self, route: Route) -> int:
        """Make an owned ``route`` free again: its owner gets the trains back and loses its points
        (R-CTL-2); then ``ttr_route_released``. Returns the seat that owned it."""
        st = self.state
        self._listed = None
        seat = st.owner[route.index]
        owner = st.players[seat]
        owner.routes.remove(route.index)
        owner.trains += route.length
        owner.route_points -= self._shared.route_scores[route.index]
        st.owner[route.index] = -1
        if "ttr_route_released" in self.hook.implemented:
            self.hook.ttr_route_released(game=self, seat=seat, route=route)
        return seat

    def closed_routes(self, seat: int) -> dict[int, str]:
        """The free routes ``seat`` may not claim now, with the reason (``ttr_closed_routes``, R-PAR)."""
        return {index: refusal.reason for index, refusal in self.closures(seat).items()}

    def closures(self, seat: int) -> dict[int, Refusal]:
        """The free routes ``seat`` may not claim now, each with its ``Refusal``: the code the
        closing rule gave (``own-parallel`` for R-PAR-1 in the built-in rules), or ``closed`` for a
        rule that answered ``ttr_closed_routes`` with a reason only. Where two rules close a route,
        the last one says why.

        The rules are asked once for each seat until a route changes hands (their answer depends on
        the owners of the routes and the seat): the answer is kept in ``game.memo``."""
        kept = self._kept_closures(seat)
        if kept is None:
            closed: dict[int, Refusal] = {}
            for answer in self.hook.ttr_closed_routes(game=self, seat=seat, route=None):
                if answer:  # most turns close nothing
                    for index, why in answer.items():
                        closed[index] = _as_refusal(why)
            kept = _Closures(self.state.owner[:], closed)
            self.memo.setdefault(CLOSURES_MEMO, {})[seat] = kept
        return dict(kept.refusals)

    def _kept_closures(self, seat: int) -> _Closures | None:
        """The closures of ``seat`` kept in ``game.memo``, if no route changed hands since."""
        by_seat = self.memo.get(CLOSURES_MEMO)
        kept = None if by_seat is None else by_seat.get(seat)
        if kept is None or kept.owner != self.state.owner:
            return None
        return kept

    def claim_problem(self, seat: int, route: Route) -> Refusal | None:
        """Why ``seat`` cannot place ``route`` now whatever it pays, or None: owned already
        (``taken``, R-ROUTE-5), closed by a rule (the code it gave, ``closed`` for a reason
        alone; R-PAR), or more spaces than the seat has trains (``not-enough-trains``,
        R-ROUTE-2). Every code but ``not-enough-trains`` means the route is not the seat's to take."""
        st = self.state
        owner = st.owner[route.index]
        if owner >= 0:
            return Refusal(TAKEN, f"{route.id} belongs to seat {owner} already (R-ROUTE-5)")
        index, closure = route.index, _OPEN
        kept = self._kept_closures(seat)  # a claim is mostly checked right after it was listed
        if kept is not None:
            closure = kept.refusals.get(index, _OPEN)
        else:
            for answer in self.hook.ttr_closed_routes(game=self, seat=seat, route=route):
                if answer and index in answer:  # ``closures`` for one route, without merging the answers
                    closure = answer[index]
        if closure is not _OPEN:
            return _as_refusal(closure)
        trains = st.players[seat].trains
        if trains < route.length:
            return Refusal(TRAINS, f"{route.id} needs {route.length} trains, seat has {trains} (R-ROUTE-2)")
        return None
