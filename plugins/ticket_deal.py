"""How tickets are dealt, kept and rejected: at the start (R-SET-4) and when drawn (R-TIX-1).

It answers ``ttr_ticket_deal``, which the ``tickets`` plugin declares and calls; its answer is a
``TicketDeal`` as that hook describes."""

from __future__ import annotations

from typing import Literal

import attrs

from ttr_core.plugin import Plugin, hookimpl, parameter

ANY = "any"


def _check_kinds(_i, attribute, value: dict[str, int]) -> None:
    for kind, n in value.items():
        if kind not in ("any", "short", "long"):
            raise ValueError(f"{attribute.name}: ticket kind {kind!r} is not 'any', 'short' or 'long'")
        if n < 0:
            raise ValueError(f"{attribute.name}: {kind} = {n} must not be negative")


#: The most tickets one offer may hold: every subset of an offer is a choice a player may make,
#: and listing 2**N choices must stay quick (28 tickets made a listing that never ends).
MAX_OFFER = 10


def _check_offer_size(_i, attribute, value: dict[str, int]) -> None:
    if isinstance(value, dict) and sum(n for n in value.values() if isinstance(n, int)) > MAX_OFFER:
        raise ValueError(f"{attribute.name}: at most {MAX_OFFER} tickets may be offered at once, not {sum(value.values())}")


@attrs.frozen
class TicketDeal:
    """``deal``: how many tickets of each kind are offered (``any``: whatever lies on top).
    ``keep``: the least that must be kept, per kind (``any``: in total). ``rejects``: where the
    others go, ``bottom`` of the ticket deck or ``box`` (out of the game)."""

    deal: dict[str, int] = attrs.field(validator=[_check_kinds, _check_offer_size])
    keep: dict[str, int] = attrs.field(validator=_check_kinds)
    rejects: Literal["bottom", "box"] = "bottom"
    #: at the start only: tickets of these kinds not dealt go out of the game (europe's long tickets)
    box_undealt: list[str] = attrs.Factory(list)


class TicketDealing(Plugin):
    requires = ("tickets",)
    provides = ("ticket-deal",)
    title = "Dealing tickets"
    deterministic = True

    @attrs.frozen
    class Config:
        start: TicketDeal = parameter(
            "the starting tickets: `deal` (how many of each kind: any, short, long), `keep` (the least "
            "kept, per kind), `rejects` (to the bottom of the ticket deck or the box), `box_undealt` "
            "(kinds whose undealt tickets leave the game)", default=TicketDeal({ANY: 3}, {ANY: 2}), rule="R-SET-4",
        )
        draw: TicketDeal = parameter(
            "the draw-tickets action, with the same fields as `start`", default=TicketDeal({ANY: 3}, {ANY: 1}),
            rule="R-TIX-1",
        )

    @hookimpl
    def ttr_ticket_deal(self, purpose):
        return self.config.start if purpose == "start" else self.config.draw
