"""What every game of one ruleset shares, built once from the ruleset's plugins, before any game:
the plugin manager and its hook callers, the action registry, the deck's composition, the route
points (by length, and of each map route) and the answers of the per-ruleset hooks.

Building is one-way: this module never sees a ``Game``; a game only reads what is built here. The
variant check builds it too (``ttr_core.variant``), so a variant whose plugins do not fit each
other is refused before any game runs, and the games of the ruleset reuse what the check built.

Plugins are rules, not state: whatever changes during a game lives in ``game.state`` (which
records, snapshots and rebuilds carry), so one plugin instance serves every game of its ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import pluggy

from ttr_core import manager
from ttr_core.actions import ActionRegistry
from ttr_core.board import Board
from ttr_core.cards import CardKinds
from ttr_core.errors import PluginError
from ttr_core.hookspecs import hookimpl


@attrs.define(eq=False)
class PreparedRules:
    pm: pluggy.PluginManager
    #: ``game.hook``: pluggy's hook callers, a stand-in for each hook no plugin implements
    hook: manager.RulesetHooks
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
        return manager.rule_plugins(self.pm)


def prepare(plugins: Sequence[str], configs: Mapping[str, Any], board: Board) -> PreparedRules:
    """Build the shared part of a ruleset; a ``PluginError`` lists every problem found."""
    pm = manager.build_manager(plugins, configs)
    watch = _watch_unpredictable(pm)  # before the hooks are looked up: it wraps some of them
    hook = manager.RulesetHooks(pm)
    try:
        registry = _register_actions(pm)
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
    """Register on ``pm`` a hook wrapper (``hookimpl(wrapper=True)``, named ``manager.WATCH``) that
    notes in the returned ``Watch`` each call of a hook implemented by a plugin that is not
    deterministic. The game notes their action handlers itself: it knows each action's plugin
    from the registry. A call is noted even when a first result stops it before the watched
    plugin is asked: the game then copies its state once more than it needed to."""
    plugins = frozenset(name for name, p in pm.list_name_plugin() if not getattr(p, "deterministic", False))
    if not plugins:
        return None
    watch = Watch(plugins)

    @hookimpl(wrapper=True)
    def note_consultation():
        watch.consulted()
        return (yield)

    watched = [
        hook for hook in manager.spec_names(pm)
        if not getattr(pm.hook, hook).is_historic()
        and any(impl.plugin_name in plugins for impl in getattr(pm.hook, hook).get_hookimpls())
    ]
    pm.register(_HookWrappers(dict.fromkeys(watched, note_consultation)), name=manager.WATCH)
    return watch


class _HookWrappers:
    """A plugin object whose attributes are the given hook implementations, by hook name (the
    hooks are known only once the ruleset's plugins are)."""

    def __init__(self, implementations: Mapping[str, Any]):
        vars(self).update(implementations)


def _register_actions(pm: pluggy.PluginManager) -> ActionRegistry:
    """The actions of every plugin, asked of one plugin at a time (pluggy's ``subset_hook_caller``)
    in the order pluggy calls them, so that the registry knows whose each action is."""
    registry = ActionRegistry()
    impls = [i for i in pm.hook.ttr_register_actions.get_hookimpls() if not (i.wrapper or i.hookwrapper)]
    for impl in reversed(impls):
        others = [other.plugin for other in impls if other is not impl]
        registry.current_plugin = impl.plugin_name
        pm.subset_hook_caller("ttr_register_actions", remove_plugins=others)(registry=registry)
    registry.current_plugin = "?"
    return registry


def _route_scores(hook: manager.RulesetHooks, board: Board, table: dict[int, int]) -> tuple[int | None, ...]:
    # the board is fixed per ruleset: every route is asked once here, never during a game
    return tuple(hook.ttr_route_score(route=route, table=table) for route in board.routes)


def _deck_counts(hook: manager.RulesetHooks, board: Board) -> dict[str, int]:
    counts: dict[str, int] = {}
    for answer in hook.ttr_deck_cards(board=board):
        for name, n in (answer or {}).items():
            counts[name] = counts.get(name, 0) + n
    return counts
