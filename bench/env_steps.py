"""The environment's cost per step against the engine's per action (``bench.run``'s environment
table and its ``--baseline`` rows). Imports only what every engine since the environment has, so
that a baseline's child can run it."""

from __future__ import annotations

import random
import time

from ttr_core import variant
from ttr_core.game import Game


def env_step_times(variant_id: str, players: int, games: int) -> dict:
    """The same seeded games played twice by uniformly random agents, game by game in turn: on the
    bare engine (``legal_actions``, ``apply``) and through the PettingZoo AEC environment
    (``last()``, then ``step`` with an index of the mask), so that the environment's overhead per
    step (the step's time less an engine action's, measured in the same run) reads off the two.
    Seconds and actions of each (the ``env`` extra must be installed)."""
    import numpy as np

    import ttr_env

    rs = variant.load(variant_id)
    env = ttr_env.raw_env(rs, players)
    env.reset(options={"game_seed": 0})  # builds the encoding the games share
    names = [f"player_{i}" for i in range(players)]
    seconds, actions = {"engine": 0.0, "env": 0.0}, {"engine": 0, "env": 0}

    def engine_game(seed: int) -> int:
        rng, game, done = random.Random(seed), Game(rs, names, seed), 0
        while not game.over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rng.randrange(len(legal))])
            done += 1
        return done

    def env_game(seed: int) -> int:
        rng, done = random.Random(seed), 0
        env.reset(options={"game_seed": seed})
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            done += 1
        return done

    for seed in range(games):
        for side in ("engine", "env") if seed % 2 else ("env", "engine"):
            t0 = time.perf_counter()
            actions[side] += (engine_game if side == "engine" else env_game)(seed)
            seconds[side] += time.perf_counter() - t0
    return {"engine_seconds": seconds["engine"], "engine_actions": actions["engine"],
            "env_seconds": seconds["env"], "env_steps": actions["env"]}
