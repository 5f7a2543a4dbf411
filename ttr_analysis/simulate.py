"""Seeded bot games in bulk: on this machine's cores, or on a Dask cluster.

Game ``i`` of a run uses seed ``S + i``, and its bots are seeded from that seed and their seat, so
every game is reproducible on its own and a run gives the same games whatever the number of
workers or where they run; results are put back in seed order.

**Where the games run.** Games are independent CPU-bound tasks, sent in chunks (several games
per task) so that the cost of shipping a task and its results stays small beside the games:

* one worker: in this process, no pool at all;
* ``workers > 1``: a ``concurrent.futures.ProcessPoolExecutor`` on the local cores;
* ``scheduler="local"`` or ``"tcp://host:port"``: Dask distributed, a ``LocalCluster`` this
  module starts itself, or a running cluster's scheduler (its workers need the same ttr-engine
  installed: tasks name ``play_chunk`` by module, and the games are played there).

Why Dask rather than Ray for runs that outgrow one machine: ``distributed`` is pure Python and
small (a scheduler and workers speaking over TCP, installed with pip, nothing to compile and no
object store to size); its ``LocalCluster`` starts in-process, which is how the tests exercise the
distributed path without any infrastructure; and ``Client.get_executor()`` is a
``concurrent.futures.Executor``, so the same submit/``as_completed`` code drives both the local
process pool and a cluster. Ray would bring its own runtime and a much larger dependency for the
same map-over-seeds workload. A home-made scheduler would have to reinvent worker discovery,
retries and result transport that both already provide.
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import attrs

from ttr_core import record, variant
from ttr_analysis.rescore import Scored, Target, rescore_position, scored_of
from ttr_bots import bot_classes, play_game
from ttr_core.errors import TTRError
from ttr_core.position import position_of

#: Games per task at most: small enough for a smooth progress bar and an even finish, large
#: enough that a task's overhead (pickling, scheduling: about a millisecond) is noise beside
#: its games (tens to hundreds of milliseconds each).
MAX_CHUNK = 25


@attrs.frozen
class SimSpec:
    """What to simulate; the same for every game of a run, sent to every worker."""

    variant: str
    version: int | None
    players: int
    bots: tuple[str, ...]
    rescore: tuple[Target, ...] = ()  # also score each finished game under these (compare)
    records: bool = False  # return each game's record text


@attrs.frozen
class GameSummary:
    """What a run keeps of one game."""

    seed: int
    bots: tuple[str, ...]  # per seat
    turns: int
    actions: int
    end_reason: str
    played: Scored  # as the game's own rules scored it
    rescored: tuple[Scored, ...] = ()  # under ``SimSpec.rescore``, in that order
    record: str | None = None  # the canonical record text (``SimSpec.records``)


def local_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def check_spec(spec: SimSpec) -> None:
    """Fail early, in the caller's process, on what every game would fail on."""
    ruleset = variant.load(spec.variant, spec.version)
    lo, hi = ruleset.players.min, ruleset.players.max
    if not lo <= spec.players <= hi:
        raise TTRError(f"variant {ruleset.variant!r} takes {lo} to {hi} players, not {spec.players}")
    bot_classes(spec.bots)
    for target in spec.rescore:
        variant.load(target.variant, target.version)


def play_one(spec: SimSpec, seed: int) -> GameSummary:
    ruleset = variant.load(spec.variant, spec.version)
    game = play_game(ruleset, spec.players, seed, spec.bots)
    rescored: tuple[Scored, ...] = ()
    if spec.rescore:
        position = position_of(game)
        rescored = tuple(rescore_position(position, t, f"seed {seed}") for t in spec.rescore)
    return GameSummary(
        seed=seed,
        bots=tuple(spec.bots[i % len(spec.bots)] for i in range(spec.players)),
        turns=game.state.turn,
        actions=len(game.log),
        end_reason=game.state.end_reason,
        played=scored_of(game),
        rescored=rescored,
        record=record.dumps(record.make_record(game)) if spec.records else None,
    )


def play_chunk(spec: SimSpec, seeds: Sequence[int]) -> list[GameSummary]:
    """One task: a few games, in one worker. Module-level, so that pools and Dask can pickle it."""
    return [play_one(spec, s) for s in seeds]


def chunked(seeds: Sequence[int], workers: int) -> list[list[int]]:
    """Split into tasks: about 16 per worker (an even finish), at most ``MAX_CHUNK`` games each."""
    size = max(1, min(MAX_CHUNK, math.ceil(len(seeds) / (workers * 16))))
    return [list(seeds[i : i + size]) for i in range(0, len(seeds), size)]


@contextmanager
def executor_for(workers: int, scheduler: str | None, local_processes: bool = True) -> Iterator[cf.Executor | None]:
    """The executor that runs the tasks; None means: in this process."""
    if scheduler is None:
        if workers <= 1:
            yield None
            return
        with cf.ProcessPoolExecutor(max_workers=workers) as pool:
            yield pool
        return
    from distributed import Client, LocalCluster  # imported only for runs that ask for Dask

    if scheduler == "local":
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=local_processes,
            dashboard_address=None, silence_logs=40,
        )
        try:
            with Client(cluster) as client:
                yield client.get_executor()
        finally:
            cluster.close()
        return
    with Client(scheduler) as client:
        yield client.get_executor()


def run(
    spec: SimSpec,
    seeds: Sequence[int],
    workers: int = 1,
    scheduler: str | None = None,
    on_progress: Callable[[int], None] | None = None,
    local_processes: bool = True,
) -> list[GameSummary]:
    """Play a game for every seed; the summaries in seed order. ``on_progress(n)`` is called as
    each task finishes, with the number of games it held."""
    check_spec(spec)
    tasks = chunked(list(seeds), max(1, workers))
    out: list[GameSummary] = []
    with executor_for(workers, scheduler, local_processes) as pool:
        if pool is None:
            for task in tasks:
                out += play_chunk(spec, task)
                if on_progress:
                    on_progress(len(task))
        else:
            futures = [pool.submit(play_chunk, spec, task) for task in tasks]
            try:
                for done in cf.as_completed(futures):
                    games = done.result()
                    out += games
                    if on_progress:
                        on_progress(len(games))
            except BaseException:
                for f in futures:  # a failed game (or Ctrl-C) stops the run now, not after every task
                    f.cancel()
                raise
    return sorted(out, key=lambda g: g.seed)
