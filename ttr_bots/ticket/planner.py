"""The ticket bot's plan kept from turn to turn: :class:`Planner`, one a bot, holding the graph
the plan was searched on, the plan, the routes it learnt closed to its seat, and what is worked
out from the plan (its free routes, the cards they ask for), each made again only when what it was
made from changed.

A play style changes how the bot plans through the planner's overridable steps
(:meth:`Planner.route_weights`, :meth:`Planner.plan_tickets`), a subclass named by the bot's
``planner_class``; the rest of it is what they feed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ttr_core.actions import Action
from ttr_core.board import Board
from ttr_bots.route_graph import BoardIndex, RouteGraph
from ttr_bots.ticket import planning
from ttr_bots.ticket.cards import cards_lacking_by_route, cards_missing, color_needs
from ttr_bots.ticket.claiming import claims_of, could_pay, may_pay
from ttr_bots.ticket.planning import (
    LACKING_CARD_WEIGHT, LATE_TRAINS, FreePlanned, Plan, Searches, build_graph, still_valid,
)
from ttr_bots.ticket.seen import RouteOwners, Seen


class Planner:
    """The plan of one bot's tickets, kept while it holds. ``owners``: the routes' owners as the
    bot reads them (its :class:`~ttr_bots.ticket.seen.RouteOwners`), whose changes tell when the
    graph and the plan must be looked at again."""

    def __init__(self, owners: RouteOwners):
        self.owners = owners
        self.blocked: set[int] = set()  # free routes closed to this seat (R-PAR), learnt from legal actions
        self._board_index: BoardIndex | None = None  # of the board it was last asked about
        self._graph: RouteGraph | None = None
        self._graph_key: tuple | None = None
        self._searches: tuple[RouteGraph | None, Searches] = (None, {})  # those made on a graph, while it stands
        self._plan: Plan | None = None
        self._plan_key: tuple | None = None
        self._plan_seen: tuple[Seen | None, int] = (None, 0)  # what the plan was last asked for with
        self._checked: tuple | None = None  # what the plan was last found valid against
        self._free: FreePlanned | None = None  # the plan's free routes, until they change
        self._needs: tuple | None = None  # (free routes, hand, the colour needs they make)

    # --- the steps a play style may override ----------------------------------------------

    def route_weights(self) -> Mapping[int, float] | None:
        """What a free route weighs in the graph the plan is searched on, by its length; None
        (the ticket bot's) for its length itself. Asked whenever the graph is made again (the
        routes' owners, the trains or the stations changed). An override may weigh routes
        otherwise (their points, the turn they cost); the seat's own routes weigh nothing
        whatever it returns."""
        return None

    def plan_tickets(self, board: Board, graph: RouteGraph, seen: Seen, tickets: Sequence[int], budget: float,
                     searches: Searches) -> Plan:
        """The plan of the seat's held ``tickets`` within ``budget`` trains on ``graph``
        (``searches``: the paths already found on it, to share): the ticket bot's greedy plan,
        :func:`~ttr_bots.ticket.planning.plan_tickets`. Asked when the plan must be made again:
        new tickets, stations or blocked routes, or a planned connection nobody can build any
        more; the plan returned is kept while it holds (:func:`~ttr_bots.ticket.planning.still_valid`).
        An override may plan otherwise (another order of the tickets, say); it must return a
        :class:`~ttr_bots.ticket.planning.Plan` and depend on its arguments only."""
        return planning.plan_tickets(board, graph, seen, tickets, budget, searches)

    # --- what the bot asks of it ----------------------------------------------------------

    def board_index(self, board: Board) -> BoardIndex:
        """The routes of ``board`` by cities: kept while it is asked about the same board object,
        made anew for another."""
        index = self._board_index
        if index is None or index.board is not board:
            index = self._board_index = BoardIndex(board)
        return index

    def use_index(self, index: BoardIndex) -> None:
        """Take ``index`` (made by another bot for the board this one is about to play) as its own."""
        self._board_index = index

    def graph(self, board: Board, seen: Seen) -> RouteGraph:
        """The graph the seat's plans are searched on (:func:`~ttr_bots.ticket.planning.build_graph`,
        weighed by :meth:`route_weights`): made again when the routes' owners, the trains, the
        routes blocked or the seat's stations changed."""
        # blocked routes are only ever added: their number tells whether they changed
        key = (self.owners.version, seen.trains, len(self.blocked), seen.my_stations)
        if key != self._graph_key:
            self._graph = build_graph(board, seen, self.blocked, self.route_weights(), self.board_index(board))
            self._graph_key = key
        return self._graph

    def searches_on(self, graph: RouteGraph) -> Searches:
        """The searches made on ``graph`` so far: the options of a decision, and then the plan of
        the tickets kept, search the same connections."""
        if self._searches[0] is not graph:
            self._searches = (graph, {})
        return self._searches[1]

    def for_turn(self, board: Board, seen: Seen, claims: Sequence[Action]) -> Plan:
        """The plan at the start of a turn: :meth:`current`, made again around the planned routes
        that ``claims`` (the rules' listing, asked for only if needed) show closed to the seat,
        and near the end, when the hand can pay none of its routes, around the cards in hand
        (:meth:`around_the_hand`)."""
        plan = self.current(board, seen)
        if self._learn_blocked(board, seen, plan, claims):
            plan = self.current(board, seen)
        if plan.pairs and seen.min_other_trains <= LATE_TRAINS and not may_pay(seen, self.free_planned(board, seen, plan).routes):
            plan = self.around_the_hand(board, seen, plan)
        return plan

    def around_the_hand(self, board: Board, seen: Seen, plan: Plan) -> Plan:
        """Near the end, a plan whose free routes the hand lacks cards for, planned again with
        each card lacking for a route weighing ``LACKING_CARD_WEIGHT`` trains: taken instead if it
        completes every ticket ``plan`` does within the trains left and lacks fewer cards (a
        detour the hand can pay beats waiting for a colour that may not come before the end).
        Kept from then on as any plan is, while it holds."""
        missing = cards_missing(self.color_needs(board, seen, plan), seen)
        if not missing:
            return plan
        index = self.board_index(board)
        owner = seen.owner
        lacking = cards_lacking_by_route([r for r in board.routes if r.index not in owner], seen)
        extra = {r: LACKING_CARD_WEIGHT * n for r, n in lacking.items()}
        graph = build_graph(board, seen, self.blocked, self.route_weights(), index, extra)
        other = self.plan_tickets(board, graph, seen, seen.tickets, float("inf"), {})
        other = still_valid(index, seen, other, self.blocked)  # (its cost in trains, or None past them)
        if (
            other is None or other.pairs == plan.pairs or other.stations != plan.stations
            or len(other.dropped) > len(plan.dropped)
            or not {*plan.planned, *plan.done} <= {*other.planned, *other.done}
            or cards_missing(color_needs(seen, FreePlanned.of(index, seen, other)), seen) >= missing
        ):
            return plan
        self._plan, self._checked, self._free = other, (other, (seen.trains, seen.station_cities)), None
        self._plan_seen = (seen, len(self.blocked))
        return other

    def current(self, board: Board, seen: Seen) -> Plan:
        """The plan, recomputed only when it no longer holds: new tickets, stations or blocked
        routes, or a planned connection that nobody can build any more. Routes taken elsewhere
        only make other paths longer, so a plan whose connections are all still free stays a
        shortest one: most turns then cost no search at all."""
        blocked = len(self.blocked)
        if self._plan_seen[0] is seen and self._plan_seen[1] == blocked:
            return self._plan  # asked again within one decision (choosing, then drawing a card)
        plan = self._holding(board, seen, blocked)
        self._plan_seen = (seen, blocked)
        return plan

    def _holding(self, board: Board, seen: Seen, blocked: int) -> Plan:
        key = (seen.tickets, blocked, seen.my_stations, seen.stations_left)
        if self._plan is not None and key == self._plan_key:
            # valid when last checked, valid still while no route of its connections changed hands
            against = (seen.trains, seen.station_cities)
            checked = self._checked
            if checked is not None and checked[0] is self._plan and checked[1] == against and not self._touches(board, self._plan):
                self.owners.moved.clear()  # none of them touches the plan: they never will
                return self._plan
            touched = self._touches(board, self._plan)
            kept = still_valid(self.board_index(board), seen, self._plan, self.blocked)
            self.owners.moved.clear()
            if touched or kept is not self._plan:
                self._free = None  # (the free routes of the same connections are the same)
            if kept is not None:
                self._plan = kept
                self._checked = (kept, against)
                return kept
        graph = self.graph(board, seen)
        self._plan = self.plan_tickets(board, graph, seen, seen.tickets, seen.trains, self.searches_on(graph))
        self._plan_key = key
        return self._plan

    def _touches(self, board: Board, plan: Plan) -> bool:
        """Whether a route that changed hands since the last check joins two cities of ``plan``."""
        moved = self.owners.moved
        if not moved:
            return False
        pair_at, pairs = self.board_index(board).pair_at, plan.pairs
        for r in moved:
            if pair_at[r] in pairs:
                return True
        return False

    def free_planned(self, board: Board, seen: Seen, plan: Plan) -> FreePlanned:
        """The free routes of ``plan``'s connections, worked out again when the plan changed or a
        route of its connections changed hands (:meth:`current` forgets them then)."""
        free = self._free
        if free is None or free.plan is not plan:
            free = self._free = FreePlanned.of(self.board_index(board), seen, plan)
        return free

    def color_needs(self, board: Board, seen: Seen, plan: Plan) -> dict[str, int]:
        """The cards ``plan``'s free routes ask for, by colour (:func:`~ttr_bots.ticket.cards.color_needs`),
        worked out again only when the plan, the hand or the board changed."""
        free = self.free_planned(board, seen, plan)
        # the hand matters only to grey routes and a choice among parallel ones
        hand = seen.hand if free.choices or free.fixed_needs[1] else None
        needs = self._needs
        if needs is None or needs[0] is not free or needs[1] != hand:
            needs = self._needs = (free, hand, color_needs(seen, free))
        return needs[2]

    def _learn_blocked(self, board: Board, seen: Seen, plan: Plan, claims: Sequence[Action]) -> bool:
        """A free planned route the hand could pay but that no legal claim offers is closed to this
        seat (a parallel route rule, R-PAR): plan around it from now on."""
        suspects = [
            r for r in self.free_planned(board, seen, plan).beside_taken if r.length <= seen.trains and could_pay(r, seen)
        ]
        if not suspects:
            return False
        offered = {c.route for c in claims_of(claims, suspects)}
        learnt = False
        for r in suspects:
            if r.id not in offered:
                self.blocked.add(r.index)
                learnt = True
        return learnt
