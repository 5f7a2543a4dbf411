"""Tunnels: after the base payment, cards revealed from the deck may ask for extra cards (R-TUN-1..7).

A claim of a tunnel route goes through ``claiming`` as usual (the base payment, ferry marks
included, is checked there and leaves the hand), then ``ttr_claim_started`` (declared by
``claiming``: this plugin requires ``route-claims``) reveals the cards:

* no extra card needed (or nothing left to reveal): the revealed cards go to the discard and the
  hook returns None, so ``claiming`` places the route with the base payment as for any route;
* otherwise the player gets a :class:`TunnelExtra` decision, holding the base and the revealed
  cards, answered by ``pay-tunnel`` (:class:`PayTunnel`) or ``decline-tunnel`` (:class:`DeclineTunnel`).

Asked which payments claim a tunnel (the core's ``ttr_claim_options``, answered by ``claiming``),
it wraps the answer: each payment says the most extra cards the reveal can ask for and how many of
them the cards left in the hand could pay (R-TUN-4..5).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, Literal

import attrs

from ttr_core.plugin import (
    COLORS, LOCOMOTIVE, Action, CannotPay, Decision, MalformedAction, ObservationPart, Plugin, Route, hookimpl,
    parameter,
)


@attrs.frozen
class PayTunnel(Action):
    """Pay a tunnel's extra cards: ``locomotives`` locomotives and the rest in ``color``, which must be
    the paying colour of the base (R-TUN-5). ``color`` is None when every extra card is a locomotive."""

    kind: ClassVar[str] = "pay-tunnel"
    color: str | None = None
    locomotives: int = 0


@attrs.frozen
class DeclineTunnel(Action):
    """Give up the tunnel: the base returns to the hand, the route stays free, the turn ends (R-TUN-6)."""

    kind: ClassVar[str] = "decline-tunnel"


@attrs.frozen
class TunnelExtra(Decision):
    """A tunnel attempt waiting for its extra cards (R-TUN-2..6).

    ``base`` and ``revealed`` are card ids: the base payment, out of the hand, and the cards turned
    from the deck; both are on the table until the attempt ends (``held_cards``). ``color`` is the
    paying colour (None for an all-locomotive base); ``locomotives_only``: the extra must be paid
    in locomotives (R-TUN-4). ``revealed_names`` are the revealed cards as shown to everyone.
    """

    kind: str = "tunnel-extra"
    allowed: tuple[str, ...] = (PayTunnel.kind, DeclineTunnel.kind)
    route: str = ""
    color: str | None = None
    extra: int = 0
    locomotives_only: bool = False
    base: tuple[int, ...] = ()
    revealed: tuple[int, ...] = ()
    revealed_names: tuple[str, ...] = ()

    def held_cards(self) -> list[int]:
        return [*self.base, *self.revealed]

    def public(self) -> dict[str, Any]:
        # The base is put down and the revealed cards are turned face up on the table (R-TUN-1):
        # everybody sees them, and the number of extra cards they ask for.
        return {
            "kind": self.kind,
            "route": self.route,
            "color": self.color,
            "base": self.base_names(),
            "revealed": list(self.revealed_names),
            "extra": self.extra,
            "locomotives_only": self.locomotives_only,
        }

    def private(self) -> dict[str, Any]:
        return self.public()  # nothing about the attempt is secret

    def base_names(self) -> list[str]:
        # the base holds train cards only, whose ids are the same in every game (ttr_core.cards)
        names = (*COLORS, LOCOMOTIVE)
        return [names[c] for c in self.base]


def extra_cards(
    route: Route, color: str | None, locomotives: int, revealed_names: list[str], revealed_locomotives: str
) -> tuple[int, bool]:
    """How many extra cards the revealed cards ask for, and whether they must be locomotives.

    R-TUN-2: each revealed card of the paying colour adds one; other colours add nothing.
    R-TUN-3: a revealed locomotive adds one ("always": europe, ussr), or (``wor``,
    "with-locomotive-in-base") only if the base holds a real locomotive; a triple does not count.
    R-TUN-4: an all-locomotive base counts only revealed locomotives and is paid in locomotives;
    with a triple in the base, the paying colour is the triple's, which is ``color``.
    """
    if locomotives >= route.length:  # R-TUN-4: the base is all locomotives
        return sum(1 for name in revealed_names if name == LOCOMOTIVE), True
    loco_counts = revealed_locomotives == "always" or locomotives > 0
    extra = 0
    for name in revealed_names:
        if name == color:
            extra += 1
        elif name == LOCOMOTIVE and loco_counts:
            extra += 1
    return extra, False


class Tunnels(Plugin):
    requires = ("route-claims",)
    title = "Tunnels"
    deterministic = True

    @attrs.frozen
    class Config:
        reveal: int = parameter(
            "how many cards are turned from the deck for a tunnel", default=3, rule="R-TUN-1",
            validator=attrs.validators.ge(0),
        )
        revealed_locomotives: Literal["always", "with-locomotive-in-base"] = parameter(
            'a revealed locomotive adds one card "always" (europe, ussr), or only "with-locomotive-in-base" '
            "(wor: a real locomotive in the base, or an all-locomotive base)", default="always", rule="R-TUN-3",
        )

    @hookimpl
    def ttr_register_actions(self, registry):
        registry.add(PayTunnel, _Pay(), starts_turn=False)
        registry.add(DeclineTunnel, _Decline(), starts_turn=False)

    @hookimpl
    def ttr_claim_started(self, game, route: Route, color, locomotives, paid):
        if not route.tunnel:
            return None
        revealed = []
        for _ in range(self.config.reveal):
            card = game.draw_card()  # R-TUN-1: the discard is shuffled in when the deck runs out
            if card is None:
                break  # fewer cards than asked for exist: only those are checked
            revealed.append(card)
        names = [game.cards.names[c] for c in revealed]
        extra, locos_only = extra_cards(route, color, locomotives, names, self.config.revealed_locomotives)
        if extra == 0:
            # Nothing to add (or nothing was left to reveal: built without a check, R-TUN-1): the
            # revealed cards go to the discard (R-TUN-6) and claiming places the route with the base
            # payment, which it holds, as it places any route.
            game.state.discard.extend(revealed)
            return None
        base = [card for card, n in paid for _ in range(n)]
        return TunnelExtra(
            route=route.id, color=None if locos_only else color, extra=extra, locomotives_only=locos_only,
            base=tuple(base), revealed=tuple(revealed), revealed_names=tuple(names),
        )

    @hookimpl(wrapper=True)
    def ttr_claim_options(self, game, seat, route: Route):
        options = yield
        if options is None or not route.tunnel:
            return options
        hand = game.state.players[seat].hand
        return attrs.evolve(options, payments=tuple(
            attrs.evolve(p, extra_coverable=min(self.config.reveal, coverable(game, hand, p.cards)),
                         extra_at_most=self.config.reveal)
            for p in options.payments
        ))

    @hookimpl
    def ttr_decision_cancelled(self, game, seat, decision):
        # R-TURN-4: an attempt the seat will never finish (its turn ended, it resigned, the game
        # ended) is cancelled as if declined.
        if isinstance(decision, TunnelExtra):
            give_up(game, seat, decision)

    @hookimpl
    def ttr_view(self, game, seat):
        return {"tunnels": {"reveal": self.config.reveal, "revealed_locomotives": self.config.revealed_locomotives}}

    @hookimpl
    def ttr_observation_parts(self, game):
        # the seat's own pending attempt (R-TUN-2..6): the route, the paying colour (or none), the
        # extra cards asked, locomotives only, then the base and the revealed cards by kind
        R, K = len(game.board.routes), len(game.cards.names)
        deck = sum(game.deck_counts.values())
        return [ObservationPart(
            "tunnel", R + len(COLORS) + 1 + 2 + 2 * K, (1,) * (R + len(COLORS) + 1) + (deck, 1) + (deck,) * (2 * K),
            "route one-hot, colour one-hot (+none), extra, locomotives only, base by kind, revealed by kind",
        )]

    @hookimpl
    def ttr_observation_values(self, board, cards, seat_view):
        decision = seat_view.decision
        if not isinstance(decision, TunnelExtra) or decision.route not in board.route_index:
            return None
        R, K = len(board.routes), len(cards.names)
        out = [0.0] * (R + len(COLORS) + 1 + 2 + 2 * K)
        out[board.route_index[decision.route]] = 1
        out[R + (COLORS.index(decision.color) if decision.color in COLORS else len(COLORS))] = 1
        at = R + len(COLORS) + 1
        out[at] = decision.extra
        out[at + 1] = decision.locomotives_only
        for i, held in enumerate((decision.base, decision.revealed)):  # card ids
            for card in held:
                out[at + 2 + i * K + card] += 1
        return {"tunnel": out}


def coverable(game, hand: list[int], base: Mapping[str, int]) -> int:
    """How many extra cards the hand left after paying ``base`` (cards by name) could pay: locomotives
    and cards of the paying colour (R-TUN-5), or locomotives only after an all-locomotive base
    (R-TUN-4). Cards in the base cannot pay the extra as well."""
    left = {name: hand[game.cards.id(name)] - base.get(name, 0) for name in (LOCOMOTIVE, *base)}
    colour = next((name for name in base if name != LOCOMOTIVE), None)  # None: all locomotives
    return left[LOCOMOTIVE] + (left[colour] if colour is not None else 0)


def give_up(game, seat: int, decision: TunnelExtra) -> None:
    """R-TUN-6: the base returns to the hand, the route stays free and no train is placed; the
    revealed cards go to the discard."""
    st = game.state
    hand = st.players[seat].hand
    for card in decision.base:
        hand[card] += 1
    st.discard.extend(decision.revealed)


def _decision(game, seat) -> TunnelExtra:
    return game.state.players[seat].decision


class _Pay:
    """The pay-tunnel action (R-TUN-5, R-TUN-7)."""

    def legal(self, game, seat) -> Iterator[PayTunnel]:
        # Every split of the extra between locomotives and paying-colour cards that the hand holds
        # (R-TUN-8 lists them: 2 green, green + locomotive, 2 locomotives), from the card counts.
        d = _decision(game, seat)
        hand = game.state.players[seat].hand
        have_locos = hand[game.cards.locomotive]
        have_color = 0 if d.locomotives_only else hand[game.cards.id(d.color)]
        for locos in range(d.extra + 1):
            colored = d.extra - locos
            if locos <= have_locos and colored <= have_color:
                yield PayTunnel(d.color if colored else None, locos)

    def check(self, game, seat, action: PayTunnel) -> None:
        d = _decision(game, seat)
        locos = action.locomotives
        if isinstance(locos, bool) or not isinstance(locos, int) or locos < 0:
            raise MalformedAction(seat, action, "locomotives must be a whole number from 0")
        if action.color is not None and action.color not in COLORS:
            raise MalformedAction(
                seat, action, f"color must be one of {', '.join(COLORS)} or null, not {action.color!r}"
            )
        if locos > d.extra:
            raise CannotPay(seat, action, f"the tunnel asks for {d.extra} extra card(s), not {locos} locomotives")
        colored = d.extra - locos
        if colored and d.locomotives_only:
            raise CannotPay(
                seat, action, f"the base is all locomotives: pay the {d.extra} extra card(s) in locomotives (R-TUN-4)"
            )
        if colored and action.color != d.color:
            raise CannotPay(
                seat, action,
                f"pay the extra in {d.color} (the paying colour) or locomotives, not {action.color} (R-TUN-5)",
            )
        # The base is out of the hand already, so its cards cannot pay the extra as well (R-TUN-5).
        for card, need in _extra_cards(game, d, action):
            have = game.state.players[seat].hand[card]
            if have < need:
                raise CannotPay(
                    seat, action,
                    f"the extra needs {need} {game.cards.names[card]} besides the base, the hand has {have} (R-TUN-5)",
                )

    def apply(self, game, seat, action: PayTunnel) -> None:
        st = game.state
        player = st.players[seat]
        d = _decision(game, seat)
        route = game.board.routes[game.board.route_index[d.route]]
        extra = _extra_cards(game, d, action)
        for card, n in extra:
            player.hand[card] -= n
        st.discard.extend(d.revealed)
        player.decision = None
        # R-TUN-7: the extra cards go to the discard with the base; the trains placed and the points
        # scored are the route's own
        game.place_route(seat, route, [(card, 1) for card in d.base] + extra)


def _extra_cards(game, d: TunnelExtra, action: PayTunnel) -> list[tuple[int, int]]:
    """The cards a checked pay-tunnel takes from the hand, as ``[(card id, count), ...]``."""
    colored = d.extra - action.locomotives
    out = [(game.cards.locomotive, action.locomotives)] if action.locomotives else []
    if colored:
        out.append((game.cards.id(d.color), colored))
    return out


class _Decline:
    """The decline-tunnel action (R-TUN-6)."""

    def legal(self, game, seat) -> Iterator[DeclineTunnel]:
        yield DeclineTunnel()

    def check(self, game, seat, action) -> None:
        return None  # declining is always possible while the attempt is pending

    def apply(self, game, seat, action) -> None:
        player = game.state.players[seat]
        give_up(game, seat, player.decision)
        player.decision = None
