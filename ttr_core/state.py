"""The mutable state of one game: decks, open row, players, ownership, turn and phase.

The state is plain data that the engine mutates in place (no copy per action). Everything in it
can be dumped to JSON (``GameState.dump``) so that tests compare whole states before and after
a rejected action, and so that a record can carry a digest of the final state.
"""

from __future__ import annotations

import hashlib
import pickle
import json
import operator
from itertools import chain
from typing import Any

import attrs
import cattrs

_dump = cattrs.Converter()


@attrs.frozen
class Decision:
    """Something one player must decide before their turn (or the setup) can go on.

    ``allowed`` lists the action kinds that answer it. Subclasses carry the details and say
    which cards they hold while the decision is open (R-TURN-4).
    """

    kind: str
    allowed: tuple[str, ...]

    def held_cards(self) -> list[int]:
        """Train card ids this decision holds on the table until it is answered (a tunnel's base)."""
        return []

    def held_tickets(self) -> tuple[int, ...]:
        """Ticket indices this decision holds until it is answered (tickets on offer)."""
        return ()

    def with_held_tickets(self, tickets: tuple[int, ...]) -> Decision:
        """The same decision holding ``tickets`` instead (same number): hidden information dealt anew."""
        return self

    def private(self) -> dict[str, Any]:
        """What the deciding player sees of it."""
        return _dump.unstructure(self)

    def public(self) -> dict[str, Any]:
        """What everybody else sees of it."""
        return {"kind": self.kind}


@attrs.define(slots=True)
class PlayerState:
    name: str
    hand: list[int]  # count of each card id
    trains: int
    tickets: list[int] = attrs.Factory(list)
    routes: list[int] = attrs.Factory(list)
    route_points: int = 0
    resigned: bool = False
    decision: Decision | None = None
    #: trains set aside, out of the game: no rule moves trains there; the test kit does
    #: (``ttr_kit.testing.set_trains``) to give a seat few trains without placing routes. The trains
    #: invariant counts them (on the board + in supply + out of the game = the map's trains).
    #: Dumped only when there are some, so that the digests of games that never set any are unchanged.
    trains_out: int = 0

    def copy(self) -> PlayerState:
        """An independent copy (see :func:`_copies`)."""
        return PlayerState(*_copies(_player_fields(self)))


@attrs.define(slots=True)
class GameState:
    players: list[PlayerState]
    deck: list[int]  # the top card is the last one
    discard: list[int]
    open_row: list[int]  # card ids, -1 for an empty slot
    ticket_deck: list[int]  # the top ticket is the last one; "bottom" is index 0
    owner: list[int]  # per route index: the owning seat, or -1
    boxed_tickets: list[int] = attrs.Factory(list)  # out of the game
    phase: str = "setup"  # setup, play, over
    current: int = 0
    turn: int = 0  # turns completed
    final_round: list[int] | None = None  # seats still to play their last turn (R-END-1)
    end_reason: str = ""
    #: each plugin's typed ``State`` by plugin name, created by the core for every game
    ext: dict[str, Any] = attrs.Factory(dict)
    #: how often the open row was reset in this game (R-ROW-3), and how often the reset limit left
    #: it as dealt while a rule still asked for a reset: what the move log tells players and a
    #: playtest counts. Kept by ``refill_open_row`` for whichever plugin refreshes the row. Facts
    #: the actions lead to, not part of the position: never dumped nor compared, so digests and
    #: equal positions stay as they were.
    open_row_resets: int = attrs.field(default=0, eq=False)
    open_row_reset_limits: int = attrs.field(default=0, eq=False)

    def copy(self) -> GameState:
        """An independent copy: the players copied (:meth:`PlayerState.copy`), the plugin states
        too (:func:`copy_plugin_state`), every other field as :func:`_copies` copies it."""
        return self._copy(None)

    def _copy(self, like: GameState | None) -> GameState:
        """A copy as :meth:`copy` makes, sharing with ``like`` (an earlier copy of this game's
        state, a snapshot's, that nothing changes) what has not changed since: each player equal
        to its own there, and the plugin states if it holds the very same ones."""
        twin = GameState(*_copies(_state_fields(self)))
        if like is None or len(like.players) != len(self.players):  # none, or another game's state
            twin.players = [p.copy() for p in self.players]
            twin.ext = _copy_ext(self.ext)
        else:
            twin.players = [kept if kept == p else p.copy() for p, kept in zip(self.players, like.players)]
            twin.ext = _copy_ext(self.ext, like.ext)
        return twin

    def snapshot(self, last: StateSnapshot | None = None) -> StateSnapshot:
        """This state as it is now, kept apart for :meth:`from_snapshot`. A game with plugins that
        may not replay takes one after each action that consulted them (``Game.apply``) and passes
        the ``last`` one: what did not change since (most players, after one turn) is shared with
        it rather than copied again."""
        return StateSnapshot(self._copy(None if last is None else last.state))

    @staticmethod
    def from_snapshot(snapshot: StateSnapshot) -> GameState:
        """A new state equal to the one ``snapshot`` was taken of, independent of it (the snapshot can
        be used again)."""
        return snapshot.state.copy()

    def dump(self) -> dict[str, Any]:
        data = _dump.unstructure(self)
        del data["open_row_resets"], data["open_row_reset_limits"]
        for p, player in zip(data["players"], self.players):
            if not player.trains_out:
                del p["trains_out"]
            p["decision"] = None if player.decision is None else {
                "type": type(player.decision).__name__, **_dump.unstructure(player.decision)
            }
        return data


@attrs.frozen
class StateSnapshot:
    """A game state as it was when :meth:`GameState.snapshot` was taken: a copy of it that nothing
    changes, so that every state made from it (:meth:`GameState.from_snapshot`) is the same, and a
    later snapshot may share its unchanged players and plugin states."""

    state: GameState


def _fields_reader(cls: type) -> operator.attrgetter:
    """What reads an instance's attrs fields as a tuple, in the order ``cls`` takes them."""
    return operator.attrgetter(*(field.name for field in attrs.fields(cls)))


_player_fields = _fields_reader(PlayerState)
_state_fields = _fields_reader(GameState)
_CONTAINERS = frozenset({list, dict, set})


def _copies(values: tuple) -> list:
    """The fields' ``values`` for a copy of a player or a state: a container (of numbers) copied,
    anything else (numbers, strings, None, a frozen decision) shared, since nothing changes it in
    place. ``GameState.copy`` copies the players and the plugin states itself."""
    return [value.copy() if type(value) in _CONTAINERS else value for value in values]


def _copy_ext(ext: dict[str, Any], last: dict[str, Any] | None = None) -> dict[str, Any]:
    """Copies of the plugin states; ``last``, an earlier copy, is the answer again if it holds the
    very same states (shared, so frozen and holding nothing mutable: unchanged since)."""
    if last is not None and len(last) == len(ext):
        for name, value in ext.items():
            if last.get(name) is not value:
                break
        else:
            return last
    return {name: copy_plugin_state(value) for name, value in ext.items()}


_ATOMIC = frozenset({int, float, complex, bool, str, bytes, type(None)})


class _Unusual(Exception):
    """A value that :func:`_copy_attrs` does not copy: pickle does."""


def copy_plugin_state(value: Any) -> Any:
    """An independent copy of a plugin's state, the same as pickle's: a ``State`` class (attrs,
    slotted) whose fields hold numbers, strings and containers of them (a list, a set, a dict of
    them, a dict of lists of them, a tuple or frozenset) is copied field by field, the containers
    shallowly; a frozen one holding nothing mutable is shared. Anything else, or a container held
    twice, goes through pickle (``copy.deepcopy`` is slower)."""
    fields = getattr(type(value), "__attrs_attrs__", None)  # what ``attrs.fields`` reads, None if not attrs
    if fields is not None and not hasattr(value, "__dict__"):
        try:
            return _copy_attrs(value, fields)
        except _Unusual:
            pass
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


def _copy_attrs(value: Any, fields: tuple[attrs.Attribute, ...]) -> Any:
    """A copy of ``value``, a slotted attrs instance with ``fields``, each copied by
    :func:`_copy_field`; the value itself if it is frozen and holds nothing mutable."""
    kind = type(value)
    names = [field.name for field in fields]
    held: list[int] = []
    copies = [_copy_field(getattr(value, name), held) for name in names]
    if not held and kind.__setattr__ is _Frozen.__setattr__:
        return value  # nothing in it can change: the copy is the value itself
    if len(held) != len(set(held)):
        raise _Unusual(value)  # a container held twice stays one container in pickle's copy
    twin = object.__new__(kind)
    for name, field in zip(names, copies):
        object.__setattr__(twin, name, field)  # frozen classes too
    return twin


def _copy_field(field: Any, held: list[int]) -> Any:
    """``field`` copied if it is a container of atomic values (a dict of lists of them too), noting
    the ids of the mutable containers in ``held``."""
    kind = type(field)
    if kind in _ATOMIC:
        return field
    if kind is list or kind is set:
        if all(map(_is_atomic, map(type, field))):
            held.append(id(field))
            return field.copy()
    elif kind is dict:
        items = field.values()
        if all(map(_is_atomic, map(type, field))):
            if all(map(_is_atomic, map(type, items))):
                held.append(id(field))
                return field.copy()
            if all(map(_is_list, map(type, items))) and all(map(_is_atomic, map(type, chain.from_iterable(items)))):
                held.append(id(field))
                held += map(id, items)
                return {key: item[:] for key, item in field.items()}
    elif kind is tuple or kind is frozenset:
        if all(map(_is_atomic, map(type, field))):
            return field
    raise _Unusual(field)


_is_atomic = _ATOMIC.__contains__
_is_list = frozenset({list}).__contains__


@attrs.frozen
class _Frozen:
    """A frozen attrs class: they all refuse new values through attrs' one ``__setattr__``."""


def digest(data: Any) -> str:
    """A short stable fingerprint of JSON data."""
    raw = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(raw).hexdigest()[:16]
