"""What one seat may know of a game, typed and read-only: the :class:`SeatView` a bot is handed.

``game.seat_view(seat)`` builds it: the board and the public table (route owners, trains, the open
row, how many cards and tickets each seat holds, whose turn it is), the seat's own hand, tickets
and pending decision, and the rules' answers for the seat (its legal actions, the plugins' parts of
its view, route points). Everything is read as it is first asked for, the legal actions kind by
kind (a bot drawing a card never lists every claim), and kept: one view serves one decision.

A view gives nothing hidden from its seat: no other hand or tickets, no deck order, no generator,
no log (the others' kept tickets are in it). A bot that searches deals whole games from it,
:meth:`SeatView.sample_game`, which puts what the seat cannot see in an order that depends on what
it sees only (:func:`canonical_state`) before dealing it anew: two games that look the same to the
seat give the same samples (OpenSpiel's ``ResampleFromInfostate``).

The view reads the game through a link that :meth:`SeatView.close` cuts once the decision is made
(``ttr_bots.ask`` closes every view it hands a bot): a closed view holds values only, what it was
asked, and no reference to the game or its state; asked anything new it raises a
:class:`~ttr_core.errors.TTRError`. (A view copying the game at every decision would cost more than
the decision: the state alone is copied in about as long as a bot takes to draw a card.)
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from bisect import bisect_left
from itertools import compress
from operator import add, attrgetter, sub
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

import attrs

from ttr_core.actions import Action
from ttr_core.errors import TTRError
from ttr_core.hidden import redeal_tickets
from ttr_core.listing import Listing
from ttr_core.state import Decision, GameState, PlayerState, copy_plugin_state
from ttr_core.view import view_value

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ttr_core.board import Board
    from ttr_core.cards import CardKinds
    from ttr_core.game import Game
    from ttr_core.variant import Ruleset


class SeatInfo(NamedTuple):
    """What everybody sees of one seat."""

    name: str
    trains: int
    cards: int  # how many train cards it holds
    tickets: int  # how many tickets it holds
    route_points: int
    resigned: bool
    routes: tuple[int, ...]  # the routes it owns, by route index, in the order claimed
    decision: str | None  # the kind of its pending decision, if any (``Decision.public``)


class _Link:
    """The game a view reads, until the view is closed."""

    __slots__ = ("game",)

    def __init__(self, game: Game | None):
        self.game = game


class _Now(NamedTuple):
    """What a view reads at once, as cheap to read as to keep (a tuple: values only)."""

    board: Board
    ruleset: Ruleset
    cards: CardKinds
    phase: str
    turn: int
    current: int | None
    final_round: bool
    open_row: tuple[str | None, ...]
    deck_size: int
    discard_size: int
    tickets_left: int
    owner: tuple[int, ...]
    trains: int
    tickets: tuple[int, ...]
    hand_counts: tuple[int, ...]
    decision: Decision | None


def _at_once(field: str) -> property:
    """A view's property read from what it read at once."""
    read = property(attrgetter(f"_now.{field}"))
    return read


@attrs.frozen(eq=False, repr=False)
class SeatView:
    """What ``seat`` may know of a game now, built by ``game.seat_view(seat)``.

    The public table: ``board``, ``ruleset``, ``cards`` (card names by id), ``names``, ``phase``,
    ``turn``, ``current`` (None outside play), ``to_act``, ``my_turn``, ``final_round``,
    ``open_row`` (card names, None for an empty slot), ``deck_size``, ``discard_size``,
    ``tickets_left``, ``owner`` (by route index, the owning seat or -1), ``players`` (a
    :class:`SeatInfo` by seat: trains, how many cards and tickets, routes, resignation, the kind of
    a pending decision) and ``result`` once the game is over. The seat's own: ``hand`` (held
    cards by name), ``hand_counts`` (by card id), ``tickets`` (ticket indices), ``trains``,
    ``decision`` (its pending :class:`~ttr_core.state.Decision`, a frozen value, or None). The
    rules: :meth:`legal_actions`, :meth:`actions` (of one kind), ``rules`` (the plugins' parts
    of the view, ``game.view(seat)["rules"]``), :meth:`route_points`; and :meth:`sample_game`.

    Every answer is a value (a number, a tuple, a read-only mapping, a frozen decision; ``hand``
    a new dict), read when first asked for and kept.
    """

    seat: int
    _link: _Link = attrs.field(alias="link")
    _now: _Now = attrs.field(alias="now")
    #: what was asked so far, by name (the legal actions of a kind by the kind's name)
    _asked: dict[str, Any] = attrs.field(factory=dict, init=False)

    board = _at_once("board")
    ruleset = _at_once("ruleset")
    cards = _at_once("cards")
    phase = _at_once("phase")
    turn = _at_once("turn")
    current = _at_once("current")
    final_round = _at_once("final_round")
    open_row = _at_once("open_row")
    deck_size = _at_once("deck_size")
    discard_size = _at_once("discard_size")
    tickets_left = _at_once("tickets_left")
    owner = _at_once("owner")
    trains = _at_once("trains")
    tickets = _at_once("tickets")
    hand_counts = _at_once("hand_counts")
    decision = _at_once("decision")

    @classmethod
    def of(cls, game: Game, seat: int) -> SeatView:
        """``game.seat_view(seat)``; a seat the game does not have is a :class:`TTRError`."""
        st = game.state
        players = st.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(players):
            raise TTRError(f"there is no seat {seat!r} (seats are 0 to {len(players) - 1})")
        me = players[seat]
        phase = st.phase
        cards = game.cards
        names = cards.names
        now = tuple.__new__(_Now, (  # (``_Now(...)`` without its Python-level constructor)
            game.board, game.ruleset, cards, phase, st.turn, st.current if phase == "play" else None,
            st.final_round is not None, tuple([names[c] if c >= 0 else None for c in st.open_row]), len(st.deck),
            len(st.discard), len(st.ticket_deck), tuple(st.owner), me.trains, tuple(me.tickets), tuple(me.hand),
            me.decision,
        ))
        return cls(seat, _Link(game), now)

    def close(self) -> None:
        """The decision is made: cut the link to the game. What was asked stays; anything new raises."""
        self._link.game = None

    @property
    def closed(self) -> bool:
        return self._link.game is None

    def _game(self, what: str) -> Game:
        game = self._link.game
        if game is None:
            raise TTRError(f"this view is closed (its decision is over): {what} was not asked before; "
                           f"ask game.seat_view({self.seat}) again")
        return game

    # --- the public table -----------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        return self._game("names").names if "names" not in self._asked else self._asked["names"]

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now."""
        found = self._asked.get("to_act")
        if found is None:
            found = self._asked["to_act"] = tuple(self._game("to_act").to_act())
        return found

    @property
    def my_turn(self) -> bool:
        """Whether the seat opens a turn now: its turn, no decision pending."""
        return self.current == self.seat and self.decision is None

    @property
    def players(self) -> tuple[SeatInfo, ...]:
        found = self._asked.get("players")
        if found is None:
            new = tuple.__new__  # (``SeatInfo(...)`` without its Python-level constructor)
            found = self._asked["players"] = tuple([
                new(SeatInfo, (p.name, p.trains, sum(p.hand), len(p.tickets), p.route_points, p.resigned,
                               tuple(p.routes), None if p.decision is None else p.decision.kind))
                for p in self._game("players").state.players
            ])
        return found

    @property
    def result(self) -> Any:
        """The :class:`~ttr_core.scoring.GameResult` once the game is over, else None."""
        if "result" not in self._asked:
            self._asked["result"] = self._game("result").result
        return self._asked["result"]

    # --- the seat's own -----------------------------------------------------------------------

    @property
    def hand(self) -> dict[str, int]:
        """The cards held, by name (only those held): a new dict."""
        counts = self._now.hand_counts
        return dict(compress(zip(self._now.cards.names, counts), counts))

    # --- the rules ------------------------------------------------------------------------

    def legal_actions(self) -> Listing:
        """The seat's legal actions now, as ``game.legal_actions(seat)`` lists them: a tuple
        (:class:`~ttr_core.listing.Listing`: it holds the actions alone) that also picks out a
        kind's actions (``of_kind``) or a route's (``of_route``)."""
        found = self._asked.get("legal actions")
        if found is None:
            found = self._asked["legal actions"] = self._game("the legal actions").legal_actions(self.seat)
        return found

    def actions(self, kind: str) -> tuple[Action, ...]:
        """The legal actions of ``kind`` now, in the order of :meth:`legal_actions` (empty if none).
        Opening its turn or answering a decision, the seat's actions of one kind are asked of the
        rule that registered it alone; otherwise, and for a kind legal only when nothing else is
        (passing, R-TURN-2), they are taken from the whole list."""
        found = self._asked.get(kind)
        if found is None:
            found = self._asked[kind] = tuple(self._listed(self._game(f"the {kind} actions"), kind))
        return found

    def _listed(self, game: Game, kind: str) -> Sequence[Action]:
        listed = self._asked.get("legal actions")
        if listed is not None:
            return listed.of_kind(kind)
        seat = self.seat
        st = game.state
        player = st.players[seat]
        registry = game.registry
        reg = registry.by_class.get(registry.action_class(kind))
        if reg is None or st.phase == "over" or player.resigned:
            return ()
        decision = player.decision
        if decision is not None:
            alone = kind in decision.allowed
            if not alone:
                return ()
        else:
            alone = st.phase == "play" and st.current == seat and reg.starts_turn and not reg.fallback
        if alone:
            try:
                return list(reg.handler.legal(game, seat))
            except Exception:  # noqa: BLE001 - listed again below, by the game, whose error names the plugin
                pass
        return self.legal_actions().of_kind(kind)

    @property
    def rules(self) -> Mapping[str, Any]:
        """The plugins' parts of the seat's view (``game.view(seat)["rules"]``: stations, say)."""
        found = self._asked.get("rules")
        if found is None:
            data = self._asked.get("data")
            rules = data["rules"] if data is not None else view_value(self._game("the rules' parts"), self.seat, "rules")
            found = self._asked["rules"] = MappingProxyType(rules)
        return found

    def route_points(self, length: int) -> int:
        """The points of a route of ``length`` spaces (R-SCORE-1)."""
        found = self._asked.get("route points")
        if found is None:
            game = self._game("route points")
            lengths = sorted({r.length for r in game.board.routes})
            found = self._asked["route points"] = MappingProxyType({n: game.route_points(n) for n in lengths})
        return found[length]

    def as_data(self) -> dict[str, Any]:
        """The seat's view as JSON data: what ``game.view(seat)`` returns (a new copy each time)."""
        return copy.deepcopy(self._data())

    def _data(self) -> dict[str, Any]:
        found = self._asked.get("data")
        if found is None:
            found = self._asked["data"] = self._game("the view's data").view(self.seat)
        return found

    # --- searching -----------------------------------------------------------------------

    def sample_game(self, rng: random.Random, weights: Mapping[int, Mapping[int, float]] | None = None) -> Game:
        """A whole game consistent with what the seat knows, drawn from ``rng`` (the game is
        untouched): the other seats' hands and the deck dealt anew together (each hand keeps its
        size), the unseen tickets shuffled among their places, each keeping its kind, a new
        generator drawn from ``rng`` (``Game.determinize``), dealt from the game with what the seat
        cannot see sorted (:func:`canonical_state`), so that it depends on the view and ``rng``
        alone. ``weights``: by seat, by ticket, how likely that seat holds that ticket; the
        others' tickets are then drawn by them (:func:`ttr_core.hidden.redeal_tickets`). The game
        has no log and no seed; it plays on as any game does."""
        game = self._game("a sample")
        twin = game.clone()
        twin.state = canonical_state(game.state, self.seat, game.board)
        twin.log, twin.seed = [], None  # the log tells the tickets the others kept; the seed, the deal
        world = twin.determinize(self.seat, rng)
        if weights:
            others = [s for s in range(len(world.state.players)) if s != self.seat]
            redeal_tickets(world.state, others, world.board, rng, weights)
        return world

    def __repr__(self) -> str:
        return f"SeatView(seat={self.seat}{', closed' if self.closed else ''})"


# --- the seat's world -----------------------------------------------------------------------


def canonical_state(st: GameState, seat: int, board: Board) -> GameState:
    """A copy of ``st`` whose parts hidden from ``seat`` are in an order that depends on what
    ``seat`` sees only: the unseen cards (the deck and the other hands) sorted and dealt out in
    seat order, each hand keeping its size, the rest the deck; the unseen tickets (the ticket
    deck, the tickets out of the game, the others' tickets and offers) sorted by index within
    their kinds, each place keeping its kind."""
    others = [s for s in range(len(st.players)) if s != seat]
    hands, deck = _sorted_cards(st, others)
    piles = _sorted_tickets(st, others, board)
    players = []
    for s, p in enumerate(st.players):
        if s == seat:
            players.append(p.copy())
            continue
        decision = p.decision
        held = piles.offers.get(s)
        if held is not None:
            decision = decision.with_held_tickets(held)
        players.append(PlayerState(p.name, hands[s], p.trains, piles.tickets[s], p.routes[:], p.route_points,
                                   p.resigned, decision, p.trains_out))
    return GameState(
        players, deck, st.discard[:], st.open_row[:], piles.deck, st.owner[:], piles.boxed, st.phase, st.current,
        st.turn, None if st.final_round is None else st.final_round[:], st.end_reason,
        {name: copy_plugin_state(value) for name, value in st.ext.items()},
    )


def _sorted_cards(st: GameState, others: Sequence[int]) -> tuple[dict[int, list[int]], list[int]]:
    """The other seats' hands and the deck, from the unseen cards sorted (the lowest ids go to
    the first seats' hands; the top of the deck is its last card)."""
    players = st.players
    deck = sorted(st.deck)
    width = len(players[0].hand)
    # the unseen cards, counted by id: the sorted deck's runs, and the hands
    bounds = [bisect_left(deck, card) for card in range(width + 1)]
    counts = list(map(sub, bounds[1:], bounds[:-1]))
    for s in others:
        counts = list(map(add, counts, players[s].hand))
    hands = {}
    for s in others:
        hand = [0] * width
        size = sum(players[s].hand)
        card = 0
        while size:
            n = counts[card]
            if n:
                take = n if n < size else size
                hand[card], counts[card] = take, n - take
                size -= take
            card += 1
        hands[s] = hand
    rest: list[int] = []
    for card, n in enumerate(counts):
        if n:
            rest += [card] * n
    return hands, rest


@attrs.define
class _TicketPiles:
    deck: list[int]
    boxed: list[int]
    tickets: dict[int, list[int]]  # the other seats', by seat
    offers: dict[int, tuple[int, ...]]  # the tickets the others' pending decisions hold, by seat


def _sorted_tickets(st: GameState, others: Sequence[int], board: Board) -> _TicketPiles:
    offers = {}
    for s in others:
        decision = st.players[s].decision
        if decision is not None:
            held = decision.held_tickets()
            if held:
                offers[s] = list(held)
    piles = [st.ticket_deck[:], st.boxed_tickets[:], *(st.players[s].tickets[:] for s in others), *offers.values()]
    kind_of = [t.kind for t in board.tickets]
    if len(set(kind_of)) == 1:
        unseen = sorted([t for pile in piles for t in pile])
        at = 0
        for pile in piles:
            pile[:] = unseen[at:at + len(pile)]
            at += len(pile)
    else:
        places: dict[str, list[tuple[list[int], int]]] = {}
        for pile in piles:
            for i, ticket in enumerate(pile):
                places.setdefault(kind_of[ticket], []).append((pile, i))
        for spots in places.values():
            for (pile, i), ticket in zip(spots, sorted([pile[i] for pile, i in spots])):
                pile[i] = ticket
    n = len(others)
    return _TicketPiles(
        piles[0], piles[1], dict(zip(others, piles[2:2 + n])), {s: tuple(p) for s, p in zip(offers, piles[2 + n:])},
    )
