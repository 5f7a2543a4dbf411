"""The ticket bot's cards: which cards its plan's free routes ask for (coloured routes their
colour, grey ones the colour the hand holds most of, ferries locomotives), and which card to draw
for them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ttr_core.actions import Action
from ttr_core.board import Route
from ttr_core.cards import COLORS, GRAY, LOCOMOTIVE
from ttr_bots.ticket.seen import Seen

if TYPE_CHECKING:
    from ttr_bots.ticket.planning import FreePlanned


def card_to_draw(needs: Mapping[str, int], seen: Seen, draws: Sequence[Action], second: bool) -> Action:
    """Of ``draws`` (the legal draws, R-DRAW-1), the open card of the colour the plan's ``needs``
    lack most (of equals, the first slot); else, on a first draw, an open locomotive the plan
    lacks; else a blind draw; with no deck left, the open card the plan can use most."""
    hand = seen.hand
    wanted = {}  # the colours the plan lacks, and how many of each
    for c, n in needs.items():
        if c != LOCOMOTIVE:
            short = n - hand.get(c, 0)
            if short > 0:
                wanted[c] = short
    row = seen.open_row
    if wanted:
        best = None  # the open card most lacking, then the first
        for d in draws:
            slot = d.slot
            if slot is not None:
                short = wanted.get(row[slot])  # (a legal draw's slot is in the row)
                if short is not None and (best is None or short > most or (short == most and slot < best.slot)):
                    best, most = d, short
        if best is not None:
            return best
    loco_short = needs.get(LOCOMOTIVE, 0) - seen.cards(LOCOMOTIVE)
    if not second and loco_short > 0:
        for d in draws:
            if d.slot is not None and row[d.slot] == LOCOMOTIVE:
                return d
    blind = [d for d in draws if d.slot is None]
    if blind:
        return blind[0]
    # no deck left: the open card the plan can use most, else any
    return max(draws, key=lambda d: (wanted.get(row[d.slot], 0), row[d.slot] == LOCOMOTIVE, -d.slot))


def color_needs(seen: Seen, free: FreePlanned) -> dict[str, int]:
    """Cards the plan's free routes ask for, by colour: coloured routes their colour, grey routes
    the colour the hand holds most of (beyond what coloured routes take), ferries locomotives. Of
    parallel free routes, the one the hand is closest to paying counts."""
    hand = seen.hand
    needs, grey = free.fixed_needs
    needs = dict(needs)
    if free.choices:
        most = seen.most_of_a_color
        chosen = []
        for i, group in free.choices:
            best = None  # the most cards of its colour, then the first
            for r in group:
                held = most if r.color == GRAY else hand.get(r.color, 0)
                if best is None or held > best_held or (held == best_held and r.index < best.index):
                    best, best_held = r, held
            chosen.append((i, best))
        grey = sorted([*grey, *_add_needs(needs, chosen)], key=_longest_first)
    if grey:
        _add_grey_needs(hand, needs, [r for _, r in grey])
    return needs


def fixed_needs(routes: list[tuple[int, Route]]) -> tuple[dict[str, int], list[tuple[int, Route]]]:
    """What ``routes`` (each with the place of its connection) ask for whatever the hand: their
    colours and ferries' locomotives; and the grey routes, longest first, then by place (their
    colour depends on the hand)."""
    needs: dict[str, int] = {}
    grey = _add_needs(needs, routes)
    return needs, sorted(grey, key=_longest_first) if len(grey) > 1 else grey


def _add_needs(needs: dict[str, int], routes: list[tuple[int, Route]]) -> list[tuple[int, Route]]:
    """Add the colours and the ferries' locomotives of ``routes`` to ``needs``; their grey ones."""
    grey = []
    for i, r in routes:
        if r.ferry:
            needs[LOCOMOTIVE] = needs.get(LOCOMOTIVE, 0) + r.ferry
        if r.color == GRAY:
            grey.append((i, r))
        else:
            needs[r.color] = needs.get(r.color, 0) + r.length - r.ferry
    return grey


def _longest_first(placed: tuple[int, Route]) -> tuple[int, int]:
    return -placed[1].length, placed[0]


def _add_grey_needs(hand: Mapping[str, int], needs: dict[str, int], grey: list[Route]) -> None:
    """Each grey route (longest first) in the colour with the most cards to spare, the first in
    COLORS of equals."""
    if not grey:
        return
    spare = [hand.get(c, 0) - needs.get(c, 0) for c in COLORS]
    for r in grey:
        i = spare.index(max(spare))
        spare[i] -= r.length - r.ferry
        needs[COLORS[i]] = needs.get(COLORS[i], 0) + r.length - r.ferry


def cards_lacking(route: Route, seen: Seen) -> int:
    """How many more cards the hand needs to pay ``route``: its colour's cards (any one colour's
    for grey) and locomotives count, a ferry's marks take locomotives only (R-ROUTE-2..3, R-FER-1)."""
    hand = seen.hand
    locos = hand.get(LOCOMOTIVE, 0)
    held = seen.most_of_a_color if route.color == GRAY else hand.get(route.color, 0)
    ferry = route.ferry
    return max(0, ferry - locos) + max(0, route.length - ferry - held - max(0, locos - ferry))


def cards_lacking_by_route(routes: Sequence[Route], seen: Seen) -> dict[int, int]:
    """:func:`cards_lacking` of each of ``routes`` the hand cannot pay yet, by route index; what
    the hand pays of a colour's route is worked out once per colour."""
    hand = seen.hand
    locos = hand.get(LOCOMOTIVE, 0)
    pays = {c: hand.get(c, 0) + locos for c in COLORS}
    pays[GRAY] = seen.most_of_a_color + locos
    lacking = {}
    for r in routes:
        n = cards_lacking(r, seen) if r.ferry else r.length - pays[r.color]
        if n > 0:
            lacking[r.index] = n
    return lacking


def cards_missing(needs: Mapping[str, int], seen: Seen) -> int:
    """How many cards the hand lacks for the colour ``needs`` (:func:`color_needs`): the colours
    it is short of, less the locomotives that may stand in for them."""
    hand = seen.hand
    return max(0, _colours_short(needs, hand) + needs.get(LOCOMOTIVE, 0) - hand.get(LOCOMOTIVE, 0))


def spare_cards(needs: Mapping[str, int], seen: Seen) -> tuple[dict[str, int], int]:
    """The cards of the hand the colour ``needs`` do not ask for: by colour, and the locomotives
    left once they have stood in for every colour the hand is short of."""
    hand = seen.hand
    spare = {c: n - needs.get(c, 0) for c, n in hand.items() if c != LOCOMOTIVE and n > needs.get(c, 0)}
    return spare, max(0, hand.get(LOCOMOTIVE, 0) - needs.get(LOCOMOTIVE, 0) - _colours_short(needs, hand))


def _colours_short(needs: Mapping[str, int], hand: Mapping[str, int]) -> int:
    """The cards of the colours ``needs`` asks for that ``hand`` does not hold, locomotives aside."""
    return sum([max(0, n - hand.get(c, 0)) for c, n in needs.items() if c != LOCOMOTIVE])
