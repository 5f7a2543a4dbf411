"""The names of train cards and how a game numbers them.

Cards are small integers in the hot paths (a hand is a list of counts indexed by card id); their
names appear only at the edges (records, views, files). Which cards a deck holds, and how many, is
a rule (R-SET-2) and comes from the ``ttr_deck_cards`` hook.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import compress
from typing import ClassVar

import attrs

COLORS: tuple[str, ...] = ("purple", "blue", "orange", "white", "green", "yellow", "black", "red")
LOCOMOTIVE = "locomotive"
GRAY = "gray"
ROUTE_COLORS: frozenset[str] = frozenset(COLORS) | {GRAY}


@attrs.frozen
class CardKinds:
    """The card vocabulary of one game: colours first, then the locomotive, then any extra kinds
    (e.g. the ``ussr`` controller) in name order, so that ids are stable for a given variant."""

    names: tuple[str, ...]
    index: Mapping[str, int] = attrs.field(eq=False, repr=False)
    #: the locomotive's id: right after the colours (read in every turn's hot paths, hence no property)
    locomotive: ClassVar[int] = len(COLORS)

    @classmethod
    def from_counts(cls, counts: Mapping[str, int]) -> CardKinds:
        extras = sorted(k for k in counts if k not in COLORS and k != LOCOMOTIVE)
        names = (*COLORS, LOCOMOTIVE, *extras)
        return cls(names, {n: i for i, n in enumerate(names)})


    def id(self, name: str) -> int:
        return self.index[name]

    def counts_by_name(self, counts: list[int]) -> dict[str, int]:
        return dict(compress(zip(self.names, counts), counts))
