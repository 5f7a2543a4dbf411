"""How strong is the ticket bot? ``python -m bench.bot_strength`` (``--games 500`` per variant).

For every installed variant: seeded games of 1 ticket bot against random bots (4 players, or the
nearest count the variant allows), the ticket bot's seat rotating from game to game so that no
seat order favours it. Prints its win rate (shared wins counted as wins, and how many were
shared) with a 95% interval, its mean score against the random bots', and its tickets.
The issue's target: a win rate above 90% for every variant.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

from rich.console import Console
from rich.table import Table

from ttr_core import variant
from ttr_analysis import simulate, stats
from ttr_analysis.compare import default_players
from ttr_analysis.rescore import Target
from ttr_core.errors import TTRError

TARGET = 0.90


def measure(variant_id: str, games: int, seed: int, workers: int) -> dict:
    players = default_players(Target(variant_id))
    played = []
    for k in range(players):  # the ticket bot in seat k for the games i with i % players == k
        bots = tuple("ticket" if i == k else "random" for i in range(players))
        spec = simulate.SimSpec(variant_id, None, players, bots)
        seeds = [seed + i for i in range(games) if i % players == k]
        played += [(k, g) for g in simulate.run(spec, seeds, workers)]
    wins = shared = 0
    mine, theirs, best_other, done, failed = [], [], [], [], []
    for k, g in played:
        seats = g.played.seats
        me = seats[k]
        if me.name in g.played.winners:
            wins += 1
            shared += len(g.played.winners) > 1
        mine.append(me.total)
        others = [s.total for i, s in enumerate(seats) if i != k]
        theirs += others
        best_other.append(max(others))
        done.append(me.tickets_completed)
        failed.append(me.tickets_failed)
    rate = stats.proportion_ci(wins, len(played))
    return {
        "variant": f"{variant_id}@{variant.load(variant_id).version}",
        "players": players,
        "games": len(played),
        "wins": wins,
        "shared": shared,
        "win_rate": round(rate.mean, 4),
        "win_rate_ci95": [round(rate.low, 4), round(rate.high, 4)],
        "ticket_bot_mean": round(statistics.fmean(mine), 1),
        "random_bot_mean": round(statistics.fmean(theirs), 1),
        "best_random_mean": round(statistics.fmean(best_other), 1),
        "tickets_done": round(statistics.fmean(done), 2),
        "tickets_failed": round(statistics.fmean(failed), 2),
        "met": rate.mean > TARGET,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=500, help="games per variant (default 500)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=simulate.local_cores())
    ap.add_argument("--variants", default=None, help="comma-separated (default: every installed variant)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    ids = args.variants.split(",") if args.variants else sorted(variant.available())
    rows = []
    t0 = time.perf_counter()
    for vid in ids:
        try:
            rows.append(measure(vid, args.games, args.seed, args.workers))
        except TTRError as exc:
            rows.append({"variant": vid, "error": str(exc), "met": False})
    elapsed = time.perf_counter() - t0
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0 if all(r["met"] for r in rows) else 1
    con = Console(width=160)
    con.print(f"Ticket bot vs random bots: {args.games} games per variant, seeds {args.seed}-{args.seed + args.games - 1}, "
              f"1 ticket bot + random bots, its seat rotating; {args.workers} workers, {elapsed:.0f} s, "
              f"load average {os.getloadavg()[0]:.1f} on {simulate.local_cores()} cores")
    table = Table()
    for col in ("variant", "players", "games", "win rate [95% CI]", "shared wins", "ticket bot mean", "random bot mean",
                "best random mean", "tickets done/failed", f"> {TARGET:.0%}"):
        table.add_column(col, justify="left" if col == "variant" else "right")
    for r in rows:
        if "error" in r:
            table.add_row(r["variant"], "", "", f"[red]{r['error']}[/red]", *[""] * 6)
            continue
        lo, hi = r["win_rate_ci95"]
        table.add_row(r["variant"], str(r["players"]), str(r["games"]), f"{r['win_rate']:.1%} [{lo:.1%}, {hi:.1%}]",
                      str(r["shared"]), f"{r['ticket_bot_mean']:.1f}", f"{r['random_bot_mean']:.1f}",
                      f"{r['best_random_mean']:.1f}", f"{r['tickets_done']:.2f} / {r['tickets_failed']:.2f}",
                      "yes" if r["met"] else "NO")
    con.print(table)
    return 0 if all(r["met"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
