"""Finding plugins and building the plugin manager of one game.

Every plugin, built-in or third-party, is found through the ``ttr`` entry-point group, and each
game gets a fresh ``pluggy.PluginManager`` with only its variant's plugins (pytest builds one per
run for the same reason: nothing leaks between games). Problems are errors naming the plugin:
an unknown plugin name, a hook implementation that matches no spec, and two plugins answering
one policy hook.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import operator
from collections.abc import Mapping, Sequence
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import pluggy

from ttr_core import hookspecs
from ttr_core.errors import PluginConflict, PluginError, UnknownPlugin

GROUP = "ttr"

#: plugins enabled in-process by ``local_plugins`` (tests, a plugin not packaged yet)
_LOCAL: dict[str, type] = {}


@contextlib.contextmanager
def local_plugins(plugins: Mapping[str, type]):
    """Make plugin classes loadable by name without installing a package, for the ``with`` block."""
    from ttr_core import variant

    clash = sorted(set(plugins) & (set(available()) | set(_LOCAL)))
    if clash:
        raise PluginConflict(f"local plugin name(s) already taken: {', '.join(clash)}")
    _LOCAL.update(plugins)
    variant.clear_caches()
    try:
        yield
    finally:
        for name in plugins:
            _LOCAL.pop(name, None)
        variant.clear_caches()


@functools.cache
def available() -> Mapping[str, EntryPoint]:
    """All plugins installed, by entry-point name."""
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=GROUP):
        found.setdefault(ep.name, ep)
    return found


def plugin_class(name: str) -> type:
    if name in _LOCAL:
        return _LOCAL[name]
    return _installed_class(name)


@functools.cache
def _installed_class(name: str) -> type:
    eps = available()
    if name not in eps:
        close = difflib.get_close_matches(name, list(eps), n=3)
        hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
        raise UnknownPlugin(f"unknown plugin {name!r}{hint} (installed: {', '.join(sorted(eps))})")
    try:
        cls = eps[name].load()
    except Exception as exc:  # a broken third-party package must not look like our bug
        raise PluginError(f"plugin {name!r} ({eps[name].value}) failed to load: {type(exc).__name__}: {exc}") from exc
    return cls


def build_manager(plugins: Sequence[str], configs: Mapping[str, Any]) -> pluggy.PluginManager:
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    for name in plugins:
        cls = plugin_class(name)
        instance = cls(configs.get(name)) if configs.get(name) is not None else cls()
        instance.name = name
        try:
            pm.register(instance, name=name)
        except pluggy.PluginValidationError as exc:
            raise PluginError(f"plugin {name!r}: {exc}") from None
    _check_unknown_hooks(pm)
    _check_policies(pm)
    return pm


def _check_unknown_hooks(pm: pluggy.PluginManager) -> None:
    problems = []
    for name in dir(pm.hook):
        if not name.startswith("ttr_"):
            continue
        caller = getattr(pm.hook, name)
        if caller.spec is None:
            for impl in caller.get_hookimpls():
                close = difflib.get_close_matches(name, hookspecs_names(), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                problems.append(f"plugin {impl.plugin_name!r} implements unknown hook {name!r}{hint}")
    if problems:
        raise PluginError("; ".join(problems))


def _check_policies(pm: pluggy.PluginManager) -> None:
    for hook in sorted(hookspecs.POLICY_HOOKS):
        impls = getattr(pm.hook, hook).get_hookimpls()
        if len(impls) > 1:
            names = " and ".join(repr(i.plugin_name) for i in impls)
            raise PluginConflict(f"plugins {names} both answer the policy hook {hook!r}; a variant may enable only one")


@functools.cache
def hookspecs_names() -> list[str]:
    return [n for n in dir(hookspecs) if n.startswith("ttr_")]


def _arguments(argnames: Sequence[str]):
    """Picks an implementation's positional arguments out of a hook call's keyword arguments."""
    if len(argnames) > 1:
        return operator.itemgetter(*argnames)  # a tuple, at C speed
    if argnames:
        name = argnames[0]
        return lambda kwargs: (kwargs[name],)
    return lambda kwargs: ()


class _Direct:
    """A hook with exactly one plain implementation, called directly: the same result as pluggy's
    caller (``[answer]`` or ``[]``; the answer itself for first-result hooks) without its generic
    loop, which was a fifth of the cost of a turn."""

    __slots__ = ("_fn", "_args", "_first", "_caller")

    def __init__(self, caller, impl, first: bool):
        self._fn, self._args, self._first, self._caller = impl.function, _arguments(impl.argnames), first, caller

    def __call__(self, **kwargs: Any) -> Any:
        answer = self._fn(*self._args(kwargs))
        if self._first:
            return answer
        return [] if answer is None else [answer]

    def get_hookimpls(self):
        return self._caller.get_hookimpls()


class _Plain:
    """A hook with several plain implementations (no wrappers), called in pluggy's order (last
    registered and ``tryfirst`` first) with pluggy's results: the non-None answers, or the first of
    them for first-result hooks."""

    __slots__ = ("_impls", "_first", "_caller")

    def __init__(self, caller, impls, first: bool):
        self._impls = tuple((i.function, _arguments(i.argnames)) for i in reversed(impls))
        self._first, self._caller = first, caller

    def __call__(self, **kwargs: Any) -> Any:
        answers = []
        for fn, args in self._impls:
            answer = fn(*args(kwargs))
            if answer is not None:
                if self._first:
                    return answer
                answers.append(answer)
        return None if self._first else answers

    def get_hookimpls(self):
        return self._caller.get_hookimpls()


class _Unanswered:
    """A hook no plugin of this game implements."""

    __slots__ = ("_first", "_caller")

    def __init__(self, caller, first: bool):
        self._first, self._caller = first, caller

    def __call__(self, **kwargs: Any) -> Any:
        return None if self._first else []

    def get_hookimpls(self):
        return []


class HookRelay:
    """``game.hook``: pluggy's hook callers, except that hooks without wrappers are called directly.
    The plugins of a ruleset never change, so this is decided once; hooks with wrappers (or
    old-style hookwrappers) go through pluggy as usual."""

    def __init__(self, pm: pluggy.PluginManager):
        for name in hookspecs_names():
            caller = getattr(pm.hook, name)
            impls = caller.get_hookimpls()
            first = bool(caller.spec is not None and caller.spec.opts.get("firstresult"))
            if any(i.hookwrapper or i.wrapper for i in impls):
                setattr(self, name, caller)
            elif len(impls) > 1:
                setattr(self, name, _Plain(caller, impls, first))
            elif impls:
                setattr(self, name, _Direct(caller, impls[0], first))
            else:
                setattr(self, name, _Unanswered(caller, first))
