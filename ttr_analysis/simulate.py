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

**Stopping.** A failed game or Ctrl-C stops the run at once: the tasks not started are cancelled
and the local worker processes are ended, not waited for (they ignore Ctrl-C themselves, so that
a terminal's interrupt reaches only this process, which then ends them). The games finished
before are already with the caller (``on_games``) and in the cache.

**Games played before.** With a :class:`~ttr_analysis.game_cache.GameCache`, a run plays only
the seeds it has not played before under the same key (variant, rules, players, bots, engine);
the others are read from the cache in this process and scored under ``SimSpec.rescore`` from
their stored position, and their summaries say ``reused``. Workers never touch the cache.

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
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import attrs

from ttr_core import record, variant
from ttr_analysis import settings as settings_mod
from ttr_analysis.settings import Setting
from ttr_analysis.game_cache import GameCache, KeptGame, PlayedGame, RunKey
from ttr_analysis.rescore import Scored, Target, rescore_position, scored_of
from ttr_bots import bot_classes, play_game
from ttr_core.errors import TTRError
from ttr_core.game import Game
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
    keep: bool = False  # return what each game leaves for a ``GameCache`` too (``run`` sets it)
    settings: tuple[Setting, ...] = ()  # parameters set on the variant (``--set``: :mod:`ttr_analysis.settings`)

    def ruleset(self) -> variant.Ruleset:
        return settings_mod.load(self.variant, self.version, self.settings)


@attrs.frozen
class GameSummary(PlayedGame):
    """What a run keeps of one game."""

    rescored: tuple[Scored, ...] = ()  # under ``SimSpec.rescore``, in that order
    record: str | None = None  # the canonical record text (``SimSpec.records``)
    #: read from a ``GameCache`` instead of played (not part of what the game is: not compared)
    reused: bool = attrs.field(default=False, eq=False)
    #: what the game leaves for a ``GameCache`` (``SimSpec.keep``), on its way back from a worker
    kept: KeptGame | None = attrs.field(default=None, eq=False, repr=False)


def local_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def check_spec(spec: SimSpec) -> None:
    """Fail early, in the caller's process, on what every game would fail on."""
    ruleset = spec.ruleset()
    lo, hi = ruleset.players.min, ruleset.players.max
    if not lo <= spec.players <= hi:
        raise TTRError(f"variant {ruleset.variant!r} takes {lo} to {hi} players, not {spec.players}")
    bot_classes(spec.bots)
    for target in spec.rescore:
        target.ruleset()


def play_one(spec: SimSpec, seed: int) -> GameSummary:
    game = play_game(spec.ruleset(), spec.players, seed, spec.bots)
    return with_kept(spec, game) if spec.keep else summary_of(spec, game)


def summary_of(spec: SimSpec, game: Game, rescored: tuple[Scored, ...] | None = None) -> GameSummary:
    if rescored is None and spec.rescore:
        position = position_of(game)
        rescored = tuple(rescore_position(position, t, f"seed {game.seed}") for t in spec.rescore)
    return GameSummary(
        seed=game.seed,
        bots=seat_bots(spec),
        turns=game.turn,
        actions=len(game.log),
        end_reason=game.end_reason,
        played=scored_of(game),
        rescored=rescored or (),
        record=record.dumps(record.make_record(game)) if spec.records else None,
    )


def seat_bots(spec: SimSpec) -> tuple[str, ...]:
    return tuple(spec.bots[i % len(spec.bots)] for i in range(spec.players))


def play_chunk(spec: SimSpec, seeds: Sequence[int]) -> list[GameSummary]:
    """One task: a few games, in one worker. Module-level, so that pools and Dask can pickle it."""
    return [play_one(spec, s) for s in seeds]


def with_kept(spec: SimSpec, game: Game) -> GameSummary:
    """The summary of ``game`` with what it leaves for a cache: its position, record, and its
    position scored under its own rules (the self-check of ``compare``, reused when it asks)."""
    position = position_of(game)
    own = Target(spec.variant, game.ruleset.version, spec.settings)
    rescored = tuple(rescore_position(position, t, f"seed {game.seed}") for t in spec.rescore)
    self_scored = next((r for t, r in zip(spec.rescore, rescored) if t.resolved() == own), None)
    if self_scored is None:
        try:
            self_scored = rescore_position(position, own, f"seed {game.seed}")
        except TTRError:  # kept as unknown: a run that asks for it will fail as a fresh one would
            self_scored = None
    summary = summary_of(spec, game, rescored)
    text = summary.record or record.dumps(record.make_record(game))
    kept = KeptGame(**summary.played_fields(), self_scored=self_scored, position=position, record=text)
    return attrs.evolve(summary, kept=kept)


def summary_of_kept(spec: SimSpec, kept: KeptGame, own: Target) -> GameSummary:
    """The summary of a game read from the cache: only the other rule sets score it anew."""
    rescored = tuple(
        kept.self_scored if t.resolved() == own and kept.self_scored is not None
        else rescore_position(kept.position, t, f"seed {kept.seed}")
        for t in spec.rescore
    )
    return GameSummary(**kept.played_fields(), rescored=rescored, record=kept.record if spec.records else None,
                       reused=True)


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
        pool = cf.ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
        try:
            yield pool
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
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


def _ignore_interrupts() -> None:
    # A worker process: Ctrl-C in a terminal reaches the whole process group; the run's own
    # process decides what an interrupt does (it ends the workers), so a worker does not die
    # with a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_now(pool: cf.Executor | None, futures: list[cf.Future]) -> None:
    """Stop a run's tasks now: a local pool's workers are ended (the pool then fails the tasks
    they had not done); a Dask executor's tasks are cancelled."""
    if isinstance(pool, cf.ProcessPoolExecutor):
        # Not cancelled as well: Python 3.11's pool, once broken, sets an exception on every
        # pending future, and one cancelled meanwhile kills its manager thread with a traceback
        # on stderr (CPython gh-107219, fixed in 3.12).
        _end_workers(pool)
        return
    for f in futures:
        f.cancel()


def _end_workers(pool: cf.ProcessPoolExecutor) -> None:
    """End the pool's processes now, instead of waiting for the tasks they are running."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()
    # A worker ended while it was sending its results leaves half a message in the pool's result
    # pipe, which the pool's reader would wait for forever (and the shutdown with it). With this
    # process's own copy of the pipe's writing end closed, the ended workers' copies were the last:
    # the reader sees the pipe's end, takes the pool for broken, and the shutdown completes.
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        writer.close()


def run(
    spec: SimSpec,
    seeds: Sequence[int],
    workers: int = 1,
    scheduler: str | None = None,
    on_progress: Callable[[int], None] | None = None,
    local_processes: bool = True,
    cache: GameCache | None = None,
    on_cache_problem: Callable[[str], None] | None = None,
    on_games: Callable[[list[GameSummary]], None] | None = None,
) -> list[GameSummary]:
    """Play a game for every seed; the summaries in seed order. ``on_progress(n)`` is called as
    each task finishes, with the number of games it held; ``on_games(summaries)`` with those
    games, as they finish (in no set order: a caller saving them saves each game once it is done,
    so that an interrupted run keeps them).

    With ``cache``, seeds played before under the same key are read from it instead (their
    summaries say ``reused``), and the games played are added to it; an entry that cannot be
    written is reported once to ``on_cache_problem`` and the run goes on."""
    check_spec(spec)
    seeds = list(seeds)
    kept: list[KeptGame] = []
    key = None
    if cache is not None:
        ruleset = spec.ruleset()
        key = RunKey.of(ruleset, spec.players, spec.bots)
        kept = [k for k in (cache.get(key, s) for s in seeds) if k is not None]
        reused = {k.seed for k in kept}
        seeds = [s for s in seeds if s not in reused]
    out: list[GameSummary] = []
    writer = _CacheWriter(cache, key, on_cache_problem)
    tasks = chunked(seeds, max(1, workers))
    task_spec = spec if cache is None else attrs.evolve(spec, keep=True)
    with executor_for(workers if tasks else 1, scheduler if tasks else None, local_processes) as pool:
        futures: list[cf.Future] = []
        try:
            if pool is not None:
                futures += (pool.submit(play_chunk, task_spec, task) for task in tasks)
            if kept:
                own = Target(spec.variant, kept[0].played.version, spec.settings)
                reused = [summary_of_kept(spec, k, own) for k in kept]
                out += reused
                _tell(reused, on_progress, on_games)
            # in this process, game by game: an interrupt loses only the game being played
            done_tasks = ([play_one(task_spec, s)] for t in tasks for s in t) if pool is None \
                else (f.result() for f in cf.as_completed(futures))
            for games in done_tasks:
                games = writer.take(games)
                out += games
                _tell(games, on_progress, on_games)
        except BaseException:
            _stop_now(pool, futures)  # a failed game (or Ctrl-C) stops the run now, not after every task
            raise
    return sorted(out, key=lambda g: g.seed)


def _tell(games: list[GameSummary], on_progress, on_games) -> None:
    if on_progress:
        on_progress(len(games))
    if on_games:
        on_games(games)


class _CacheWriter:
    """Keeps the games a run plays, and strips what the caller did not ask for."""

    def __init__(self, cache: GameCache | None, key: RunKey | None, on_problem: Callable[[str], None] | None):
        self.cache, self.key, self.on_problem = cache, key, on_problem
        self.problem: str | None = None

    def take(self, games: list[GameSummary]) -> list[GameSummary]:
        if self.cache is None or self.key is None:
            return games
        for g in games:
            if g.kept is not None and self.problem is None:
                self.problem = self.cache.put(self.key, g.kept)
                if self.problem and self.on_problem:
                    self.on_problem(self.problem)  # once: the other games would fail the same way
        return [attrs.evolve(g, kept=None) for g in games]
