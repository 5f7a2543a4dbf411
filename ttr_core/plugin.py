"""What a rule plugin is: a class, found through the ``ttr`` entry-point group, instantiated once per
ruleset (a variant at one rules version) with its frozen attrs ``Config`` (the variant's
``[rules.<plugin name>]`` table); that instance serves every game of the ruleset.

A plugin keeps no game state on itself: what it must remember lives in ``game.state.ext``, so
that a game can be dumped, compared and replayed, and games running side by side stay apart
(``ttr variants check --play N`` reports a plugin whose instance changes from game to game).
Caches of facts that hold for the whole ruleset (a table built from the board) are fine.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from ttr_core.hookspecs import hookimpl

__all__ = ["Plugin", "NoConfig", "hookimpl"]


@attrs.frozen
class NoConfig:
    """The config of a plugin that takes no parameters."""


class Plugin:
    Config: ClassVar[type] = NoConfig
    #: the entry-point name this instance was loaded under; set by the manager
    name: str = ""

    def __init__(self, config: Any = None):
        self.config = config if config is not None else self.Config()

    def ext(self, game: Any) -> Any:
        """This plugin's slot in ``game.state.ext``."""
        return game.state.ext[self.name]
