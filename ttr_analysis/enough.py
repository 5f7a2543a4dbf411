"""Enough games: ``--until W`` adds games until the winner-change interval is narrower than ``W``.

A report is made with the games asked (``--games``), then, while the widest winner-change interval
of the report (every player count; every value of a sweep) is ``W`` or wider, with more: the
number that interval's width says is needed (a 95% interval narrows as 1/√n, so ``n · (width/W)²``),
at least half again as many, at most ``cap``. Each round plays the same seeds from the first
on, so the games of the rounds before are read from the played-games cache, not played again;
``--until`` therefore needs the cache. The last round's report says how many rounds it took and
whether the cap stopped it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import attrs

from ttr_core.errors import TTRError

#: at most this many games per player count (and per value), unless ``--until-cap`` says otherwise
DEFAULT_CAP = 2000


@attrs.frozen
class Until:
    width: float  # the winner-change interval is wanted narrower than this (a share: 0.1 is 10 points)
    cap: int = DEFAULT_CAP

    def __attrs_post_init__(self) -> None:
        if not 0 < self.width < 1:
            raise TTRError(f"--until {self.width}: the width of an interval of shares, between 0 and 1 (0.1: 10 points)")
        if self.cap < 1:
            raise TTRError(f"--until-cap {self.cap}: at least 1 game")


def next_games(games: int, widest: float, until: Until) -> int | None:
    """How many games the next round plays, or None when ``widest`` is narrow enough or the cap is reached."""
    if widest < until.width or games >= until.cap:
        return None
    wanted = math.ceil(games * (widest / until.width) ** 2)
    return min(until.cap, max(wanted, math.ceil(games * 1.5), games + 1))


def grow(
    run: Callable[[int], tuple[dict[str, Any], Any]], widths: Callable[[dict[str, Any]], list[float]],
    games: int, until: Until,
) -> tuple[dict[str, Any], Any]:
    """Run with ``games``, then with more until the widest of ``widths(report)`` is below the
    wanted width or the cap is reached; the last round's report, with an ``until`` entry."""
    rounds = []
    while True:
        report, extra = run(games)
        widest = max(widths(report), default=0.0)
        rounds.append({"games": games, "widest": round(widest, 4)})
        more = next_games(games, widest, until)
        if more is None:
            break
        games = more
    report["until"] = {"width": until.width, "cap": until.cap, "rounds": rounds,
                       "reached": rounds[-1]["widest"] < until.width}
    return report, extra
