"""One variant's encoding for one player count: the action space, the observation, their Gymnasium
spaces, and what both environments share (observing a seat, the rewards at the end)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np

from ttr_core.actions import Action
from ttr_core.game import Game
from ttr_core.scoring import GameResult
from ttr_core.seat_view import SeatView
from ttr_core.variant import Ruleset
from ttr_core.view import view_keys, view_value
from ttr_env.actions import ActionEncoding
from ttr_env.observations import ObservationEncoding

#: reward modes, given once at the end of a game: ``score`` the seat's final total, raw points
#: (about -60 to +160 in a usual game); ``win`` 1 for a winner, else 0; ``win-loss`` 1 for a
#: winner, else -1 (tied winners all count as winners); ``margin`` the seat's total less the best
#: total of the other seats, divided by ``MARGIN_SCALE`` and clipped to [-1, 1] (a winner by 30
#: points gets 0.3, the runner-up -0.3; a tie for first 0 each)
REWARDS = ("score", "win", "win-loss", "margin")
#: the points that make a margin reward of 1
MARGIN_SCALE = 100.0


class Encoding:
    """The fixed action space and the observation vector of ``ruleset`` for ``players`` players."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        self.ruleset = ruleset
        self.players = players
        self.actions = ActionEncoding(ruleset, players)
        self.observations = ObservationEncoding(ruleset, players, self.actions)
        self._segment_starts = np.array([seg.start for seg in self.actions.segments], dtype=np.intp)

    @property
    def n_actions(self) -> int:
        return self.actions.n

    def action_space(self) -> gymnasium.spaces.Discrete:
        return gymnasium.spaces.Discrete(self.actions.n)

    def observation_space(self) -> gymnasium.spaces.Dict:
        """``{"observation": Box(float32), "action_mask": Box(0, 1, int8)}``, PettingZoo's convention
        for masked actions (``action_space.sample(mask)`` takes the mask as it is)."""
        return gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(self.observations.low, self.observations.high, dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, shape=(self.actions.n,), dtype=np.int8),
        })

    def observe(self, game: Game, seat: int) -> tuple[dict[str, np.ndarray], dict[int, Action]]:
        """What ``seat`` observes now, and its legal actions by index (the mask's ones)."""
        seat_view = game.seat_view(seat)
        view = SeatViewData(game, seat, seat_view)
        legal = self.actions.legal(game, seat, view)
        mask = np.zeros(self.actions.n, dtype=np.int8)
        mask[list(legal)] = 1
        kinds = np.maximum.reduceat(mask, self._segment_starts) if legal else np.zeros(len(self._segment_starts), np.int8)
        vector = self.observations.encode(seat_view, view, kinds)
        return {"observation": vector, "action_mask": mask}, legal

    def describe(self) -> str:
        """Both layouts, as text tables."""
        r = self.ruleset
        return (
            f"{r.variant} (rules version {r.version}), {self.players} players\n\n"
            f"actions ({self.actions.n}):\n{self.actions.describe()}\n\n"
            f"observation ({self.observations.size} float32):\n{self.observations.describe()}"
        )


class SeatViewData(Mapping):
    """``game.view(seat)`` as a mapping that builds each key when it is first read
    (``ttr_core.view.view_value``): observing a seat reads the plugins' parts (``"rules"``), and
    a plugin its own part and perhaps the seats' decisions (``"players"``), not the route owners or
    the rest, which the core's segments read from the typed ``game.seat_view(seat)``. Every key
    gives what ``game.view(seat)`` gives (``"rules"`` read-only: the seat view's ``rules``)."""

    def __init__(self, game: Game, seat: int, seat_view: SeatView) -> None:
        self._game, self._seat, self._seat_view = game, seat, seat_view
        self._keys = view_keys(game, seat)
        self._built: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        try:
            return self._built[key]
        except KeyError:
            if key not in self._keys:
                raise
        # the plugins' parts are read once for both views
        value = self._seat_view.rules if key == "rules" else view_value(self._game, self._seat, key)
        self._built[key] = value
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def encoding(ruleset: Ruleset, players: int) -> Encoding:
    """The encoding of ``ruleset`` for ``players`` players: a new one (a few milliseconds to
    build; an environment builds its own once, and keeps it for every game it plays)."""
    return Encoding(ruleset, players)


def final_rewards(result: GameResult, mode: str) -> list[float]:
    """The reward of each seat for a finished game (see :data:`REWARDS`)."""
    winners = set(result.winners.seats)
    if mode == "score":
        return [float(s.total) for s in result.scores]
    if mode == "margin":
        totals = [s.total for s in result.scores]
        best_other = [max(t for j, t in enumerate(totals) if j != i) for i in range(len(totals))]
        return [max(-1.0, min(1.0, (t - b) / MARGIN_SCALE)) for t, b in zip(totals, best_other)]
    lose = 0.0 if mode == "win" else -1.0
    return [1.0 if s.seat in winners else lose for s in result.scores]


def check_reward_mode(mode: str) -> str:
    if mode not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {mode!r}")
    return mode


def ansi(game: Game, names: Sequence[str] | None = None) -> str:
    """A few lines about the game for ``render_mode="ansi"``."""
    st = game.view(None)
    names = names or [p["name"] for p in st["players"]]
    lines = [f"{st['variant']} turn {st['turn']} phase {st['phase']}" + (" (final round)" if st["final_round"] else "")]
    lines.append("open row: " + ", ".join(c or "-" for c in st["open_row"]))
    for seat, p in enumerate(st["players"]):
        mark = ">" if seat in st["to_act"] else " "
        lines.append(
            f"{mark} {names[seat]}: {p['route_points']} route points, {p['trains']} trains, "
            f"{p['cards']} cards, {p['tickets']} tickets"
        )
    if st.get("result"):
        res: dict[str, Any] = st["result"]
        lines.append("result: " + ", ".join(f"{names[s['seat']]} {s['total']}" for s in res["scores"]))
    return "\n".join(lines) + "\n"
