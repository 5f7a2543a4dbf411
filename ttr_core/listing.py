"""The legal actions of one seat at one moment (``game.legal_actions(seat)``).

A listing is a tuple of the actions, in the order ``game.legal_actions`` gives them: each kind's
actions as its rule listed them (the handler's ``legal``), kind after kind. It also picks out
the actions of one kind (:meth:`Listing.of_kind`) or of one route (:meth:`Listing.of_route`). It
cannot be changed and holds the actions alone, no part of the game, so a bot is handed it as it
is (``view.legal_actions()``). It is made whole, at once: a listing that makes each action only
when read was tried and measured (``bench/data/listing-experiments.jsonl``).

The game remembers its latest listing with the seat and the moment it was made for, and accepts
an action taken from it, for that seat at that moment, without checking it again
(``Game.apply``): the listing was made by the same rules the check asks. Any other action, from
an earlier listing (another turn, another seat, a copy of the game), from a record or from a
client, is checked in full. The game's own operations that change the table outside an action
(``finish``, ``cancel_decision``, ``place_route``, ``free_route``) forget the latest listing. A
listing is of the state as it was listed: a program that changes the state by hand (a test, a
position editor) lists again before it acts.
"""

from __future__ import annotations

from itertools import repeat
from operator import is_

from ttr_core.actions import Action


class Listing(tuple):
    """The legal actions of a seat at one moment: a tuple (it counts, indexes and compares as
    one; it also equals a list of the same actions)."""

    __slots__ = ()

    def kinds(self) -> tuple[str, ...]:
        """The kinds of the listed actions, in listing order."""
        return tuple(dict.fromkeys(a.kind for a in self))

    def of_kind(self, kind: str) -> tuple[Action, ...]:
        """The listed actions of ``kind``, in listing order."""
        return tuple(a for a in self if a.kind == kind)

    def of_route(self, route: str) -> tuple[Action, ...]:
        """The listed actions of ``route`` (a route id: its claims, say), in listing order."""
        return tuple(a for a in self if getattr(a, "route", None) == route)

    def holds(self, action: Action) -> bool:
        """Whether ``action`` itself is listed: the very object, since an equal action made
        elsewhere may differ in its fields' types (``True`` for ``1``)."""
        return any(map(is_, self, repeat(action)))

    def __eq__(self, other: object) -> bool:
        # equal to a list of the same actions too, as the listing was a list once
        return tuple.__eq__(self, tuple(other)) if isinstance(other, list) else tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which do not hash

    def __repr__(self) -> str:
        return f"Listing({list(self)!r})"
