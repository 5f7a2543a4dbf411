"""The words of a move, as a person at the table would tell it: one sentence per turn.

    took a face-up red and drew a card from the deck
    claimed Denver-Omaha with 3 red + 1 locomotive
    tried the tunnel Madrid-Pamplona/black with 3 black; revealed black, red, red: 1 more card to pay, then paid 1 locomotive more and claimed Madrid-Pamplona/black

What was taken and what was paid are read from what changed (the player's hand, the owners of
the routes), not from the rules: the words are the same whichever plugin moved the cards. Cards
drawn blind are not named, nor tickets, as at a real table (R-TIX-4): what a turn says is what
every player at the table saw. ``ttr play`` prints these turns (``ttr_cli.turnlog``) and the game
server serves them as a game's move log (``ttr_server.moves``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import attrs

from ttr_core.game import Game

BLIND = "drew a card from the deck"
FACE_UP = "took a face-up "


@attrs.frozen
class Turn:
    """One player's turn, over or still going on.

    ``first`` and ``last``: the numbers of its first and last action in the game's log (from 1);
    ``turn``: the game's turn number, or None in the setup; ``routes``: the routes it claimed (or
    freed, for a controller), ``cities``: the cities where it built; ``final_round``: the final
    round began with this turn."""

    first: int
    last: int
    seat: int
    name: str
    turn: int | None
    text: str
    over: bool
    routes: tuple[str, ...] = ()
    cities: tuple[str, ...] = ()
    final_round: bool = False


class Turns:
    """Groups a game's actions into turns, as they are applied: ``start`` once with the game before
    its first action, then ``add`` after each action. ``add`` returns the turn once it is over
    (the player has no decision left: a second card, a tunnel's extra cards, tickets to keep);
    ``going`` is the turn in progress.

    ``fields``: name the fields of an action the words do not know (a plugin's own action); a
    server showing the log to every player turns it off, since such a field could name a card.
    """

    def __init__(self, *, fields: bool = True):
        self.fields = fields
        self.before: Seen | None = None
        self.parts: list[str] = []
        self.routes: list[str] = []
        self.cities: list[str] = []
        self.first = 0
        self.going: Turn | None = None

    def start(self, game: Game) -> None:
        self.before = Seen(game)

    def add(self, game: Game, seat: int, action: Any) -> Turn | None:
        before = self.before if self.before is not None else Seen(game)  # no start: no diffs
        after = Seen(game)
        self.before = after
        if not self.parts:
            self.first = len(game.log)
        self.parts.append(describe(game, seat, action, before, after, fields=self.fields))
        reset = reset_words(before, after)
        if reset:
            self.parts.append(reset)
        self.routes += [r for r in changed_routes(game, before, after) if r not in self.routes]
        city = getattr(action, "city", None)
        if isinstance(city, str) and action.kind == "build-station" and city not in self.cities:
            self.cities.append(city)
        over = after.decisions[seat] is None
        turn = Turn(
            first=self.first, last=len(game.log), seat=seat, name=game.names[seat],
            turn=None if before.phase == "setup" else game.turn, text=join_parts(self.parts), over=over,
            routes=tuple(self.routes), cities=tuple(self.cities),
            final_round=over and not before.final_round and after.final_round,
        )
        if not over:
            self.going = turn
            return None
        self.going = None
        self.parts, self.routes, self.cities = [], [], []
        return turn


def final_round_words(game: Game, seat: int) -> str:
    """What is said when the final round begins with ``seat``'s turn."""
    trains = game.seat_view(seat).trains
    return f"final round: {game.names[seat]} has {trains} train{'s' if trains != 1 else ''} left; " \
           "every player plays one last turn"


def join_parts(parts: Sequence[str]) -> str:
    """The actions of one turn as one sentence: two cards drawn blind are "drew 2 cards from the
    deck", two face-up cards "took a face-up red and a face-up blue"."""
    if parts == [BLIND, BLIND]:
        return "drew 2 cards from the deck"
    if len(parts) == 2 and all(p.startswith(FACE_UP) for p in parts):
        if parts[0] == parts[1]:
            return f"took 2 face-up {parts[0].removeprefix(FACE_UP)} cards"
        return f"{parts[0]} and {parts[1].removeprefix('took ')}"
    if len(parts) == 2 and parts[0].startswith("drew ") and parts[0].endswith(("ticket", "tickets")) \
            and parts[1].startswith("kept "):
        kept = re.sub(r"( of \d+)? tickets?$", "", parts[1])
        return f"{parts[0]} and {'kept it' if kept == 'kept the' else kept}"
    if len(parts) == 2 and {parts[0] == BLIND, parts[1] == BLIND} == {True, False} and FACE_UP in "".join(parts):
        return " and ".join(parts)
    return ", then ".join(parts)


class Seen:
    """What the words compare between two actions: hands, route owners, decisions, the phase."""

    def __init__(self, game: Game):
        seats = range(len(game.names))
        hand, decision = game.hand_counts, game.decision
        self.hands = [hand(s) for s in seats]
        self.owner = game.owner
        self.decisions = [decision(s) for s in seats]
        self.final_round = game.final_round
        self.phase = game.phase
        self.resets, self.reset_limits = game.open_row_resets


def reset_words(before: Seen, after: Seen) -> str:
    """What players saw happen to the face-up cards during one action, whichever rule reset them
    (R-ROW-2..4): empty when the row was not reset."""
    resets = after.resets - before.resets
    if resets <= 0:
        return ""
    times = "" if resets == 1 else f" {resets} times"
    text = f"the face-up cards were discarded and dealt again{times}"
    if after.reset_limits > before.reset_limits:
        text += " (no more in a row: the last ones stay)"
    return text


def cards_text(game: Game, counts: dict[int, int]) -> str:
    """``{card id: n}`` as ``3 red + 1 locomotive``: colours first, in card order."""
    loco = game.cards.locomotive
    parts = []
    for card in sorted(counts, key=lambda c: (c == loco, c)):
        n = counts[card]
        name = game.cards.names[card]
        parts.append(f"{n} {name}{'s' if n != 1 and card == loco else ''}")
    return " + ".join(parts) or "no cards"


def changed_routes(game: Game, before: Seen, after: Seen) -> list[str]:
    """The routes whose owner changed between ``before`` and ``after`` (claimed or freed)."""
    return [game.board.routes[r].id for r, (o, n) in enumerate(zip(before.owner, after.owner)) if o != n]


def _paid(before: Sequence[int], after: Sequence[int]) -> dict[int, int]:
    return {c: b - a for c, (b, a) in enumerate(zip(before, after)) if b > a}


def _gained(before: Sequence[int], after: Sequence[int]) -> dict[int, int]:
    return {c: a - b for c, (b, a) in enumerate(zip(before, after)) if a > b}


def describe(game: Game, seat: int, action: Any, before: Seen, after: Seen, *, fields: bool = True) -> str:
    """One action of ``seat``, in words, from what it changed. ``fields``: for an action the words
    do not know, name its fields (else only its kind)."""
    kind = action.kind
    hand_before, hand_after = before.hands[seat], after.hands[seat]
    claimed = [game.board.routes[r].id for r, (o, n) in enumerate(zip(before.owner, after.owner)) if n == seat and o != seat]
    lost = [game.board.routes[r].id for r, (o, n) in enumerate(zip(before.owner, after.owner)) if o >= 0 and n != o]
    paid = _paid(hand_before, hand_after)
    if kind == "draw-card":
        if getattr(action, "slot", None) is None:
            return BLIND
        taken = _gained(hand_before, hand_after)
        return f"{FACE_UP}{cards_text(game, taken).removeprefix('1 ')}" if sum(taken.values()) == 1 else "took a face-up card"
    if kind == "claim-route":
        if claimed:
            return f"claimed {', '.join(claimed)} with {cards_text(game, paid)}"
        decision = after.decisions[seat]  # the claim goes on as a decision: a tunnel's extra cards
        shown = decision.public() if decision is not None else {}
        if "revealed" in shown and "extra" in shown:
            revealed = ", ".join(shown["revealed"]) or "nothing"
            return (f"tried the tunnel {action.route} with {cards_text(game, paid)}; revealed {revealed}: "
                    f"{shown['extra']} more card{'s' if shown['extra'] != 1 else ''} to pay")
        return f"began claiming {action.route} with {cards_text(game, paid)}"
    if kind == "pay-tunnel":
        route = ", ".join(claimed) or "the tunnel"
        return f"paid {cards_text(game, paid)} more and claimed {route}" if paid else f"claimed {route} (nothing more to pay)"
    if kind == "decline-tunnel":
        return "gave up the tunnel (its cards go back to the hand)"
    if kind == "draw-tickets":
        offered = after.decisions[seat]
        n = len(offered.held_tickets()) if offered is not None else 0
        return f"drew {n} ticket{'s' if n != 1 else ''}" if n else "drew tickets"
    if kind == "keep-tickets":
        kept = len(getattr(action, "tickets", ()))
        offer = before.decisions[seat]
        offered = len(offer.held_tickets()) if offer is not None else 0
        starting = " starting" if before.phase == "setup" else ""
        if offered and kept == offered:
            return f"kept all {kept}{starting} tickets" if kept > 1 else f"kept the{starting} ticket"
        of = f" of {offered}" if offered else ""
        return f"kept {kept}{of}{starting} ticket{'s' if kept != 1 or offered else ''}"
    if kind == "build-station":
        city = getattr(action, "city", "?")
        return f"built a station in {city} with {cards_text(game, paid)}"
    if kind == "play-controller":
        done = [f"dismantled {r}" for r in lost if r not in claimed] + [f"built {r}" for r in claimed]
        return f"played a controller: {', '.join(done) or getattr(action, 'route', '?')}"
    if kind == "pass":
        return "passed"
    if kind == "resign":
        return "left the game"
    text = kind
    if fields:
        data = game.registry.to_data(action)
        rest = " ".join(f"{k}={v}" for k, v in data.items() if k != "kind")
        text = f"{kind} {rest}".strip()
    freed = [r for r in lost if r not in claimed]
    if claimed:
        text += f": claimed {', '.join(claimed)}"
    if freed:
        text += f"; freed {', '.join(freed)}"
    return text
