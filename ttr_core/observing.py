"""What the plugins add to an environment's observation of one seat (``ttr_env``): their parts,
as numbers read from that seat's view alone.

The environment lays out the core's own parts (the phase, the routes' owners, the seat's hand...);
each plugin whose state a seat can see supplies its own: their names, sizes and bounds once per
ruleset and player count (``ttr_observation_parts``), their values each time a seat is observed
(``ttr_observation_values``). A plugin replacing a built-in one so carries its state into the
environment. The values are read from the seat's views (``game.view(seat)``, ``game.seat_view(seat)``),
the map and the card kinds, nothing else, so nothing hidden from the seat can reach them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from ttr_core.game import Game
    from ttr_core.seat_view import SeatView
    from ttr_core.variant import Ruleset

Bound = float | tuple[float, ...]


def _bound(value: Any) -> Bound:
    return tuple(float(v) for v in value) if isinstance(value, Sequence) else float(value)


@attrs.frozen
class ObservationPart:
    """One part of a seat's observation that a plugin supplies (``ttr_observation_parts``):
    ``size`` numbers called ``name``, each between ``low`` and ``high`` (one bound for every
    number, or a sequence of one per number), laid out after the environment's segment ``after``
    (``ttr_env.observations`` lists them); ``doc`` says what they are, for ``describe()``. The
    environment divides each number by the larger magnitude of its two bounds, so that it lies
    within [-1, 1]: bounds that a value can reach keep its scale useful."""

    name: str
    size: int
    high: Bound = attrs.field(converter=_bound)
    doc: str
    low: Bound = attrs.field(default=0.0, converter=_bound)
    after: str = "legal_kinds"

    def bounds(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """``(lows, highs)``, one of each per number of the part."""
        def spread(bound: Bound, which: str) -> tuple[float, ...]:
            if isinstance(bound, float):
                return (bound,) * self.size
            if len(bound) != self.size:
                raise ValueError(f"observation part {self.name!r}: {len(bound)} {which} bounds for {self.size} numbers")
            return bound

        return spread(self.low, "low"), spread(self.high, "high")


def observation_parts(game: Game) -> tuple[ObservationPart, ...]:
    """The parts the variant's plugins add to an observation (``ttr_observation_parts``), in the
    variant's plugin order, asked with ``game``: a game of the ruleset and player count, just set
    up. Two parts of one name are an error."""
    parts = [p for answer in reversed(game.hook.ttr_observation_parts(game=game)) for p in answer or ()]
    names = [p.name for p in parts]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"two plugins supply the observation part(s) {', '.join(twice)}")
    return tuple(parts)


def observation_values(ruleset: Ruleset, view: Mapping[str, Any], seat_view: SeatView) -> dict[str, Sequence[float]]:
    """The values of the plugins' parts for the seat whose ``view`` (``game.view(seat)``, or a
    mapping giving the same key by key, ``ttr_env.encoding.SeatViewData``) and ``seat_view``
    (``game.seat_view(seat)``) these are, ``{part name: numbers}`` (``ttr_observation_values``);
    a part missing is all zeros."""
    out: dict[str, Sequence[float]] = {}
    answers = ruleset.rules.hook.ttr_observation_values(
        board=ruleset.board, cards=ruleset.rules.cards, view=view, seat=seat_view.seat, seat_view=seat_view,
    )
    for answer in answers:
        out.update(answer or {})
    return out
