"""Sampling what a seat cannot see, from what it sees only: the worlds a search bot plays out.

A seat's view deals them (:meth:`ttr_core.seat_view.SeatView.sample_game`): it first puts the
hidden parts in an order that depends only on what the seat sees (sorted, hand sizes and ticket
kinds kept, :func:`ttr_core.seat_view.canonical_state`), then deals them anew, so the worlds it
samples, and the choices made from them, depend on the view and the generator alone.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from ttr_core.game import Game


def sample(game: Game, seat: int, rng: random.Random, weights: Mapping[int, Mapping[int, float]] | None = None) -> Game:
    """A full game consistent with what ``seat`` sees, drawn from ``rng`` (the game is untouched):
    ``game.seat_view(seat).sample_game(rng, weights)``."""
    view = game.seat_view(seat)
    try:
        return view.sample_game(rng, weights)
    finally:
        view.close()
