"""The hooks of the ``tickets`` capability: dealing, keeping and scoring destination tickets
(R-SET-4, R-TIX-1..3), stations' borrowed routes included (R-STA-3..4).

The plugin providing ``tickets`` declares and calls them: ``ttr_ticket_deal`` (how many are
dealt and kept, answered by the plugin providing ``ticket-deal``) and ``ttr_borrowable_routes``
(routes a player may borrow for tickets, answered by the stations rule, R-STA-3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, Protocol

from ttr_core.plugin import GameAPI, hookspec, per_ruleset, required, single_answer

CAPABILITY = "tickets"


class TicketDeal(Protocol):
    """What ``ttr_ticket_deal`` answers. ``deal``: how many tickets of each kind are offered
    (``"any"``: whatever lies on top). ``keep``: the least that must be kept, per kind (``"any"``:
    in total). ``rejects``: where the others go, ``"bottom"`` of the ticket deck or ``"box"`` (out of
    the game). ``box_undealt``: at the start only, ticket kinds whose undealt tickets leave the game."""

    deal: Mapping[str, int]
    keep: Mapping[str, int]
    rejects: Literal["bottom", "box"]
    box_undealt: Sequence[str]


class TicketHooks:
    """The hooks of the ``tickets`` capability, declared by the plugin providing it."""

    @hookspec(firstresult=True)
    @single_answer
    @per_ruleset
    @required
    def ttr_ticket_deal(self, purpose: str) -> TicketDeal:
        """Return how tickets are dealt, kept and rejected, a :class:`TicketDeal`. ``purpose`` is
        ``"start"`` (the starting tickets, R-SET-4) or ``"draw"`` (the draw-tickets action, R-TIX-1).

        Called by the plugin providing ``tickets`` once per ruleset for each purpose. Stops at
        first non-None result.

        Example::

            @hookimpl
            def ttr_ticket_deal(self, purpose):
                return self.config.start if purpose == "start" else self.config.draw
        """

    @hookspec
    def ttr_borrowable_routes(self, game: GameAPI, seat: int) -> Sequence[tuple[str, Sequence[int]]] | None:
        """Return groups of routes ``seat`` may borrow for tickets: ``[(label, [route index, ...]), ...]``.

        Called by the plugin providing ``tickets`` when ``seat``'s tickets are scored. From each
        group at most one route is borrowed, the same one for every ticket (R-STA-3..4). The owner
        chooses only at the end: the plugin providing ``tickets`` answers each set of tickets the groups can
        complete as an alternative of its ticket outcome (leaving out a set that another contains
        for no fewer points), each with the fewest borrowed routes that complete it (a group whose
        route would complete nothing more borrows nothing, and is reported so: ``Borrow(label,
        None)``), and the core picks the one the owner would (``ttr_ticket_outcomes``). ``label``
        names the group in the outcome's ``borrows`` and notes. All answers are collected.

        Example::

            @hookimpl
            def ttr_borrowable_routes(self, game, seat):
                return [(f"station in {city}", routes_touching(game, city)) for city in self.state(game).cities[seat]]
        """


HOOKS = TicketHooks
