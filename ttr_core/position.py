"""Scoring a finished position given by hand (``ttr score``): how a host rescores games recorded elsewhere.

A position names the variant (and optionally its rules version) and, per player, the routes
they own (``"Denver-Omaha"``, or ``"Denver-Kansas City/black"`` to pick one of a double), their
tickets (``"Denver-El Paso"``, or ``{"from", "to", "points"}`` for one not on the map, named by
its ``"id"`` or ``"name"`` key, else ``"A-B"``), and ``resigned``; plugins read their own keys
(``stations``) through ``ttr_load_position``.

A position is checked as the game would have made it: the routes are placed one by one, in seat
order, each only if the rules let that player have it then (``game.claim_problem``: not taken,
not closed by a rule such as R-PAR-1 or R-PAR-2), and every ticket card is held by one player at
most. Whatever the problem, it is reported located (``position.json: $.players[1].routes[2]:
...``), all at once, as a ``RecordError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from ttr_core import variant
from ttr_core.board import Board, Route, Ticket
from ttr_core.errors import RecordError, TTRError, VariantError
from ttr_core.game import Game
from ttr_core.table import TRAINS
from ttr_core.variant import Ruleset

CORE_KEYS = frozenset({"name", "routes", "tickets", "resigned"})
#: the keys of a ticket given in full
TICKET_KEYS = ("from", "to", "points", "id", "name")


def score_position(
    data: Any, where: str = "position", version: int | None = None, variant_id: str | None = None, *,
    check_claims: bool | None = None, ruleset: Ruleset | None = None,
) -> Game:
    """Build the position and score it: the finished :class:`~ttr_core.game.Game`, its ``result``
    holding the scores. ``data`` is a position (what ``ttr score`` reads: variant, players with
    their routes, tickets and cards); ``variant_id``/``version`` override the file's (for rescoring).
    A position that is not one raises :class:`~ttr_core.errors.RecordError` listing every problem,
    each located (``where``).

    ``check_claims``: whether each route must be one its player could claim under these rules when
    it is placed (R-PAR-1, R-PAR-2: whatever closures the variant's plugins answer). By default,
    only when the position is scored under its own rules: a game played under one rule set and
    rescored under another (``ttr rescore``, ``ttr score --variant``) claimed its routes under the
    first one's rules, so only what no rules allow (a route owned twice, more trains than a player
    has, a ticket card held twice) is refused then.

    ``ruleset``: the rules to score under, loaded already (a ruleset with some parameters tried,
    ``Ruleset.with_configs``); ``variant_id`` and ``version`` then only say whether they are the
    position's own.
    """
    if not isinstance(data, dict) or not isinstance(data.get("players"), list) or not data["players"]:
        raise RecordError([f"{where}: a position is an object with a non-empty 'players' list"])
    name = variant_id or data.get("variant")
    if not isinstance(name, str):
        raise RecordError([f"{where}: $.variant: missing or not a string"])
    if check_claims is None:
        check_claims = _own_rules(data, variant_id, version)
    if ruleset is None:
        try:
            ruleset = variant.load(name, version if version is not None else data.get("version"))
        except VariantError as exc:
            raise RecordError([f"{where}: {p}" for p in exc.problems]) from None
    players = data["players"]
    problems: list[str] = []
    names = _names(players, where, problems)
    board, ticket_ids = _with_custom_tickets(ruleset.board, players, names, where, problems)
    if board is not ruleset.board:  # tickets made up for this position: a ruleset of its own
        ruleset = attrs.evolve(ruleset, board=board)
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
        _place_routes(game, seat, entry.get("routes", []), at, problems, check_claims)
        st.players[seat].tickets = ticket_ids[seat]
        resigned = entry.get("resigned", False)
        if not isinstance(resigned, bool):
            problems.append(f"{at}.resigned: true or false, not {resigned!r}")
        st.players[seat].resigned = resigned is True
        used = set(CORE_KEYS)
        try:
            for answer in game.hook.ttr_load_position(game=game, seat=seat, entry=entry):
                used.update(answer or ())
        except RecordError as exc:  # a plugin's key with a bad value: its problems, in this file
            problems.extend(p if p.startswith(f"{where}: ") else f"{where}: {p}" for p in exc.problems)
            continue
        for key in sorted(set(entry) - used):
            problems.append(f"{at}.{key}: unknown key (no plugin of {ruleset.variant!r} reads it)")
    if problems:
        raise RecordError(problems)
    game.finish("scored from a position")
    return game


def _own_rules(data: dict, variant_id: str | None, version: int | None) -> bool:
    """Whether the position is scored under the rules it names (no other variant or version asked for)."""
    own_variant = variant_id is None or data.get("variant") in (None, variant_id)
    own_version = version is None or data.get("version") in (None, version)
    return own_variant and own_version


def _names(players: list, where: str, problems: list[str]) -> list[str]:
    """The players' names (``P1``... by default), each a string used once; a bad one is reported and
    replaced, so that every other problem of the position is still found."""
    names: list[str] = []
    for i, p in enumerate(players):
        name = p.get("name", f"P{i + 1}") if isinstance(p, dict) else f"P{i + 1}"
        if not isinstance(name, str):
            problems.append(f"{where}: $.players[{i}].name: a string, not {name!r}")
            name = f"P{i + 1}"
        elif name in names:
            problems.append(f"{where}: $.players[{i}].name: {name!r} is the name of $.players[{names.index(name)}] "
                            "already: names must differ")
        while name in names:
            name += "'"
        names.append(name)
    return names


def _place_routes(game: Game, seat: int, routes: Any, at: str, problems: list[str], check_claims: bool) -> None:
    st = game.state
    if not isinstance(routes, list):
        problems.append(f"{at}.routes: a list of route ids")
        return
    board = game.board
    player = st.players[seat]
    for i, text in enumerate(routes):
        here = f"{at}.routes[{i}]"
        if not isinstance(text, str):
            problems.append(f"{here}: a route id is a string")
            continue
        # a bare "A-B" takes a route of the pair this player may still have
        unavailable = {r for r, s in enumerate(st.owner) if s >= 0}
        if check_claims:
            unavailable.update(game.closures(seat))
        try:
            route = board.find_route(text, exclude=frozenset(unavailable))
        except KeyError as exc:
            problems.append(f"{here}: {exc.args[0]}")
            continue
        bare = route.parallel and "/" not in text and text not in board.route_index
        if bare and st.owner[route.index] >= 0:  # every route of the pair is taken or closed: say why
            free = [board.routes[r] for r in route.parallel if st.owner[r] < 0]
            route = free[0] if free else route
        if st.owner[route.index] >= 0:
            problems.append(f"{here}: {_taken(game, seat, route, bare)}")
            continue
        refusal = game.claim_problem(seat, route) if check_claims else None
        if refusal is not None and refusal.code != TRAINS:  # too many trains: added up below
            problems.append(f"{here}: {route.id} is closed to this player ({refusal.code}): "
                            f"{refusal.reason}{_others_parallels(game, seat, route)}")
            continue
        game.place_route(seat, route)
    if player.trains < 0:
        problems.append(f"{at}.routes: they need {game.board.trains - player.trains} trains, a player has {game.board.trains}")


def _who(game: Game, seat: int, owner: int) -> str:
    return "this player" if owner == seat else f"seat {owner} ({game.names[owner]})"


def _taken(game: Game, seat: int, route: Route, bare: bool) -> str:
    """Why an owned route cannot be placed again: who has it (R-ROUTE-5)."""
    owner = game.state.owner
    if bare:
        pair = [route, *(game.board.routes[r] for r in route.parallel)]
        listed = ", ".join(f"{r.id} by {_who(game, seat, owner[r.index])}" for r in pair)
        return f"every route between {route.a} and {route.b} is taken: {listed}"
    if owner[route.index] == seat:
        return f"{route.id} is listed twice for this player"
    return f"{route.id} is taken by {_who(game, seat, owner[route.index])} (R-ROUTE-5)"


def _others_parallels(game: Game, seat: int, route: Route) -> str:
    """Who else owns a route parallel to ``route``: what a closure of R-PAR-2 follows from."""
    owner = game.state.owner
    taken = [f"{game.board.routes[r].id} is {_who(game, seat, owner[r])}'s" for r in route.parallel
             if owner[r] >= 0 and owner[r] != seat]
    return "".join(f"; {t}" for t in taken)


def _with_custom_tickets(
    board: Board, players: list, names: list[str], where: str, problems: list[str]
) -> tuple[Board, list[list[int]]]:
    """The board with the tickets given in full added after the map's, and each player's ticket
    numbers. A ticket given in full is a card of its own, named as the caller named it (``id`` or
    ``name``, else ``A-B``): two may share a name and are still two cards (their numbers differ).
    The board's ``ticket_index`` keeps naming the map's tickets only. A map ticket is one card:
    held twice, or by two players, it is refused."""
    extra: list[Ticket] = []
    ids: list[list[int]] = []
    held: dict[int, tuple[int, int]] = {}  # map ticket -> (seat, position in its list)
    for seat, entry in enumerate(players):
        mine: list[int] = []
        tickets = entry.get("tickets", []) if isinstance(entry, dict) else []
        if not isinstance(tickets, list):
            problems.append(f"{where}: $.players[{seat}].tickets: a list of tickets")
            tickets = []
        for i, t in enumerate(tickets):
            at = f"{where}: $.players[{seat}].tickets[{i}]"
            if isinstance(t, str):
                try:
                    ticket = board.find_ticket(t)
                except KeyError as exc:
                    problems.append(f"{at}: {exc.args[0]}")
                    continue
                if ticket.index in held:
                    s, j = held[ticket.index]
                    whose = "this player" if s == seat else f"seat {s} ({names[s]})"
                    problems.append(f"{at}: {ticket.id} is held by {whose} already (tickets[{j}]): "
                                    "each ticket card exists once")
                    continue
                held[ticket.index] = (seat, i)
                mine.append(ticket.index)
            elif isinstance(t, Mapping) and {"from", "to", "points"} <= set(t):
                ticket = _custom_ticket(board, t, len(board.tickets) + len(extra), at, problems)
                if ticket is not None:
                    extra.append(ticket)
                    mine.append(ticket.index)
            else:
                problems.append(f"{at}: a ticket id, or an object with from, to and points (and an id or name)")
        ids.append(mine)
    if extra:
        board = attrs.evolve(board, tickets=board.tickets + tuple(extra))
    return board, ids


def _custom_ticket(board: Board, t: Mapping, index: int, at: str, problems: list[str]) -> Ticket | None:
    found = len(problems)
    for key in sorted(set(t) - set(TICKET_KEYS), key=str):
        problems.append(f"{at}.{key}: unknown key (a ticket given in full has {', '.join(TICKET_KEYS)})")
    a, b, pts = t["from"], t["to"], t["points"]
    for key, city in (("from", a), ("to", b)):
        if not isinstance(city, str) or city not in board.city_index:
            problems.append(f"{at}.{key}: unknown city {city!r}")
    if isinstance(pts, bool) or not isinstance(pts, int):
        problems.append(f"{at}.points: an integer")
    label = [t[k] for k in ("id", "name") if k in t]
    for key in ("id", "name"):
        if key in t and (not isinstance(t[key], str) or not t[key].strip()):
            problems.append(f"{at}.{key}: a name for the ticket, a non-empty string")
    if len(set(map(repr, label))) > 1:
        problems.append(f"{at}: id {t['id']!r} and name {t['name']!r} differ: give one")
    if len(problems) > found:
        return None
    name = label[0] if label else f"{a}-{b}"
    return Ticket(index, name, a, b, board.city_index[a], board.city_index[b], pts, "short")


def position_of(game: Game) -> dict[str, Any]:
    """The position a game has reached, in the format ``score_position`` reads: what a rescoring
    under another variant or rules version starts from."""
    players = []
    for seat, p in enumerate(game.state.players):
        entry: dict[str, Any] = {
            "name": p.name,
            "routes": [game.board.routes[r].id for r in p.routes],
            "tickets": [_ticket_entry(game.board, t) for t in p.tickets],
            "resigned": p.resigned,
        }
        for answer in game.hook.ttr_dump_position(game=game, seat=seat):
            entry.update(answer or {})
        players.append(entry)
    return {"variant": game.ruleset.variant, "version": game.ruleset.version, "players": players}


def _ticket_entry(board: Board, index: int) -> str | dict[str, Any]:
    """A map ticket by its id; one given in full (not in the map's ``ticket_index``) in full again."""
    ticket = board.tickets[index]
    if board.ticket_index.get(ticket.id) == index:
        return ticket.id
    entry: dict[str, Any] = {"from": ticket.a, "to": ticket.b, "points": ticket.points}
    if ticket.id != f"{ticket.a}-{ticket.b}":
        entry["id"] = ticket.id
    return entry
