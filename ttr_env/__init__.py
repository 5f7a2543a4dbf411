"""Ticket to Ride as a standard environment for bot and AI authors (the ``env`` extra).

* :func:`env` / :func:`raw_env` / :class:`TicketToRideEnv`: a PettingZoo AEC environment of any
  installed variant (``ttr_core.variant.available()``), every seat an agent;
* :class:`SingleSeatEnv`: a Gymnasium environment where a learner plays one seat against bots
  from ``ttr_bots`` (by name);
* :func:`encoding` / :class:`Encoding`: the fixed action space (:mod:`ttr_env.actions`) and the
  observation vector (:mod:`ttr_env.observations`) of a variant and player count, with
  ``describe()`` printing both layouts.

Install with ``pip install "ttr-engine[env]"`` (from a clone: ``pip install ".[env]"``); the engine
itself never imports this package, nor PettingZoo, Gymnasium or NumPy.

::

    from ttr_env import env

    game = env("europe", players=3)
    game.reset(seed=1)
    for agent in game.agent_iter():
        obs, reward, terminated, truncated, info = game.last()
        action = None if terminated or truncated else game.action_space(agent).sample(obs["action_mask"])
        game.step(action)

The encoding in short: an action is an index into a fixed list of every action that can ever be
legal in the variant (one segment per action kind, in kind-name order); the mask marks the legal
ones; an observation is a float32 vector built from the seat's view only, seats relative to the
observer. The full layouts are in :mod:`ttr_env.actions` and :mod:`ttr_env.observations`.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on what is installed
    raise ImportError(
        f"ttr_env needs the env extra (PettingZoo, Gymnasium, NumPy): pip install 'ttr-engine[env]' ({exc})"
    ) from exc

from ttr_env.actions import ActionEncoding, UnencodableAction, UnsupportedAction, register_codec
from ttr_env.aec import IllegalActionIndex, TicketToRideEnv, env, raw_env
from ttr_env.encoding import REWARDS, Encoding, encoding
from ttr_env.observations import ObservationEncoding
from ttr_env.single import SingleSeatEnv

#: the Gymnasium id of :class:`SingleSeatEnv`: ``gymnasium.make(GYM_ID, variant="usa", opponents=["ticket"])``
GYM_ID = "ttr/SingleSeat-v0"
if GYM_ID not in gymnasium.registry:
    gymnasium.register(GYM_ID, entry_point="ttr_env.single:SingleSeatEnv")

__all__ = [
    "GYM_ID",
    "REWARDS", "ActionEncoding", "Encoding", "IllegalActionIndex", "ObservationEncoding", "SingleSeatEnv",
    "TicketToRideEnv", "UnencodableAction", "UnsupportedAction", "encoding", "env", "raw_env", "register_codec",
]
