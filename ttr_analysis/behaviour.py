"""How the players played: the behaviour figures of a playtest, and their change between two rule sets.

A rule change matters to a designer through what players do about it: a bigger ticket-leader
bonus should make them draw and keep more tickets, a longest-route bonus build longer routes. Per
game, read from its replayed record (:class:`~ttr_analysis.playtest.GameFacts`):

* ``tickets_drawn``: tickets offered to a player (the starting offer and every draw), per player;
* ``tickets_kept``: tickets a player kept of them, per player;
* ``route_length``: the mean length (spaces) of the routes claimed in the game;
* ``stations``: stations built, per player;
* ``turns``: the game's length in turns.

Per player figures are averaged within each game first: the game is the unit of independence
(:mod:`ttr_analysis.stats`). Two rule sets played on the same seeds, with the same bots in the
same seats, are compared game by game (:func:`compare`): the difference is the mean of the
per-seed differences with its 95% interval, mean ± 1.96·sd/√n. The winner changes in a seed's game
when the winning seats differ.

**Games needed.** To see a difference ``d`` (its 95% interval excluding 0 in four runs out of
five), a paired comparison needs about ``n = (1.96 + 0.84)² · sd² / d²`` games, ``sd`` the
standard deviation of the per-seed differences (:func:`games_needed`); a share ``p`` is stated to
within ``± h`` by about ``n = 1.96² · p(1 − p) / h²`` games (:func:`games_for_width`).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from ttr_analysis import stats
from ttr_analysis.stats import games_for_width, games_needed
from ttr_core.board import Board

METHOD = (
    "Behaviour (the games as played under each rule set, same seeds and seats): per-seed differences, mean ± "
    "1.96·sd/√n; games needed to see a difference d (its interval excluding 0 in 4 runs of 5): "
    "n = (1.96 + 0.84)²·sd²/d², sd that of the per-seed differences; a share p is stated within ±h by "
    "n = 1.96²·p(1 − p)/h² games."
)
#: the behaviour figures, in the order the report shows them: key, what it is
FIGURES = (
    ("tickets_drawn", "tickets drawn per player"),
    ("tickets_kept", "tickets kept per player"),
    ("route_length", "mean length of the routes claimed (spaces)"),
    ("stations", "stations built per player"),
    ("turns", "game length (turns)"),
)


def per_game(g: Any, lengths: dict[str, int]) -> dict[str, float | None]:
    """The behaviour figures of one game (``GameFacts``); ``route_length`` is None when nobody claimed."""
    n = g.players
    claimed = [lengths[c.route] for c in g.claims]
    return {
        "tickets_drawn": sum(g.tickets_offered) / n,
        "tickets_kept": sum(g.tickets_kept) / n,
        "route_length": statistics.fmean(claimed) if claimed else None,
        "stations": sum(len(s) for s in g.stations) / n,
        "turns": float(g.turns),
    }


def route_lengths(board: Board) -> dict[str, int]:
    return {r.id: r.length for r in board.routes}


def _estimate(values: Sequence[float]) -> dict[str, Any]:
    e = stats.mean_ci(list(values))
    r = _round
    return {"mean": r(e.mean), "sd": r(e.sd), "n": e.n, "low": r(e.low), "high": r(e.high)}


def _round(x: float) -> float | None:
    return None if x is None or math.isnan(x) else round(x, 4)


def figures(games: Sequence[Any], board: Board) -> dict[str, Any]:
    """Each behaviour figure over ``games``: mean per game with its 95% interval."""
    lengths = route_lengths(board)
    rows = [per_game(g, lengths) for g in games]
    return {key: _estimate([r[key] for r in rows if r[key] is not None]) for key, _ in FIGURES}


def paired(a: Sequence[Any], b: Sequence[Any], value: Callable[[Any], float | None]) -> dict[str, Any] | None:
    """``value(y) − value(x)`` over the games ``x`` of ``a`` and ``y`` of ``b`` of the same seeds:
    mean, sd, n and 95% interval (None when no seed has both values)."""
    return _differences([(x.seed, value(x)) for x in a], [(y.seed, value(y)) for y in b])


def _differences(xs: Sequence[tuple[int, float | None]], ys: Sequence[tuple[int, float | None]]) -> dict[str, Any] | None:
    diffs = []
    for (sx, vx), (sy, vy) in zip(xs, ys, strict=True):
        if sx != sy:
            raise ValueError(f"games of seeds {sx} and {sy} compared: the runs must share their seeds")
        if vx is not None and vy is not None:
            diffs.append(vy - vx)
    return _estimate(diffs) if diffs else None


def winner_changes(a: Sequence[Any], b: Sequence[Any]) -> dict[str, Any]:
    """The seeds whose game has other winning seats under the second rule set, as a share."""
    changed = [x.seed for x, y in zip(a, b) if frozenset(x.winners) != frozenset(y.winners)]
    e = stats.proportion_ci(len(changed), len(a))
    return {"k": len(changed), "n": len(a), "mean": _round(e.mean), "low": _round(e.low), "high": _round(e.high),
            "seeds": changed[:20]}


def compare(a: Sequence[Any], b: Sequence[Any], board: Board) -> dict[str, Any]:
    """The behaviour of the games ``a`` (one rule set) and ``b`` (the other, same seeds), their
    per-seed differences (b − a) with the games each difference would need to be seen, and how
    often the winner changes."""
    lengths = route_lengths(board)
    rows_a = [(g.seed, per_game(g, lengths)) for g in a]
    rows_b = [(g.seed, per_game(g, lengths)) for g in b]
    diffs, needed = {}, {}
    for key, _ in FIGURES:
        d = _differences([(s, r[key]) for s, r in rows_a], [(s, r[key]) for s, r in rows_b])
        diffs[key] = d
        needed[key] = games_needed(d["sd"], d["mean"]) if d else None
    changes = winner_changes(a, b)
    return {
        "variant": figures(a, board),
        "against": figures(b, board),
        "differences": diffs,
        "games_needed": needed,
        "winner_changes": changes,
        "games_for_winner_change_within_5_points": games_for_width(changes["mean"] or 0.0, 0.05),
    }
