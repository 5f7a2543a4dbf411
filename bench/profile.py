"""Where a turn goes: ``python -m bench.profile [--variant usa] [--players 4] [--games 60] [--replay]``.

Plays seeded random-bot games (or replays their records, ``--replay``) under pyinstrument, a
sampling profiler, and prints the call tree with the share of each step: what the README's "top
five costs" are read from. pyinstrument comes with the ``bench`` extra
(``pip install -e '.[bench]'``); py-spy (``py-spy record -- python -m bench.profile``) works too.
"""

from __future__ import annotations

import argparse
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="usa")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--replay", action="store_true", help="profile replaying the games' records instead")
    args = ap.parse_args()
    try:
        from pyinstrument import Profiler
    except ImportError:
        print("pyinstrument is not installed: pip install -e '.[bench]'", file=sys.stderr)
        return 2

    from ttr_core import record, variant
    from ttr_bots import play_game

    ruleset = variant.load(args.variant)
    play_game(ruleset, args.players, 0)  # the first game builds what every game shares: not a turn's cost
    records = [record.make_record(play_game(ruleset, args.players, s)) for s in range(args.games)] if args.replay else []
    profiler = Profiler(interval=0.0002)
    with profiler:
        for seed in range(args.games):
            if args.replay:
                record.replay(records[seed])
            else:
                play_game(ruleset, args.players, seed)
    print(profiler.output_text(unicode=True, color=sys.stdout.isatty()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
