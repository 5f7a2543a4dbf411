"""Scoring a finished position given by hand (``ttr score``): how a host rescores games recorded elsewhere.

A position names the variant (and optionally its rules version) and, per player, the routes
they own (``"Denver-Omaha"``, or ``"Denver-Kansas City/black"`` to pick one of a double), their
tickets (``"Denver-El Paso"``, or ``{"from", "to", "points"}`` for one not on the map), and
``resigned``; plugins read their own keys (``stations``) through ``ttr_load_position``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from ttr_core import variant
from ttr_core.board import Ticket
from ttr_core.errors import RecordError, TTRError, VariantError
from ttr_core.game import Game

CORE_KEYS = {"name", "routes", "tickets", "resigned"}


def score_position(data: Any, where: str = "position", version: int | None = None, variant_id: str | None = None) -> Game:
    """Build the position and score it; ``variant_id``/``version`` override the file's (for rescoring)."""
    if not isinstance(data, dict) or not isinstance(data.get("players"), list) or not data["players"]:
        raise RecordError([f"{where}: a position is an object with a non-empty 'players' list"])
    name = variant_id or data.get("variant")
    if not isinstance(name, str):
        raise RecordError([f"{where}: $.variant: missing or not a string"])
    try:
        ruleset = variant.load(name, version if version is not None else data.get("version"))
    except VariantError as exc:
        raise RecordError([f"{where}: {p}" for p in exc.problems]) from None
    players = data["players"]
    problems: list[str] = []
    board, ticket_ids = _with_custom_tickets(ruleset.board, players, where, problems)
    if board is not ruleset.board:  # tickets made up for this position: a ruleset of its own
        ruleset = attrs.evolve(ruleset, board=board)
    names = [p.get("name", f"P{i + 1}") if isinstance(p, dict) else f"P{i + 1}" for i, p in enumerate(players)]
    try:
        game = Game(ruleset, names, seed=0)
    except TTRError as exc:
        raise RecordError([f"{where}: {exc}"]) from None
    st = game.state
    for p in st.players:
        p.decision = None
    for seat, entry in enumerate(players):
        at = f"{where}: $.players[{seat}]"
        if not isinstance(entry, dict):
            problems.append(f"{at}: a player is an object")
            continue
        _place_routes(game, seat, entry.get("routes", []), at, problems)
        st.players[seat].tickets = ticket_ids[seat]
        st.players[seat].resigned = bool(entry.get("resigned", False))
        used = set(CORE_KEYS)
        for answer in game.hook.ttr_load_position(game=game, seat=seat, entry=entry):
            used.update(answer or ())
        for key in sorted(set(entry) - used):
            problems.append(f"{at}.{key}: unknown key (no plugin of {ruleset.variant!r} reads it)")
    if problems:
        raise RecordError(problems)
    game.finish("scored from a position")
    return game


def _place_routes(game: Game, seat: int, routes: Any, at: str, problems: list[str]) -> None:
    st = game.state
    if not isinstance(routes, list):
        problems.append(f"{at}.routes: a list of route ids")
        return
    player = st.players[seat]
    for i, text in enumerate(routes):
        taken = frozenset(r for r, s in enumerate(st.owner) if s >= 0)
        try:
            route = game.board.find_route(text, exclude=taken) if isinstance(text, str) else None
        except KeyError as exc:
            problems.append(f"{at}.routes[{i}]: {exc.args[0]}")
            continue
        if route is None:
            problems.append(f"{at}.routes[{i}]: a route id is a string")
            continue
        if st.owner[route.index] >= 0:
            problems.append(f"{at}.routes[{i}]: {route.id} is owned by seat {st.owner[route.index]} already")
            continue
        game.place_route(seat, route)
    if player.trains < 0:
        problems.append(f"{at}.routes: they need {game.board.trains - player.trains} trains, a player has {game.board.trains}")


def _with_custom_tickets(board, players, where, problems):
    extra: list[Ticket] = []
    ids: list[list[int]] = []
    for seat, entry in enumerate(players):
        mine: list[int] = []
        tickets = entry.get("tickets", []) if isinstance(entry, dict) else []
        for i, t in enumerate(tickets if isinstance(tickets, list) else []):
            at = f"{where}: $.players[{seat}].tickets[{i}]"
            if isinstance(t, str):
                try:
                    mine.append(board.find_ticket(t).index)
                except KeyError as exc:
                    problems.append(f"{at}: {exc.args[0]}")
            elif isinstance(t, Mapping) and {"from", "to", "points"} <= set(t):
                a, b, pts = t["from"], t["to"], t["points"]
                if a not in board.city_index or b not in board.city_index:
                    problems.append(f"{at}: unknown city in {a!r}-{b!r}")
                elif isinstance(pts, bool) or not isinstance(pts, int):
                    problems.append(f"{at}.points: an integer")
                else:
                    index = len(board.tickets) + len(extra)
                    extra.append(Ticket(index, f"{a}-{b}#{index}", a, b, board.city_index[a], board.city_index[b], pts, "short"))
                    mine.append(index)
            else:
                problems.append(f"{at}: a ticket id, or an object with from, to and points")
        ids.append(mine)
    if extra:
        tickets = board.tickets + tuple(extra)
        board = attrs.evolve(board, tickets=tickets, ticket_index={t.id: t.index for t in tickets})
    return board, ids


def position_of(game: Game) -> dict[str, Any]:
    """The position a game has reached, in the format ``score_position`` reads: what a rescoring
    under another variant or rules version starts from."""
    board = game.board
    players = []
    for seat, p in enumerate(game.state.players):
        entry: dict[str, Any] = {
            "name": p.name,
            "routes": [board.routes[r].id for r in p.routes],
            "tickets": [
                board.tickets[t].id if t < len(game.ruleset.board.tickets) and "#" not in board.tickets[t].id
                else {"from": board.tickets[t].a, "to": board.tickets[t].b, "points": board.tickets[t].points}
                for t in p.tickets
            ],
            "resigned": p.resigned,
        }
        for answer in game.hook.ttr_dump_position(game=game, seat=seat):
            entry.update(answer or {})
        players.append(entry)
    return {"variant": game.ruleset.variant, "version": game.ruleset.version, "players": players}
