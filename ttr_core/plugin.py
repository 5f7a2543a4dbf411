"""The public plugin API: everything a rule plugin may import from the engine, in one module.

A plugin imports from here and from nowhere else in the engine, and never from another plugin
(an import contract checks both in CI). What one plugin needs from another passes through hooks:
the plugin that calls a hook declares it (``ttr_addhooks``), and the plugins answering it name
the capability in ``requires``. The hook specs of the capabilities the built-in plugins provide
are part of this API too, in :mod:`ttr_core.roles` (``from ttr_core.roles import open_row``), so
that a plugin replacing a built-in one declares the same hooks without copying them.

A plugin is a class, found through the ``ttr`` entry-point group, instantiated once per ruleset
(a variant at one rules version) with its frozen attrs ``Config`` (the variant's
``[rules.<plugin name>]`` table); that instance serves every game of the ruleset. So a plugin
keeps no game state on itself: what it must remember is its typed ``State`` (an attrs class), which
the core creates for each game, carries in ``game.state`` and dumps with it (records, digests,
snapshots); ``self.state(game)`` reads it, ``self.set_state(game, new)`` replaces it. Caches of facts that hold for the whole ruleset (a
table built from the board) are fine on the instance.
"""

from __future__ import annotations

import random
from types import MappingProxyType
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Protocol

import attrs

from ttr_core.actions import Action, ActionHandler, ActionRegistry
from ttr_core.board import Board, City, Route, Ticket
from ttr_core.cards import COLORS, GRAY, LOCOMOTIVE, CardKinds
from ttr_core.claims import ClaimOptions, Payment
from ttr_core.errors import CannotPay, IllegalAction, MalformedAction, NotLegalNow, RecordError, RouteTaken
from ttr_core.hookspecs import hookimpl, hookspec, per_ruleset, required, single_answer
from ttr_core.network import DisjointSets, GrowingNetwork, NetworksBySeat, longest_trail, longest_trail_edges
from ttr_core.observing import ObservationPart
from ttr_core.open_row_table import Refill
from ttr_core.parameters import Parameter, parameter, parameters_of
from ttr_core.scoring import Borrow, Bonus, Highlight, PlayerScore, TicketOutcome, Winners
from ttr_core.state import Decision, GameState
from ttr_core.shuffle import shuffle
from ttr_core.table import CANNOT_PAY, CLOSED, TAKEN, TRAINS, Refusal

__all__ = [
    # writing a plugin
    "Plugin", "NoConfig", "GameAPI", "hookimpl", "hookspec", "single_answer", "per_ruleset", "required",
    # actions and decisions
    "Action", "ActionHandler", "ActionRegistry", "Decision",
    # the board, the cards, the state
    "Board", "City", "Route", "Ticket", "CardKinds", "COLORS", "GRAY", "LOCOMOTIVE", "GameState",
    # refusals
    "IllegalAction", "CannotPay", "MalformedAction", "NotLegalNow", "RouteTaken", "RecordError",
    "Refusal", "TAKEN", "CLOSED", "TRAINS", "CANNOT_PAY",
    # what a hand can pay for a route (ttr_claim_options)
    "ClaimOptions", "Payment",
    # scoring
    "Bonus", "Borrow", "PlayerScore", "TicketOutcome", "Winners",
    # what a page may mark on the board of a final position (ttr_highlights)
    "Highlight",
    # what a seat observes of this plugin in an environment (ttr_observation_parts)
    "ObservationPart",
    # graph helpers
    "DisjointSets", "GrowingNetwork", "NetworksBySeat", "longest_trail", "longest_trail_edges",
    # randomness: shuffling with the game's generator, as the core deals
    "shuffle",
    # the open row's table operations (GameAPI.refill_open_row)
    "Refill",
    # a Config's parameters, documented where they are declared
    "parameter", "Parameter", "parameters_of",
]

#: refusal codes that moved to the plugin refusing with them (``parallel-routes``): still importable
#: from here, with a warning, until a release drops them
_MOVED_CODES = MappingProxyType({"OWN_PARALLEL": "own-parallel", "CLOSED_PARALLEL": "closed-parallel"})


def __getattr__(name: str) -> Any:
    if name in _MOVED_CODES:
        warnings.warn(
            f"ttr_core.plugin.{name} is deprecated: the code {_MOVED_CODES[name]!r} is the parallel-routes "
            "plugin's own (R-PAR-1..2); compare Refusal.code with the string",
            DeprecationWarning, stacklevel=2,
        )
        return _MOVED_CODES[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@attrs.frozen
class NoConfig:
    """The config of a plugin that takes no parameters."""


class Plugin:
    #: the variant's ``[rules.<plugin name>]`` table, structured strictly (unknown keys are errors)
    Config: ClassVar[type] = NoConfig
    #: this plugin's per-game state, an attrs class (None: the plugin remembers nothing); the core
    #: creates it with ``new_state`` for every game and dumps it with the game's state. Its copies
    #: (clones; checkpoints, see ``deterministic``) are quickest when its fields hold numbers, strings,
    #: and lists, sets, tuples or dicts of them (dicts of such lists too): other values go through pickle
    State: ClassVar[type | None] = None
    #: capabilities this plugin needs some other enabled plugin to ``provide`` (``ttr variants check``
    #: refuses a variant that leaves one unmet, naming the plugin and what is missing)
    requires: ClassVar[tuple[str, ...]] = ()
    #: capabilities this plugin offers, usually the hooks it declares in ``ttr_addhooks``
    provides: ClassVar[tuple[str, ...]] = ()
    #: True if everything this plugin does follows from the game (its state, its generator): no clock,
    #: no file, no service. A failure while applying an action is then undone by replaying the log;
    #: otherwise the engine copies the state after each action that consulted this plugin (a hook
    #: or an action of its own), and undoes a failure from the last copy, never replaying it.
    deterministic: ClassVar[bool] = False
    #: the names of the attributes that hold caches of facts about the ruleset (tables worked out
    #: from the board and the rules, filled as the ruleset's games ask): never game state, which
    #: belongs in ``State``. The test kit's check that a plugin keeps no game state on itself
    #: (``ttr_kit.testing.conformance_problems``) leaves these out.
    caches: ClassVar[tuple[str, ...]] = ()
    #: what players call this rule, in plain words ("Longest route", "Stations"): a game page's rules
    #: panel shows it, never the plugin's name (empty: a page reads the name as words)
    title: ClassVar[str] = ""
    #: the entry-point name this instance was loaded under; set by the manager
    name: str = ""

    def __init__(self, config: Any = None):
        self.config = config if config is not None else self.Config()

    def bonus_titles(self) -> Mapping[str, str]:
        """What players call the bonuses this plugin gives at the end, by ``Bonus.name``
        (``{"unused-stations": "Stations kept"}``), in plain words: a game page's score table
        shows them, never the bonus's name. None by default: a plugin that gives no bonus."""
        return {}

    def fact_titles(self) -> Mapping[str, str]:
        """What players call the facts this plugin tells of a final position (``ttr_player_facts``),
        by their keys (``{"longest-path": "Longest trail"}``): a page's score table heads a
        column of them so. None by default."""
        return {}

    def new_state(self, players: int) -> Any:
        """This plugin's state at the start of a game of ``players`` players (``State()`` by default)."""
        assert self.State is not None
        return self.State()

    def state(self, game: GameAPI) -> Any:
        """This plugin's state in ``game`` (an instance of its ``State``)."""
        return game.state.ext[self.name]

    def set_state(self, game: GameAPI, state: Any) -> None:
        """Make ``state`` this plugin's state in ``game``: how a frozen ``State`` changes. Copies of
        the game (clones, checkpoints) share a frozen state holding only numbers and strings
        instead of copying it."""
        game.state.ext[self.name] = state


class GameAPI(Protocol):
    """What a plugin may read and call on a game (:class:`ttr_core.game.Game` is one)."""

    #: the whole mutable state: players, decks, open row, owners, phase, plugin states (``ext``)
    state: GameState
    #: the map: cities, routes, tickets (immutable)
    board: Board
    #: the card vocabulary of this game (names, ids, the locomotive's id)
    cards: CardKinds
    #: the train cards of the deck as the game starts, by name (every ``ttr_deck_cards`` answer added up)
    deck_counts: Mapping[str, int]
    #: the game's seeded generator: the only source of randomness a rule may use
    rng: random.Random
    #: the hook callers: ``game.hook.ttr_xxx(game=game, ...)``; ``game.hook.implemented``, the names
    #: of the hooks some plugin of the ruleset implements (a plugin calling a hook at every turn
    #: may ask it first)
    hook: Any
    #: the action kinds of this ruleset, and their (de)serialisation
    registry: ActionRegistry
    #: the seed the game was created with (records store it; randomness still comes from ``rng``)
    seed: int
    #: the players' names, by seat
    names: tuple[str, ...]
    #: what plugins work out from the state and keep between calls, by plugin name (``claiming``
    #: keeps the free routes sorted by paying kind): never part of the state, records or digests;
    #: a clone keeps a ``copy()`` of each value that has one. Check it against the state before
    #: use: a rolled-back action or a host may put another state under the game
    memo: dict[str, Any]

    @property
    def over(self) -> bool:
        """True once the game has ended and been scored."""

    def policy(self, hook: str, **kwargs: Any) -> Any:
        """The answer of a per-ruleset hook, asked once for every game of the ruleset."""

    def active_seats(self) -> list[int]:
        """The seats that have not resigned."""

    def has_regular_action(self, seat: int) -> bool:
        """True if ``seat`` has a legal action besides the fallback ones (pass)."""

    def cancel_decision(self, seat: int) -> None:
        """Drop ``seat``'s pending decision (``ttr_decision_cancelled`` puts its cards back)."""

    def finish(self, reason: str) -> None:
        """End the game now and score it."""

    # the table (ttr_core.table)
    def route_points(self, length: int) -> int: ...

    def route_score(self, route: Route) -> int: ...

    def draw_card(self) -> int | None: ...

    def place_route(self, seat: int, route: Route, paid: Iterable[tuple[int, int]] = ()) -> None: ...

    def free_route(self, route: Route) -> int: ...

    def closed_routes(self, seat: int) -> dict[int, str]: ...

    def closures(self, seat: int) -> dict[int, Refusal]: ...

    def claim_problem(self, seat: int, route: Route) -> Refusal | None: ...

    def legal_actions(self, seat: int) -> Sequence[Action]: ...

    # the open row (ttr_core.open_row_table): how the plugin providing ``open-row`` moves the face-up cards
    def lay_open_row(self, size: int) -> None: ...

    def deal_open_row(self) -> list[int]: ...

    def take_from_open_row(self, slot: int) -> int: ...

    def discard_open_row(self, slots: Iterable[int] | None = None) -> list[int]: ...

    def open_row_needs_reset(self) -> bool: ...

    def refill_open_row(self, max_resets: int) -> Refill: ...
