"""The PettingZoo AEC environment: every seat an agent, turns as the engine gives them.

``agent_selection`` is the seat the engine waits for (``game.to_act()[0]``; during the setup every
seat choosing starting tickets acts in seat order). The agents are ``player_0`` .. ``player_{n-1}``,
seats 0 .. n-1 of the game. Each observes ``{"observation": float32 vector, "action_mask": int8}``
(:mod:`ttr_env.observations`, :mod:`ttr_env.actions`); an agent that is not to act has an empty
mask. Rewards are 0 until the game is over; then every agent gets its final reward at once
(``reward="score"``: its total; ``"win"``: 1 for a winner, 0 otherwise; ``"win-loss"``: 1 or -1;
``"margin"``: its total less the best other total, over 100, within [-1, 1]; :data:`ttr_env.REWARDS`),
and every agent is terminated. With ``max_steps``, the game is cut after that many actions: every
agent is truncated, with no reward.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import logger
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ttr_core import variant as variants
from ttr_core.actions import Action
from ttr_core.game import Game
from ttr_core.variant import Ruleset
from ttr_env.encoding import ansi, check_reward_mode, encoding, final_rewards

ILLEGAL = ("raise", "penalty")


def take_play_options(env, *, reward: str, max_steps: int, illegal_action: str, illegal_reward: float,
                      render_mode: str | None) -> None:
    """Check the options both environments take and set them on ``env``: an unknown
    ``illegal_action`` or ``reward`` is refused. A render mode the environment does not have
    (``"rgb_array"``, which Stable-Baselines3's ``make_vec_env`` asks of every environment) is
    ignored with a warning, as ``gymnasium.make`` does: nothing is rendered."""
    if illegal_action not in ILLEGAL:
        raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL)}, not {illegal_action!r}")
    render_modes = env.metadata["render_modes"]
    if render_mode is not None and render_mode not in render_modes:
        logger.warn(f"render_mode {render_mode!r} is not one of {render_modes}: the environment renders nothing")
        render_mode = None
    env.reward_mode = check_reward_mode(reward)
    env.max_steps = max_steps
    env.illegal_action = illegal_action
    env.illegal_reward = float(illegal_reward)
    env.render_mode = render_mode


class IllegalActionIndex(ValueError):
    """An action index the mask does not allow (with ``illegal_action="raise"``)."""


class TicketToRideEnv(AECEnv):
    """A PettingZoo AEC environment of one variant (any installed one) for ``players`` players.

    ``variant``: an id (``ttr_core.variant.available()``), a path, or a loaded ``Ruleset``;
    ``version``: its rules version (default: the current one); ``reward``: ``score``, ``win``,
    ``win-loss`` or ``margin`` (:data:`ttr_env.REWARDS`); ``max_steps``: truncate after that many
    actions (None: play to the end);
    ``illegal_action``: ``raise`` (default) an :class:`IllegalActionIndex` for an index outside
    the mask, or ``penalty``: leave the game as it is and give the acting agent
    ``illegal_reward``. ``reset(seed=...)`` seeds the sequence of games; ``options={"game_seed":
    s}`` plays the engine's game of seed ``s`` exactly.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1, "name": "ttr_v0", "is_parallelizable": False}

    def __init__(
        self, variant: str | Ruleset = "usa", players: int = 2, *, version: int | None = None,
        reward: str = "score", max_steps: int | None = None, illegal_action: str = "raise",
        illegal_reward: float = -1.0, render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.ruleset = variants.load(variant, version) if isinstance(variant, str) else variant
        lo, hi = self.ruleset.players.min, self.ruleset.players.max
        if not lo <= players <= hi:
            raise ValueError(f"variant {self.ruleset.variant!r} takes {lo} to {hi} players, not {players}")
        take_play_options(self, reward=reward, max_steps=max_steps, illegal_action=illegal_action,
                          illegal_reward=illegal_reward, render_mode=render_mode)
        self.metadata = {**type(self).metadata, "name": f"ttr_{self.ruleset.variant}_v0"}
        self.encoding = encoding(self.ruleset, players)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: self.encoding.action_space() for a in self.possible_agents}
        self.observation_spaces = {a: self.encoding.observation_space() for a in self.possible_agents}
        self.game: Game | None = None
        self.steps = 0
        self._seen: dict[int, tuple[dict[str, np.ndarray], dict[int, Action]]] = {}
        self._np_random: np.random.Generator | None = None

    # --- spaces -------------------------------------------------------------------------------

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    # --- the loop -----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = (options or {}).get("game_seed")
        if game_seed is None:
            game_seed = int(self._np_random.integers(0, 2**31 - 1))
        self.game = Game(self.ruleset, self.possible_agents, int(game_seed))
        self.steps = 0
        self._seen = {}
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_act()[0]]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs, _ = self._observe(self.agent_seat[agent])
        return {"observation": obs["observation"].copy(), "action_mask": obs["action_mask"].copy()}

    def _observe(self, seat: int):
        seen = self._seen.get(seat)
        if seen is None:
            seen = self._seen[seat] = self.encoding.observe(self.game, seat)
        return seen

    def legal_actions(self, agent: str | None = None) -> dict[int, Action]:
        """The legal actions of ``agent`` (default: the selected one) by index."""
        return dict(self._observe(self.agent_seat[agent or self.agent_selection])[1])

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.agent_seat[agent]
        _, legal = self._observe(seat)
        index = None if action is None else int(action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if index not in legal:
            if self.illegal_action == "raise":
                raise IllegalActionIndex(
                    f"{agent}: action {index} is not legal now (the mask allows {len(legal)} actions)"
                )
            self.rewards[agent] = self.illegal_reward
            self.infos[agent] = {"illegal_action": index}
            self._accumulate_rewards()
            return
        self.game.apply(seat, legal[index])
        self.steps += 1
        self._seen = {}
        self.infos = {a: {} for a in self.agents}
        if self.game.over:
            result = self.game.result
            for a, r in zip(self.possible_agents, final_rewards(result, self.reward_mode)):
                self.rewards[a] = r
                self.terminations[a] = True
            for score in result.scores:
                self.infos[self.possible_agents[score.seat]] = {
                    "score": score.total, "won": score.seat in result.winners.seats, "reason": result.reason,
                }
        elif self.max_steps is not None and self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a] = {"truncated_after": self.steps}
        else:
            self.agent_selection = self.possible_agents[self.game.to_act()[0]]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # --- looking --------------------------------------------------------------------------------

    def render(self) -> str | None:
        if self.game is None or self.render_mode is None:
            return None
        text = ansi(self.game)
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def close(self) -> None:
        self.game = None
        self._seen = {}


def raw_env(variant: str | Ruleset = "usa", players: int = 2, **kwargs: Any) -> TicketToRideEnv:
    """The environment itself (see :class:`TicketToRideEnv`)."""
    return TicketToRideEnv(variant, players, **kwargs)


def env(variant: str | Ruleset = "usa", players: int = 2, **kwargs: Any):
    """The environment with PettingZoo's order-enforcing wrapper (``reset`` before ``step``...)."""
    return wrappers.OrderEnforcingWrapper(raw_env(variant, players, **kwargs))
