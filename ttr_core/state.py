"""The mutable state of one game: decks, open row, players, ownership, turn and phase.

The state is plain data that the engine mutates in place (no copy per action). Everything in it
can be dumped to JSON (``GameState.dump``) so that tests compare whole states before and after
a rejected action, and so that a record can carry a digest of the final state.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
import json
import operator
from collections.abc import Callable
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

    def copy(self) -> GameState:
        """An independent copy: lists are copied (``list.copy()``, quicker than ``[:]``), decisions
        (frozen) are shared, plugin states are copied by :func:`copy_plugin_state` (search bots copy
        often)."""
        final = self.final_round
        return GameState(
            [PlayerState(p.name, p.hand.copy(), p.trains, p.tickets.copy(), p.routes.copy(), p.route_points, p.resigned,
                         p.decision, p.trains_out) for p in self.players],
            self.deck.copy(), self.discard.copy(), self.open_row.copy(), self.ticket_deck.copy(), self.owner.copy(),
            self.boxed_tickets.copy(),
            self.phase, self.current, self.turn, None if final is None else final.copy(), self.end_reason,
            _copy_ext(self.ext),
        )

    def snapshot(self, last: tuple | None = None) -> tuple:
        """This state as :meth:`from_snapshot` takes it, made as cheaply as can be: a tuple of copies
        of the fields (players as tuples of theirs) that nothing changes. A game with plugins that
        may not replay takes one after each action that consulted them (``Game.apply``) and passes
        its ``last`` one: a player whose fields all equal those in ``last`` (most players, after
        one turn) and a plugin state that ``last`` shares (frozen, unchanged) are taken from it."""
        final = self.final_round
        if last is None or len(last[0]) != len(self.players):  # none, or of another game's state
            seats, ext = [_player_copy(p) for p in self.players], None
        else:
            seats, ext = [], last[-1]
            for p, kept in zip(self.players, last[0]):
                # the fields as they are, compared with the kept copies in C: lists of numbers, equal or not
                now = (p.name, p.hand, p.trains, p.tickets, p.routes, p.route_points, p.resigned, p.decision,
                       p.trains_out)
                seats.append(kept if now == kept else _player_copy(p))
        return (
            seats,
            self.deck.copy(), self.discard.copy(), self.open_row.copy(), self.ticket_deck.copy(), self.owner.copy(),
            self.boxed_tickets.copy(),
            self.phase, self.current, self.turn, None if final is None else final.copy(), self.end_reason,
            _copy_ext(self.ext, ext),
        )

    @staticmethod
    def from_snapshot(snapshot: tuple) -> GameState:
        """A new state equal to the one ``snapshot`` was taken of, independent of it (the snapshot can
        be used again)."""
        seats, deck, discard, row, ticket_deck, owner, boxed, phase, current, turn, final, reason, ext = snapshot
        return GameState(
            [PlayerState(name, hand.copy(), trains, tickets.copy(), routes.copy(), points, resigned, decision, out)
             for name, hand, trains, tickets, routes, points, resigned, decision, out in seats],
            deck.copy(), discard.copy(), row.copy(), ticket_deck.copy(), owner.copy(),
            boxed.copy(), phase, current, turn, None if final is None else final.copy(), reason,
            _copy_ext(ext),
        )

    def dump(self) -> dict[str, Any]:
        data = _dump.unstructure(self)
        for p, player in zip(data["players"], self.players):
            if not player.trains_out:
                del p["trains_out"]
            p["decision"] = None if player.decision is None else {
                "type": type(player.decision).__name__, **_dump.unstructure(player.decision)
            }
        return data


def _player_copy(p: PlayerState) -> tuple:
    """A player's fields as a snapshot holds them (``GameState.snapshot``, ``from_snapshot``)."""
    return (p.name, p.hand.copy(), p.trains, p.tickets.copy(), p.routes.copy(), p.route_points, p.resigned,
            p.decision, p.trains_out)


def _copy_ext(ext: dict[str, Any], last: dict[str, Any] | None = None) -> dict[str, Any]:
    """Copies of the plugin states; ``last``, an earlier copy, is the answer again if it holds the
    very same states (shared, so frozen and holding nothing mutable: unchanged since)."""
    if last is not None and len(last) == len(ext):
        for name, value in ext.items():
            if last.get(name) is not value:
                break
        else:
            return last
    return dict(zip(ext, map(copy_plugin_state, ext.values())))


_ATOMIC = frozenset({int, float, complex, bool, str, bytes, type(None)})


class _Unusual(Exception):
    """A value that the copiers below do not copy: pickle does."""


def copy_plugin_state(value: Any) -> Any:
    """An independent copy of a plugin's state, the same as pickle's: a ``State`` class (attrs,
    slotted) whose fields hold numbers, strings and containers of them (a list, a set, a dict of
    them, a dict of lists of them, a tuple or frozenset) is copied field by field, the containers
    shallowly; a frozen one holding nothing mutable is shared. Anything else, or a container held
    twice, goes through pickle (``copy.deepcopy`` is slower)."""
    try:
        copier = _COPIERS[type(value)]
    except KeyError:
        copier = _COPIERS.setdefault(type(value), _copier_of(type(value)))
    try:
        return copier(value)
    except _Unusual:
        return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


def _copier_of(kind: type) -> Callable[[Any], Any]:
    """The copier of a ``State`` class, compiled once: its fields read and set by name, the common
    case (every field atomic) without a loop."""
    names = _plain_attrs_fields(kind)
    if not names:
        return _unusual
    frozen = _is_frozen(kind, names)
    read = [f"f{i} = value.{name}" for i, name in enumerate(names)]
    atomic = " and ".join(f"type(f{i}) in _ATOMIC" for i in range(len(names)))
    fields = ", ".join(f"f{i}" for i in range(len(names)))
    made = ["twin = new(kind)", *(f"set(twin, {name!r}, f{i})" for i, name in enumerate(names)), "return twin"]
    body = [*read, f"if {atomic}:", *(["    return value"] if frozen else [f"    {line}" for line in made]),
            f"return copy_fields(value, ({fields},))"]
    source = "def copy(value):\n" + "".join(f"    {line}\n" for line in body)
    space = {"_ATOMIC": _ATOMIC, "new": object.__new__, "kind": kind, "set": object.__setattr__}
    space["copy_fields"] = functools.partial(_copy_fields, kind, names, frozen)
    exec(compile(source, f"<copier of {kind.__qualname__}>", "exec"), space)  # noqa: S102 - our own text
    return space["copy"]


def _copy_fields(kind: type, names: tuple[str, ...], frozen: bool, value: Any, fields: tuple) -> Any:
    """A copy of ``value``, an attrs instance with ``fields`` (some not atomic) named ``names``
    (frozen classes too)."""
    held: list[int] = []
    fields = [_copy_field(field, held) for field in fields]
    if frozen and not held:
        return value  # nothing in it can change: the copy is the value itself
    if len(held) != len(set(held)):
        raise _Unusual(value)  # a container held twice stays one container in pickle's copy
    twin = object.__new__(kind)
    for name, field in zip(names, fields):
        object.__setattr__(twin, name, field)
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


def _unusual(value: Any) -> Any:
    raise _Unusual(value)


def _plain_attrs_fields(kind: type) -> tuple[str, ...] | None:
    """The field names of an attrs class whose instances hold nothing but their fields (slotted,
    no other slot, no ``__dict__``), else None."""
    if not attrs.has(kind) or kind.__dictoffset__:
        return None
    names = tuple(a.name for a in attrs.fields(kind))
    slots = {name for cls in kind.__mro__ for name in getattr(cls, "__slots__", ()) if name != "__weakref__"}
    return names if slots == set(names) else None


def _is_frozen(kind: type, names: tuple[str, ...]) -> bool:
    """Whether ``kind``'s instances refuse new values (``attrs.frozen``)."""
    try:
        setattr(object.__new__(kind), names[0], None)
    except attrs.exceptions.FrozenInstanceError:
        return True
    except Exception:  # noqa: BLE001 - a validator refusing None: a class that takes new values
        return False
    return False


_COPIERS: dict[type, Callable[[Any], Any]] = {}


def digest(data: Any) -> str:
    """A short stable fingerprint of JSON data."""
    raw = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(raw).hexdigest()[:16]
