"""The hooks of the ``route-claims`` capability: claiming a route, and what a claim demands
beyond its cards (R-ROUTE-1..5, R-FER, R-TUN).

The plugin providing ``route-claims`` declares and calls them: ``ttr_ferry_payment`` (what a
ferry's locomotive marks demand, R-FER) and ``ttr_claim_started`` (a claim that goes on as a
decision, a tunnel, R-TUN).
"""

from __future__ import annotations

from typing import Protocol

from ttr_core.plugin import Decision, GameAPI, Route, hookspec, per_ruleset, single_answer

CAPABILITY = "route-claims"


class FerryRule(Protocol):
    """What ``ttr_ferry_payment`` answers: the demands of a ferry's locomotive marks (R-FER-1..2)."""

    def problem(self, route: Route, locomotives: int, triples: int) -> str | None:
        """Why ``locomotives`` locomotives and ``triples`` triples do not satisfy ``route``'s marks, or None."""

    def options(self, route: Route, n_color: int, n_loco: int) -> list[tuple[int, int]]:
        """The cheapest payments of ``route`` in one colour, ``[(locomotives, triples), ...]``, given
        ``n_color`` cards of that colour and ``n_loco`` locomotives in hand."""


class RouteClaimHooks:
    """The hooks of the ``route-claims`` capability, declared by the plugin providing it."""

    @hookspec(firstresult=True)
    @single_answer
    @per_ruleset
    def ttr_ferry_payment(self) -> FerryRule | None:
        """Return the ferry payment rule (R-FER-1..2), a :class:`FerryRule`.

        Called by the plugin providing ``route-claims`` once per ruleset. Without an answer, ferry
        marks are ordinary spaces and triples are refused. Stops at first non-None result.

        Example::

            @hookimpl
            def ttr_ferry_payment(self):
                return FerryRule(three_for_one=self.config.three_for_one)
        """

    @hookspec(firstresult=True)
    def ttr_claim_started(
        self, game: GameAPI, seat: int, route: Route, color: str | None, locomotives: int,
        paid: tuple[tuple[int, int], ...],
    ) -> Decision | None:
        """Begin a checked claim of ``route``, paid in ``color`` with ``locomotives`` locomotives;
        ``paid`` are the cards the payment took out of the hand, ``(card id, count)`` pairs. Return
        a decision to make the claim a multi-step action (a tunnel, R-TUN-1), or None to let it
        complete at once.

        Called by the plugin providing ``route-claims`` after the claim passed every check and the
        payment left the hand, before the route is placed. A plugin returning a decision takes the
        payment into its care and later places the route (``game.place_route``) or gives the cards
        back. Stops at first non-None result.

        Example::

            @hookimpl
            def ttr_claim_started(self, game, route, paid):
                if route.tunnel:
                    return TunnelExtra(route=route.id, base=tuple(c for c, n in paid for _ in range(n)), ...)
        """


HOOKS = RouteClaimHooks
