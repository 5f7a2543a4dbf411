"""The legal actions of one seat at one moment (``game.legal_actions(seat)``), and the moment they
were listed for.

A listing is a list of the actions, in the order ``game.legal_actions`` gives them, that also
remembers the seat, the state and the number of actions applied when it was made. The game
accepts an action taken from its latest listing, for that seat at that moment, without checking
it again (``Game.apply``): the listing was made by the same rules the check asks. Any other
action, from an earlier listing (another turn, another seat, a copy of the game), from a record
or from a client, is checked in full. The game's own operations that change the table outside
an action (``finish``, ``cancel_decision``, ``place_route``, ``free_route``) forget the latest
listing. A listing is of the state as it was listed: a program that changes the state by hand
(a test, a position editor), or the listing, lists again before it acts.
"""

from __future__ import annotations

from itertools import repeat
from operator import is_
from typing import Any

from ttr_core.actions import Action


class Listing(list):
    """The legal actions of ``seat`` for the game's ``state`` after ``logged`` applied actions:
    a list (it compares, counts and indexes as one), with what it was listed for. The game
    fills it (``Game.legal_actions``) and sets the three as it makes it: a list's own
    constructor, with no step of Python, since a random bot lists at every step."""

    __slots__ = ("seat", "state", "logged")

    seat: int
    state: Any
    logged: int

    def offers(self, seat: int, state: Any, logged: int, action: Action) -> bool:
        """Whether this listing was made for ``seat`` (an int: ``1.0`` is no seat) in ``state`` after
        ``logged`` actions and holds ``action`` itself (the very object: an equal action made
        elsewhere may differ in its fields' types, ``True`` for ``1``)."""
        return (self.seat == seat and type(seat) is int and self.state is state and self.logged == logged
                and any(map(is_, self, repeat(action))))
