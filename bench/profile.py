"""Where a turn goes: ``python -m bench.profile [--variant usa] [--players 4] [--games 60] [--replay] [--split]``.

``--split`` times each step of every turn instead (no profiler needed) and prints the share of
listing the legal actions (``game.listing``, and reading the listing), applying the action (its
checks and the end of the turn), scoring the game at its end, and the bots' own choosing.

Plays seeded random-bot games (or replays their records, ``--replay``) under pyinstrument, a
sampling profiler, and prints the call tree with the share of each step: what the README's "top
five costs" are read from. pyinstrument comes with the ``bench`` extra
(``pip install -e '.[bench]'``); py-spy (``py-spy record -- python -m bench.profile``) works too.
"""

from __future__ import annotations

import argparse
import sys
import time


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="usa")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--replay", action="store_true", help="profile replaying the games' records instead")
    ap.add_argument("--bot", default="random", help="the bot of every seat, with --split")
    ap.add_argument("--split", action="store_true", help="the share of listing, applying, scoring and the bots")
    args = ap.parse_args()
    if args.split:
        print(split(args.variant, args.players, args.games, args.bot))
        return 0
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


class _Clock:
    """Seconds spent in each step of a turn, as ``split`` times them."""

    def __init__(self):
        self.spent = dict.fromkeys(("listing", "applying", "scoring", "choosing"), 0.0)

    def timed(self, step: str, call, *args):
        start = time.perf_counter()
        try:
            return call(*args)
        finally:
            self.spent[step] += time.perf_counter() - start


def split(variant_id: str, players: int, games: int, bot: str) -> str:
    """One line: µs per turn of seeded games of ``bot``, the share of each step, and the hook
    calls per turn (each goes through pluggy, a cost of its own). Scoring is timed inside applying
    (the last action ends the game) and listing inside choosing (a bot lists); each share is of
    its own step alone. A bot listing one kind through its rule (``ttr_bots.legal_by_kind``)
    lists in its own time."""
    from collections import Counter

    from ttr_core import game as game_module, variant
    from ttr_bots import ask, bot_classes

    clock = _Clock()

    class TimedGame(game_module.Game):
        def legal_actions(self, seat):
            return clock.timed("listing", super().legal_actions, seat)

        def apply(self, seat, action):
            return clock.timed("applying", super().apply, seat, action)

        def finish(self, reason):
            return clock.timed("scoring", super().finish, reason)

    ruleset = variant.load(variant_id)
    classes = bot_classes((bot,))

    def play(seed: int) -> int:
        game = TimedGame(ruleset, [f"P{i + 1}" for i in range(players)], seed)
        seats = [classes[0](seed, i) for i in range(players)]
        while not game.over:
            seat = game.to_act()[0]
            game.apply(seat, clock.timed("choosing", ask, seats[seat], game, seat))
        return game.state.turn

    play(0)  # the first game builds what every game shares: not a turn's cost
    clock.spent = dict.fromkeys(clock.spent, 0.0)
    turns = sum(play(seed) for seed in range(1, games + 1))
    spent = clock.spent
    steps = {
        "listing": spent["listing"], "applying": spent["applying"] - spent["scoring"],
        "scoring": spent["scoring"], "bot": spent["choosing"] - spent["listing"],
    }
    total = sum(steps.values())
    shares = ", ".join(f"{step} {seconds / total:.0%}" for step, seconds in steps.items())
    calls: Counter[str] = Counter()  # counted in games of their own: monitoring slows every call
    undo = ruleset.rules.pm.add_hookcall_monitoring(lambda name, impls, kwargs: calls.update([name]), lambda *a: None)
    try:
        counted = sum(play(seed) for seed in range(1, min(games, 20) + 1))
    finally:
        undo()
    busiest = ", ".join(f"{name} {n / counted:.2f}" for name, n in calls.most_common(6))
    return (f"{variant_id} {players}p {bot} bots, {games} games: {total / turns * 1e6:.1f} µs per turn; {shares}\n"
            f"  hook calls per turn: {sum(calls.values()) / counted:.1f} ({busiest}, ...)")


if __name__ == "__main__":
    sys.exit(main())
