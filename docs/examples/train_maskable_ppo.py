"""Train sb3-contrib's MaskablePPO on one seat of Ticket to Ride, then play it against the shipped bots.

Install the ``rl`` extra (Stable-Baselines3, sb3-contrib, PyTorch; a CPU build of PyTorch is
enough) and run from a clone::

    python3 -m pip install ".[rl]"
    python docs/examples/train_maskable_ppo.py --minutes 5            # a few minutes of training
    python docs/examples/train_maskable_ppo.py --steps 200 --eval-games 2   # a smoke run

The learner plays ``ttr/SingleSeat-v0`` (``ttr_env.SingleSeatEnv``): one seat of a game whose
other seats are bots (``--opponents``, ``random`` by default: a learner first has to beat
that one), the mask of legal actions handed to the policy at every step through
``action_masks()``, which ``make_vec_env``'s wrappers forward. The reward is ``margin`` (its total
less the best other total, over 100, at the end) unless ``--reward`` says otherwise.

Then the trained policy plays ``--eval-games`` games against each of ``--eval-bots`` (its seat
drawn at each game, the mask applied, deterministic actions) and the script prints its wins
and mean score beside the bots'. Training stops at ``--steps`` environment steps or after
``--minutes``, whichever comes first.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env

import ttr_env


class StopAfter(BaseCallback):
    """Stops the training once ``minutes`` have passed."""

    def __init__(self, minutes: float) -> None:
        super().__init__()
        self.deadline = time.monotonic() + minutes * 60

    def _on_step(self) -> bool:
        return time.monotonic() < self.deadline


def train(variant: str, opponents: list[str], reward: str, steps: int, minutes: float, seed: int) -> MaskablePPO:
    env = make_vec_env(ttr_env.GYM_ID, n_envs=1, seed=seed,
                       env_kwargs={"variant": variant, "opponents": opponents, "seat": None, "reward": reward})
    model = MaskablePPO("MultiInputPolicy", env, n_steps=min(512, max(64, steps)), batch_size=64, seed=seed, verbose=0)
    model.learn(total_timesteps=steps, callback=StopAfter(minutes))
    return model


def evaluate(model: MaskablePPO, variant: str, bots: list[str], players: int, games: int, seed: int) -> list[dict]:
    """The policy's games against ``players - 1`` bots of each name: wins and mean scores."""
    rows = []
    for bot in bots:
        env = ttr_env.SingleSeatEnv(variant, [bot] * (players - 1), seat=None, reward="score")
        wins, mine, theirs = 0, [], []
        for game in range(games):
            obs, _ = env.reset(seed=seed + game)
            done = False
            while not done:
                action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
                obs, _, terminated, truncated, info = env.step(int(action))
                done = terminated or truncated
            result = env.game.result
            wins += env.seat in result.winners.seats
            mine.append(result.scores[env.seat].total)
            theirs += [s.total for s in result.scores if s.seat != env.seat]
        rows.append({"bot": bot, "games": games, "wins": wins, "learner_mean": statistics.fmean(mine),
                     "bot_mean": statistics.fmean(theirs)})
    return rows


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="usa")
    ap.add_argument("--opponents", default="random", help="the bots it trains against, comma-separated, one per other seat")
    ap.add_argument("--reward", default="margin", choices=ttr_env.REWARDS)
    ap.add_argument("--steps", type=int, default=1_000_000, help="environment steps of training at most")
    ap.add_argument("--minutes", type=float, default=5.0, help="minutes of training at most")
    ap.add_argument("--eval-bots", default="random,ticket", help="the shipped bots it then plays, comma-separated")
    ap.add_argument("--eval-games", type=int, default=20, help="games against each of them")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save", default=None, help="save the trained model to this file (MaskablePPO.load reads it)")
    args = ap.parse_args(argv)
    opponents = args.opponents.split(",")
    t0 = time.monotonic()
    model = train(args.variant, opponents, args.reward, args.steps, args.minutes, args.seed)
    print(f"trained {model.num_timesteps} steps in {time.monotonic() - t0:.0f} s "
          f"({args.variant}, against {', '.join(opponents)}, reward {args.reward})")
    if args.save:
        model.save(args.save)
    rows = evaluate(model, args.variant, args.eval_bots.split(","), len(opponents) + 1, args.eval_games, 10_000 + args.seed)
    for r in rows:
        print(f"against {r['bot']}: won {r['wins']} of {r['games']}, mean score {r['learner_mean']:.1f} "
              f"(the bots' {r['bot_mean']:.1f})")
    return rows


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    main()
