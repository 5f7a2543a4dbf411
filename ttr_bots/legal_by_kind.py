"""A list of actions made when first used: a bot passes its view's actions of a kind
(``view.actions(kind)``) to a step that may not need them, and a turn spent drawing a card lists
no claims.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from ttr_core.actions import Action


class Listing(Sequence):
    """A list of actions made on first use (iterating, ``len``, indexing, ``bool``)."""

    __slots__ = ("_make", "_items")

    def __init__(self, make: Callable[[], list[Action]] | None, items: list[Action] | None = None):
        self._make = make
        self._items = items

    def items(self) -> list[Action]:
        if self._items is None:
            self._items = self._make()
        return self._items

    def __getitem__(self, i):
        return self.items()[i]

    def __len__(self) -> int:
        return len(self.items())

    def __bool__(self) -> bool:
        items = self._items
        return bool(items if items is not None else self.items())

    def __iter__(self) -> Iterator[Action]:
        return iter(self.items())

    def __repr__(self) -> str:
        return f"Listing({self._items!r})" if self._items is not None else "Listing(<not listed yet>)"
