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
        """An independent copy, made field by field: lists are copied, decisions (frozen) are shared,
        plugin states are copied by :func:`copy_plugin_state` (search bots and games with plugins
        that may not replay copy often)."""
        return GameState(
            players=[
                PlayerState(p.name, p.hand[:], p.trains, p.tickets[:], p.routes[:], p.route_points, p.resigned, p.decision,
                            p.trains_out)
                for p in self.players
            ],
            deck=self.deck[:],
            discard=self.discard[:],
            open_row=self.open_row[:],
            ticket_deck=self.ticket_deck[:],
            owner=self.owner[:],
            boxed_tickets=self.boxed_tickets[:],
            phase=self.phase,
            current=self.current,
            turn=self.turn,
            final_round=None if self.final_round is None else self.final_round[:],
            end_reason=self.end_reason,
            ext={name: copy_plugin_state(value) for name, value in self.ext.items()},
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


_ATOMIC = frozenset({int, float, bool, str, bytes, type(None)})


def copy_plugin_state(value: Any) -> Any:
    """An independent copy of a plugin's state: an attrs instance whose fields all hold numbers,
    strings or None is copied field by field; anything else through pickle (``copy.deepcopy``
    is slower for both)."""
    names = _field_names(type(value))
    if names is not None:
        fields = [getattr(value, name) for name in names]
        if all(type(f) in _ATOMIC for f in fields):
            twin = object.__new__(type(value))
            for name, field in zip(names, fields):
                object.__setattr__(twin, name, field)  # frozen classes too
            return twin
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


@functools.cache
def _field_names(cls: type) -> tuple[str, ...] | None:
    return tuple(a.name for a in attrs.fields(cls)) if attrs.has(cls) else None


def digest(data: Any) -> str:
    """A short stable fingerprint of JSON data."""
    raw = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(raw).hexdigest()[:16]
