"""Copies of a game's state: ``GameState.copy()`` (clones), ``snapshot()``/``from_snapshot()``
(the checkpoints of games with plugins that may not replay, ``Game.apply``) and
``copy_plugin_state`` for each kind of plugin state. A copy equals its original, has the same
types, and is independent of it: changing one never changes the other, whatever field of the
state or of a player it is in (every field attrs lists). Last, a checkpoint keeps the generator
as it was: a failed action is undone to it though the game drew since."""

from __future__ import annotations

import collections
import pickle
from typing import ClassVar

import attrs
import pytest

from ttr_bots import bot_class
from ttr_core import manager, variant
from ttr_core.errors import PluginFailed
from ttr_core.game import Game
from ttr_core.plugin import Plugin, hookimpl
from ttr_core.state import Decision, GameState, PlayerState, copy_plugin_state
from ttr_plugins.train_cards import DrawCard
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
        PlayerState(name=f"P{i}", hand=[i, 1, 2], trains=40 - i, tickets=[i, 7], routes=[3 + i], route_points=5 + i,
                    resigned=i == 2, decision=Waiting("tickets", ("keep",)) if i else None, trains_out=i)
        for i in range(3)
    ]
    return GameState(players=players, deck=[1, 2, 3], discard=[4], open_row=[5, -1], ticket_deck=[6, 7],
                     owner=[-1, 0, 1], boxed_tickets=[8], phase="play", current=1, turn=9, final_round=[2, 0],
                     end_reason="why", ext={name: make() for name, make in STATES.items()},
                     open_row_resets=4, open_row_reset_limits=1)


def test_every_field_is_set_away_from_its_default_in_the_full_state():
    """A field added to a player or the state must be given a value here, so that the tests below
    check that copies copy it."""
    st = full_state()
    for cls, value in ((GameState, st), (PlayerState, st.players[2])):
        for field in attrs.fields(cls):
            if field.default is not attrs.NOTHING:
                default = field.default.factory() if isinstance(field.default, attrs.Factory) else field.default
                assert getattr(value, field.name) != default, f"{cls.__name__}.{field.name}: give it a value"


def by_field(state: GameState) -> dict[str, list]:
    """The mutable containers of ``state``, to any depth, by the field that holds them: every
    field of the state and of each player, as attrs lists them (a field added later too)."""
    held = {f.name: containers(getattr(state, f.name)) for f in attrs.fields(GameState) if f.name != "players"}
    held["players"] = [state.players]
    for seat, player in enumerate(state.players):
        for f in attrs.fields(PlayerState):
            held[f"players[{seat}].{f.name}"] = containers(getattr(player, f.name))
    return held


def assert_apart(original: GameState, twin: GameState) -> None:
    """``twin`` equals ``original`` and shares none of its mutable containers, field by field."""
    assert twin == original and twin.dump() == original.dump()
    mine, theirs = by_field(original), by_field(twin)
    assert mine.keys() == theirs.keys()
    for name in mine:
        assert len(mine[name]) == len(theirs[name]), name
        assert not {id(c) for c in mine[name]} & {id(c) for c in theirs[name]}, f"{name} is shared with the original"


def change_everything(state: GameState) -> None:
    """Change every mutable container in ``state``, in place."""
    for held in by_field(state).values():
        for container in held:
            if isinstance(container, dict):
                container["added"] = 1
            elif isinstance(container, set):
                container.add("added")
            else:
                container.append("added")


COPIES = {
    "copy()": lambda st: st.copy(),
    "from_snapshot(snapshot())": lambda st: GameState.from_snapshot(st.snapshot()),
    "from a snapshot taken from the last one": lambda st: GameState.from_snapshot(st.snapshot(st.snapshot())),
    "a snapshot's own state": lambda st: st.snapshot().state,
}


@pytest.mark.parametrize("how", list(COPIES))
def test_every_field_of_a_copy_is_its_own(how):
    st = full_state()
    twin = COPIES[how](st)
    assert_apart(st, twin)
    change_everything(twin)
    assert st == full_state(), "changing the copy changed the original"
    twin = COPIES[how](st)
    change_everything(st)
    assert twin == full_state(), "changing the original changed the copy"


def test_a_copy_shares_only_the_frozen_decisions_and_frozen_plugin_states_of_plain_values():
    st = full_state()
    twin = st.copy()
    assert twin.players[1].decision is st.players[1].decision
    assert twin.ext["frozen, immutable fields"] is st.ext["frozen, immutable fields"]
    assert twin.ext["frozen, holding a list"] is not st.ext["frozen, holding a list"]


def test_a_snapshot_makes_equal_independent_states_again_and_again():
    st = full_state()
    snapshot = st.snapshot()
    first = GameState.from_snapshot(snapshot)
    taken = st.dump()
    assert_apart(st, first)
    st.players[1].routes.append(40)  # the state goes on: the snapshot does not
    st.ext["stations (dicts of numbers and of lists)"].built[0] = 3
    change_everything(first)
    second = GameState.from_snapshot(snapshot)
    assert second.dump() == taken
    assert_apart(second, GameState.from_snapshot(snapshot))


def test_a_snapshot_taken_from_the_last_one_equals_a_fresh_one_and_shares_only_what_did_not_change():
    st = full_state()
    last = st.snapshot()
    st.players[1].hand[0] += 1  # one turn: one player's hand, the deck, a mutable plugin state
    st.deck.pop()
    st.ext["mutable, atomic fields"].count += 1
    st.ext["passing (frozen, atomic fields)"] = PassingState(5)  # a frozen state is replaced
    now = st.snapshot(last)
    assert now == st.snapshot()
    seats, kept = now.state.players, last.state.players
    assert seats[0] is kept[0] and seats[2] is kept[2] and seats[1] is not kept[1]
    ext = now.state.ext
    assert ext is not last.state.ext and ext["frozen, immutable fields"] is last.state.ext["frozen, immutable fields"]
    assert now.state.deck is not last.state.deck
    assert GameState.from_snapshot(now).dump() == st.dump()
    again = st.snapshot(now)
    assert again.state.ext is not now.state.ext, "a mutable plugin state is copied at every snapshot"


def test_a_snapshot_of_an_unchanged_state_shares_its_plugin_states_when_all_are_frozen():
    st = full_state()
    st.ext = {name: st.ext[name] for name in ("passing (frozen, atomic fields)", "frozen, immutable fields")}
    last = st.snapshot()
    assert st.snapshot(last).state.ext is last.state.ext
    st.ext["passing (frozen, atomic fields)"] = PassingState(5)
    assert st.snapshot(last).state.ext is not last.state.ext


def test_a_snapshot_taken_from_the_last_one_of_a_state_with_other_players_takes_nothing_from_it():
    st, other = full_state(), full_state()
    other.players.pop()
    now = st.snapshot(other.snapshot())
    assert now == st.snapshot() and len(now.state.players) == len(st.players)
    assert_apart(st, now.state)


# --- the checkpoint and the generator: a failed action undone in a game whose plugins draw ---------


class AsksAtEachTurnsEnd(Plugin):
    """Consulted at each turn's end and not deterministic: the game keeps a checkpoint after each
    turn, sharing its generator with it."""

    @hookimpl
    def ttr_turn_ended(self, game):
        return None


class DrawsAtEachCard(Plugin):
    """Draws from the game's generator at each card taken (as a replay draws again: deterministic),
    and fails the card taken when the log holds ``fail_at`` actions."""

    deterministic = True
    fail_at: ClassVar[int] = 10**9

    @hookimpl
    def ttr_card_taken(self, game):
        game.rng.random()
        if len(game.log) == DrawsAtEachCard.fail_at:
            raise RuntimeError("no more cards")


def test_a_failed_action_is_undone_to_the_generator_the_checkpoint_shared_though_the_game_drew_since(tmp_path):
    """Cards drawn after the last turn's end drew from the generator the checkpoint shares; undoing
    a failed draw from the checkpoint gives back the generator as it was before that draw: the game
    is the one a replay of its log makes, and goes on drawing the same numbers."""
    path = tmp_path / "usa-drawing.toml"
    path.write_text('id = "usa-drawing"\ntitle = "t"\nextends = "usa"\n[versions.1]\n'
                    'add_plugins = ["asks", "draws"]\n', encoding="utf-8")
    DrawsAtEachCard.fail_at = 10**9
    with manager.local_plugins({"asks": AsksAtEachTurnsEnd, "draws": DrawsAtEachCard}):
        ruleset = variant.load(str(path))
        game = Game(ruleset, ["P1", "P2"], 3)
        bots = [bot_class("random")(3, seat) for seat in range(2)]
        while game.state.turn < 6 or not any(a.kind == "draw-card" for a in game.legal_actions(game.state.current)):
            seat = game.to_act()[0]
            game.apply(seat, bots[seat].choose(game.seat_view(seat)))
        seat = game.state.current
        game.apply(seat, DrawCard(None))  # a first card this turn: a draw from the shared generator
        assert game.state.current == seat  # a blind draw: the turn goes on
        before = game.dump()
        DrawsAtEachCard.fail_at = len(game.log)
        with pytest.raises(PluginFailed):
            game.apply(seat, DrawCard(None))
        DrawsAtEachCard.fail_at = 10**9
        assert game.dump() == before
        replayed = Game(ruleset, ["P1", "P2"], 3)
        for seat, action in game.log:
            replayed.apply(seat, action)
        assert replayed.dump() == game.dump()  # the generator's state included
        assert [game.rng.random() for _ in range(3)] == [replayed.rng.random() for _ in range(3)]
