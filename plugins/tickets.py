"""Tickets: choosing starting tickets (R-SET-4, R-SET-6), drawing tickets (R-TIX-1), and which
tickets are completed at the end (R-TIX-2..3, R-SCORE-2), stations' borrowed routes included.

This plugin owns the ``draw-tickets`` and ``keep-tickets`` actions and declares the hooks of the
capability ``tickets``: ``ttr_ticket_deal`` (how many are dealt and kept, answered by
``ticket-deal``) and ``ttr_borrowable_routes`` (routes a player may borrow for tickets, answered by
``stations``), whose specs are in :mod:`ttr_core.roles.tickets`.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import ClassVar

import attrs

from ttr_core.plugin import (
    Action, Borrow, Decision, GrowingNetwork, MalformedAction, NetworksBySeat, NotLegalNow, ObservationPart, Plugin,
    TicketOutcome, hookimpl,
)
from ttr_core.roles.tickets import TicketDeal, TicketHooks

#: in a ``TicketDeal``: tickets of any kind
ANY = "any"

#: the key in ``game.memo`` of the cities each seat's own routes join (:func:`own_network`)
OWN_NETWORKS = "tickets:own-networks"


@attrs.frozen
class DrawTickets(Action):
    """Draw tickets from the ticket deck and choose which to keep (R-TIX-1)."""

    kind: ClassVar[str] = "draw-tickets"


@attrs.frozen
class KeepTickets(Action):
    """Keep these of the tickets on offer (ids like ``"Denver-El Paso"``); the others are rejected."""

    kind: ClassVar[str] = "keep-tickets"
    tickets: tuple[str, ...] = ()


@attrs.frozen
class ChooseTickets(Decision):
    """A player holds ``offered`` tickets (indexes into ``board.tickets``) and must say which to keep
    with a ``keep-tickets`` action: at the start (``purpose == "start"``, R-SET-4: with its own least
    number to keep) or after drawing tickets (``"draw"``, R-TIX-1). Others see only how many (R-TIX-4)."""

    kind: str = "choose-tickets"
    allowed: tuple[str, ...] = ("keep-tickets",)
    offered: tuple[int, ...] = ()
    purpose: str = "draw"  # "start" or "draw"

    def public(self):
        return {"kind": self.kind, "offered": len(self.offered)}

    def held_tickets(self) -> tuple[int, ...]:
        return self.offered

    def with_held_tickets(self, tickets: tuple[int, ...]) -> ChooseTickets:
        return attrs.evolve(self, offered=tuple(tickets))


class Tickets(Plugin):
    requires = ("ticket-deal",)
    provides = ("tickets",)
    title = "Destination tickets"
    deterministic = True

    @hookimpl
    def ttr_addhooks(self, pluginmanager):
        pluginmanager.add_hookspecs(TicketHooks)

    @hookimpl
    def ttr_register_actions(self, registry):
        registry.add(DrawTickets, _DrawTickets(self))
        registry.add(KeepTickets, self, starts_turn=False)

    @hookimpl
    def ttr_setup_table(self, game):
        deal: TicketDeal = game.policy("ttr_ticket_deal", purpose="start")
        st = game.state
        for player in st.players:
            offered = take_tickets(game, deal.deal)
            if offered:
                player.decision = ChooseTickets(offered=tuple(offered), purpose="start")
        for kind in deal.box_undealt:
            keep = [t for t in st.ticket_deck if game.board.tickets[t].kind != kind]
            st.boxed_tickets.extend(t for t in st.ticket_deck if game.board.tickets[t].kind == kind)
            st.ticket_deck[:] = keep

    # --- keep-tickets -------------------------------------------------------------------------

    def legal(self, game, seat) -> list[KeepTickets]:
        decision = game.state.players[seat].decision
        deal = game.policy("ttr_ticket_deal", purpose=decision.purpose)
        tickets = [game.board.tickets[t] for t in decision.offered]
        combos = self._keep_choices_of(game, tuple(t.kind for t in tickets), tuple(sorted(deal.keep.items())))
        ids = [t.id for t in tickets]
        return [KeepTickets(tuple(map(ids.__getitem__, combo))) for combo in combos]

    def _keep_choices_of(self, game, kinds: tuple[str, ...], keep: tuple[tuple[str, int], ...]) -> tuple[tuple[int, ...], ...]:
        """``_keep_choices``, worked out once per game for each offer's kinds and keep rule (a few,
        asked at every listing of an offer): kept in ``game.memo[self.name]``."""
        memo = getattr(game, "memo", None)
        known = None if memo is None else memo.get(self.name)
        if known is None:
            known = {}
            if memo is not None:
                memo[self.name] = known
        combos = known.get((kinds, keep))
        if combos is None:
            combos = known[(kinds, keep)] = _keep_choices(kinds, keep)
        return combos

    def check(self, game, seat, action: KeepTickets) -> None:
        decision = game.state.players[seat].decision
        if not isinstance(action.tickets, tuple) or not all(isinstance(t, str) for t in action.tickets):
            raise MalformedAction(seat, action, "tickets is a list of ticket ids")
        offered = {game.board.tickets[t].id: t for t in decision.offered}
        unknown = [t for t in action.tickets if t not in offered]
        if unknown:
            raise NotLegalNow(seat, action, f"not on offer: {', '.join(unknown)} (offered: {', '.join(offered)})")
        if len(set(action.tickets)) != len(action.tickets):
            raise MalformedAction(seat, action, "a ticket is named twice")
        deal = game.policy("ttr_ticket_deal", purpose=decision.purpose)
        kinds = [game.board.tickets[offered[t]].kind for t in action.tickets]
        all_kinds = [game.board.tickets[t].kind for t in decision.offered]
        problem = _keep_problem(kinds, all_kinds, deal.keep)
        if problem:
            raise NotLegalNow(seat, action, problem)

    def apply(self, game, seat, action: KeepTickets) -> None:
        st = game.state
        player = st.players[seat]
        decision = player.decision
        deal = game.policy("ttr_ticket_deal", purpose=decision.purpose)
        kept = {game.board.ticket_index[t] for t in action.tickets}
        player.tickets.extend(t for t in decision.offered if t in kept)
        rejected = [t for t in decision.offered if t not in kept]
        if deal.rejects == "box":
            st.boxed_tickets.extend(rejected)
        else:
            st.ticket_deck[:0] = rejected  # R-TIX-1: to the bottom
        player.decision = None

    @hookimpl
    def ttr_decision_cancelled(self, game, decision):
        if isinstance(decision, ChooseTickets):
            game.state.ticket_deck[:0] = list(decision.offered)

    @hookimpl
    def ttr_view(self, game, seat):
        if seat is None:
            return None
        # R-TIX-2: a seat sees at once which of its tickets its own routes complete (R-TIX-4: only
        # it); what a station borrows is decided at the end (R-STA-4), so it does not count here
        part = {"tickets_completed": [game.board.tickets[t].id for t in completed_now(game, seat)]}
        # The decision itself holds map ticket numbers; a seat deciding sees its offer by id, with
        # the keep rule, so that a client need not know the map's ticket order (R-TIX-4: only it).
        decision = game.state.players[seat].decision
        if isinstance(decision, ChooseTickets):
            deal = game.policy("ttr_ticket_deal", purpose=decision.purpose)
            part["tickets_on_offer"] = [game.board.tickets[t].id for t in decision.offered]
            part["keep_at_least"] = dict(deal.keep)
        return part

    @hookimpl
    def ttr_observation_parts(self, game):
        # the seat's own offer (R-TIX-4: only it sees it), after its tickets: per offer position,
        # one-hot of the map's tickets; as many positions as the largest deal
        largest = max(sum(game.policy("ttr_ticket_deal", purpose=p).deal.values()) for p in ("start", "draw"))
        T = len(game.board.tickets)
        return [ObservationPart("offer", largest * T, 1, f"{largest} offer positions x one-hot of {T} tickets", after="tickets")]

    @hookimpl
    def ttr_observation_values(self, board, seat_view):
        decision = seat_view.decision
        offered = decision.offered if isinstance(decision, ChooseTickets) else ()  # map ticket indices
        T = len(board.tickets)
        out = [0.0] * (len(offered) * T)
        for pos, ticket in enumerate(offered):
            out[pos * T + ticket] = 1.0
        return {"offer": out}

    # --- the end: which tickets are completed ------------------------------------------------

    @hookimpl
    def ttr_ticket_outcomes(self, game, seat):
        return ticket_outcome(game, seat)


_DRAW_TICKETS = DrawTickets()  # actions are immutable values: every legal-action list shares it


class _DrawTickets:
    def __init__(self, plugin: Tickets):
        self.plugin = plugin

    def legal(self, game, seat):
        return [_DRAW_TICKETS] if game.state.ticket_deck else []

    def check(self, game, seat, action):
        if not game.state.ticket_deck:
            raise NotLegalNow(seat, action, "the ticket deck is empty (R-TIX-1)")

    def apply(self, game, seat, action):
        deal: TicketDeal = game.policy("ttr_ticket_deal", purpose="draw")
        offered = take_tickets(game, deal.deal)
        game.state.players[seat].decision = ChooseTickets(offered=tuple(offered), purpose="draw")


def take_tickets(game, deal: dict[str, int]) -> list[int]:
    """Take tickets from the top of the deck: ``deal[kind]`` of each kind, ``deal["any"]`` of any."""
    deck = game.state.ticket_deck
    tickets = game.board.tickets
    taken: list[int] = []
    for kind, n in sorted(deal.items()):
        for _ in range(n):
            if kind == ANY:
                pos = len(deck) - 1 if deck else None
            else:
                pos = next((i for i in range(len(deck) - 1, -1, -1) if tickets[deck[i]].kind == kind), None)
            if pos is None:
                break
            taken.append(deck.pop(pos))
    return taken


def _keep_choices(kinds: tuple[str, ...], keep: tuple[tuple[str, int], ...]) -> tuple[tuple[int, ...], ...]:
    """Which tickets of an offer of ``kinds`` may be kept under the ``keep`` rule, as positions in
    the offer, the most first."""
    return tuple(
        combo
        for n in range(len(kinds), 0, -1)
        for combo in itertools.combinations(range(len(kinds)), n)
        if _keep_problem([kinds[i] for i in combo], kinds, dict(keep)) is None
    )


def _keep_problem(kept_kinds: Sequence[str], offered_kinds: Sequence[str], keep: Mapping[str, int]) -> str | None:
    for kind, least in sorted(keep.items()):
        available = len(offered_kinds) if kind == ANY else offered_kinds.count(kind)
        have = len(kept_kinds) if kind == ANY else kept_kinds.count(kind)
        need = min(least, available)
        if have < need:
            what = "tickets" if kind == ANY else f"{kind} tickets"
            return f"keep at least {need} {what} (R-SET-4, R-TIX-1)"
    return None


def own_network(game, seat: int) -> GrowingNetwork:
    """The cities ``seat``'s own routes join (R-TIX-2), kept in ``game.memo``: asked again, it
    joins only the routes claimed since (a route given back, R-CTL-2, has it joined afresh), so
    where it is asked as the game goes (the seat's view), the end of the game finds it done."""
    memo = getattr(game, "memo", None)
    kept = None if memo is None else memo.get(OWN_NETWORKS)
    if kept is None:
        board = game.board
        kept = NetworksBySeat(len(board.cities), [(r.ai, r.bi) for r in board.routes])
        if memo is not None:
            memo[OWN_NETWORKS] = kept
    return kept.of(seat, game.state.players[seat].routes)


def completed_now(game, seat: int) -> list[int]:
    """``seat``'s tickets its own routes complete now, in the order it holds them (R-TIX-2)."""
    own = own_network(game, seat)
    tickets = game.board.tickets
    return [t for t in game.state.players[seat].tickets if own.connected(tickets[t].ai, tickets[t].bi)]


def ticket_outcome(game, seat: int) -> TicketOutcome:
    """Completed and failed tickets of ``seat``. With borrow groups (stations, R-STA-3..4), each
    distinct set of tickets the owner can complete is an alternative: each group borrows one of its
    routes or nothing, and each set keeps the choice with the fewest borrowed routes (on a tie, the
    earlier groups borrow: the first found, trying each group's routes in order before nothing).
    A set contained in another that scores at least as many ticket points is left out: completing
    a ticket more never costs the owner (ticket points rise, and bonuses reward the most tickets,
    never the fewest), so only real choices remain, most often none. The alternatives are ordered
    by this plugin's own preference, the most ticket points, then the most completed tickets, then
    the fewest borrows; the answer is the first, and the core chooses among them by the owner's
    final total (R-STA-4, ``ttr_core.scoring.resolve_choices``)."""
    board = game.board
    player = game.state.players[seat]
    groups = [(label, tuple(candidates)) for label, candidates in _borrow_groups(game, seat)]
    own = own_network(game, seat)
    ends = [(t, own.find(board.tickets[t].ai), own.find(board.tickets[t].bi)) for t in player.tickets]
    if not groups:  # nothing to borrow (most games): one outcome, the tickets the own routes join
        return _outcome(game, seat, tuple(t for t, a, b in ends if a == b), groups, ())
    links = {r: (own.find(board.routes[r].ai), own.find(board.routes[r].bi)) for _, rs in groups for r in rs}
    fewest: dict[tuple[int, ...], tuple[int, tuple]] = {}  # completed tickets -> (borrows, choice)
    joined: dict[int, int] = {}  # own components joined by the borrowed routes of one choice

    def find(c: int) -> int:
        while c in joined:
            c = joined[c]
        return c

    for choice in itertools.product(*((*candidates, None) for _, candidates in groups)):
        joined.clear()
        for r in choice:
            if r is not None:
                a, b = find(links[r][0]), find(links[r][1])
                if a != b:
                    joined[a] = b
        done = tuple(t for t, a, b in ends if find(a) == find(b))
        n = sum(r is not None for r in choice)
        if done not in fewest or n < fewest[done][0]:
            fewest[done] = (n, choice)
    # A set that another set contains, for no more points, is never the owner's choice: no rule
    # rewards completing fewer tickets (the most-tickets bonuses only reward more).
    sets = {done: frozenset(done) for done in fewest}
    points = {done: _points(game, seat, done) for done in fewest}
    kept = [done for done in fewest
            if not any(sets[done] < sets[other] and points[other] >= points[done] for other in fewest)]
    alternatives = sorted(
        (_outcome(game, seat, done, groups, fewest[done][1]) for done in kept),
        key=lambda o: (-o.points, -len(o.completed), o.borrowed),
    )
    if len(alternatives) == 1:
        return alternatives[0]
    return attrs.evolve(alternatives[0], alternatives=tuple(alternatives))


def _points(game, seat: int, done: tuple[int, ...]) -> int:
    """R-SCORE-2: + the completed tickets' points, - the others'."""
    tickets = game.board.tickets
    return sum(tickets[t].points if t in done else -tickets[t].points for t in game.state.players[seat].tickets)


def _outcome(game, seat: int, done: tuple[int, ...], groups, choice) -> TicketOutcome:
    board = game.board
    failed = tuple(t for t in game.state.players[seat].tickets if t not in done)
    points = _points(game, seat, done)
    borrows = tuple(Borrow(label, None if r is None else board.routes[r].id) for (label, _), r in zip(groups, choice))
    notes = tuple(f"{b.label} borrowed {b.route}" for b in borrows if b.route is not None)
    return TicketOutcome(seat, done, failed, points, notes, borrows)


def _borrow_groups(game, seat):
    for answer in game.hook.ttr_borrowable_routes(game=game, seat=seat):
        yield from answer or ()
