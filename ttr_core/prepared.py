"""What every game of one ruleset shares, built once from the ruleset's plugins, before any game:
the plugin manager and its hook relay, the action registry, the deck's composition, the route
points table and the answers of the per-ruleset hooks.

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


@attrs.define(eq=False)
class PreparedRules:
    pm: pluggy.PluginManager
    hook: manager.HookRelay
    registry: ActionRegistry
    deck_counts: dict[str, int]
    cards: CardKinds
    #: route points by length (``ttr_route_points``)
    points: dict[int, int]
    #: plugins that do not declare themselves deterministic may depend on more than the game (the
    #: clock, a service): their failures are also undone from a per-action snapshot, should the
    #: log not replay
    snapshots: bool
    #: answers of per-ruleset hooks by (hook, kwargs): they cannot change between games
    answers: dict[tuple, Any] = attrs.Factory(dict)

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
    hook = manager.HookRelay(pm)
    try:
        registry = _register_actions(hook)
        counts = _deck_counts(hook, board)
        points = hook.ttr_route_points()
    except PluginError:
        raise
    except Exception as exc:  # a plugin failed while the ruleset was built
        raise manager.blame(pm, exc, None, None, doing="building the ruleset") from exc
    return PreparedRules(
        pm=pm, hook=hook, registry=registry, deck_counts=counts, cards=CardKinds.from_counts(counts),
        points=dict(points or {}),
        snapshots=not all(getattr(p, "deterministic", False) for _, p in pm.list_name_plugin()),
    )


def _register_actions(hook: manager.HookRelay) -> ActionRegistry:
    registry = ActionRegistry()
    for impl in reversed(hook.ttr_register_actions.get_hookimpls()):
        registry.current_plugin = impl.plugin_name
        impl.function(*[{"registry": registry}[a] for a in impl.argnames])
    registry.current_plugin = "?"
    return registry


def _deck_counts(hook: manager.HookRelay, board: Board) -> dict[str, int]:
    counts: dict[str, int] = {}
    for answer in hook.ttr_deck_cards(board=board):
        for name, n in (answer or {}).items():
            counts[name] = counts.get(name, 0) + n
    return counts

