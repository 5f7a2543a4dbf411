"""What every game of one ruleset shares, built by its first game and kept while the ruleset lives:
the plugin instances and their hook relay, the action registry, the deck's composition, the route
points table and the answers of policy hooks.

Plugins are rules, not state: whatever changes during a game lives in ``game.state`` (which
records, snapshots and rebuilds carry), so one plugin instance serves every game of its ruleset.
Building a pluggy manager inspects the signature of every hook implementation (~1.5 ms); once per
game, that was a tenth of a random-bot game and a fifth of a replay.
"""

from __future__ import annotations

import weakref
from typing import Any

import attrs
import pluggy

from ttr_core.actions import ActionRegistry
from ttr_core.cards import CardKinds
from ttr_core.manager import HookRelay


@attrs.define(eq=False)
class PreparedRules:
    pm: pluggy.PluginManager
    hook: HookRelay
    registry: ActionRegistry
    deck_counts: dict[str, int]
    cards: CardKinds
    points: dict[int, int]
    #: policy answers by (hook, kwargs): a policy cannot change during play, nor between games
    policies: dict[tuple, Any]
    #: plugins from outside this package may depend on more than the game (the clock, a service):
    #: their failures are also undone from a per-action snapshot, should the log not replay
    snapshots: bool


# by id(): rulesets hold a board, which is not hashable; the entry goes when the ruleset does
_BY_RULESET: dict[int, PreparedRules] = {}


def get(ruleset: object) -> PreparedRules | None:
    return _BY_RULESET.get(id(ruleset))


def keep(ruleset: object, prepared: PreparedRules) -> PreparedRules:
    key = id(ruleset)
    if key not in _BY_RULESET:
        weakref.finalize(ruleset, _BY_RULESET.pop, key, None)
    _BY_RULESET[key] = prepared
    return prepared
