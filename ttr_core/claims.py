"""Which payments of a hand can claim a route: :func:`claim_options`.

For a program that wants to know, without building a game or catching an exception, whether a
seat could claim a route and how: every payment its hand can make (the colour, the locomotives,
3-for-1 triples where the rules have them, R-FER-2), what each takes from the hand, and for a
tunnel how many extra cards the hand would still cover (R-TUN); or a :class:`Refusal` whose
``code`` says why not (``taken``, ``own-parallel``, ``closed-parallel``, ``closed``,
``not-enough-trains``, ``cannot-pay``, ``no-claims``)::

    from ttr_core.claims import claim_options

    options = claim_options("europe", 0, "Essen-Kobenhavn", hand={"orange": 2, "locomotive": 2})
    options.possible                      # True
    [p.cards for p in options.payments]   # [{"orange": 2, "locomotive": 1}, {"orange": 1, "locomotive": 2}]
    options.payments[0].action            # ClaimRoute(...): what to send (game.apply(seat, action))

The core holds no rule here. Whether the seat may have the route at all is the table's question
(``game.claim_problem``: owner, closures answered by rule plugins, trains); what a hand can pay
is asked of the rule plugins through the ``ttr_claim_options`` hook (the ``claiming`` plugin
answers it with its own payment check, ferries included; ``tunnels`` adds what a tunnel may still
ask for). A variant that enables no plugin answering it refuses with ``no-claims``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

from ttr_core.actions import Action
from ttr_core.table import CANNOT_PAY, Refusal

if TYPE_CHECKING:
    from ttr_core.board import Route
    from ttr_core.game import Game
    from ttr_core.variant import Ruleset

#: the code of the refusal when no plugin of the variant answers ``ttr_claim_options``
NO_CLAIMS = "no-claims"

__all__ = ["CANNOT_PAY", "NO_CLAIMS", "ClaimOptions", "Payment", "Refusal", "claim_options"]


@attrs.frozen
class Payment:
    """One way to pay for a route.

    ``action`` is the claim to send (``game.apply(seat, payment.action)``; its fields, such as
    ``color``, ``locomotives`` and ``triples`` for the ``claiming`` plugin's ``claim-route``, are
    the payment). ``cards`` is what it takes from the hand, by card name (``{"green": 5,
    "locomotive": 1}``: a triple's three cards are counted with its colour). For a claim that may
    ask for extra cards afterwards (a tunnel, R-TUN-1..5): ``extra_at_most`` is the most it can ask
    for, and ``extra_coverable`` how many of them the cards left in the hand could pay (up to
    ``extra_at_most``); both are None for a route that asks for nothing more.
    """

    action: Action
    cards: Mapping[str, int]
    extra_coverable: int | None = None
    extra_at_most: int | None = None

    def to_data(self) -> dict[str, Any]:
        return {
            "action": {"kind": self.action.kind, **attrs.asdict(self.action)},
            "cards": dict(self.cards),
            "extra_coverable": self.extra_coverable,
            "extra_at_most": self.extra_at_most,
        }


@attrs.frozen
class ClaimOptions:
    """What a seat can pay for ``route`` (its id): ``payments``, cheapest first (fewest locomotives,
    then fewest cards), or none and a ``refusal`` saying why."""

    route: str
    payments: tuple[Payment, ...] = ()
    refusal: Refusal | None = None

    @property
    def possible(self) -> bool:
        """True if some payment claims the route."""
        return bool(self.payments)

    def to_data(self) -> dict[str, Any]:
        """As JSON data: ``{"route", "possible", "payments": [...], "refusal": {"code", "reason",
        "words", "rules"} | null}`` (``words``: the reason without the ``rules`` it cites)."""
        return {
            "route": self.route,
            "possible": self.possible,
            "payments": [p.to_data() for p in self.payments],
            "refusal": None if self.refusal is None else {
                "code": self.refusal.code, "reason": self.refusal.reason,
                "words": self.refusal.words, "rules": list(self.refusal.rules),
            },
        }


def claim_options(
    game_or_ruleset: Game | Ruleset | str | os.PathLike,
    seat: int,
    route: Route | str,
    hand: Mapping[str, int] | None = None,
    *,
    trains: int | None = None,
    players: int | None = None,
) -> ClaimOptions:
    """Which payments of ``hand`` can claim ``route`` for ``seat``, or why none can.

    ``game_or_ruleset``: a game (the board as it stands: owners, closures, the seat's trains and,
    without ``hand``, its hand), or a ruleset or variant id or file (an empty board, ``players``
    players, by default the fewest the variant allows). ``route``: a route, or its id or name
    (``Seattle-Portland/1``, or ``A-B`` for the first free route of a double). ``hand``: card
    counts by name (``{"red": 3, "locomotive": 1}``) instead of the seat's own; ``trains``: the
    trains the seat has left instead of its own. Whose turn it is, and any decision pending, do
    not matter. The game is not changed.

    ValueError for a route, seat or card the game does not have.
    """
    game = _game_of(game_or_ruleset, players)
    st = game.state
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(st.players):
        raise ValueError(f"no seat {seat!r}: the game has seats 0 to {len(st.players) - 1}")
    route = _route_of(game, route)
    trial = st.copy()
    player = trial.players[seat]
    if hand is not None:
        player.hand[:] = _counts(game, hand)
    if trains is not None:
        if isinstance(trains, bool) or not isinstance(trains, int) or trains < 0:
            raise ValueError(f"trains: a whole number from 0, not {trains!r}")
        player.trains = trains
    real, game.state = game.state, trial
    try:
        refusal = game.claim_problem(seat, route)
        if refusal is not None:
            return ClaimOptions(route.id, (), refusal)
        options = game.hook.ttr_claim_options(game=game, seat=seat, route=route)
    finally:
        game.state = real
    if options is None:
        return ClaimOptions(route.id, (), Refusal(NO_CLAIMS, f"no rule of {game.ruleset.variant!r} claims routes"))
    return options


def _game_of(game_or_ruleset: Any, players: int | None) -> Game:
    from ttr_core import variant
    from ttr_core.game import Game

    if isinstance(game_or_ruleset, Game):
        return game_or_ruleset
    ruleset = game_or_ruleset
    if isinstance(ruleset, str | os.PathLike):
        ruleset = variant.load(os.fspath(ruleset))
    count = players if players is not None else ruleset.players.min
    return Game(ruleset, [f"P{i + 1}" for i in range(count)], seed=0)


def _route_of(game: Game, route: Route | str) -> Route:
    if not isinstance(route, str):
        return game.board.routes[route.index]
    taken = frozenset(r for r, s in enumerate(game.state.owner) if s >= 0)
    try:
        return game.board.find_route(route, exclude=taken)
    except KeyError as exc:
        raise ValueError(exc.args[0]) from None


def _counts(game: Game, hand: Mapping[str, int]) -> list[int]:
    counts = [0] * len(game.cards.names)
    for name, n in hand.items():
        if name not in game.cards.index:
            raise ValueError(f"unknown card {name!r}: the cards of {game.ruleset.variant!r} are {', '.join(game.cards.names)}")
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"hand[{name!r}]: a whole number from 0, not {n!r}")
        counts[game.cards.index[name]] = n
    return counts
