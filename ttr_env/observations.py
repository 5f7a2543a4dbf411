"""What one seat observes, as a flat ``float32`` vector built from its view alone.

:meth:`ObservationEncoding.encode` reads the seat's view (``game.seat_view(seat)`` for the core's
segments; the plugins' parts read it and ``game.view(seat)``, built key by key as they read it:
what that seat may see, public information, its own hand, tickets and decision) and the seat's
legal actions (which follow from the same), never the state: whatever the seat cannot see (the
deck's order, the other hands and tickets, what others were offered) cannot reach the vector. The
tests check that dealing the hidden information anew (``game.determinize(seat, rng)``) leaves it
unchanged.

Seats are *relative*: "seat +0" is the observing seat, "+1" the next one in turn order, and so on,
so one policy can play any seat.

**Scales.** Every number is bounded by the ``Box`` of the observation space, and small: one-hot
and yes/no numbers are 0 or 1; a count is divided by the scale the table gives (``TURN_SCALE``,
``CARD_SCALE``, ``HAND_SCALE``, ``TICKET_SCALE``, ``POINT_SCALE`` below, or a size of the
variant), so that it stays within [0, 1] in a usual game and within a bound of a few units in any
game (the bound is the variant's: every card of the deck in one hand, every route's points...);
a value beyond its bound (a turn past ``MAX_TURNS``) is clipped. A plugin's part is divided by
the larger of its bounds' magnitudes (``ttr_observation_parts``), so it lies within [-1, 1].
``describe()`` prints each segment's scale.

The vector, segment by segment (``describe()`` prints it with offsets for one variant; n is the
number of players, R routes, C cities, T tickets, K card kinds of the variant in its vocabulary
order -- the eight colours, ``locomotive``, then extra kinds such as ``controller`` --, S open-row
slots, Q the largest ticket offer, A the action kinds of the action space). The core's segments
are laid out here; the segments marked with a plugin are that plugin's, present when the variant
enables it: each plugin supplies its own parts, their bounds and their values from the seat's
view (``ttr_observation_parts``, ``ttr_observation_values``; :mod:`ttr_core.observing`), after
the core segment it names, so that a house rule replacing a plugin carries its state here:

=================  ===============  ====================================================================
segment            size             meaning (scale)
=================  ===============  ====================================================================
``phase``          3                one-hot: setup, play, over
``to_act``         1                1 if this seat is to act now
``current``        n                one-hot, relative: whose turn it is (all 0 outside play)
``final_round``    1                1 once the final round has begun
``turn``           1                turns completed / ``TURN_SCALE`` (bound ``MAX_TURNS / TURN_SCALE``)
``open_row``       S x (K+1)        per slot, one-hot: the card kind, or (last column) an empty slot
``piles``          3                cards in the deck and in the discard / the deck's size; tickets in
                                    the ticket deck / the map's tickets
``routes``         R x (n+1)        per route (map order), one-hot: free, owned by seat +0, +1, ...
``map``            R x 16           per route (map order; the same in every game): length / the
                                    longest route's; colour one-hot (8 colours, then gray); tunnel;
                                    ferry marks / length; its two cities' positions (latitude,
                                    longitude of the first city, then of the second, each scaled to
                                    [0, 1] over the map's extent)
``players``        n x 7            per relative seat: trains / the starting trains, cards /
                                    ``CARD_SCALE``, tickets held / ``TICKET_SCALE``, route points /
                                    ``POINT_SCALE``, resigned, has a pending decision, is to act
``hand``           K                this seat's cards by kind / ``HAND_SCALE``
``tickets``        T                1 for each map ticket this seat holds
``offer``          Q x T            (``tickets``) per offer position, one-hot: the ticket on offer to
                                    this seat (the positions of the ``keep-tickets`` actions)
``connected``      T                1 for each ticket this seat holds whose two cities its own routes
                                    join (stations, which borrow a route only at the end, not counted)
``ticket_map``     T x 5            per map ticket (the same in every game): its cities' positions
                                    (as in ``map``), then its points / the map's largest ticket's
``legal_kinds``    A                1 for each action kind (action-space order) with a legal action now
``tunnel``         R + 9 + 2 + 2K   (``tunnels``) this seat's pending tunnel attempt: route one-hot,
                                    paying colour one-hot (8 colours, then none), extra cards asked,
                                    locomotives only, base cards by kind, revealed cards by kind
``stations``       C x (n+1) + n    (``stations``) per city, one-hot: no station, a station of seat
                                    +0, +1, ...; then stations left per relative seat
``result``         2n               at the end: each relative seat's total score / ``POINT_SCALE``,
                                    then 1 for each winner (all 0 before the end)
=================  ===============  ====================================================================

A plugin that supplies no part (``controller``, ``majority-bonuses``: the variant's constant
parameters) adds nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from ttr_core.board import Board
from ttr_core.cards import COLORS, GRAY
from ttr_core.game import Game
from ttr_core.observing import observation_parts, observation_values
from ttr_core.variant import Ruleset
from ttr_env.actions import ActionEncoding

if TYPE_CHECKING:
    from ttr_core.seat_view import SeatView

PHASES = ("setup", "play", "over")
PLAYER_FIELDS = ("trains", "cards", "tickets", "route_points", "resigned", "deciding", "to_act")
ROUTE_COLORS = (*COLORS, GRAY)
#: what counts are divided by (see the module docstring): turns completed, cards in a hand, own
#: cards of one kind, tickets held, points
TURN_SCALE = 100
CARD_SCALE = 20
HAND_SCALE = 10
TICKET_SCALE = 10
POINT_SCALE = 100
#: the turn count the bound allows; later turns read as this one
MAX_TURNS = 1000
#: a margin for the points of bonuses in the bounds of the final totals
BONUS_MARGIN = 300
#: how many sets of one seat's routes the encoding remembers the connected cities of
COMPONENTS_KEPT = 4096


@attrs.frozen
class Part:
    name: str
    start: int
    size: int
    doc: str
    scale: str = "1"


def _numbers(value: float | Iterable[float], size: int) -> np.ndarray:
    return np.broadcast_to(np.asarray(value, dtype=np.float64), (size,)).copy()


class ObservationEncoding:
    """The observation vector of one ruleset for ``players`` players (see the module docstring)."""

    def __init__(self, ruleset: Ruleset, players: int, actions: ActionEncoding) -> None:
        self.ruleset = ruleset
        self.players = n = players
        self.actions = actions
        self.board = board = ruleset.board
        probe = Game(ruleset, [f"player_{i}" for i in range(players)], 0)
        self.card_names = tuple(probe.cards.names)
        self.card_index = {name: i for i, name in enumerate(self.card_names)}
        self.route_index = {r.id: r.index for r in board.routes}
        self.ticket_index = {t.id: t.index for t in board.tickets}
        self.kind_index = {kind: i for i, kind in enumerate(actions.kinds)}
        self.slots = len(probe.view(0)["open_row"])
        self.plugin_parts = observation_parts(probe)
        self._lay_out(ruleset, board)
        self._offsets = {p.name: p.start for p in self.parts}
        self._plugin_sizes = {p.name: p.size for p in self.plugin_parts}
        self._phase_index = {phase: self._offsets["phase"] + i for i, phase in enumerate(PHASES)}
        self._ticket_cities = [(t.ai, t.bi) for t in board.tickets]
        self._route_cities = [(r.ai, r.bi) for r in board.routes]
        self._components: dict[tuple[int, ...], list[int]] = {}
        #: the last numbers of each plugin part, as given and as an array
        self._last_values: dict[str, tuple[Any, np.ndarray]] = {}
        # a route's column in its one-hot, by observing seat and owner (index -1: free)
        self._route_bases = self._offsets["routes"] + np.arange(len(self.route_index), dtype=np.intp) * (n + 1)
        self._owner_columns = [np.array([1 + (o - me) % n for o in range(n)] + [0], dtype=np.intp) for me in range(n)]
        at = self._offsets
        self._count_positions = np.array(
            [at["turn"], at["piles"], at["piles"] + 1, at["piles"] + 2]
            + list(range(at["players"], at["players"] + n * len(PLAYER_FIELDS))), dtype=np.intp,
        )

    # --- the layout -------------------------------------------------------------------------------

    def _lay_out(self, ruleset: Ruleset, board: Board) -> None:
        n = self.players
        deck = sum(ruleset.rules.deck_counts.values())
        K, R, T = len(self.card_names), len(board.routes), len(board.tickets)
        route_points = sum(ruleset.rules.points.get(r.length, 0) for r in board.routes)
        ticket_points = sum(t.points for t in board.tickets)
        self.parts: list[Part] = []
        lows: list[np.ndarray] = []
        highs: list[np.ndarray] = []
        scales: list[np.ndarray] = []
        statics: dict[str, np.ndarray] = {}
        following = {p.after: [q for q in self.plugin_parts if q.after == p.after] for p in self.plugin_parts}

        def part(name: str, size: int, high, doc: str, low=0.0, scale=1.0, scale_doc: str = "1") -> None:
            """A segment: its raw bounds (counts) and what they are divided by."""
            start = sum(p.size for p in self.parts)
            self.parts.append(Part(name, start, size, doc, scale_doc))
            divide = _numbers(scale, size)
            lows.append(_numbers(low, size) / divide)
            highs.append(_numbers(high, size) / divide)
            scales.append(divide)
            for plugin_part in following.pop(name, ()):  # the plugins' parts that follow this one
                low_bounds, high_bounds = plugin_part.bounds()
                largest = np.maximum(np.abs(low_bounds), np.abs(high_bounds))
                part(plugin_part.name, plugin_part.size, high_bounds, plugin_part.doc, low_bounds,
                     np.where(largest > 0, largest, 1.0), "its bounds")

        part("phase", 3, 1, "one-hot: setup, play, over")
        part("to_act", 1, 1, "this seat is to act")
        part("current", n, 1, "one-hot, relative: whose turn")
        part("final_round", 1, 1, "the final round has begun")
        part("turn", 1, MAX_TURNS, "turns completed", scale=TURN_SCALE, scale_doc=f"{TURN_SCALE}")
        part("open_row", self.slots * (K + 1), 1, f"{self.slots} slots x one-hot of {K} card kinds + empty")
        part("piles", 3, [deck, deck, T], "deck, discard, ticket deck sizes", scale=[deck, deck, T],
             scale_doc=f"{deck}, {deck}, {T}")
        part("routes", R * (n + 1), 1, f"{R} routes x one-hot: free, seat +0..+{n - 1}")
        statics["map"] = self._map_features(board)
        part("map", statics["map"].size, 1, f"{R} routes x length, colour one-hot (8 + gray), tunnel, ferry, "
             "2 cities' positions")
        part(
            "players", n * len(PLAYER_FIELDS), [board.trains, deck, T, route_points, 1, 1, 1] * n,
            f"{n} relative seats x {', '.join(PLAYER_FIELDS)}",
            scale=[board.trains, CARD_SCALE, TICKET_SCALE, POINT_SCALE, 1, 1, 1] * n,
            scale_doc=f"{board.trains}, {CARD_SCALE}, {TICKET_SCALE}, {POINT_SCALE}",
        )
        part("hand", K, [ruleset.rules.deck_counts.get(c, 0) for c in self.card_names],
             f"counts of {', '.join(self.card_names)}", scale=HAND_SCALE, scale_doc=f"{HAND_SCALE}")
        part("tickets", T, 1, f"{T} map tickets held")
        part("connected", T, 1, f"{T} map tickets: held and joined by own routes")
        statics["ticket_map"] = self._ticket_features(board)
        part("ticket_map", statics["ticket_map"].size, 1, f"{T} tickets x 2 cities' positions, points")
        part("legal_kinds", len(self.actions.kinds), 1, ", ".join(self.actions.kinds))
        # a total is at least minus every ticket of the map and at most every route, every
        # ticket and bonuses, which a margin covers
        lowest, highest = -(ticket_points + BONUS_MARGIN), route_points + ticket_points + BONUS_MARGIN
        part("result", 2 * n, [highest] * n + [1] * n, "total per relative seat, then winners",
             low=[lowest] * n + [0] * n, scale=[POINT_SCALE] * n + [1] * n, scale_doc=f"{POINT_SCALE}")
        if following:
            raise ValueError(
                f"observation part(s) {', '.join(p.name for ps in following.values() for p in ps)} follow "
                f"no segment of the observation ({', '.join(p.name for p in self.parts)})"
            )
        self.size = sum(p.size for p in self.parts)
        self.low = np.concatenate(lows).astype(np.float32)
        self.high = np.concatenate(highs).astype(np.float32)
        self.scale = np.concatenate(scales).astype(np.float32)
        self._inverse_scale = (1.0 / np.concatenate(scales)).astype(np.float32)
        # what every observation starts from: the map's features
        self._template = np.zeros(self.size, dtype=np.float32)
        for name, values in statics.items():
            start = self.part(name).start
            self._template[start:start + values.size] = values

    def _map_features(self, board: Board) -> np.ndarray:
        longest = max(r.length for r in board.routes)
        out = np.zeros((len(board.routes), 16))
        for r in board.routes:
            out[r.index, 0] = r.length / longest
            out[r.index, 1 + ROUTE_COLORS.index(r.color)] = 1
            out[r.index, 10] = r.tunnel
            out[r.index, 11] = r.ferry / r.length
            out[r.index, 12:16] = (*self._position(board, r.ai), *self._position(board, r.bi))
        return out.ravel()

    def _ticket_features(self, board: Board) -> np.ndarray:
        top = max((t.points for t in board.tickets), default=1)
        out = np.zeros((len(board.tickets), 5))
        for t in board.tickets:
            out[t.index] = (*self._position(board, t.ai), *self._position(board, t.bi), t.points / top)
        return out.ravel()

    @staticmethod
    def _position(board: Board, city: int) -> tuple[float, float]:
        """A city's latitude and longitude, scaled to [0, 1] over the map's cities."""
        lats = [c.lat for c in board.cities]
        lons = [c.lon for c in board.cities]
        c = board.cities[city]
        return ((c.lat - min(lats)) / ((max(lats) - min(lats)) or 1), (c.lon - min(lons)) / ((max(lons) - min(lons)) or 1))

    def part(self, name: str) -> Part:
        return next(p for p in self.parts if p.name == name)

    def describe(self) -> str:
        rows = [f"{'segment':<12} {'start':>6} {'size':>6}  {'divided by':<16}  meaning"]
        rows += [f"{p.name:<12} {p.start:>6} {p.size:>6}  {p.scale:<16}  {p.doc}" for p in self.parts]
        rows.append(f"{'(total)':<12} {'':>6} {self.size:>6}")
        return "\n".join(rows)

    # --- encoding -------------------------------------------------------------------------------

    def encode(self, seat_view: SeatView, view: Mapping[str, Any],
               legal_kinds: Iterable[str] | np.ndarray = ()) -> np.ndarray:
        """The vector of the seat whose ``seat_view`` (``game.seat_view(seat)``) and ``view`` (its
        ``game.view(seat)``, or a mapping giving the same, :class:`ttr_env.encoding.SeatViewData`)
        these are: the core's segments read the typed view, the plugins' parts the mapping.
        ``legal_kinds``: the kinds of its legal actions now (names, or an array of 0/1 in
        action-space order)."""
        n, at = self.players, self._offsets
        sv = seat_view
        me = sv.seat
        out = self._template.copy()
        to_act = sv.to_act
        ones = [self._phase_index[sv.phase]]
        if me in to_act:
            ones.append(at["to_act"])
        if sv.current is not None:
            ones.append(at["current"] + (sv.current - me) % n)
        if sv.final_round:
            ones.append(at["final_round"])
        width, row, card_index = len(self.card_names) + 1, at["open_row"], self.card_index
        for slot, card in enumerate(sv.open_row):
            ones.append(row + slot * width + (card_index[card] if card is not None else width - 1))
        owner = np.asarray(sv.owner, dtype=np.intp)
        out[self._route_bases + self._owner_columns[me][owner]] = 1
        held = sv.tickets
        ones += [at["tickets"] + t for t in held]
        ones += [at["connected"] + t for t in self._connected(np.flatnonzero(owner == me).tolist(), held)]
        if isinstance(legal_kinds, np.ndarray):  # one number per kind, as Encoding.observe gives them
            out[at["legal_kinds"]:at["legal_kinds"] + len(legal_kinds)] = legal_kinds
        else:
            ones += [at["legal_kinds"] + self.kind_index[k] for k in legal_kinds if k in self.kind_index]
        out[ones] = 1
        self._put_counts(out, sv, to_act)
        for name, values in observation_values(self.ruleset, view, sv).items():
            self._put(out, name, values)
        np.multiply(out, self._inverse_scale, out=out)
        np.minimum(out, self.high, out=out)
        return np.maximum(out, self.low, out=out)

    def _put_counts(self, out: np.ndarray, sv: SeatView, to_act: Sequence[int]) -> None:
        """The counts, unscaled (``encode`` divides the whole vector by its scales)."""
        n, me = self.players, sv.seat
        players = sv.players
        values = [sv.turn, sv.deck_size, sv.discard_size, sv.tickets_left]
        for k in range(n):
            p = players[(me + k) % n]
            values += (p.trains, p.cards, p.tickets, p.route_points, p.resigned, p.decision is not None,
                       (me + k) % n in to_act)
        out[self._count_positions] = values
        hand = self._offsets["hand"]
        out[hand:hand + len(self.card_names)] = sv.hand_counts
        result = sv.result
        if result is not None:
            at = self._offsets["result"]
            for score in result.scores:
                out[at + (score.seat - me) % n] = score.total
            for seat in result.winners.seats:
                out[at + n + (seat - me) % n] = 1

    def _connected(self, mine: Sequence[int], held: Sequence[int]) -> list[int]:
        """The held tickets whose two cities the routes ``mine`` join."""
        if not held or not mine:
            return []
        key = tuple(mine)
        roots = self._components.get(key)
        if roots is None:
            if len(self._components) >= COMPONENTS_KEPT:
                self._components.clear()
            roots = self._components[key] = self._roots(key)
        cities = self._ticket_cities
        return [t for t in held if roots[cities[t][0]] == roots[cities[t][1]]]

    def _roots(self, routes: Iterable[int]) -> list[int]:
        """For each city, a representative of the cities ``routes`` join it to (union-find)."""
        parent = list(range(len(self.board.cities)))

        def find(c: int) -> int:
            while parent[c] != c:
                parent[c] = parent[parent[c]]
                c = parent[c]
            return c

        for r in routes:
            a, b = self._route_cities[r]
            parent[find(a)] = find(b)
        return [find(c) for c in range(len(parent))]

    def _put(self, out: np.ndarray, name: str, values) -> None:
        """A plugin's numbers for its part ``name`` (``ttr_observation_values``), from its start."""
        size = self._plugin_sizes.get(name)
        if size is None:
            raise ValueError(f"a plugin observed {name!r}, which no plugin supplies as an observation part")
        last = self._last_values.get(name)
        if last is not None and last[0] == values:
            numbers = last[1]
        else:
            numbers = np.asarray(values, dtype=np.float32)
            if numbers.ndim != 1 or len(numbers) > size:
                raise ValueError(f"observation part {name!r} holds {size} numbers, not {numbers.shape}")
            self._last_values[name] = (values, numbers)
        start = self._offsets[name]
        out[start:start + len(numbers)] = numbers
