"""The test kit: invariants and position helpers for the engine's tests and for house-rule authors.

The helpers that arrange a position (a hand, the top of the deck, the open row) move real cards
between the deck and where they are wanted, so the card invariants keep holding in rule tests.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from ttr_core import variant
from ttr_core.actions import Action, KeepTickets
from ttr_core.game import Game


def new_game(variant_id: str = "usa", players: int = 2, seed: int = 1, version: int | None = None) -> Game:
    return Game(variant.load(variant_id, version), [f"P{i + 1}" for i in range(players)], seed)


def keep_all_starting_tickets(game: Game) -> Game:
    """Finish the setup: every player keeps every starting ticket offered (R-SET-4)."""
    for seat in list(game.to_act()):
        decision = game.state.players[seat].decision
        if decision is not None and "keep-tickets" in decision.allowed and game.state.phase == "setup":
            game.apply(seat, KeepTickets(tuple(game.board.tickets[t].id for t in decision.offered)))
    return game


def play(game: Game, *actions: tuple[int, Action]) -> Game:
    for seat, action in actions:
        game.apply(seat, action)
    return game


# --- arranging a position -------------------------------------------------------------------


def _pull(game: Game, name: str) -> int:
    """Take one card of ``name`` out of the deck (or the discard), for placing elsewhere."""
    card = game.cards.id(name)
    for pile in (game.state.deck, game.state.discard):
        for i in range(len(pile) - 1, -1, -1):
            if pile[i] == card:
                return pile.pop(i)
    raise ValueError(f"no {name} card left in the deck or discard to arrange the position")


def set_hand(game: Game, seat: int, cards: Mapping[str, int]) -> None:
    """Make ``seat``'s hand exactly ``cards`` (e.g. ``{"red": 3, "locomotive": 1}``)."""
    hand = game.state.players[seat].hand
    for card, n in enumerate(hand):
        game.state.deck[:0] = [card] * n
        hand[card] = 0
    for name, n in cards.items():
        for _ in range(n):
            hand[_pull(game, name)] += 1


def stack_deck(game: Game, top: Iterable[str]) -> None:
    """Put these cards on top of the deck, the first one to be drawn first."""
    picked = [_pull(game, name) for name in top]
    game.state.deck.extend(reversed(picked))


def set_open_row(game: Game, cards: Iterable[str | None]) -> None:
    row = game.state.open_row
    game.state.deck[:0] = [c for c in row if c >= 0]
    row[:] = [-1 if name is None else _pull(game, name) for name in cards]


def give_route(game: Game, seat: int, route_id: str) -> None:
    """Make a route ``seat``'s as if claimed (trains placed, points scored), without cards."""
    from ttr_plugins.claiming import build_route

    build_route(game, seat, game.board.find_route(route_id), [])


def set_tickets(game: Game, seat: int, ticket_ids: Iterable[str]) -> None:
    st = game.state
    wanted = [game.board.find_ticket(t).index for t in ticket_ids]
    for t in wanted:
        for pile in (st.ticket_deck, st.boxed_tickets, *(p.tickets for p in st.players)):
            if t in pile:
                pile.remove(t)
    st.players[seat].tickets = wanted


# --- invariants (the core issue's list) -----------------------------------------------------


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
        if placed + p.trains != game.board.trains:
            problems.append(f"trains: seat {seat} has {placed} on the board + {p.trains} in supply != {game.board.trains}")
        points = sum(game.route_points(routes[r].length) for r in p.routes)
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
    for answer in game.hook.ttr_invariant_problems(game=game):
        problems.extend(answer or ())
    return problems


def _nonzero(diff: Mapping[str, int]) -> str:
    return ", ".join(f"{k} {v:+d}" for k, v in sorted(diff.items()) if v) or "nothing (ids differ)"


def assert_invariants(game: Game) -> None:
    problems = invariant_problems(game)
    assert not problems, "; ".join(problems)


def secrets_of(game: Game, seat: int) -> dict[str, object]:
    """What only ``seat`` may know: its tickets (and offered ones)."""
    p = game.state.players[seat]
    offered = getattr(p.decision, "offered", ())
    return {"tickets": [game.board.tickets[t].id for t in (*p.tickets, *offered)]}


def conformance_problems(ruleset, games: int, first_seed: int = 0) -> list[str]:
    """Play ``games`` seeded random-bot games under ``ruleset`` (player counts cycling over the
    allowed range) and report every broken invariant or failed replay, located by seed and action."""
    from ttr_core import record
    from ttr_core.bots import play_game

    lo, hi = ruleset.players.min, ruleset.players.max
    problems: list[str] = []
    for k in range(games):
        seed, players = first_seed + k, lo + k % (hi - lo + 1)
        where = f"{ruleset.variant} v{ruleset.version} seed {seed} ({players} players)"

        def check(game, seat, action, where=where):
            found = invariant_problems(game)
            if found:
                raise AssertionError(f"{where}, action {len(game.log)} ({action.kind} by seat {seat}): {'; '.join(found)}")

        try:
            game = play_game(ruleset, players, seed, on_action=check)
            text = record.dumps(record.make_record(game))
            again = record.dumps(record.make_record(record.replay(record.make_record(game))))
            if text != again:
                problems.append(f"{where}: the record does not replay to the same bytes")
        except Exception as exc:  # noqa: BLE001 - every failure is a finding to report, not to crash on
            problems.append(f"{where}: {type(exc).__name__}: {exc}")
    return problems
