"""The soak run: thousands of seeded bot games across every variant, each checked as it is played.

Game ``k`` of the plan is fully determined by ``k``: the variant (``available()`` in turn), the
player count (cycling over the variant's range), the seed (``k``) and the bots (every bot of
``ttr_bots.names()``, mixed over the seats; bots that search play one game in ten, with their
smallest budget). After every action the invariants must hold
(``testing.invariant_problems``); after every game: a result with winners among the active seats,
no view leaking (``testing.view_leaks``), and the record must replay, through its JSON text, to
the same bytes.

* ``test_soak_slice`` (default run, CI): the first 500 games of the plan, with the same checks
  (measured 2026-12-04: about 0.1 CPU-seconds a game, some 25 s on two cores).
* ``test_soak_full`` (``-m soak``): the first 10,000 games, over ``TTR_SOAK_WORKERS`` processes
  (default: every core). Run it with ``python -m pytest -m soak -p no:cacheprovider tests/soak``.

Both print a one-line summary at the end of the session.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import pytest

from ttr_core import record, variant
from ttr_kit import testing
from ttr_bots import bot_classes, local_bots, names as bot_names, play_game
from ttr_bots.search_bot import SearchBot

SLICE = 500
FULL = 10_000


def _smallest_budgets() -> dict[str, tuple[str, type]]:
    """By installed bot that searches (every ``SearchBot``: ``search``, ``search-quick``), the
    name and class it plays under here: one play-out a decision. A soak checks the rules under
    every kind of player, not the search's strength, and a search budget makes one game cost
    seconds (``tests/apps/bots/test_search_bot.py`` plays the default budget in every variant)."""
    names = bot_names()
    return {name: (f"{name}-soak", cls.with_budget(iterations=1))
            for name, cls in zip(names, bot_classes(names)) if issubclass(cls, SearchBot)}


SMALLEST_BUDGET = _smallest_budgets()
#: Bots that search sit in one game of this many (every bot in turn), the others mixing the other bots.
SEARCHING_EVERY = 10


def plan(k: int) -> tuple[str, int, int, tuple[str, ...]]:
    """Game ``k``: (variant id, players, seed, bots by seat)."""
    variants = sorted(variant.available())
    vid = variants[k % len(variants)]
    rs = variant.load(vid)
    lo, hi = rs.players.min, rs.players.max
    players = lo + (k // len(variants)) % (hi - lo + 1)
    names = bot_names()
    if k % SEARCHING_EVERY:  # most games: the bots that do not search, which play in milliseconds
        names = [n for n in names if n not in SMALLEST_BUDGET]
    bots = tuple(names[(k + seat) % len(names)] for seat in range(players))
    return vid, players, k, bots


def play_one(k: int) -> dict:
    """Play and check game ``k``; return its numbers, or its failure."""
    vid, players, seed, bots = plan(k)
    where = f"game {k} ({vid}, {players} players, seed {seed}, bots {','.join(bots)})"
    actions = 0

    def check(game, seat, action):
        nonlocal actions
        actions += 1
        problems = testing.invariant_problems(game)
        if problems:
            raise AssertionError(f"after action {len(game.log)} ({action.kind} by seat {seat}): {'; '.join(problems)}")

    playing = tuple(SMALLEST_BUDGET[b][0] if b in SMALLEST_BUDGET else b for b in bots)
    try:
        with local_bots(dict(SMALLEST_BUDGET.values())):
            game = play_game(variant.load(vid), players, seed, playing, on_action=check)
        assert game.over and game.result is not None, "the game did not end"
        winners = set(game.result.winners.seats)
        active = set(game.active_seats()) or set(range(players))
        assert winners and winners <= active | set(range(players)), f"winners {winners}"
        leaks = [p for s in (None, *range(players)) for p in testing.view_leaks(game, s, tries=1)]
        assert not leaks, "; ".join(leaks)
        text = record.dumps(record.make_record(game))
        again = record.dumps(record.make_record(record.replay(json.loads(text), where)))
        assert again == text, "the record does not replay to the same bytes"
    except Exception as exc:  # noqa: BLE001 - every failure is reported with its game, then all at once
        return {"k": k, "variant": vid, "failure": f"{where}: {type(exc).__name__}: {exc}"}
    return {"k": k, "variant": vid, "actions": actions, "turns": game.state.turn, "reason": _reason(game)}


def _reason(game) -> str:
    reason = game.result.reason
    return reason.split(":")[0].split("(")[0].strip()


def run(games: int, workers: int = 1) -> tuple[str, list[str]]:
    """Play games 0..games-1 of the plan; return the summary line and the failures."""
    started = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(play_one, range(games), chunksize=25))
    else:
        results = [play_one(k) for k in range(games)]
    seconds = time.perf_counter() - started
    failures = [r["failure"] for r in results if "failure" in r]
    ok = [r for r in results if "failure" not in r]
    per_variant = Counter(r["variant"] for r in results)
    reasons = Counter(r["reason"] for r in ok)
    actions = sum(r["actions"] for r in ok)
    longest = max((r["actions"] for r in ok), default=0)
    line = (
        f"soak: {games} games ({', '.join(f'{v} {n}' for v, n in sorted(per_variant.items()))}; bots {', '.join(bot_names())}), "
        f"{actions} actions (longest game {longest}), invariants after every action, "
        f"{len(ok)} records replayed byte-identical, {len(failures)} failures; "
        f"ended by: {', '.join(f'{r} {n}' for r, n in reasons.most_common())}; {seconds:.0f} s on {workers} process(es)"
    )
    return line, failures


def _report(games: int, workers: int, summary_line) -> None:
    line, failures = run(games, workers)
    summary_line(line)
    print(line)
    assert not failures, f"{len(failures)} of {games} games failed:\n" + "\n".join(failures[:20])


def test_soak_slice(summary_line):
    """The CI slice: the first 500 games of the soak plan, with the same checks (on two processes,
    so that the run's longest test does not hold up the end of a run spread over CI's two cores)."""
    _report(SLICE, min(2, os.cpu_count() or 1), summary_line)


@pytest.mark.soak
def test_soak_full(summary_line):
    workers = int(os.environ.get("TTR_SOAK_WORKERS", os.cpu_count() or 1))
    _report(int(os.environ.get("TTR_SOAK_GAMES", FULL)), workers, summary_line)


def test_the_plan_covers_every_variant_player_count_and_bot():
    """Not a soak: the plan itself, so that a slice really mixes what the full run mixes."""
    seen = {plan(k)[:2] for k in range(SLICE)}
    for vid in variant.available():
        rs = variant.load(vid)
        assert {(vid, n) for n in range(rs.players.min, rs.players.max + 1)} <= seen
    assert {b for k in range(SLICE) for b in plan(k)[3]} == set(bot_names())
    assert plan(123) == plan(123)
