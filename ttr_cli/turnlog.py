"""The turn log of ``ttr play``: one line per turn, as a person at the table would tell it.

    T12 P3: took a face-up red and drew a card from the deck
    T13 P4: claimed Denver-Omaha with 3 red + 1 locomotive
    T14 P1: tried the tunnel Madrid-Pamplona/black with 3 black; revealed black, red, red: 1 more card to pay, then paid 1 locomotive more and claimed Madrid-Pamplona/black
    -- final round: P4 has 2 trains left; every player plays one last turn --

What was taken and what was paid are read from what changed (the player's hand, the owners of
the routes), not from the rules: the log says the same whichever plugin moved the cards. Cards
drawn blind are not named, as at a real table.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from ttr_core.game import Game


class TurnLog:
    """``on_start`` and ``on_action`` for ``ttr_bots.play_game``: prints each turn once it is over
    (its actions joined: a second card, a tunnel's extra cards, tickets kept), and announces the
    final round."""

    def __init__(self, emit: Callable[[str], None]):
        self.emit = emit
        self.parts: list[str] = []
        self.before: _Seen | None = None

    def on_start(self, game: Game) -> None:
        self.before = _Seen(game)

    def on_action(self, game: Game, seat: int, action: Any) -> None:
        before = self.before if self.before is not None else _Seen(game)  # no on_start: no diffs
        after = _Seen(game)
        self.before = after
        self.parts.append(describe(game, seat, action, before, after))
        player = game.state.players[seat]
        if player.decision is not None:
            return  # the turn goes on
        phase = "setup" if before.phase == "setup" else f"T{game.state.turn}"
        self.emit(f"{phase:>5} {player.name}: {join_parts(self.parts)}")
        self.parts = []
        if before.final_round is None and game.state.final_round is not None:
            self.emit(f"      -- final round: {player.name} has {player.trains} train{'s' if player.trains != 1 else ''} "
                      "left; every player plays one last turn --")


BLIND = "drew a card from the deck"
FACE_UP = "took a face-up "


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


class _Seen:
    """What the log compares between two actions."""

    def __init__(self, game: Game):
        st = game.state
        self.hands = [list(p.hand) for p in st.players]
        self.owner = list(st.owner)
        self.decisions = [p.decision for p in st.players]
        self.final_round = st.final_round
        self.phase = st.phase


def cards_text(game: Game, counts: dict[int, int]) -> str:
    """``{card id: n}`` as ``3 red + 1 locomotive``: colours first, in card order."""
    loco = game.cards.locomotive
    parts = []
    for card in sorted(counts, key=lambda c: (c == loco, c)):
        n = counts[card]
        name = game.cards.names[card]
        parts.append(f"{n} {name}{'s' if n != 1 and card == loco else ''}")
    return " + ".join(parts) or "no cards"


def _paid(before: Sequence[int], after: Sequence[int]) -> dict[int, int]:
    return {c: b - a for c, (b, a) in enumerate(zip(before, after)) if b > a}


def _gained(before: Sequence[int], after: Sequence[int]) -> dict[int, int]:
    return {c: a - b for c, (b, a) in enumerate(zip(before, after)) if a > b}


def describe(game: Game, seat: int, action: Any, before: _Seen, after: _Seen) -> str:
    """One action of ``seat``, in words, from what it changed."""
    kind = action.kind
    hand_before, hand_after = before.hands[seat], after.hands[seat]
    claimed = [game.board.routes[r].id for r, (o, n) in enumerate(zip(before.owner, after.owner)) if n == seat and o != seat]
    lost = [game.board.routes[r].id for r, (o, n) in enumerate(zip(before.owner, after.owner)) if o >= 0 and n != o]
    paid = _paid(hand_before, hand_after)
    if kind == "draw-card":
        if getattr(action, "slot", None) is None:
            return "drew a card from the deck"
        taken = _gained(hand_before, hand_after)
        return f"took a face-up {cards_text(game, taken).removeprefix('1 ')}" if sum(taken.values()) == 1 else "took a face-up card"
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
    data = game.registry.to_data(action)
    rest = " ".join(f"{k}={v}" for k, v in data.items() if k != "kind")
    text = f"{kind} {rest}".strip()
    freed = [r for r in lost if r not in claimed]
    if claimed:
        text += f": claimed {', '.join(claimed)}"
    if freed:
        text += f"; freed {', '.join(freed)}"
    return text
