"""Every error the engine raises on purpose.

Errors about a player's action carry the seat, the action and the reason, so that a host can
show them as they are (boardgame.io and python-chess do the same). Errors about files carry
every problem found, each located as ``file: path: problem``.
"""

from __future__ import annotations


class TTRError(Exception):
    """Base class of all ttr-engine errors."""


# --- actions ---------------------------------------------------------------------------------


class IllegalAction(TTRError):
    """An action that the rules do not allow now. The game state is unchanged."""

    def __init__(self, seat: int | None, action: object, reason: str):
        self.seat = seat
        self.action = action
        self.reason = reason
        super().__init__(f"seat {seat}: {_describe(action)}: {reason}")


class NotYourTurn(IllegalAction):
    """The seat may not act now."""


class NotLegalNow(IllegalAction):
    """This kind of action is not allowed at this point of the turn (e.g. during a pending decision)."""


class CannotPay(IllegalAction):
    """The payment does not fit the route, or the hand does not hold it."""


class RouteTaken(IllegalAction):
    """The route is owned already, or closed to this seat (parallel routes)."""


class GameOver(IllegalAction):
    """The game has ended; no action is accepted."""


class MalformedAction(IllegalAction):
    """The action is not a known action type, or its fields are of the wrong kind."""


def _describe(action: object) -> str:
    kind = getattr(action, "kind", None)
    return f"{kind} {action!r}" if kind else repr(action)


# --- plugins ---------------------------------------------------------------------------------


class PluginError(TTRError):
    """A plugin could not be loaded or does not fit the hook specifications or the other plugins.

    ``problems`` lists each problem found, one sentence each (the message joins them)."""

    def __init__(self, message: str, problems: list[str] | None = None):
        super().__init__(message)
        self.problems = list(problems) if problems else [message]


class UnknownPlugin(PluginError):
    """A variant names a plugin that no installed package provides."""


class PluginConflict(PluginError):
    """Two plugins answer the same single-answer hook, or register the same action or name."""


class PluginFailed(TTRError):
    """A plugin raised inside a hook or an action handler. The action was rejected."""

    def __init__(
        self, plugin: str, hook: str, seat: int | None, action: object, exc: BaseException, doing: str | None = None,
        where: str | None = None,
    ):
        self.plugin, self.hook, self.seat, self.action, self.original = plugin, hook, seat, action, exc
        #: ``FILE:LINE`` of the innermost frame of the plugin's code in the traceback, if any
        self.where = where
        at = f" at {where}" if where else ""
        if doing is None:
            super().__init__(
                f"plugin {plugin!r} failed in {hook}{at} while applying {_describe(action)} for seat {seat}: "
                f"{type(exc).__name__}: {exc}; the action was rejected and the game is unchanged"
            )
        else:  # not while applying an action: while setting up a game, listing legal actions...
            super().__init__(f"plugin {plugin!r} failed in {hook}{at} while {doing}: {type(exc).__name__}: {exc}")


# --- files -----------------------------------------------------------------------------------


class FileProblems(TTRError):
    """One or more problems in a variant, map, record or position file, each located."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


class VariantError(FileProblems):
    """A variant or map file is broken."""


class RecordError(FileProblems):
    """A game record or position file is broken, or does not reproduce."""
