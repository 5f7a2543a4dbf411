"""Summary statistics for simulated games: means with 95% confidence intervals, and run summaries.

Intervals use the normal approximation (mean ± 1.96 standard errors; Wilson's interval for
proportions): runs are hundreds to thousands of independent games, where it is accurate, and it
needs no random resampling, so a rerun prints the same numbers. The unit of independence is the
game: players of one game are not independent of each other (a bonus one player gets is one the
others do not), so per-player quantities are averaged within each game first.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs

from ttr_analysis.rescore import FIRST_LINES, TOTAL, line_names

Z95 = 1.959963984540054  # the two-sided 95% quantile of the standard normal


@attrs.frozen
class Estimate:
    """A mean with its sample standard deviation, count and 95% confidence interval."""

    mean: float
    sd: float
    n: int
    low: float
    high: float

    def as_dict(self, digits: int = 4) -> dict[str, Any]:
        return {k: round(v, digits) if isinstance(v, float) else v for k, v in attrs.asdict(self).items()}


def mean_ci(values: Sequence[float]) -> Estimate:
    """Mean ± 1.96·sd/√n. One value: sd 0 and the interval is the value itself."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, 0, math.nan, math.nan)
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n)
    return Estimate(mean, sd, n, mean - half, mean + half)


def proportion_ci(k: int, n: int) -> Estimate:
    """Wilson's 95% interval for ``k`` successes in ``n``: unlike mean ± 1.96·se it stays inside
    [0, 1] and does not collapse to a point when ``k`` is 0 or ``n``."""
    if n == 0:
        return Estimate(math.nan, math.nan, 0, math.nan, math.nan)
    p = k / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, math.sqrt(p * (1 - p)), n, max(0.0, centre - half), min(1.0, centre + half))


# --- a run's summary ---------------------------------------------------------------------------


def summarize(games: Sequence[Any]) -> dict[str, Any]:
    """The summary of a simulation run (``simulate.GameSummary`` items) as JSON data: scores per
    seat, game length, tickets, bonus frequencies, what decided the winner, why games ended."""
    n = len(games)
    if n == 0:
        return {"games": 0}
    seats = len(games[0].played.seats)
    per_seat = []
    for i in range(seats):
        totals = [g.played.seats[i].total for g in games]
        est = mean_ci(totals)
        wins = sum(1 for g in games if g.played.seats[i].name in g.played.winners)
        per_seat.append({
            "seat": i,
            "bot": games[0].bots[i],
            "score": est.as_dict(2),
            "min": min(totals),
            "max": max(totals),
            "wins": wins,
            "win_rate": round(wins / n, 4),
            "tickets_completed": round(statistics.fmean(g.played.seats[i].tickets_completed for g in games), 3),
            "tickets_failed": round(statistics.fmean(g.played.seats[i].tickets_failed for g in games), 3),
        })
    bonuses = sorted({b for g in games for b in g.played.bonus_names()})
    bonus_freq = {}
    for b in bonuses:
        holders = [sum(1 for s in g.played.seats if s.line(b) > 0) for g in games]
        bonus_freq[b] = {
            "games_with_it": round(sum(1 for h in holders if h) / n, 4),  # share of games where anyone got it
            "holders_per_game": round(statistics.fmean(holders), 4),
            "by_seat": [round(sum(1 for g in games if g.played.seats[i].line(b) > 0) / n, 4) for i in range(seats)],
        }
    decided = Counter(g.played.decided_by for g in games)
    ends = Counter(g.end_reason for g in games)
    return {
        "games": n,
        "variant": games[0].played.variant,
        "version": games[0].played.version,
        "players": seats,
        "seeds": [games[0].seed, games[-1].seed],
        "seats": per_seat,
        "turns": mean_ci([g.turns for g in games]).as_dict(2),
        "actions": mean_ci([g.actions for g in games]).as_dict(2),
        "tickets_completed_per_player": round(
            statistics.fmean(s.tickets_completed for g in games for s in g.played.seats), 3
        ),
        "bonuses": bonus_freq,
        "decided_by": {k: {"games": v, "share": round(v / n, 4)} for k, v in sorted(decided.items())},
        "end_reasons": dict(sorted(ends.items())),
    }


def line_deltas(pairs: Sequence[tuple[Any, Any]]) -> dict[str, dict[str, Any]]:
    """Per breakdown line, B − A over ``(scored A, scored B)`` pairs of the same games: the mean
    per player with its 95% interval (from per-game means, see the module docstring), the mean
    under A and B, and how many player-games the line changed for."""
    lines = line_names([s for pair in pairs for s in pair])
    out: dict[str, dict[str, Any]] = {}
    for line in lines:
        per_game = [
            statistics.fmean(sb.line(line) - sa.line(line) for sa, sb in zip(a.seats, b.seats)) for a, b in pairs
        ]
        changed = sum(1 for a, b in pairs for sa, sb in zip(a.seats, b.seats) if sa.line(line) != sb.line(line))
        out[line] = {
            "kind": "fixed" if line in (*FIRST_LINES, TOTAL) else "bonus",
            "mean_a": round(statistics.fmean(s.line(line) for a, _ in pairs for s in a.seats), 4),
            "mean_b": round(statistics.fmean(s.line(line) for _, b in pairs for s in b.seats), 4),
            "delta": mean_ci(per_game).as_dict(4),
            "player_games_changed": changed,
        }
    return out


# --- how many games an effect needs (80% power): one rule for every report ----------------------

#: the one-sided 80% quantile of the standard normal: an effect is seen in four runs of five
Z80 = 0.8416212335729143


def detectable_shift(half_width: float) -> float:
    """The smallest shift a run whose 95% interval has ``half_width`` finds distinguishable from
    none (the interval excluding 0) in 80% of runs: (1.96 + 0.84) standard errors."""
    return (Z95 + Z80) / Z95 * half_width


def games_needed(sd: float | None, effect: float | None) -> int | None:
    """Games for a paired difference ``effect`` to be seen (95% interval excluding 0, 80% of runs),
    ``sd`` that of the per-game differences; None without either."""
    if not sd or not effect:
        return None
    return math.ceil((Z95 + Z80) ** 2 * sd * sd / (effect * effect))


def games_for_width(p: float, half_width: float) -> int:
    """Games for a share near ``p`` to be stated within ``± half_width`` (Wilson's interval, nearly)."""
    p = min(max(p, 0.05), 0.95)  # near 0 or 1 the interval is narrower: this stays on the safe side
    return math.ceil(Z95**2 * p * (1 - p) / (half_width * half_width))
