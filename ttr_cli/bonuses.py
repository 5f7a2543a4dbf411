"""Which bonus lines a rule set can give, so that a score table keeps a column for each bonus even
in a game where nobody earned it (a ``0`` says "nobody got the ticket-leader bonus"; a missing
column would say "this rule set has none").

The engine names no bonus (the core stays rule-free) and a plugin's bonus lines are its own
business, so the rule set is asked the way a player would find out: a small end position is
scored under it, in which one player owns a route of each kind on the map (plain, tunnel, ferry)
and has completed a ticket along each, and another player has nothing. Every bonus that rewards
having the most of something (the longest path, the most tickets, ferries or tunnels), or goes to
everyone (unused stations), shows up there. A bonus that no such position earns is still shown
whenever a game gives it: a table's columns are what the probe finds plus what the game gave.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ttr_core.position import score_position
from ttr_core.variant import Ruleset


def probe_position(ruleset: Ruleset) -> dict[str, Any]:
    """The end position scored to find the bonus lines (see the module docstring)."""
    board = ruleset.board
    kinds = (lambda r: r.ferry > 0, lambda r: r.tunnel, lambda r: not r.tunnel and not r.ferry)
    chosen = []
    for kind in kinds:
        route = next((r for r in board.routes if kind(r) and all(r.index not in c.parallel for c in chosen)
                      and r not in chosen), None)
        if route is not None:
            chosen.append(route)
    players: list[dict[str, Any]] = [{
        "name": "probe-1",
        "routes": [r.id for r in chosen],
        "tickets": [{"from": r.a, "to": r.b, "points": 1} for r in chosen],
    }]
    players += [{"name": f"probe-{i + 1}"} for i in range(1, max(2, ruleset.players.min))]
    return {"variant": ruleset.variant, "version": ruleset.version, "players": players}


def possible_bonuses(ruleset: Ruleset) -> tuple[str, ...]:
    """The bonus lines the probe position earns under ``ruleset``, by name; nothing if the rule set
    cannot score it (then a table shows the bonuses its game gave, as before)."""
    try:
        game = score_position(probe_position(ruleset), "probe", ruleset.version, ruleset.path or ruleset.variant)
    except Exception:  # noqa: BLE001 - a probe that fails only loses the columns nobody earned
        return ()
    if game.result is None:
        return ()
    return tuple(sorted({b.name for s in game.result.scores for b in s.bonuses}))


def bonus_columns(ruleset: Ruleset, given: Iterable[str]) -> list[str]:
    """The bonus columns of a score table: every bonus the rule set can give, and any the game gave."""
    return sorted({*possible_bonuses(ruleset), *given})
