"""Parameter sweeps: one parameter tried at several values, each against the rule set as it is.

``ttr playtest --variant wor --sweep ticket-leader.points=0,5,10,15,20`` answers "5, 10 or 15
points?" in one run. The base is the variant as given (with its ``--set`` settings); each value is
the base with the swept parameter set to it (:mod:`ttr_analysis.settings`, checked for every value
before any game is played). Per player count and value (:func:`sweep`):

* ``winner_changes``: the share of seeds whose winning seats differ from the base's;
* ``score_spread``: the highest total of a game minus its lowest, mean per game;
* ``seat1_win_rate``: how often the first seat wins (an even game: 1/players);
* ``behaviour``: the figures of :mod:`ttr_analysis.behaviour` (tickets drawn and kept, route
  length, stations, turns).

Two modes, as for ``--against`` (:data:`~ttr_analysis.playtest.PLAY`, the default of sweeps, and
:data:`~ttr_analysis.playtest.RESCORE`): ``play`` plays each value's games with the same seeds and
seats as the base's, by bots that play to the rules in force, so the winner changes both by the
scoring and by how the players play; ``rescore`` plays the base's games once and scores them under
each value, which isolates the scoring (the behaviour is then the base's at every value). Every
figure has its 95% interval (Wilson's for shares, mean ± 1.96·sd/√n for means), and every figure
comes from the replayed records, as the rest of a playtest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ttr_analysis import behaviour
from ttr_analysis import playtest as pt
from ttr_analysis.game_cache import GameCache
from ttr_analysis.rescore import Scored, Target
from ttr_analysis.settings import Setting
from ttr_core.board import Board
from ttr_core.errors import TTRError

METHOD = (
    "Each value is the base rule set with the swept parameter set to it, played on the same seeds with the same "
    "bots in the same seats (--play), or the base's games scored under it (--rescore). Winner changes: seeds whose "
    "winning seats differ from the base's, Wilson's 95% interval; score spread: highest minus lowest total, mean "
    "per game ± 1.96·sd/√n; seat 1 win rate: Wilson's interval; behaviour: means per game ± 1.96·sd/√n."
)


@attrs.frozen
class Sweep:
    """``plugin.name=v1,v2,...``: a parameter and the values to try, as written."""

    plugin: str
    name: str
    values: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> Sweep:
        first = Setting.parse(text, "--sweep")  # the PLUGIN.PARAMETER=... shape
        values = tuple(v.strip() for v in split_values(first.text))
        if any(not v for v in values):
            raise TTRError(f"--sweep {text!r}: a value is empty (two commas in a row, or one at an end)")
        if len(set(values)) != len(values):
            raise TTRError(f"--sweep {text!r}: a value is given twice")
        return cls(first.plugin, first.name, values)

    @property
    def parameter(self) -> str:
        return f"{self.plugin}.{self.name}"

    def setting(self, value: str) -> Setting:
        return Setting(self.plugin, self.name, value)

    def targets(self, base: Target) -> list[Target]:
        return [base.with_settings((self.setting(v),)) for v in self.values]


def split_values(text: str) -> list[str]:
    """The values of a sweep: split at the commas outside TOML tables, arrays and strings, so that
    ``ticket-deal.draw={deal={any=4},keep={any=1}},{...}`` gives two tables."""
    parts, depth, quote, start = [], 0, "", 0
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote and text[i - 1] != "\\" else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return [*parts, text[start:]]


def check_sweep(plan: pt.Plan, sweep: Sweep) -> tuple[Board, Target, list[Target]]:
    """Every refusal before the first game: the plan's (:func:`~ttr_analysis.playtest.check_plan`)
    and each value's, located (``--sweep ticket-leader.points=abc: ...``)."""
    if plan.against is not None:
        raise TTRError("--sweep compares each value with the variant itself: drop --against")
    board, base, _ = pt.check_plan(plan)
    targets = sweep.targets(base)
    for value, target in zip(sweep.values, targets):
        try:
            target.ruleset()
        except TTRError as exc:
            raise TTRError(f"--sweep {sweep.parameter}={value}: {str(exc).partition(': ')[2] or exc}") from None
    return board, base, targets


# --- one value's figures -------------------------------------------------------------------------


@attrs.frozen
class Outcome:
    """What a value's figures need of one game: its seed, totals and winning seats."""

    seed: int
    totals: tuple[int, ...]
    winners: frozenset[int]


def played(g: pt.GameFacts) -> Outcome:
    return Outcome(g.seed, g.totals, frozenset(g.winners))


def scored(g: pt.GameFacts, s: Scored) -> Outcome:
    names = [seat.name for seat in s.seats]
    return Outcome(g.seed, tuple(seat.total for seat in s.seats), frozenset(names.index(w) for w in s.winners))


def value_figures(base: Sequence[Outcome], mine: Sequence[Outcome]) -> dict[str, Any]:
    n = len(mine)
    changed = [b.seed for b, m in zip(base, mine, strict=True) if b.winners != m.winners]
    return {
        "winner_changes": {**pt.share(len(changed), n), "seeds": changed[:20]},
        "score_spread": pt.average([max(m.totals) - min(m.totals) for m in mine]),
        "seat1_win_rate": pt.share(sum(1 for m in mine if 0 in m.winners), n),
    }


# --- the sweep -----------------------------------------------------------------------------------


def sweep(
    plan: pt.Plan, sw: Sweep, workers: int = 1, scheduler: str | None = None,
    on_progress: Callable[[int], None] | None = None, cache: GameCache | None = None,
    on_cache_problem: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Play (or rescore) every value of ``sw`` for every player count of ``plan``: the report (JSON data)."""
    board, base, targets = check_sweep(plan, sw)

    def facts(target: Target, p: int, rescore: Sequence[Target] = ()) -> list[pt.GameFacts]:
        games = pt.play_games(target, p, plan.bots, plan.seeds, workers, scheduler, on_progress, cache, on_cache_problem)
        rules = target.ruleset()
        return [pt.game_facts(g, rescore, rules) for g in games]

    counts = {}
    for p in plan.players:
        if plan.mode == pt.PLAY:
            base_games = facts(base, p)
            per_value = [facts(t, p) for t in targets]
            outcomes = [[played(g) for g in games] for games in per_value]
        else:
            base_games = facts(base, p, targets)
            per_value = [base_games] * len(targets)
            outcomes = [[scored(g, g.rescored[i]) for g in base_games] for i in range(len(targets))]
        base_outcomes = [played(g) for g in base_games]
        counts[str(p)] = {
            "players": p,
            "base": {**value_figures(base_outcomes, base_outcomes), "behaviour": behaviour.figures(base_games, board)},
            "values": [
                {"value": v, "rules": str(t), **value_figures(base_outcomes, o), "behaviour": behaviour.figures(games, board)}
                for v, t, o, games in zip(sw.values, targets, outcomes, per_value)
            ],
        }
    return {
        "format": "ttr-sweep/1",
        "variant": str(base),
        "parameter": sw.parameter,
        "values": list(sw.values),
        **pt.plan_fields(plan, board),
        "counts": counts,
        "method": METHOD,
    }


def games_played(report: dict[str, Any]) -> int:
    """The games a sweep report stands on: the base's, and each value's in ``play`` mode."""
    per_count = 1 + (len(report["values"]) if report["mode"] == pt.PLAY else 0)
    return report["games"] * len(report["players"]) * per_count


def winner_change_widths(report: dict[str, Any]) -> list[float]:
    """The width of every value's winner-change interval (what ``--until`` narrows)."""
    return [v["winner_changes"]["high"] - v["winner_changes"]["low"]
            for c in report["counts"].values() for v in c["values"]]
