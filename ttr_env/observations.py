"""What one seat observes, as a flat ``float32`` vector built from its view alone.

:meth:`ObservationEncoding.encode` reads ``game.view(seat)`` (what that seat may see: public
information, its own hand, tickets and decision) and the seat's legal actions (which follow
from the same), never the state: whatever the seat cannot see (the deck's order, the other
hands and tickets, what others were offered) cannot reach the vector. The tests check that
dealing the hidden information anew (``game.determinize(seat, rng)``) leaves it unchanged.

Seats are *relative*: "seat +0" is the observing seat, "+1" the next one in turn order, and so on,
so one policy can play any seat. Values are raw counts (no scaling), clipped to the bounds of the
``Box`` (generous, from the variant: the deck's size, the map's trains, routes and tickets).

The vector, segment by segment (``describe()`` prints it with offsets for one variant; n is the
number of players, R routes, C cities, T tickets, K card kinds of the variant in its vocabulary
order -- the eight colours, ``locomotive``, then extra kinds such as ``controller`` --, S open-row
slots, Q the largest ticket offer, A the action kinds of the action space). The core's segments
are laid out here; the segments marked with a plugin are that plugin's, present when the variant
enables it: each plugin supplies its own parts, their bounds and their values from the seat's
view (``ttr_observation_parts``, ``ttr_observation_values``; :mod:`ttr_core.observing`), after
the core segment it names, so that a house rule replacing a plugin carries its state here:

=================  ===============  ====================================================================
segment            size             meaning
=================  ===============  ====================================================================
``phase``          3                one-hot: setup, play, over
``to_act``         1                1 if this seat is to act now
``current``        n                one-hot, relative: whose turn it is (all 0 outside play)
``final_round``    1                1 once the final round has begun
``turn``           1                turns completed
``open_row``       S x (K+1)        per slot, one-hot: the card kind, or (last column) an empty slot
``piles``          3                cards in the deck, in the discard, tickets in the ticket deck
``routes``         R x (n+1)        per route (map order), one-hot: free, owned by seat +0, +1, ...
``players``        n x 7            per relative seat: trains, cards, tickets held, route points,
                                    resigned, has a pending decision, is to act
``hand``           K                this seat's cards, by kind
``tickets``        T                1 for each map ticket this seat holds
``offer``          Q x T            (``tickets``) per offer position, one-hot: the ticket on offer to
                                    this seat (the positions of the ``keep-tickets`` actions)
``legal_kinds``    A                1 for each action kind (action-space order) with a legal action now
``tunnel``         R + 9 + 2 + 2K   (``tunnels``) this seat's pending tunnel attempt: route one-hot,
                                    paying colour one-hot (8 colours, then none), extra cards asked,
                                    locomotives only, base cards by kind, revealed cards by kind
``stations``       C x (n+1) + n    (``stations``) per city, one-hot: no station, a station of seat
                                    +0, +1, ...; then stations left per relative seat
``result``         2n               at the end: each relative seat's total score, then 1 for each
                                    winner (all 0 before the end)
=================  ===============  ====================================================================

A plugin that supplies no part (``controller``, ``majority-bonuses``: the variant's constant
parameters) adds nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs
import numpy as np

from ttr_core.game import Game
from ttr_core.observing import observation_parts, observation_values
from ttr_core.variant import Ruleset
from ttr_env.actions import ActionEncoding

PHASES = ("setup", "play", "over")
PLAYER_FIELDS = ("trains", "cards", "tickets", "route_points", "resigned", "deciding", "to_act")
#: the highest turn count the bounds allow (a game of random agents takes a few hundred turns)
MAX_TURNS = 1_000_000


@attrs.frozen
class Part:
    name: str
    start: int
    size: int
    doc: str


class ObservationEncoding:
    """The observation vector of one ruleset for ``players`` players (see the module docstring)."""

    def __init__(self, ruleset: Ruleset, players: int, actions: ActionEncoding) -> None:
        self.ruleset = ruleset
        self.players = n = players
        self.actions = actions
        board = ruleset.board
        probe = Game(ruleset, [f"player_{i}" for i in range(players)], 0)
        view = probe.view(0)
        self.card_names = tuple(probe.cards.names)
        self.card_index = {name: i for i, name in enumerate(self.card_names)}
        self.route_index = {r.id: r.index for r in board.routes}
        self.ticket_index = {t.id: t.index for t in board.tickets}
        self.kind_index = {kind: i for i, kind in enumerate(actions.kinds)}
        self.slots = len(view["open_row"])
        self.plugin_parts = observation_parts(probe)

        deck = sum(ruleset.rules.deck_counts.values())
        K, R, T = len(self.card_names), len(board.routes), len(board.tickets)
        route_points = sum(ruleset.rules.points.get(r.length, 0) for r in board.routes)
        ticket_points = sum(t.points for t in board.tickets)
        self.parts: list[Part] = []
        lows: list[np.ndarray] = []
        highs: list[np.ndarray] = []
        following = {p.after: [q for q in self.plugin_parts if q.after == p.after] for p in self.plugin_parts}

        def part(name: str, size: int, high: float | Iterable[float], doc: str, low: float | Iterable[float] = 0.0) -> None:
            start = sum(p.size for p in self.parts)
            self.parts.append(Part(name, start, size, doc))
            lows.append(np.broadcast_to(np.asarray(low, dtype=np.float32), (size,)).copy())
            highs.append(np.broadcast_to(np.asarray(high, dtype=np.float32), (size,)).copy())
            for plugin_part in following.pop(name, ()):  # the plugins' parts that follow this one
                low_bounds, high_bounds = plugin_part.bounds()
                part(plugin_part.name, plugin_part.size, high_bounds, plugin_part.doc, low_bounds)

        part("phase", 3, 1, "one-hot: setup, play, over")
        part("to_act", 1, 1, "this seat is to act")
        part("current", n, 1, "one-hot, relative: whose turn")
        part("final_round", 1, 1, "the final round has begun")
        part("turn", 1, MAX_TURNS, "turns completed")
        part("open_row", self.slots * (K + 1), 1, f"{self.slots} slots x one-hot of {K} card kinds + empty")
        part("piles", 3, [deck, deck, T], "deck, discard, ticket deck sizes")
        part("routes", R * (n + 1), 1, f"{R} routes x one-hot: free, seat +0..+{n - 1}")
        part(
            "players", n * len(PLAYER_FIELDS), [board.trains, deck, T, route_points, 1, 1, 1] * n,
            f"{n} relative seats x {', '.join(PLAYER_FIELDS)}",
        )
        part("hand", K, [ruleset.rules.deck_counts.get(c, 0) for c in self.card_names], f"counts of {', '.join(self.card_names)}")
        part("tickets", T, 1, f"{T} map tickets held")
        part("legal_kinds", len(actions.kinds), 1, ", ".join(actions.kinds))
        # a total is at least minus every ticket of the map and at most every route, every
        # ticket and bonuses, which a margin covers
        part("result", 2 * n, [route_points + ticket_points + 1000] * n + [1] * n,
             "total per relative seat, then winners", low=0.0)
        if following:
            raise ValueError(
                f"observation part(s) {', '.join(p.name for ps in following.values() for p in ps)} follow "
                f"no segment of the observation ({', '.join(p.name for p in self.parts)})"
            )
        self.size = sum(p.size for p in self.parts)
        self.low = np.concatenate(lows)
        self.high = np.concatenate(highs)
        result = self.part("result")
        self.low[result.start:result.start + n] = -(ticket_points + 1000)
        self._offsets = {p.name: p.start for p in self.parts}
        self._plugin_sizes = {p.name: p.size for p in self.plugin_parts}

    def part(self, name: str) -> Part:
        return next(p for p in self.parts if p.name == name)

    def describe(self) -> str:
        rows = [f"{'segment':<12} {'start':>6} {'size':>6}  meaning"]
        rows += [f"{p.name:<12} {p.start:>6} {p.size:>6}  {p.doc}" for p in self.parts]
        rows.append(f"{'(total)':<12} {'':>6} {self.size:>6}")
        return "\n".join(rows)

    # --- encoding -------------------------------------------------------------------------------

    def encode(self, view: Mapping[str, Any], legal_kinds: Iterable[str] = ()) -> np.ndarray:
        """The vector of the seat whose ``view`` this is (``view["you"]``); ``legal_kinds``: the kinds
        of its legal actions now."""
        n = self.players
        me = view["you"]["seat"]
        out = np.zeros(self.size, dtype=np.float32)
        at = self._offsets

        def rel(seat: int) -> int:
            return (seat - me) % n

        out[at["phase"] + PHASES.index(view["phase"])] = 1
        out[at["to_act"]] = me in view["to_act"]
        if view["current"] is not None:
            out[at["current"] + rel(view["current"])] = 1
        out[at["final_round"]] = view["final_round"]
        out[at["turn"]] = view["turn"]
        width = len(self.card_names) + 1
        for slot, card in enumerate(view["open_row"]):
            out[at["open_row"] + slot * width + (self.card_index[card] if card is not None else width - 1)] = 1
        out[at["piles"]:at["piles"] + 3] = (view["deck_size"], view["discard_size"], view["tickets_left"])
        for route, seat in view["routes"].items():
            out[at["routes"] + self.route_index[route] * (n + 1) + 1 + rel(seat)] = 1
        owned = {self.route_index[r] for r in view["routes"]}
        for r in range(len(self.route_index)):
            if r not in owned:
                out[at["routes"] + r * (n + 1)] = 1
        for seat, p in enumerate(view["players"]):
            base = at["players"] + rel(seat) * len(PLAYER_FIELDS)
            out[base:base + len(PLAYER_FIELDS)] = (
                p["trains"], p["cards"], p["tickets"], p["route_points"], p["resigned"],
                p["decision"] is not None, seat in view["to_act"],
            )
        for card, count in view["you"]["hand"].items():
            out[at["hand"] + self.card_index[card]] = count
        for ticket in view["you"]["tickets"]:
            out[at["tickets"] + self.ticket_index[ticket]] = 1
        for kind in legal_kinds:
            if kind in self.kind_index:
                out[at["legal_kinds"] + self.kind_index[kind]] = 1
        for name, values in observation_values(self.ruleset, view).items():
            self._put(out, name, values)
        result = view.get("result")
        if result is not None:
            for score in result["scores"]:
                out[at["result"] + rel(score["seat"])] = score["total"]
            for seat in result["winners"]["seats"]:
                out[at["result"] + n + rel(seat)] = 1
        return np.clip(out, self.low, self.high, out=out)

    def _put(self, out: np.ndarray, name: str, values) -> None:
        """A plugin's numbers for its part ``name`` (``ttr_observation_values``), from its start."""
        size = self._plugin_sizes.get(name)
        if size is None:
            raise ValueError(f"a plugin observed {name!r}, which no plugin supplies as an observation part")
        numbers = np.asarray(values, dtype=np.float32)
        if numbers.ndim != 1 or len(numbers) > size:
            raise ValueError(f"observation part {name!r} holds {size} numbers, not {numbers.shape}")
        start = self._offsets[name]
        out[start:start + len(numbers)] = numbers
