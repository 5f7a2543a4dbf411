"""Play-style bots, so that a variant can be judged against more than one kind of player.

Each is the ticket-seeking bot with one habit changed, the habit a style of player has:

* :class:`LongRouteBot` (``long-routes``) plays for long routes and the longest path: it keeps as
  few tickets as the rules allow, claims a route of 4 spaces or more whenever it can pay one (one
  that extends its own network first, then the longest), leaves routes of 1-2 spaces for the
  end of the game, and draws the colours of the longest free routes; its tickets come second.
* :class:`TicketHoarderBot` (``hoarder``) plays for tickets above all: it keeps every offered
  ticket its trains could plausibly cover (no reserve for detours), and draws new tickets as soon
  as its plan is done, until the last few turns.

Like the ticket bot, both see only what their seat may see, and their own generator, seeded from
the game seed and the seat, only breaks ties.
"""

from __future__ import annotations

import random

from ttr_core.actions import Action
from ttr_core.cards import COLORS, GRAY, LOCOMOTIVE
from ttr_bots.legal_by_kind import Listing
from ttr_bots.ticket import TicketBot
from ttr_bots.ticket.claiming import listing, may_pay
from ttr_bots.ticket.seen import Seen

#: the shortest route the long-route player goes for at once
LONG = 4
#: with this few trains left (its own or anyone's), the long-route player claims short routes too
LATE = 8


class LongRouteBot(TicketBot):
    """Plays for long routes and the longest path: few tickets, the longest claims it can pay."""

    name = "long-routes"

    def __init__(self, seed: int, seat: int):
        super().__init__(seed, seat)
        self.rng = random.Random(f"long-routes-bot:{seed}:{seat}")

    def keep_tickets(self, board, seen, offers: list[Action]) -> Action:
        fewest = min(len(o.tickets) for o in offers)
        return super().keep_tickets(board, seen, [o for o in offers if len(o.tickets) == fewest])

    def style_move(self, board, seen, view) -> Action | None:
        """Before the last turn: a route of ``LONG`` spaces or more the hand can pay, one that
        extends its own network first, then the longest (the claims are listed only when the
        hand could pay some long route)."""
        if not seen.final_round and may_pay(seen, (r for r in board.routes if r.length >= LONG and r.index not in seen.owner)):
            long_claims = [c for c in view.actions("claim-route") if _length(board, c) >= LONG]
            if long_claims:
                return max(long_claims, key=lambda c: (_extends(board, seen, c), _length(board, c), -c.locomotives,
                                                       c.route, c.color or ""))
        return None

    def claim_along_plan(self, board, seen, plan, claims: list[Action], can_draw) -> Action | None:
        # short routes wait for the end of the game: the cards go to long ones first
        late = seen.trains <= LATE or seen.min_other_trains <= LATE
        kept = Listing(lambda: [c for c in claims if late or _length(board, c) >= 3])  # listed if the plan needs it
        return super().claim_along_plan(board, seen, plan, kept, can_draw)

    def draw_cards(self, board, seen, draws: list[Action], second: bool) -> Action:
        wanted = _long_route_colors(board, seen)
        row = dict(enumerate(seen.open_row))
        for d in draws:
            if d.slot is not None and row.get(d.slot) in wanted and row.get(d.slot) != LOCOMOTIVE:
                return d
        blind = [d for d in draws if d.slot is None]
        if wanted and blind:
            return blind[0]
        return super().draw_cards(board, seen, draws, second)


class TicketHoarderBot(TicketBot):
    """Plays for tickets above all: keeps every ticket it might finish, draws more as soon as it can."""

    name = "hoarder"
    reserve = 0.0

    def __init__(self, seed: int, seat: int):
        super().__init__(seed, seat)
        self.rng = random.Random(f"hoarder-bot:{seed}:{seat}")

    def style_move(self, board, seen, view) -> Action | None:
        """New tickets as soon as its plan is done (nothing left to claim, nothing dropped),
        until the last few turns."""
        plan = self.plan_for(board, seen, listing(view, "claim-route"))
        if not plan.pairs and not plan.dropped and view.actions("draw-tickets") and _time_left(seen):
            return view.actions("draw-tickets")[0]
        return None


def _length(board, claim: Action) -> int:
    return board.routes[board.route_index[claim.route]].length


def _extends(board, seen: Seen, claim: Action) -> bool:
    """Whether the route touches a city of the seat's own network (a longer trail, R-BON-1)."""
    route = board.routes[board.route_index[claim.route]]
    mine = {c for r, s in seen.owner.items() if s == seen.seat for c in (board.routes[r].ai, board.routes[r].bi)}
    return route.ai in mine or route.bi in mine


def _long_route_colors(board, seen: Seen) -> set[str]:
    """The colours that pay the longest free routes the seat has trains for (grey: its commonest)."""
    free = [r for r in board.routes if r.index not in seen.owner and LONG <= r.length <= seen.trains]
    if not free:
        return set()
    top = max(r.length for r in free)
    commonest = max(COLORS, key=lambda c: (seen.cards(c), -COLORS.index(c)))
    return {commonest if r.color == GRAY else r.color for r in free if r.length == top}


def _time_left(seen: Seen) -> bool:
    """Not yet the last few turns: the seat and everyone else have trains for several more."""
    return not seen.final_round and seen.trains >= 8 and seen.min_other_trains >= 8


__all__ = ["LongRouteBot", "TicketHoarderBot"]
