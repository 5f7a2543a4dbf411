"""The engine's shuffle deals what ``random.Random.shuffle`` deals from the same generator, so a
seed deals the cards its records hold (records made before the engine shuffled by itself replay)."""

from __future__ import annotations

import random

import pytest

from ttr_core.shuffle import shuffle


@pytest.mark.parametrize("length", [0, 1, 2, 3, 5, 30, 64, 65, 110, 257])
def test_a_seed_shuffles_as_pythons_own_shuffle_and_leaves_the_generator_where_it_does(length):
    for seed in range(40):
        ours, theirs = random.Random(seed), random.Random(seed)
        dealt, expected = list(range(length)), list(range(length))
        shuffle(ours, dealt)
        theirs.shuffle(expected)
        assert dealt == expected, (seed, length)
        assert ours.getstate() == theirs.getstate()  # what is drawn next is the same too


def test_a_shuffle_moves_the_cards_and_keeps_every_one():
    deck = [card for card in range(9) for _ in range(12)]
    dealt = deck[:]
    shuffle(random.Random(7), dealt)
    assert dealt != deck and sorted(dealt) == deck
