"""Does ``ttr simulate`` scale with workers? ``python -m bench.simulate_scaling``.

Plays the same seeded games with 1 worker (in this process) and with N worker processes
(``ProcessPoolExecutor``, default 2), alternating the runs a few times and keeping each one's
best, and prints games per second and the speed-up. The issue's target on a 2-core machine:
2 workers at least 1.7× the games per second of 1. Other work on the machine slows the parallel
run most, so the load average before and after each run is printed with it, and the CPU time
of both runs: their ratio is the cost of the worker processes whatever the load.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time

from ttr_analysis import simulate

TARGET = 1.7


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the pool's workers, once shut down)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed(spec: simulate.SimSpec, seeds: range, workers: int) -> tuple[float, float, list]:
    """Wall seconds, CPU seconds (all processes of the run) and the games."""
    t0, c0 = time.perf_counter(), _cpu()
    games = simulate.run(spec, seeds, workers)
    return time.perf_counter() - t0, _cpu() - c0, games


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="wor")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default="ticket")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3, help="alternate 1-worker and N-worker runs this many times")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    spec = simulate.SimSpec(args.variant, None, args.players, tuple(args.bots.split(",")))
    seeds = range(1, 1 + args.games)
    simulate.run(spec, range(1000, 1002), 1)  # warm up: imports and the variant cache
    best = {1: float("inf"), args.workers: float("inf")}
    runs = []
    results = {}
    cpu_seconds: dict[int, list[float]] = {}
    for r in range(args.rounds):
        for workers in (1, args.workers):
            load_before = os.getloadavg()[0]
            seconds, cpu, games = timed(spec, seeds, workers)
            cpu_seconds.setdefault(workers, []).append(cpu)
            runs.append({"round": r + 1, "workers": workers, "seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2),
                         "games_per_second": round(args.games / seconds, 2),
                         "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2)})
            best[workers] = min(best[workers], seconds)
            results.setdefault(workers, games)
    same = results[1] == results[args.workers]
    speedup = best[1] / best[args.workers]
    # the two runs of one round are next to each other in time, so under the same load: their
    # ratio is the fairer figure on a machine whose load moves between rounds
    per_round = [a["seconds"] / b["seconds"] for a, b in zip(runs[0::2], runs[1::2])]
    # What the workers cost beyond the games themselves (process start, pickling, scheduling), from
    # CPU time, which other load on the machine does not inflate the way it inflates wall time:
    # on an idle machine with enough cores, N workers would run at about N / overhead times 1.
    overhead = min(cpu_seconds[args.workers]) / min(cpu_seconds[1])
    report = {
        "variant": args.variant, "games": args.games, "players": args.players, "bots": args.bots,
        "cores": simulate.local_cores(), "runs": runs,
        "best_games_per_second": {str(w): round(args.games / s, 2) for w, s in best.items()},
        "speedup": round(speedup, 3), "speedup_per_round": [round(x, 2) for x in per_round],
        "load_average": [round(min(r["load_before"] for r in runs), 2), round(max(r["load_after"] for r in runs), 2)],
        "cpu_overhead": round(overhead, 3),
        "idle_machine_estimate": round(min(args.workers, args.workers / overhead), 3), "target": TARGET, "met": speedup >= TARGET, "same_games": same,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"ttr simulate scaling: {args.games} games of {args.variant}, {args.players} players, bots {args.bots}; "
              f"{report['cores']} cores")
        for run in runs:
            print(f"  round {run['round']}, {run['workers']} worker(s): {run['seconds']:7.2f} s, "
                  f"{run['games_per_second']:6.2f} games/s, {run['cpu_seconds']:.1f} CPU s "
                  f"(load average {run['load_before']:.2f} -> {run['load_after']:.2f})")
        print(f"best: 1 worker {report['best_games_per_second']['1']} games/s, {args.workers} workers "
              f"{report['best_games_per_second'][str(args.workers)]} games/s: speed-up {speedup:.2f}x "
              f"(target >= {TARGET}x: {'met' if report['met'] else 'NOT met'}); identical games: {same}")
        print(f"speed-up within each round (the same load): {', '.join(f'{x:.2f}x' for x in per_round)}; "
              f"load average {report['load_average'][0]:.2f} to {report['load_average'][1]:.2f} on {report['cores']} cores")
        print(f"CPU time of {args.workers} workers / 1 worker: {overhead:.3f} (the cost of the processes); "
              f"on an idle machine with {args.workers} free cores that allows about "
              f"{report['idle_machine_estimate']:.2f}x (CPU times are noisy under load too)")
    return 0 if report["met"] and same else 1


if __name__ == "__main__":
    sys.exit(main())
