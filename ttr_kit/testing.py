"""The test kit: invariants and position helpers for the engine's tests and for house-rule authors.

The helpers that arrange a position (a hand, the top of the deck, the open row) move real cards
between the deck and where they are wanted, so the card invariants keep holding in rule tests.
Trains likewise: ``set_trains`` moves them between a seat's supply and its count of trains out of
the game (``PlayerState.trains_out``), so on the board + in supply + out of the game is still the
map's count, and a claim that forgets to take its trains is still caught.

* games: ``new_game`` (a variant id or a ``.toml`` path), ``keep_all_starting_tickets``,
  ``arrange`` (a whole position at once), ``set_hand``, ``stack_deck``, ``set_open_row``,
  ``give_route``, ``set_trains``, ``set_tickets``, ``set_turn``;
* acting: ``act`` (an action object or its JSON data), ``play``, ``expect_illegal`` (the typed
  error, and a game left byte-identical), ``play_to_end`` (bots, invariants after every action);
* reading: ``state_text``, ``breakdown`` (one player's final score by line), ``score_now``;
* checking: ``invariant_problems``/``assert_invariants``, ``view_leaks``/``assert_no_view_leaks``,
  ``secrets_of``, ``conformance_problems`` (what ``ttr variants check --play N`` runs).
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol


from ttr_core import variant
from ttr_core.actions import Action
from ttr_core.errors import IllegalAction
from ttr_core.game import Game
from ttr_core.invariants import PHASES, card_census, invariant_problems, ticket_census  # noqa: F401 - the kit's API


def new_game(
    variant_id: str | os.PathLike = "usa", players: int = 2, seed: int = 1, version: int | None = None
) -> Game:
    """A new game (still in its setup) of a variant given by id (``"usa"``) or by file path."""
    return Game(variant.load(os.fspath(variant_id), version), [f"P{i + 1}" for i in range(players)], seed)


def keep_all_starting_tickets(game: Game) -> Game:
    """Finish the setup: every player keeps every starting ticket offered (R-SET-4)."""
    for seat in list(game.to_act()):
        decision = game.state.players[seat].decision
        if decision is not None and decision.held_tickets() and game.state.phase == "setup":
            ids = [game.board.tickets[t].id for t in decision.held_tickets()]
            act(game, seat, {"kind": "keep-tickets", "tickets": ids})
    return game


def play(game: Game, *actions: tuple[int, Action | Mapping[str, Any]]) -> Game:
    """Apply ``(seat, action)`` pairs in order; an action may be given as its JSON data."""
    for seat, action in actions:
        act(game, seat, action)
    return game


def act(game: Game, seat: int, action: Action | Mapping[str, Any]) -> Game:
    """Apply one action, given as an object (``ClaimRoute("Denver-Omaha", "red")``) or as the data a
    host receives (``{"kind": "claim-route", "route": "Denver-Omaha", "color": "red"}``)."""
    if not isinstance(action, Action):
        action = game.registry.from_data(dict(action), seat)
    game.apply(seat, action)
    return game


def state_text(game: Game) -> str:
    """The whole state (hidden parts included) as canonical JSON: equal texts, equal games."""
    return json.dumps(game.dump(), sort_keys=True)


def expect_illegal(
    game: Game, seat: int, action: Action | Mapping[str, Any], error: type[IllegalAction] = IllegalAction
) -> IllegalAction:
    """Assert that ``action`` is refused with ``error`` (or a subclass) and changes nothing at all;
    return the error, whose ``reason`` a test may check."""
    before = state_text(game), len(game.log)
    try:
        act(game, seat, action)
    except IllegalAction as exc:
        assert isinstance(exc, error), f"expected {error.__name__}, got {type(exc).__name__}: {exc}"
        assert (state_text(game), len(game.log)) == before, f"the refused action changed the game: {exc}"
        return exc
    raise AssertionError(f"seat {seat} was allowed to play {action!r}")


def play_to_end(
    game: Game, bots: Sequence[str] = ("random",), seed: int | None = None, check: bool = True,
    max_actions: int = 20_000,
) -> Game:
    """Let bots (installed bot names, cycled over the seats: ``ttr bots``) finish ``game`` from
    where it stands, checking the invariants after every action when ``check``."""
    from ttr_bots import ask, bot_classes

    seed = game.seed if seed is None else seed
    classes = bot_classes(bots)
    seats = [classes[i % len(classes)](seed, i) for i in range(len(game.state.players))]
    for _ in range(max_actions):
        if game.over:
            return game
        seat = game.to_act()[0]
        game.apply(seat, ask(seats[seat], game, seat))
        if check:
            assert_invariants(game)
    raise AssertionError(f"the game did not end within {max_actions} actions")


def score_now(game: Game, reason: str = "scored by a test") -> Any:
    """End the game where it stands and score it (``game.finish``); return the ``GameResult``."""
    if not game.over:
        game.finish(reason)
    return game.result


def breakdown(game: Game, player: int | str) -> dict[str, Any]:
    """One player's final score, line by line: ``routes``, ``tickets`` (points), ``completed`` and
    ``failed`` (ticket ids), ``bonuses`` (``{name: points}``) and ``total``. The game must be over
    (see ``score_now``); ``player`` is a seat or a name."""
    assert game.result is not None, "the game is not scored yet (use score_now)"
    (score,) = [s for s in game.result.scores if player in (s.seat, s.name)]
    bonuses: dict[str, int] = {}
    for b in score.bonuses:
        bonuses[b.name] = bonuses.get(b.name, 0) + b.points
    return {
        "routes": score.routes,
        "tickets": score.ticket_points,
        "completed": list(score.tickets_completed),
        "failed": list(score.tickets_failed),
        "bonuses": bonuses,
        "total": score.total,
        "winner": score.seat in game.result.winners.seats,
    }


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
    game.place_route(seat, game.board.find_route(route_id))


def set_trains(game: Game, seat: int, n: int) -> None:
    """Leave ``seat`` exactly ``n`` trains in supply, without placing routes: to reach the final round
    (R-END-1) or a claim short of trains (R-ROUTE-2) in a test.

    The trains taken from the supply go out of the game (``PlayerState.trains_out``, which no rule
    touches) and those given back come from there, so the trains invariant keeps holding and keeps
    its meaning: on the board + in supply + out of the game = the map's trains. ``n`` is at most
    what the seat has not placed on the board; routes given later are placed from the ``n``."""
    player = game.state.players[seat]
    placed = sum(game.board.routes[r].length for r in player.routes)
    most = game.board.trains - placed
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= most:
        raise ValueError(f"seat {seat} has {placed} trains on the board: it can have 0 to {most} in supply, not {n!r}")
    player.trains, player.trains_out = n, most - n


def set_tickets(game: Game, seat: int, ticket_ids: Iterable[str]) -> None:
    """Make ``seat``'s tickets exactly these; its old ones go back under the ticket deck."""
    st = game.state
    wanted = [game.board.find_ticket(t).index for t in ticket_ids]
    for t in wanted:
        for pile in (st.ticket_deck, st.boxed_tickets, *(p.tickets for p in st.players)):
            if t in pile:
                pile.remove(t)
    st.ticket_deck[:0] = [t for t in st.players[seat].tickets if t not in wanted]
    st.players[seat].tickets = wanted


def set_turn(game: Game, seat: int) -> None:
    """Make it ``seat``'s turn, at its start (the setup over, no decision pending anywhere)."""
    st = game.state
    for s in range(len(st.players)):
        game.cancel_decision(s)
    st.phase = "play"
    st.current = seat


def arrange(
    game: Game,
    *,
    hands: Mapping[int, Mapping[str, int]] | None = None,
    routes: Mapping[int, Iterable[str]] | None = None,
    tickets: Mapping[int, Iterable[str]] | None = None,
    open_row: Iterable[str | None] | None = None,
    deck_top: Iterable[str] | None = None,
    turn: int | None = None,
    trains: Mapping[int, int] | None = None,
) -> Game:
    """Arrange a position in one call, moving real cards, trains and tickets so the invariants keep
    holding: ``hands={0: {"red": 3}}``, ``routes={1: ["Denver-Omaha"]}`` (built without cards),
    ``trains={0: 3}`` (trains left in supply, see ``set_trains``), ``tickets={0: ["Denver-El
    Paso"]}``, ``open_row=["red", None, ...]``, ``deck_top=["blue"]`` (drawn first), ``turn=1``
    (whose turn it is). Routes are placed first, then trains set, hands last, so a hand may take
    any card the deck and discard still hold."""
    if turn is not None:
        set_turn(game, turn)
    for seat, ids in (routes or {}).items():
        for route_id in ids:
            give_route(game, seat, route_id)
    for seat, n in (trains or {}).items():
        set_trains(game, seat, n)
    for seat, ids in (tickets or {}).items():
        set_tickets(game, seat, ids)
    if open_row is not None:
        set_open_row(game, open_row)
    for seat, cards in (hands or {}).items():
        set_hand(game, seat, cards)
    if deck_top is not None:
        stack_deck(game, deck_top)
    return game


def assert_invariants(game: Game) -> None:
    problems = invariant_problems(game)
    assert not problems, "; ".join(problems)


def secrets_of(game: Game, seat: int) -> dict[str, object]:
    """What only ``seat`` may know: its tickets (and offered ones)."""
    p = game.state.players[seat]
    offered = p.decision.held_tickets() if p.decision is not None else ()
    return {"tickets": [game.board.tickets[t].id for t in (*p.tickets, *offered)]}


def view_leaks(game: Game, seat: int | None, tries: int = 2) -> list[str]:
    """What ``game.view(seat)`` shows that ``seat`` may not see (``None``: a spectator); empty if nothing.

    Three checks. The view's own shape: ``you`` is there for a seat and only for it. Other seats'
    tickets and offers (``secrets_of``) appear nowhere in it as text while the game is on (a
    ticket id that is also a route or city name is left to the next check). And non-interference:
    the hidden parts that ``seat`` may not see (the deck's order, other seats' hands, their
    tickets and offers, the ticket deck's order, the tickets out of the game) are dealt
    differently by ``game.determinize``, ``tries`` times, keeping every count a player sees, and
    the view must not change at all.
    """
    view = game.view(seat)
    problems: list[str] = []
    if seat is None and "you" in view:
        problems.append("view(None): a spectator's view has a 'you' part")
    if seat is not None and (view.get("you") or {}).get("seat") != seat:
        problems.append(f"view({seat}): its 'you' part is not seat {seat}'s")
    others = [s for s in range(len(game.state.players)) if s != seat]
    if not game.over:
        public = {r.id for r in game.board.routes} | {c.name for c in game.board.cities}
        texts = set(_strings(view))
        for other in others:
            for ticket in secrets_of(game, other)["tickets"]:
                if ticket in texts and ticket not in public:
                    problems.append(f"view({seat}): shows seat {other}'s ticket {ticket!r}")
    shown = json.dumps(view, sort_keys=True)
    for k in range(tries):
        rng = random.Random(f"view-leaks:{game.seed}:{len(game.log)}:{seat}:{k}")
        again = game.determinize(seat, rng).view(seat)
        if json.dumps(again, sort_keys=True) != shown:
            where = ", ".join(_differences(view, again)[:5])
            problems.append(f"view({seat}): changes when hidden cards or tickets are dealt differently, at {where}")
            break
    return problems


def assert_no_view_leaks(game: Game) -> None:
    """``view_leaks`` for every seat and for a spectator."""
    problems = [p for seat in (None, *range(len(game.state.players))) for p in view_leaks(game, seat)]
    assert not problems, "; ".join(problems)


def _strings(data: Any):
    if isinstance(data, str):
        yield data
    elif isinstance(data, Mapping):
        for k, v in data.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(data, list | tuple):
        for v in data:
            yield from _strings(v)


def _differences(a: Any, b: Any, path: str = "$") -> list[str]:
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            out += _differences(a.get(k), b.get(k), f"{path}.{k}") if k in a and k in b else [f"{path}.{k}"]
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [path]


class GameRules(Protocol):
    """Rules checked while a conformance game is played (one instance per game)."""

    def start(self, game: Game) -> list[str]:
        """The rules broken once the game is set up, as sentences."""

    def after(self, game: Game, seat: int, action: Action) -> list[str]:
        """The rules broken by ``seat``'s ``action``, just applied, as sentences."""


def conformance_problems(
    ruleset, games: int, first_seed: int = 0, rules: Callable[[Game], GameRules] | None = None,
) -> list[str]:
    """Play ``games`` seeded random-bot games under ``ruleset`` (player counts cycling over the
    allowed range) and report every broken invariant or failed replay, located by seed and action,
    and every plugin whose instance changes from one game to the next (its instance serves every
    game of the ruleset, so game state kept on it leaks between games).

    ``rules``, when given, checks more: called with each new game, it gives the :class:`GameRules`
    checked once the game is set up and after every action (:mod:`ttr_kit.conformance` checks a
    replacement plugin's role this way)."""
    from ttr_core import record
    from ttr_bots import play_game

    lo, hi = ruleset.players.min, ruleset.players.max
    problems: list[str] = []
    instances: dict[str, str] = {}  # plugin -> its attributes after the previous game
    stateful: set[str] = set()

    def loader(variant_id, version):
        # the variant being checked may be a file that is not installed (yet): its records name its id
        if variant_id == ruleset.variant and ruleset.path:
            return variant.load(ruleset.path, version)
        return variant.load(variant_id, version)

    for k in range(games):
        seed, players = first_seed + k, lo + k % (hi - lo + 1)
        where = f"{ruleset.variant} v{ruleset.version} seed {seed} ({players} players)"
        this_game: list[GameRules] = []  # the game's rules to check, once it is set up

        def start(game, where=where, this_game=this_game):
            if rules is not None:
                this_game.append(rules(game))
                found = this_game[0].start(game)
                if found:
                    raise AssertionError(f"{where}, at the start: {'; '.join(found)}")

        def check(game, seat, action, where=where, this_game=this_game):
            found = invariant_problems(game)
            for game_rules in this_game:
                found += game_rules.after(game, seat, action)
            if found:
                raise AssertionError(f"{where}, action {len(game.log)} ({action.kind} by seat {seat}): {'; '.join(found)}")

        try:
            game = play_game(ruleset, players, seed, on_action=check, on_start=start)
            text = record.dumps(record.make_record(game))
            again = record.dumps(record.make_record(record.replay(record.make_record(game), loader=loader)))
            if text != again:
                problems.append(f"{where}: the record does not replay to the same bytes")
            for name, attributes in sorted(_changed_plugins(game, instances, first=k == 0).items()):
                if name in stateful:
                    continue
                stateful.add(name)
                problems.append(
                    f"{where}: plugin {name!r} changed its own attributes during the game "
                    f"({', '.join(attributes)}): one instance serves every game of a ruleset, so game state "
                    "belongs in game.state.ext (a cache of facts about the ruleset is named in the plugin's "
                    "``caches``)"
                )
        except Exception as exc:  # noqa: BLE001 - every failure is a finding to report, not to crash on
            problems.append(f"{where}: {type(exc).__name__}: {exc}")
    return problems


def _changed_plugins(game: Game, seen: dict[str, dict[str, str]], first: bool) -> dict[str, list[str]]:
    """Plugins whose attributes changed during this game, each with the attributes' names. The
    first game may fill caches of facts about the ruleset (a table built from the board), so it
    only sets the baseline; attributes a plugin names in its ``caches`` are never compared."""
    changed = {}
    for name, plugin in game.pm.list_name_plugin():
        skipped = set(getattr(plugin, "caches", ()))
        now = {k: repr(v) for k, v in getattr(plugin, "__dict__", {}).items() if k not in skipped}
        if not first and name in seen and seen[name] != now:
            changed[name] = sorted(k for k in now.keys() | seen[name].keys() if now.get(k) != seen[name].get(k))
        seen[name] = now
    return changed
