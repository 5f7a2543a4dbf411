"""The fixed action space of a variant: every action that can ever be legal, numbered once.

An agent picks an integer ``0 <= i < n``; :class:`ActionEncoding` turns legal actions into
indices (the mask) and indices back into actions the game accepts. The numbering is built from
public data only: the map (routes, cities), the card colours, the action kinds the ruleset
registers (``registry``: their classes and fields), and the variant's configs where a bound is
needed (how many cards a tunnel may ask for, what a station costs). It never depends on a game in
progress, so one index means the same action in every game of a variant and player count.

Layout: one *segment* per action kind, kinds in name order; ``describe()`` prints the table with
each segment's first index and size. Within a segment:

``build-station``
    for each city (map order): for each colour (``purple, blue, orange, white, green, yellow,
    black, red``): ``locomotives`` 0 .. (dearest station - 1); then ``color: null`` with
    ``locomotives`` = each distinct station cost (an all-locomotive payment).
    Bound: the ``costs`` of the registering plugin's config (``stations``: ``[1, 2, 3]``).
``claim-route``
    for each route (map order): ``color: null, locomotives: length`` (all locomotives); then for
    each colour the route may be paid in (its own; all eight for a gray route), for ``triples``
    0 .. ferry marks, ``locomotives`` 0 .. ``length - triples`` (at least one coloured card or
    triple), keeping only the payments the ruleset's ferry rule accepts (``ttr_ferry_payment``,
    the ``claiming`` plugin's hook; without an answer triples are left out).
``draw-card``
    ``slot: null`` (blind from the deck), then ``slot`` 0 .. open-row size - 1.
``keep-tickets``
    by *offer position*: offset ``m - 1`` keeps the positions whose bits are set in ``m``
    (bit 0 = the first ticket on offer), ``m`` = 1 .. 2**K - 1, K the largest offer the ruleset
    deals (``ttr_ticket_deal``, the ``tickets`` plugin's hook, for ``start`` and ``draw``). The
    offer itself is read from the seat's view (``rules.tickets_on_offer``).
``pay-tunnel``
    offset = ``locomotives`` 0 .. R (R: the cards a tunnel reveals, the ``reveal`` of the
    registering plugin's config); the rest of the extra is paid in the attempt's colour, read from
    the seat's own pending decision in its view (``color``, ``extra``).
``play-controller``
    ``mode: "dismantle"`` for each route the controller reaches (length <= the registering
    plugin's ``max_length``, map order), then ``mode: "build"`` for the same routes.
a kind without fields (``pass``, ``draw-tickets``, ``decline-tunnel``, any such house rule)
    one index.

Kinds that any seat may play at any moment (``any_time``, i.e. ``resign``) are not part of the
space: the engine never lists them among a seat's legal actions. A kind with fields that is not
described above is refused when the space is built (:class:`UnsupportedAction`), unless a codec
for it is registered with :func:`register_codec`.

This module knows, of each kind above, its field names and the meaning of its values; that is
the only knowledge of plugin internals it has, and the tests check it against every legal action
of seeded games of every shipped variant.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from ttr_core.actions import Action
from ttr_core.cards import COLORS, GRAY
from ttr_core.errors import TTRError
from ttr_core.game import Game
from ttr_core.variant import Ruleset


class UnsupportedAction(TTRError):
    """A ruleset registers an action kind this module cannot number (see :func:`register_codec`)."""


class UnencodableAction(TTRError):
    """A legal action has no index (a bug of the encoding: the tests look for it)."""


@attrs.frozen
class Context:
    """What a codec may build its part of the space from: public data of one ruleset."""

    ruleset: Ruleset
    players: int
    #: a game made only to read what the ruleset sets up (open-row size, per-ruleset answers)
    probe: Game
    #: the plugin that registers the kind, and its config (None if it has none)
    plugin: str
    config: Any

    @property
    def board(self):
        return self.ruleset.board


class Codec:
    """One action kind's part of the space: ``size`` offsets, numbered from 0.

    A *static* codec lists the action data of each offset (``choices``); a *contextual* one
    (``keep-tickets``, ``pay-tunnel``) needs the seat's view to turn an offset into an action."""

    kind: str = ""
    size: int = 0
    doc: str = ""

    def encode(self, action: Action, view: Mapping[str, Any]) -> int | None:
        """The offset of ``action`` (a legal action of the seat whose view this is), or None."""
        raise NotImplementedError

    def decode(self, offset: int, view: Mapping[str, Any]) -> dict[str, Any] | None:
        """The action data of ``offset`` for the seat whose view this is, or None if the offset
        means nothing now (a keep-tickets position beyond the offer)."""
        raise NotImplementedError


class StaticCodec(Codec):
    def __init__(self, kind: str, choices: Sequence[Mapping[str, Any]], doc: str, registry) -> None:
        self.kind, self.doc = kind, doc
        self.choices = [dict(c) for c in choices]
        self.size = len(self.choices)
        self.actions = [registry.from_data({"kind": kind, **c}) for c in self.choices]
        self.offsets = {a: i for i, a in enumerate(self.actions)}
        if len(self.offsets) != self.size:
            raise UnsupportedAction(f"{kind}: two offsets decode to the same action")

    def encode(self, action, view):
        return self.offsets.get(action)

    def decode(self, offset, view):
        return {"kind": self.kind, **self.choices[offset]}


class KeepTicketsCodec(Codec):
    kind = "keep-tickets"

    def __init__(self, largest_offer: int) -> None:
        self.positions = largest_offer
        self.size = 2**largest_offer - 1
        self.doc = f"subsets of the {largest_offer} offer positions: offset m-1 keeps the positions set in bitmask m"

    def encode(self, action, view):
        offer = _offer(view)
        try:
            m = sum(1 << offer.index(t) for t in action.tickets)
        except ValueError:
            return None
        return m - 1 if 0 < m <= self.size and len(set(action.tickets)) == len(action.tickets) else None

    def decode(self, offset, view):
        offer = _offer(view)
        m = offset + 1
        if m >> len(offer):
            return None  # a position beyond the offer
        return {"kind": self.kind, "tickets": [t for i, t in enumerate(offer) if m >> i & 1]}


def _offer(view: Mapping[str, Any]) -> list[str]:
    return list(view.get("rules", {}).get("tickets_on_offer") or ())


class PayTunnelCodec(Codec):
    kind = "pay-tunnel"

    def __init__(self, reveal: int) -> None:
        self.size = reveal + 1
        self.doc = f"locomotives 0..{reveal}; the rest of the extra in the attempt's colour"

    def encode(self, action, view):
        d = _own_decision(view)
        if d is None or not 0 <= action.locomotives < self.size:
            return None
        return action.locomotives if self.decode(action.locomotives, view) == {
            "kind": self.kind, "color": action.color, "locomotives": action.locomotives
        } else None

    def decode(self, offset, view):
        d = _own_decision(view)
        if d is None or "extra" not in d or offset > d["extra"]:
            return None
        colored = d["extra"] - offset
        return {"kind": self.kind, "color": d.get("color") if colored else None, "locomotives": offset}


def _own_decision(view: Mapping[str, Any]) -> Mapping[str, Any] | None:
    you = view.get("you")
    if you is None:
        return None
    return view["players"][you["seat"]]["decision"]


# --- the kinds this module knows ------------------------------------------------------------------


def _draw_card(ctx: Context) -> Codec:
    slots = len(ctx.probe.view(0)["open_row"])
    choices = [{"slot": None}, *({"slot": s} for s in range(slots))]
    return StaticCodec("draw-card", choices, f"slot: null (blind), 0..{slots - 1}", ctx.probe.registry)


def _claim_route(ctx: Context) -> Codec:
    try:
        ferry = ctx.probe.policy("ttr_ferry_payment")
    except AttributeError:  # no plugin declares the hook: ferry marks are ordinary spaces
        ferry = None
    choices = []
    for route in ctx.board.routes:
        L = route.length
        choices.append({"route": route.id, "color": None, "locomotives": L, "triples": 0})
        colors = COLORS if route.color == GRAY else (route.color,)
        marks = route.ferry if ferry is not None else 0
        for color in colors:
            for triples in range(marks + 1):
                for locos in range(L - triples + 1):
                    if locos == L:
                        continue  # all locomotives: offered once, without a colour
                    if ferry is not None and ferry.problem(route, locos, triples) is not None:
                        continue
                    choices.append({"route": route.id, "color": color, "locomotives": locos, "triples": triples})
    return StaticCodec(
        "claim-route", choices, "per route: all locomotives, then each colour x triples x locomotives",
        ctx.probe.registry,
    )


def _build_station(ctx: Context) -> Codec:
    costs = _config_value(ctx, "costs")
    count = getattr(ctx.config, "count", len(costs))
    costs = sorted(set(costs[:count]))
    dearest = max(costs, default=0)
    choices = []
    for city in ctx.board.cities:
        for color in COLORS:
            choices += [{"city": city.name, "color": color, "locomotives": n} for n in range(dearest)]
        choices += [{"city": city.name, "color": None, "locomotives": c} for c in costs]
    return StaticCodec(
        "build-station", choices, f"per city: each colour x locomotives 0..{dearest - 1}, then all locomotives",
        ctx.probe.registry,
    )


def _play_controller(ctx: Context) -> Codec:
    longest = getattr(ctx.config, "max_length", None)
    routes = [r.id for r in ctx.board.routes if longest is None or r.length <= longest]
    choices = [{"mode": mode, "route": r} for mode in ("dismantle", "build") for r in routes]
    return StaticCodec(
        "play-controller", choices, f"dismantle, then build, for each of {len(routes)} routes", ctx.probe.registry
    )


def _keep_tickets(ctx: Context) -> Codec:
    largest = 0
    for purpose in ("start", "draw"):
        try:
            deal = ctx.probe.policy("ttr_ticket_deal", purpose=purpose)
        except AttributeError:
            raise UnsupportedAction("keep-tickets: no plugin declares ttr_ticket_deal, so the offer size is unknown") from None
        largest = max(largest, sum(deal.deal.values()))
    return KeepTicketsCodec(largest)


def _pay_tunnel(ctx: Context) -> Codec:
    return PayTunnelCodec(_config_value(ctx, "reveal"))


def _config_value(ctx: Context, name: str):
    value = getattr(ctx.config, name, None)
    if value is None:
        raise UnsupportedAction(
            f"action kind registered by plugin {ctx.plugin!r}: its config has no {name!r}, which bounds the space"
        )
    return value


CodecFactory = Callable[[Context], Codec]

_CODECS: dict[str, CodecFactory] = {
    "build-station": _build_station,
    "claim-route": _claim_route,
    "draw-card": _draw_card,
    "keep-tickets": _keep_tickets,
    "pay-tunnel": _pay_tunnel,
    "play-controller": _play_controller,
}


def register_codec(kind: str, factory: CodecFactory) -> None:
    """Teach the encoding a house rule's action kind with fields: ``factory(context)`` returns a
    :class:`Codec` (a :class:`StaticCodec` listing every action data the kind can take, usually).
    Kinds without fields need nothing."""
    _CODECS[kind] = factory


@attrs.frozen
class Segment:
    kind: str
    start: int
    size: int
    doc: str


class ActionEncoding:
    """The fixed, numbered action space of one ruleset for ``players`` players."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        self.ruleset = ruleset
        self.players = players
        probe = Game(ruleset, [f"player_{i}" for i in range(players)], 0)
        self.codecs: list[Codec] = []
        unsupported = []
        for reg in sorted(probe.registry, key=lambda r: r.cls.kind):
            if reg.any_time:
                continue  # never among the legal actions (resign)
            kind = reg.cls.kind
            ctx = Context(ruleset, players, probe, reg.plugin, ruleset.configs.get(reg.plugin))
            if kind in _CODECS:
                self.codecs.append(_CODECS[kind](ctx))
            elif not attrs.fields(reg.cls):
                self.codecs.append(StaticCodec(kind, [{}], "one action", probe.registry))
            else:
                fields = ", ".join(f.name for f in attrs.fields(reg.cls))
                unsupported.append(f"{kind!r} (plugin {reg.plugin!r}; fields {fields})")
        if unsupported:
            raise UnsupportedAction(
                f"variant {ruleset.variant!r}: no encoding for action kind(s) {'; '.join(unsupported)}; "
                "register one with ttr_env.actions.register_codec"
            )
        self.registry = probe.registry
        self.segments: list[Segment] = []
        start = 0
        for codec in self.codecs:
            self.segments.append(Segment(codec.kind, start, codec.size, codec.doc))
            start += codec.size
        self.n = start
        self.kinds = [c.kind for c in self.codecs]
        self._by_kind = {c.kind: (s.start, c) for c, s in zip(self.codecs, self.segments)}
        # the index of every action a static codec lists, looked up at once for a position's legal actions
        self._static_index = {
            action: seg.start + offset
            for codec, seg in zip(self.codecs, self.segments) if isinstance(codec, StaticCodec)
            for action, offset in codec.offsets.items()
        }

    def __len__(self) -> int:
        return self.n

    # --- one action at a time ----------------------------------------------------------------

    def index(self, action: Action, view: Mapping[str, Any]) -> int:
        """The index of ``action``, legal for the seat whose ``view`` this is."""
        entry = self._by_kind.get(action.kind)
        offset = None if entry is None else entry[1].encode(action, view)
        if offset is None:
            raise UnencodableAction(f"variant {self.ruleset.variant!r}: no index for {self.registry.to_data(action)}")
        return entry[0] + offset

    def action_data(self, index: int, view: Mapping[str, Any]) -> dict[str, Any] | None:
        """The action data (``{"kind": ..., fields}``) of ``index`` for the seat whose ``view`` this
        is, or None if the index means nothing in this position."""
        if not 0 <= index < self.n:
            raise IndexError(f"action index {index} is outside 0..{self.n - 1}")
        for seg, codec in zip(self.segments, self.codecs):
            if index < seg.start + seg.size:
                return codec.decode(index - seg.start, view)
        raise AssertionError("unreachable")

    def action(self, index: int, view: Mapping[str, Any]) -> Action | None:
        """The action of ``index`` (see :meth:`action_data`), decoded by the ruleset's registry."""
        data = self.action_data(index, view)
        return None if data is None else self.registry.from_data(data)

    def kind_of(self, index: int) -> str:
        for seg in self.segments:
            if index < seg.start + seg.size:
                return seg.kind
        raise IndexError(index)

    # --- a position ---------------------------------------------------------------------------

    def legal(self, game: Game, seat: int, view: Mapping[str, Any] | None = None) -> dict[int, Action]:
        """The legal actions of ``seat`` by index (the mask is their keys)."""
        view = game.view(seat) if view is None else view
        actions = game.legal_actions(seat)
        indices = list(map(self._static_index.get, actions))
        if None in indices:  # a kind no static codec lists (tickets to keep, a tunnel's payment)
            indices = [self.index(a, view) if i is None else i for i, a in zip(indices, actions)]
        out = dict(zip(indices, actions))
        if len(out) < len(actions):
            self._refuse_shared_index(indices, actions)
        return out

    def _refuse_shared_index(self, indices: list[int], actions: Sequence[Action]) -> None:
        first: dict[int, Action] = {}
        for i, action in zip(indices, actions):
            if i in first:
                raise UnencodableAction(
                    f"variant {self.ruleset.variant!r}: index {i} would mean both "
                    f"{self.registry.to_data(first[i])} and {self.registry.to_data(action)}"
                )
            first[i] = action

    def describe(self) -> str:
        """The layout as a text table: kind, first index, size, what the offsets are."""
        rows = [f"{'kind':<16} {'start':>6} {'size':>6}  offsets"]
        rows += [f"{s.kind:<16} {s.start:>6} {s.size:>6}  {s.doc}" for s in self.segments]
        rows.append(f"{'(total)':<16} {'':>6} {self.n:>6}")
        return "\n".join(rows)


__all__ = [
    "ActionEncoding", "Codec", "Context", "KeepTicketsCodec", "PayTunnelCodec", "Segment", "StaticCodec",
    "UnencodableAction", "UnsupportedAction", "register_codec",
]
