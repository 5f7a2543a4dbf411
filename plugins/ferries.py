"""Ferries: routes whose locomotive marks must be paid with locomotives (R-FER-1), and the ``wor``
3-for-1 rule that lets three cards of the paying colour stand in for one of those locomotives
(R-FER-2).

The plugin answers ``ttr_ferry_payment``, a hook the ``claiming`` plugin declares and calls (the
capability ``route-claims``), with a :class:`FerryRule`: which payments a hand can make and whether
a given payment fits a route. A payment is
``locomotives`` locomotives, ``triples`` triples, and the rest of the route's spaces in one colour:
``length - locomotives - triples`` cards, plus ``3 × triples`` more of the same colour.
"""

from __future__ import annotations

import attrs

from ttr_core.plugin import Plugin, Route, hookimpl, parameter


@attrs.frozen
class FerryRule:
    """What a ferry's marks demand of a payment (R-FER-1..2)."""

    three_for_one: bool = False
    #: ``options`` by ``(length, marks, colour cards, locomotives)``: a rule serves one ruleset
    #: (``ttr_ferry_payment`` is asked once), whose listings ask the same few at every turn
    _cheapest_by_hand: dict[tuple[int, int, int, int], tuple[tuple[int, int], ...]] = attrs.field(
        factory=dict, init=False, eq=False, repr=False
    )

    def min_locomotives(self, route: Route) -> int:
        """The fewest locomotive cards any valid payment of ``route`` uses: one per mark (R-FER-1),
        or none with 3-for-1, where every mark may be paid by a triple (R-FER-2)."""
        return 0 if self.three_for_one else route.ferry

    def problem(self, route: Route, locomotives: int, triples: int) -> str | None:
        """Why ``locomotives`` locomotives and ``triples`` triples do not satisfy ``route``'s marks, or None.

        The spaces themselves (length, colour) are checked by ``claiming``.
        """
        if triples and not self.three_for_one:
            return "3-for-1 triples are not part of these rules (R-FER-1)"
        if triples > route.ferry:
            # R-FER-2: a triple stands in for a mark's locomotive, nothing else; a triple never
            # pays an ordinary space (it would cost 3 cards for what 1 card pays).
            return (
                f"{route.id} has {route.ferry} locomotive mark(s): at most {route.ferry} triple(s), "
                f"not {triples} (R-FER-2)"
            )
        if locomotives + triples < route.ferry:
            how = "a locomotive or a triple" if self.three_for_one else "a locomotive"
            return (
                f"{route.id} has {route.ferry} locomotive mark(s), each paid with {how}; "
                f"the payment has {locomotives} locomotive(s) and {triples} triple(s) (R-FER-1..2)"
            )
        return None

    def options(self, route: Route, n_color: int, n_loco: int) -> list[tuple[int, int]]:
        """The cheapest payments of ``route`` in one colour, as ``[(locomotives, triples), ...]``, given
        ``n_color`` cards of that colour and ``n_loco`` locomotives in hand.

        For each number of triples the payment uses as few locomotives as the colour cards allow;
        a payment needing both more locomotives and more colour cards than another is left out.
        Several remain when they trade locomotives for colour cards (R-FER-2's example lists
        three), so a player, or a random bot, is offered each of them.
        """
        hand = (route.length, route.ferry, n_color, n_loco)
        found = self._cheapest_by_hand.get(hand)
        if found is None:
            found = self._cheapest_by_hand[hand] = _cheapest(self.three_for_one, *hand)
        return list(found)


def _cheapest(three_for_one: bool, length: int, marks: int, n_color: int, n_loco: int) -> tuple[tuple[int, int], ...]:
    # a tuple, so the kept answer cannot be changed
    if not marks:  # most routes: the plain payment
        locos = max(length - n_color, 0)
        return ((locos, 0),) if locos <= n_loco else ()
    found: list[tuple[int, int, int]] = []  # (locomotives, triples, colour cards)
    for triples in range(marks + 1 if three_for_one else 1):
        # marks not covered by a triple need a locomotive; beyond that, locomotives fill in
        # for the colour cards the hand lacks (each space takes one card, each triple three)
        locos = max(marks - triples, length + 2 * triples - n_color, 0)
        if locos > n_loco or locos + triples > length:
            continue
        found.append((locos, triples, length - locos + 2 * triples))
    return tuple(
        (locos, triples)
        for locos, triples, cards in found
        if not any(lo <= locos and c <= cards and (lo, c) != (locos, cards) for lo, _, c in found)
    )


class Ferries(Plugin):
    requires = ("route-claims",)
    title = "Ferries"
    deterministic = True

    @attrs.frozen
    class Config:
        three_for_one: bool = parameter(
            "three cards of the paying colour may replace the locomotive of a ferry's mark (wor)",
            default=False, rule="R-FER-2",
        )

    @hookimpl
    def ttr_ferry_payment(self):
        return FerryRule(self.config.three_for_one)
