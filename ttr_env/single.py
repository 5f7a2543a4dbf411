"""A Gymnasium environment for one learner: it plays one seat, bots from ``ttr_bots`` play the others.

``SingleSeatEnv("usa", opponents=["ticket", "random"])`` is a three-player game where the learner
has ``seat`` 0 (or a seat drawn at each reset, ``seat=None``) and the bots, named as
``ttr play --bots`` names them (``ttr bots`` lists the installed ones), take the other seats in
order. Each ``step`` plays the learner's action, then the bots' turns until the learner is to act
again or the game is over. Observations and actions are those of the PettingZoo environment
(:mod:`ttr_env.observations`, :mod:`ttr_env.actions`).

The mask of legal actions is in three places, so that it is reachable through any wrapper:
``obs["action_mask"]``; ``info["action_mask"]`` (bool) from ``reset`` and every ``step``, as
Gymnasium's own environments give it; and the method ``action_masks()``, the one sb3-contrib's
``MaskablePPO`` calls (its vector environments find it through the wrappers). On an environment
made by ``gymnasium.make(GYM_ID, ...)``, which wraps it, call it as
``env.get_wrapper_attr("action_masks")()`` or ``env.unwrapped.action_masks()``.

``render_mode``: ``"ansi"`` (``render()`` returns text) or ``"human"`` (printed after each
step); any other mode, such as the ``"rgb_array"`` that Stable-Baselines3's ``make_vec_env``
asks for, is ignored with a warning (nothing is rendered), as ``gymnasium.make`` does.

An index outside the mask leaves the game as it is and gives ``illegal_reward`` (-1), with
``info["illegal_action"]``; this is the default (``illegal_action="penalty"``) because unmasked
samplers, Gymnasium's own environment checker among them, send such indices.
``illegal_action="raise"`` raises instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from ttr_bots import Bot, ask, bot_classes
from ttr_core import variant as variants
from ttr_core.actions import Action
from ttr_core.game import Game
from ttr_core.variant import Ruleset
from ttr_env.aec import IllegalActionIndex, take_play_options
from ttr_env.encoding import ansi, encoding, final_rewards

#: the most bot actions in a row before the environment gives up (a bot that never lets the
#: learner act again would be a bug)
MAX_BOT_ACTIONS = 20_000


class SingleSeatEnv(gymnasium.Env):
    """One seat of a game for a learner, the other seats played by bots (see the module docstring).

    ``variant``, ``version``, ``reward``, ``max_steps`` (the learner's actions), ``illegal_action``
    and ``illegal_reward`` are those of :class:`ttr_env.TicketToRideEnv`; ``opponents`` are bot
    names, one per other seat; ``seat`` the learner's seat (None: drawn at each reset).
    ``reset(options={"game_seed": s})`` plays the engine's game of seed ``s``.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self, variant: str | Ruleset = "usa", opponents: Sequence[str] = ("random",), *, seat: int | None = 0,
        version: int | None = None, reward: str = "score", max_steps: int | None = None,
        illegal_action: str = "penalty", illegal_reward: float = -1.0, render_mode: str | None = None,
    ) -> None:
        self.ruleset = variants.load(variant, version) if isinstance(variant, str) else variant
        if isinstance(opponents, str):
            opponents = [opponents]
        self.opponents = tuple(opponents)
        self.players = players = len(self.opponents) + 1
        lo, hi = self.ruleset.players.min, self.ruleset.players.max
        if not lo <= players <= hi:
            raise ValueError(
                f"variant {self.ruleset.variant!r} takes {lo} to {hi} players: give {lo - 1} to {hi - 1} opponents, "
                f"not {len(self.opponents)}"
            )
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}, or None for a seat drawn at each reset")
        take_play_options(self, reward=reward, max_steps=max_steps, illegal_action=illegal_action,
                          illegal_reward=illegal_reward, render_mode=render_mode)
        self.bot_classes = bot_classes(self.opponents)  # an unknown name fails here, naming the installed bots
        self.fixed_seat = seat
        self.encoding = encoding(self.ruleset, players)
        self.action_space = self.encoding.action_space()
        self.observation_space = self.encoding.observation_space()
        self.game: Game | None = None
        self.seat = 0 if seat is None else seat
        self.bots: dict[int, Bot] = {}
        self.steps = 0
        self._seen: tuple[dict[str, np.ndarray], dict[int, Action]] | None = None

    # --- the loop -------------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        game_seed = (options or {}).get("game_seed")
        if game_seed is None:
            game_seed = int(self.np_random.integers(0, 2**31 - 1))
        game_seed = int(game_seed)
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(self.np_random.integers(0, self.players))
        others = [s for s in range(self.players) if s != self.seat]
        self.bots = {s: cls(game_seed, s) for s, cls in zip(others, self.bot_classes)}
        self.game = Game(self.ruleset, [f"player_{i}" for i in range(self.players)], game_seed)
        self.steps = 0
        self._seen = None
        self._play_bots()
        info = {"seat": self.seat, "game_seed": game_seed}
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._with_mask(info)

    def step(self, action):
        obs, legal = self._observe()
        index = None if action is None else int(action)
        if index not in legal:
            if self.illegal_action == "raise":
                raise IllegalActionIndex(f"action {index} is not legal now (the mask allows {len(legal)} actions)")
            return self._obs(), self.illegal_reward, False, False, self._with_mask({"illegal_action": index})
        self.game.apply(self.seat, legal[index])
        self.steps += 1
        self._seen = None
        self._play_bots()
        reward, terminated, truncated, info = 0.0, False, False, {}
        if self.game.over:
            result = self.game.result
            reward = final_rewards(result, self.reward_mode)[self.seat]
            terminated = True
            mine = result.scores[self.seat]
            info = {"score": mine.total, "won": self.seat in result.winners.seats, "reason": result.reason}
        elif self.max_steps is not None and self.steps >= self.max_steps:
            truncated = True
            info = {"truncated_after": self.steps}
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, truncated, self._with_mask(info)

    def _play_bots(self) -> None:
        game = self.game
        for _ in range(MAX_BOT_ACTIONS):
            if game.over:
                return
            seat = game.to_act()[0]
            if seat == self.seat:
                return
            game.apply(seat, ask(self.bots[seat], game, seat))
        raise RuntimeError(f"the bots played {MAX_BOT_ACTIONS} actions in a row without the learner's turn coming")

    def _observe(self):
        if self._seen is None:
            self._seen = self.encoding.observe(self.game, self.seat)  # over: an empty mask
        return self._seen

    def _obs(self) -> dict[str, np.ndarray]:
        obs, _ = self._observe()
        return {"observation": obs["observation"].copy(), "action_mask": obs["action_mask"].copy()}

    def _with_mask(self, info: dict[str, Any]) -> dict[str, Any]:
        return {**info, "action_mask": self.action_masks()}

    def action_masks(self) -> np.ndarray:
        """The mask of legal action indices now (sb3-contrib's ``MaskablePPO`` asks for it)."""
        return self._observe()[0]["action_mask"].astype(bool)

    def legal_actions(self) -> dict[int, Action]:
        """The learner's legal actions by index."""
        return dict(self._observe()[1])

    # --- looking --------------------------------------------------------------------------------

    def render(self) -> str | None:
        if self.game is None or self.render_mode is None:
            return None
        names = [f"player_{i}" + (" (learner)" if i == self.seat else f" ({self.opponents[self._bot_number(i)]})")
                 for i in range(self.players)]
        text = ansi(self.game, names)
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def _bot_number(self, seat: int) -> int:
        return [s for s in range(self.players) if s != self.seat].index(seat)

    def close(self) -> None:
        self.game = None
        self._seen = None
