"""Copies of a game's state: ``GameState.copy()`` (clones), ``snapshot()``/``from_snapshot()``
(the checkpoints of games with plugins that may not replay, ``Game.apply``) and
``copy_plugin_state`` for each kind of plugin state. A copy equals its original, has the same
types, and is independent of it: changing one never changes the other."""

from __future__ import annotations

import collections
import pickle

import attrs
import pytest

from ttr_core.state import Decision, GameState, PlayerState, copy_plugin_state
from ttr_plugins.passing import PassingState
from ttr_plugins.stations import StationsState


@attrs.frozen
class Frozen:
    n: int
    name: str
    seats: tuple[int, ...] = (1, 2)
    cities: frozenset[str] = frozenset({"Wien"})


@attrs.define
class Counting:  # mutable, atomic fields: copied field by field
    count: int


@attrs.frozen
class FrozenHoldingAList:
    seen: list[int]


@attrs.define
class Containers:
    seats: list[int]
    counts: dict[int, int]
    cities: dict[int, list[str]]
    visited: set[str]
    last: tuple[int, str] | None = None


@attrs.define
class Nested:  # lists of lists: pickle
    rows: list[list[int]]


@attrs.define
class HeldTwice:  # one list in two fields: pickle keeps it one list
    a: list[int]
    b: list[int]


@attrs.define
class Defaults:  # a dict subclass: pickle keeps its type and its factory
    counts: collections.defaultdict


@attrs.define(slots=False)
class NotSlotted:
    n: int
    seats: list[int]


class Plain:  # not attrs: pickle
    def __init__(self):
        self.seats = [1, 2]

    def __eq__(self, other):
        return type(other) is Plain and other.seats == self.seats


def shared_list() -> HeldTwice:
    seats = [1, 2]
    return HeldTwice(seats, seats)


STATES = {
    "passing (frozen, atomic fields)": lambda: PassingState(2),
    "mutable, atomic fields": lambda: Counting(2),
    "stations (dicts of numbers and of lists)": lambda: StationsState({0: 1, 1: 0}, {0: ["Paris"], 1: []}),
    "frozen, immutable fields": lambda: Frozen(3, "x"),
    "frozen, holding a list": lambda: FrozenHoldingAList([1, 2]),
    "containers of atomics": lambda: Containers([1, 2], {1: 2}, {0: ["a"], 1: []}, {"a"}, (1, "b")),
    "lists of lists": lambda: Nested([[1], [2, 3]]),
    "a list held twice": shared_list,
    "a defaultdict": lambda: Defaults(collections.defaultdict(list, {1: [2]})),
    "not slotted": lambda: NotSlotted(1, [2]),
    "not attrs": Plain,
}


def containers(value) -> list:
    """The mutable containers in ``value`` (a state), to any depth."""
    if isinstance(value, list | dict | set):
        items = list(value.values()) if isinstance(value, dict) else list(value)
        return [value] + [c for item in items for c in containers(item)]
    if attrs.has(type(value)):
        return [c for f in attrs.fields(type(value)) for c in containers(getattr(value, f.name))]
    if isinstance(value, Plain):
        return [value.seats]
    return []


@pytest.mark.parametrize("kind", list(STATES))
def test_a_plugin_state_copy_is_equal_and_independent(kind):
    original = STATES[kind]()
    twin = copy_plugin_state(original)
    assert twin == original and type(twin) is type(original)
    assert pickle.dumps(twin) == pickle.dumps(original)  # same types all the way down
    mine, theirs = containers(original), containers(twin)
    assert len(mine) == len(theirs)
    assert not {id(c) for c in mine} & {id(c) for c in theirs}, "a container is shared with the original"
    if not mine:
        return
    if isinstance(theirs[-1], dict):
        theirs[-1]["added"] = 1
    elif isinstance(theirs[-1], set):
        theirs[-1].add("added")
    else:
        theirs[-1].append("added")
    assert twin != original and original == STATES[kind]()


def test_a_frozen_state_holding_nothing_mutable_is_shared_and_a_mutable_one_is_not():
    frozen = Frozen(1, "a")
    assert copy_plugin_state(frozen) is frozen
    assert copy_plugin_state(PassingState(1)) == PassingState(1)
    counting = Counting(1)
    twin = copy_plugin_state(counting)
    assert twin is not counting
    twin.count += 1
    assert counting.count == 1


def test_a_list_held_twice_stays_one_list_in_the_copy():
    twin = copy_plugin_state(shared_list())
    assert twin.a is twin.b


@attrs.frozen
class Waiting(Decision):
    tickets: tuple[int, ...] = (1, 2)


def full_state() -> GameState:
    """A state with every field away from its default, plugin states of several kinds."""
    players = [
        PlayerState(f"P{i}", [i, 1, 2], 40 - i, [i, 7], [3 + i], 5 + i, i == 2,
                    Waiting("tickets", ("keep",)) if i else None, i)
        for i in range(3)
    ]
    return GameState(players, [1, 2, 3], [4], [5, -1], [6, 7], [-1, 0, 1], [8], "play", 1, 9, [2, 0], "why",
                     {name: make() for name, make in STATES.items()})


def test_every_field_is_set_away_from_its_default_in_the_full_state():
    st = full_state()
    for cls, value in ((GameState, st), (PlayerState, st.players[2])):
        for field in attrs.fields(cls):
            if field.default is not attrs.NOTHING:
                default = field.default.factory() if isinstance(field.default, attrs.Factory) else field.default
                assert getattr(value, field.name) != default, f"{cls.__name__}.{field.name}: give it a value"


def test_a_copy_of_the_state_is_equal_and_independent():
    st = full_state()
    twin = st.copy()
    assert twin is not st
    assert twin == st and twin.dump() == st.dump()
    assert_independent_pair(st, twin)


def assert_independent_pair(original: GameState, twin: GameState) -> None:
    before = original.dump()
    assert twin.players is not original.players and twin.ext is not original.ext
    for name in ("deck", "discard", "open_row", "ticket_deck", "owner", "boxed_tickets", "final_round"):
        assert getattr(twin, name) is not getattr(original, name), name
    for p, q in zip(original.players, twin.players):
        assert p is not q and p.hand is not q.hand and p.tickets is not q.tickets and p.routes is not q.routes
        assert p.decision is q.decision  # frozen: shared
    twin.players[0].hand[0] += 1
    twin.deck.append(9)
    twin.final_round.append(1)
    twin.ext["mutable, atomic fields"].count += 1
    twin.ext["stations (dicts of numbers and of lists)"].cities[0].append("Roma")
    assert original.dump() == before


def test_a_snapshot_makes_equal_independent_states_again_and_again():
    st = full_state()
    snapshot = st.snapshot()
    first = GameState.from_snapshot(snapshot)
    assert first == st and first.dump() == st.dump()
    taken = st.dump()
    assert_independent_pair(st, first)
    st.players[1].routes.append(40)  # the state goes on: the snapshot does not
    st.ext["stations (dicts of numbers and of lists)"].built[0] = 3
    second = GameState.from_snapshot(snapshot)
    assert second.dump() == taken
    assert_independent_pair(st, second)


def test_a_snapshot_taken_from_the_last_one_equals_a_fresh_one_and_shares_only_what_did_not_change():
    st = full_state()
    last = st.snapshot()
    st.players[1].hand[0] += 1  # one turn: one player's hand, the deck, a mutable plugin state
    st.deck.pop()
    st.ext["mutable, atomic fields"].count += 1
    st.ext["passing (frozen, atomic fields)"] = PassingState(5)  # a frozen state is replaced
    now = st.snapshot(last)
    assert now == st.snapshot()
    seats, ext = now[0], now[-1]
    assert seats[0] is last[0][0] and seats[2] is last[0][2] and seats[1] is not last[0][1]
    assert ext is not last[-1] and ext["frozen, immutable fields"] is last[-1]["frozen, immutable fields"]
    assert GameState.from_snapshot(now).dump() == st.dump()
    again = st.snapshot(now)
    assert again[-1] is not now[-1], "a mutable plugin state is copied at every snapshot"


def test_a_snapshot_taken_from_the_last_one_of_a_state_with_other_players_takes_nothing_from_it():
    st, other = full_state(), full_state()
    other.players.pop()
    now = st.snapshot(other.snapshot())
    assert now == st.snapshot() and len(now[0]) == len(st.players)
