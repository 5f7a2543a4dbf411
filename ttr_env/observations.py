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
slots, Q the largest ticket offer, A the action kinds of the action space):

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
``offer``          Q x T            per offer position, one-hot: the ticket on offer to this seat
                                    (the positions of the ``keep-tickets`` actions); only if the
                                    variant has ``keep-tickets``
``legal_kinds``    A                1 for each action kind (action-space order) with a legal action now
``tunnel``         R + 9 + 2 + 2K   this seat's pending tunnel attempt: route one-hot, paying colour
                                    one-hot (8 colours, then none), extra cards asked, locomotives
                                    only, base cards by kind, revealed cards by kind; only if the
                                    variant has ``pay-tunnel``
``stations``       C x (n+1) + n    per city, one-hot: no station, a station of seat +0, +1, ...;
                                    then stations left per relative seat; only if the view has
                                    ``rules.stations``
``result``         2n               at the end: each relative seat's total score, then 1 for each
                                    winner (all 0 before the end)
=================  ===============  ====================================================================

Plugin parts of the view that are not listed here (``rules.tunnels``, ``rules.controller``,
``rules.majority-bonuses``: the variant's constant parameters) are not encoded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs
import numpy as np

from ttr_core.cards import COLORS
from ttr_core.game import Game
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
        self.city_index = {c.name: c.index for c in board.cities}
        self.ticket_index = {t.id: t.index for t in board.tickets}
        self.kind_index = {kind: i for i, kind in enumerate(actions.kinds)}
        self.slots = len(view["open_row"])
        keep = next((c for c in actions.codecs if c.kind == "keep-tickets"), None)
        self.offer_size = keep.positions if keep is not None else 0
        self.has_tunnels = "pay-tunnel" in actions.kinds
        self.has_stations = "stations" in view["rules"]

        deck = sum(ruleset.rules.deck_counts.values())
        K, R, C, T = len(self.card_names), len(board.routes), len(board.cities), len(board.tickets)
        route_points = sum(ruleset.rules.points.get(r.length, 0) for r in board.routes)
        ticket_points = sum(t.points for t in board.tickets)
        self.parts: list[Part] = []
        lows: list[np.ndarray] = []
        highs: list[np.ndarray] = []

        def part(name: str, size: int, high: float | Iterable[float], doc: str, low: float = 0.0) -> None:
            start = sum(p.size for p in self.parts)
            self.parts.append(Part(name, start, size, doc))
            lows.append(np.full(size, low, dtype=np.float32))
            highs.append(np.broadcast_to(np.asarray(high, dtype=np.float32), (size,)).copy())

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
        if self.offer_size:
            part("offer", self.offer_size * T, 1, f"{self.offer_size} offer positions x one-hot of {T} tickets")
        part("legal_kinds", len(actions.kinds), 1, ", ".join(actions.kinds))
        if self.has_tunnels:
            part(
                "tunnel", R + len(COLORS) + 1 + 2 + 2 * K, [1] * (R + len(COLORS) + 1) + [deck, 1] + [deck] * (2 * K),
                "route one-hot, colour one-hot (+none), extra, locomotives only, base by kind, revealed by kind",
            )
        if self.has_stations:
            most = max((len(s["cities"]) + s["left"] for s in view["rules"]["stations"]), default=0)
            part("stations", C * (n + 1) + n, [1] * (C * (n + 1)) + [most] * n, f"{C} cities x one-hot: none, seat +0..; left per seat")
        # a total is at least minus every ticket of the map and at most every route, every
        # ticket and bonuses, which a margin covers
        part("result", 2 * n, [route_points + ticket_points + 1000] * n + [1] * n,
             "total per relative seat, then winners", low=0.0)
        self.size = sum(p.size for p in self.parts)
        self.low = np.concatenate(lows)
        self.high = np.concatenate(highs)
        result = self.part("result")
        self.low[result.start:result.start + n] = -(ticket_points + 1000)
        self._offsets = {p.name: p.start for p in self.parts}

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
        if self.offer_size:
            T = len(self.ticket_index)
            for pos, ticket in enumerate((view["rules"].get("tickets_on_offer") or ())[: self.offer_size]):
                out[at["offer"] + pos * T + self.ticket_index[ticket]] = 1
        for kind in legal_kinds:
            if kind in self.kind_index:
                out[at["legal_kinds"] + self.kind_index[kind]] = 1
        if self.has_tunnels:
            self._tunnel(out, at["tunnel"], view["players"][me]["decision"])
        if self.has_stations:
            self._stations(out, at["stations"], view["rules"].get("stations") or [], rel)
        result = view.get("result")
        if result is not None:
            for score in result["scores"]:
                out[at["result"] + rel(score["seat"])] = score["total"]
            for seat in result["winners"]["seats"]:
                out[at["result"] + n + rel(seat)] = 1
        return np.clip(out, self.low, self.high, out=out)

    def _tunnel(self, out: np.ndarray, at: int, decision: Mapping[str, Any] | None) -> None:
        if not decision or "extra" not in decision or decision.get("route") not in self.route_index:
            return
        R, K = len(self.route_index), len(self.card_names)
        out[at + self.route_index[decision["route"]]] = 1
        color = decision.get("color")
        out[at + R + (COLORS.index(color) if color in COLORS else len(COLORS))] = 1
        at += R + len(COLORS) + 1
        out[at] = decision["extra"]
        out[at + 1] = bool(decision.get("locomotives_only"))
        for i, key in enumerate(("base", "revealed")):
            for card in decision.get(key) or ():
                if card in self.card_index:
                    out[at + 2 + i * K + self.card_index[card]] += 1

    def _stations(self, out: np.ndarray, at: int, stations: list[Mapping[str, Any]], rel) -> None:
        n = self.players
        taken = {}
        for seat, entry in enumerate(stations):
            for city in entry["cities"]:
                taken[self.city_index[city]] = rel(seat)
            out[at + len(self.city_index) * (n + 1) + rel(seat)] = entry["left"]
        for c in range(len(self.city_index)):
            out[at + c * (n + 1) + (1 + taken[c] if c in taken else 0)] = 1
