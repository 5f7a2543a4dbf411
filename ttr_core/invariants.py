"""The engine's invariants: what must hold after every action, whatever the rules.

Cards (every card of the deck's composition is in exactly one place), trains (on the board plus in
supply, plus any the test kit set out of the game, is the map's count), running route scores, one owner per route, every ticket in exactly one
place, and the turn flow; plus each plugin's own (``ttr_invariant_problems``). The test kit and
``ttr variants check --play N`` check them after every action.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ttr_core.game import Game

PHASES = ("setup", "play", "over")


def card_census(game: Game) -> Counter:
    st = game.state
    census: Counter = Counter(st.deck)
    census.update(st.discard)
    census.update(c for c in st.open_row if c >= 0)
    for p in st.players:
        census.update({card: n for card, n in enumerate(p.hand) if n})
        if p.decision is not None:
            census.update(p.decision.held_cards())
    return census


def invariant_problems(game: Game) -> list[str]:
    """Every broken invariant, as a sentence; empty when all hold."""
    st = game.state
    problems: list[str] = []
    expected = Counter({game.cards.id(n): c for n, c in game.deck_counts.items() if c})
    census = card_census(game)
    if census != expected:
        diff = {game.cards.names[k]: census.get(k, 0) - expected.get(k, 0) for k in set(census) | set(expected)}
        problems.append(f"cards: {sum(census.values())} found, {sum(expected.values())} expected; off by {_nonzero(diff)}")
    if any(n < 0 for p in st.players for n in p.hand):
        problems.append("cards: a hand holds a negative count")
    routes = game.board.routes
    for seat, p in enumerate(st.players):
        placed = sum(routes[r].length for r in p.routes)
        if placed + p.trains + p.trains_out != game.board.trains:
            out = f" + {p.trains_out} out of the game" if p.trains_out else ""
            problems.append(
                f"trains: seat {seat} has {placed} on the board + {p.trains} in supply{out} != {game.board.trains}"
            )
        if p.trains_out < 0:
            problems.append(f"trains: seat {seat} has {p.trains_out} trains out of the game")
        points = sum(game.route_score(routes[r]) for r in p.routes)
        if points != p.route_points:
            problems.append(f"score: seat {seat}'s running route score {p.route_points} != recomputed {points}")
        for r in p.routes:
            if st.owner[r] != seat:
                problems.append(f"routes: seat {seat} lists {routes[r].id}, owned by {st.owner[r]}")
    owned = Counter(r for p in st.players for r in p.routes)
    for r, n in owned.items():
        if n > 1:
            problems.append(f"routes: {routes[r].id} has {n} owners")
    for r, seat in enumerate(st.owner):
        if seat >= 0 and r not in st.players[seat].routes:
            problems.append(f"routes: {routes[r].id} is marked as seat {seat}'s but not in its list")
    problems += _ticket_problems(game)
    problems += _flow_problems(game)
    for answer in game.hook.ttr_invariant_problems(game=game):
        problems.extend(answer or ())
    return problems


def ticket_census(game: Game) -> Counter:
    """Where every ticket is: the ticket deck, the box, the players' tickets and the offers pending."""
    st = game.state
    census: Counter = Counter(st.ticket_deck)
    census.update(st.boxed_tickets)
    for p in st.players:
        census.update(p.tickets)
        if p.decision is not None:
            census.update(p.decision.held_tickets())
    return census


def _ticket_problems(game: Game) -> list[str]:
    census = ticket_census(game)
    n = len(game.board.tickets)
    problems = []
    lost = [game.board.tickets[t].id for t in range(n) if census.get(t, 0) == 0]
    twice = [game.board.tickets[t].id for t in range(n) if census.get(t, 0) > 1]
    strange = sorted(repr(t) for t in census if not (isinstance(t, int) and 0 <= t < n))
    if lost:
        problems.append(f"tickets: {len(lost)} ticket(s) are nowhere: {', '.join(lost[:5])}")
    if twice:
        problems.append(f"tickets: {len(twice)} ticket(s) are in two places: {', '.join(twice[:5])}")
    if strange:
        problems.append(f"tickets: unknown ticket numbers {', '.join(strange[:5])}")
    return problems


def _flow_problems(game: Game) -> list[str]:
    """The turn flow: a known phase; a result exactly when the game is over; during play, the
    current seat is an active one; no decision pending once the game is over; no negative supply."""
    st = game.state
    n = len(st.players)
    problems = []
    if st.phase not in PHASES:
        problems.append(f"flow: unknown phase {st.phase!r}")
    if (st.phase == "over") != (game.result is not None):
        problems.append(f"flow: phase {st.phase!r} but {'a' if game.result is not None else 'no'} result")
    if st.phase == "play":
        if not (isinstance(st.current, int) and 0 <= st.current < n) or st.players[st.current].resigned:
            problems.append(f"flow: the current seat {st.current!r} is not an active seat")
    if st.phase == "over":
        pending = [s for s, p in enumerate(st.players) if p.decision is not None]
        if pending:
            problems.append(f"flow: the game is over but seat(s) {pending} still have a decision pending")
    if st.final_round is not None and any(not 0 <= s < n for s in st.final_round):
        problems.append(f"flow: the final round names unknown seats {st.final_round}")
    for seat, p in enumerate(st.players):
        if p.trains < 0:
            problems.append(f"trains: seat {seat} has {p.trains} trains in supply")
    return problems


def _nonzero(diff: Mapping[str, int]) -> str:
    return ", ".join(f"{k} {v:+d}" for k, v in sorted(diff.items()) if v) or "nothing (ids differ)"
