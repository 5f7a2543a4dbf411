"""The ticket bot itself: :class:`TicketBot`, reading its seat's view (:mod:`.seen`), keeping its
plan (:mod:`.planner`, :mod:`.planning`), drawing for it (:mod:`.cards`) and claiming along it
(:mod:`.claiming`), turn by turn as the package's docstring tells."""

from __future__ import annotations

import random
from collections.abc import Sequence, Sized

from ttr_core.actions import Action
from ttr_core.board import Board
from ttr_core.seat_view import SeatView
from ttr_bots.route_graph import BoardIndex
from ttr_bots.ticket.cards import card_to_draw
from ttr_bots.ticket.claiming import (
    cheapest_payment, claim_for_points, claim_with_spare_cards, claims_of, controller_claim, fallback, last_turn_action,
    listing, may_pay, station_to_build, worth_trying,
)
from ttr_bots.ticket.planner import Planner
from ttr_bots.ticket.planning import TRAIN_RESERVE, Plan, best_offer, safe_to_draw_tickets, time_budget
from ttr_bots.ticket.seen import RulesMemo, SeatReader, Seen


class TicketBot:
    """Plays for its tickets, as most people do: plans their connections, draws and claims along the plan.

    It sees only what its seat may see; :mod:`ttr_bots.ticket` tells how it plays, turn by turn.
    A play style built on it changes its steps, each documented with when it is asked and what
    an override may change: at a turn :meth:`style_move`, :meth:`claim_along_plan` (and its
    :meth:`payments_to_consider`), :meth:`draw_cards`; at a decision :meth:`keep_tickets`; and its
    plan through its planner's steps (``planner_class``, :class:`~ttr_bots.ticket.planner.Planner`).
    """

    name = "ticket"
    reserve = TRAIN_RESERVE  # a class attribute, so that a variation of the bot can be measured against it
    #: the class of its planner: a play style planning otherwise names its own
    planner_class: type[Planner] = Planner

    def __init__(self, seed: int, seat: int):
        self.rng = random.Random(f"ticket-bot:{seed}:{seat}")
        self.seat = seat
        self.reader = SeatReader()  # what it read of its view last, and the routes' owners
        self.planner = self.planner_class(self.reader.owners)
        self._rules_memo: RulesMemo | None = None  # what it worked out for the ruleset last asked about

    # --- entry point ----------------------------------------------------------------------

    def choose(self, view: SeatView) -> Action:
        """The seat's next action, from its view: a pending decision answered, else a turn. The
        legal actions are asked of the view kind by kind, when needed (most turns list no claims)."""
        board = view.board
        seen = self.reader.read_turn(view, self.rules_memo(view))
        if seen.decision is not None:
            return self._decide(board, seen, seen.decision, view)
        return self.take_turn(board, seen, view)

    def board_index(self, board: Board) -> BoardIndex:
        """The routes of ``board`` by cities: kept while this bot is asked about the same board
        object, made anew for another."""
        return self.planner.board_index(board)

    def start_from(self, index: BoardIndex, rules: RulesMemo) -> None:
        """Take ``index`` and ``rules`` from another bot (made for the board and ruleset this one
        is about to play, they hold the same for any bot) instead of making its own: a search's
        play-out bots take its own."""
        self.planner.use_index(index)
        self._rules_memo = rules

    def rules_memo(self, view: SeatView) -> RulesMemo:
        """What this bot worked out for the ruleset of ``view``: kept while it is asked about games
        of the same ruleset object, made anew for another."""
        memo = self._rules_memo
        if memo is None or memo.ruleset is not view.ruleset:
            memo = self._rules_memo = RulesMemo(view)
        return memo

    def plan_for(self, board: Board, seen: Seen, claims: Sequence[Action]) -> Plan:
        """The plan at this turn (:meth:`Planner.for_turn <ttr_bots.ticket.planner.Planner.for_turn>`):
        ``claims``, the rules' listing of the seat's claims, tell which planned routes are closed
        to it."""
        return self.planner.for_turn(board, seen, claims)

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

    def keep_tickets(self, board: Board, seen: Seen, offers: list[Action]) -> Action:
        """Which offer of tickets to keep (R-SET-4, R-TIX-1), asked whenever tickets are offered
        (``offers``: the legal keep-tickets actions); returns one of them. The ticket bot's: the
        offer whose tickets, planned with those held within a budget (its trains less
        ``reserve``, and the cards it may still gather), score best
        (:func:`~ttr_bots.ticket.planning.best_offer`). An override may narrow the offers (and
        call this), or judge them otherwise (``self.planner.graph`` and ``searches_on`` give
        what the plans are searched on)."""
        graph = self.planner.graph(board, seen)
        budget = min(seen.trains * (1 - self.reserve), time_budget(seen))
        return best_offer(board, graph, seen, offers, budget, self.planner.searches_on(graph))

    # --- a turn -----------------------------------------------------------------------------

    def take_turn(self, board: Board, seen: Seen, view: SeatView) -> Action:
        """The action opening the seat's turn: the first of :meth:`style_move`; on the last turn,
        the action worth most points; a station the plan asks for; :meth:`claim_along_plan`; a
        controller's build along the plan; with the plan done, new tickets if safe or a claim for
        points, else near the end a claim with the cards the plan does not need
        (:func:`~ttr_bots.ticket.claiming.claim_with_spare_cards`); :meth:`draw_cards`; anything else. Each kind of action is listed only if this
        turn asks for it (:func:`~ttr_bots.ticket.claiming.listing`)."""
        first = self.style_move(board, seen, view)
        if first is not None:
            return first
        claims = listing(view, "claim-route")
        builds = listing(view, "build-station")
        if seen.final_round and (claims or builds):
            best = last_turn_action(board, self.board_index(board), seen, claims, builds)
            if best is not None:
                return best
        plan = self.plan_for(board, seen, claims)
        station = station_to_build(plan, builds)
        if station is not None:
            return station
        # whether a card may be drawn matters for tunnels only: the draws are listed if one asks
        claim = self.claim_along_plan(board, seen, plan, claims, can_draw=listing(view, "draw-card"))
        if claim is not None:
            return claim
        free_claim = controller_claim(board, self.board_index(board), plan, listing(view, "play-controller"))
        if free_claim is not None:
            return free_claim
        if not plan.pairs:
            if view.actions("draw-tickets") and safe_to_draw_tickets(seen, plan):
                return view.actions("draw-tickets")[0]
            extra = claim_for_points(board, seen, claims)
            if extra is not None:
                return extra
        else:
            planner = self.planner
            spare = claim_with_spare_cards(board, seen, plan, planner.color_needs(board, seen, plan),
                                           planner.free_planned(board, seen, plan).routes, claims)
            if spare is not None:
                return spare
        if view.actions("draw-card"):
            return self.draw_cards(board, seen, view.actions("draw-card"), second=False)
        if claims:
            return claim_for_points(board, seen, claims)
        return fallback(view.legal_actions(), self.rng)

    def style_move(self, board: Board, seen: Seen, view: SeatView) -> Action | None:
        """The move a play style makes before anything else at a turn; None (the ticket bot's)
        leaves the turn to the steps of :meth:`take_turn`. Asked first at every turn (not at a
        pending decision), the last turn included; an action returned is played as it is, so it
        must be one the rules accept (``view.actions(kind)`` lists them). An override may read
        the plan (:meth:`plan_for`)."""
        return None

    def claim_along_plan(self, board: Board, seen: Seen, plan: Plan, claims: Sequence[Action],
                         can_draw: Sized | bool) -> Action | None:
        """The planned route to claim now, if the hand can pay one; None leaves the turn to the
        next steps (a controller's build, the tickets done, drawing cards). Asked at every turn
        after the plan is made. The ticket bot's: of the claims of planned routes the hand may
        pay (:meth:`payments_to_consider`), the longest route, paid with the cards the rest of
        the plan needs least; a tunnel only with a spare card or nothing else to do. ``claims``
        (a list, or a listing) are asked for only when the hand may pay a planned route;
        ``can_draw``'s truth (a listing of the draws, say) only when a tunnel could be claimed.
        An override may narrow ``claims`` (and call this) or choose otherwise among them."""
        payable = may_pay(seen, self.planner.free_planned(board, seen, plan).routes)
        if not payable:
            return None
        planned = self.payments_to_consider(board, seen, claims_of(claims, payable), can_draw)
        if not planned:
            return None
        planned = worth_trying(board, seen, planned, payable, can_draw)
        if not planned:
            return None
        if len(planned) == 1:
            return planned[0]  # (the colour needs weigh payments against each other only)
        return cheapest_payment(board, planned, self.planner.color_needs(board, seen, plan))

    def payments_to_consider(self, board: Board, seen: Seen, planned: list[Action], can_draw: Sized | bool) -> list[Action]:
        """Of the claims of the planned routes the hand may pay (``planned``), those this bot would
        play now: asked by :meth:`claim_along_plan` whenever there are some. The ticket bot's: all
        of them. An override may keep some payments back (locomotives, say); an empty list
        claims nothing this turn."""
        return planned

    def draw_cards(self, board: Board, seen: Seen, draws: list[Action], second: bool) -> Action:
        """The card to draw, of the legal ``draws`` (R-DRAW-1): asked for the first card of a turn
        when nothing is claimed, and for the second card (``second``). The ticket bot's: the open
        card its plan lacks most, else a locomotive it needs, else blind
        (:func:`~ttr_bots.ticket.cards.card_to_draw`). An override may draw for another aim, and
        read the plan's needs (``self.planner.color_needs``)."""
        planner = self.planner
        return card_to_draw(planner.color_needs(board, seen, planner.current(board, seen)), seen, draws, second)
