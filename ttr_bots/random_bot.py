"""The random bot: uniformly among the legal actions (one payment per route and colour)."""

from __future__ import annotations

import random

from ttr_core.actions import Action
from ttr_core.seat_view import SeatView


class RandomBot:
    """Picks uniformly among the legal actions (one payment per route and colour)."""

    name = "random"

    def __init__(self, seed: int, seat: int):
        self.rng = random.Random(f"random-bot:{seed}:{seat}")

    def choose(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal_actions())
