"""Shuffling with a game's generator: the engine's own Fisher-Yates.

It takes the same numbers from the generator, in the same order, as ``random.Random.shuffle``
does in the Pythons this engine supports (``tests/engine/test_shuffle.py`` compares them), so seeded
games and their records deal the same cards; written out here, drawing each position costs no
method call, and a seed keeps dealing the same cards should a later Python shuffle another way.
"""

from __future__ import annotations

import random
from typing import Any


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle ``items`` in place: from the last position down, swap each with a position drawn
    uniformly at or before it, drawing ``bit_length`` bits until they fall in range."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
