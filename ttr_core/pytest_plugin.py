"""pytest fixtures for house-rule authors (registered through the ``pytest11`` entry point).

``ttr_game(variant, players=2, seed=1)`` makes a game; ``ttr_kit`` is :mod:`ttr_core.testing`
(set_hand, stack_deck, set_open_row, give_route, invariant checks); ``ttr_score_position(data)``
scores a hand-given position as ``ttr score`` does.
"""

from __future__ import annotations

import pytest

from ttr_core import testing
from ttr_core.position import score_position


@pytest.fixture
def ttr_kit():
    return testing


@pytest.fixture
def ttr_game():
    def make(variant_id: str = "usa", players: int = 2, seed: int = 1, version: int | None = None, setup: bool = True):
        game = testing.new_game(variant_id, players, seed, version)
        return testing.keep_all_starting_tickets(game) if setup else game

    return make


@pytest.fixture
def ttr_score_position():
    return score_position
