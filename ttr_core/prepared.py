"""What every game of one ruleset shares, built once from the ruleset's plugins, before any game:
the plugin manager and its hook relay, the action registry, the deck's composition, the route
points (by length, and of each map route) and the answers of the per-ruleset hooks.

Building is one-way: this module never sees a ``Game``; a game only reads what is built here. The
variant check builds it too (``ttr_core.variant``), so a variant whose plugins do not fit each
other is refused before any game runs, and the games of the ruleset reuse what the check built.

Plugins are rules, not state: whatever changes during a game lives in ``game.state`` (which
records, snapshots and rebuilds carry), so one plugin instance serves every game of its ruleset.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import pluggy

from ttr_core import manager
from ttr_core.actions import ActionRegistry
from ttr_core.board import Board
from ttr_core.cards import CardKinds
from ttr_core.errors import PluginError


@attrs.define(eq=False)
class PreparedRules:
    pm: pluggy.PluginManager
    hook: manager.HookRelay
    registry: ActionRegistry
    deck_counts: dict[str, int]
    cards: CardKinds
    #: route points by length (``ttr_route_points``)
    points: dict[int, int]
    #: notes each consultation of a plugin that does not declare itself deterministic (it may
    #: depend on more than the game: the clock, a service); None when every plugin is deterministic
    watch: Watch | None
    #: answers of per-ruleset hooks by (hook, kwargs): they cannot change between games
    answers: dict[tuple, Any] = attrs.Factory(dict)
    #: the points of each map route, by route index (``ttr_route_score``; None: it scores nothing,
    #: which the variant check refuses)
    route_scores: tuple[int | None, ...] = ()

    def policy(self, hook: str, **kwargs: Any) -> Any:
        """The answer of a per-ruleset hook (``@per_ruleset``), asked once and kept."""
        key = (hook, *sorted(kwargs.items()))
        try:
            return self.answers[key]
        except KeyError:
            answer = self.answers[key] = getattr(self.hook, hook)(**kwargs)
            return answer

    def plugins(self) -> list[tuple[str, Any]]:
        """``(name, instance)`` of every plugin, in the variant's order."""
        return self.pm.list_name_plugin()


def prepare(plugins: Sequence[str], configs: Mapping[str, Any], board: Board) -> PreparedRules:
    """Build the shared part of a ruleset; a ``PluginError`` lists every problem found."""
    pm = manager.build_manager(plugins, configs)
    watch = _watch_unpredictable(pm)  # before the relay: it calls the implementations it finds
    hook = manager.HookRelay(pm)
    try:
        registry = _register_actions(hook)
        counts = _deck_counts(hook, board)
        points = hook.ttr_route_points()
        scores = _route_scores(hook, board, dict(points or {}))
    except PluginError:
        raise
    except Exception as exc:  # a plugin failed while the ruleset was built
        raise manager.blame(pm, exc, None, None, doing="building the ruleset") from exc
    return PreparedRules(
        pm=pm, hook=hook, registry=registry, deck_counts=counts, cards=CardKinds.from_counts(counts),
        points=dict(points or {}),
        watch=watch, route_scores=scores,
    )


class Watch:
    """Notes when a plugin that may not replay was consulted: each consultation leaves a new
    ``token``. A game compares the token with the one it saw when it last copied its state
    (``Game.apply``): an unchanged token means that every action since the copy replays exactly.

    Shared by the games of a ruleset; another game's consultation only makes a game copy its
    state once more than it needed to. A new object per consultation (not a counter) makes that
    true under threads too: an assignment is atomic, and no token is ever made twice."""

    __slots__ = ("token", "plugins")

    def __init__(self, plugins: frozenset[str]):
        self.token = object()
        #: the names of the plugins watched
        self.plugins = plugins

    def consulted(self) -> None:
        self.token = object()


def _watch_unpredictable(pm: pluggy.PluginManager) -> Watch | None:
    """Wrap every hook implementation of the plugins that are not deterministic so that calling it
    leaves a new token in the returned ``Watch`` (their action handlers are noted by the game,
    which knows each action's plugin from the registry)."""
    plugins = frozenset(name for name, p in pm.list_name_plugin() if not getattr(p, "deterministic", False))
    if not plugins:
        return None
    watch = Watch(plugins)
    for hook in manager.spec_names(pm):
        for impl in getattr(pm.hook, hook).get_hookimpls():
            if impl.plugin_name in plugins:
                impl.function = _noted(impl.function, watch)
    return watch


def _noted(function: Callable, watch: Watch) -> Callable:
    @functools.wraps(function)  # ``__wrapped__`` lets ``manager.blame`` still find the plugin's frame
    def noted(*args: Any) -> Any:
        watch.token = object()  # ``watch.consulted()``, called at every consultation
        return function(*args)

    noted.noted_by = watch  # the hook relay inlines the note (``manager._relayed``)
    return noted


def _register_actions(hook: manager.HookRelay) -> ActionRegistry:
    registry = ActionRegistry()
    for impl in reversed(hook.ttr_register_actions.get_hookimpls()):
        registry.current_plugin = impl.plugin_name
        impl.function(*[{"registry": registry}[a] for a in impl.argnames])
    registry.current_plugin = "?"
    return registry


def _route_scores(hook: manager.HookRelay, board: Board, table: dict[int, int]) -> tuple[int | None, ...]:
    # the board is fixed per ruleset: every route is asked once here, never during a game
    return tuple(hook.ttr_route_score(route=route, table=table) for route in board.routes)


def _deck_counts(hook: manager.HookRelay, board: Board) -> dict[str, int]:
    counts: dict[str, int] = {}
    for answer in hook.ttr_deck_cards(board=board):
        for name, n in (answer or {}).items():
            counts[name] = counts.get(name, 0) + n
    return counts

