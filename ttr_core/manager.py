"""Finding plugins, building the plugin manager of one ruleset, and the hook callers its games use.

Every plugin, built-in or third-party, is found through the ``ttr`` entry-point group. Each
ruleset (a variant at one rules version) gets a fresh ``pluggy.PluginManager`` with only its
plugins (pytest builds one per run for the same reason: nothing leaks between rulesets).

Building it checks the plugins against each other and reports every problem at once, each
naming the plugin: an unknown plugin name, a hook implementation that matches no spec (with the
plugin that declares it, if one is installed), two plugins answering a single-answer hook, a
required hook nobody answers, and a plugin whose ``requires`` no enabled plugin ``provides``.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import inspect
import re
from collections.abc import Iterator, Mapping, Sequence
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import pluggy

from ttr_core import hookspecs
from ttr_core.errors import PluginConflict, PluginError, PluginFailed, UnknownPlugin

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
def installed(group: str) -> Mapping[str, EntryPoint]:
    """The entry points of ``group`` by name, the first one found winning (plugins, bots...)."""
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=group):
        found.setdefault(ep.name, ep)
    return found


def available() -> Mapping[str, EntryPoint]:
    """All plugins installed, by entry-point name."""
    return installed(GROUP)


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


def loadable_classes() -> Iterator[tuple[str, type]]:
    """Every plugin that can be named, for suggestions; a broken package is skipped here."""
    for name in sorted({*available(), *_LOCAL}):
        with contextlib.suppress(PluginError):
            yield name, plugin_class(name)


# --- building and checking -------------------------------------------------------------------


def build_manager(plugins: Sequence[str], configs: Mapping[str, Any]) -> pluggy.PluginManager:
    """The plugin manager of a ruleset, checked; every problem found is in one ``PluginError``."""
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    # Historic: each plugin is asked to declare its hooks as it is registered.
    pm.hook.ttr_addhooks.call_historic(kwargs={"pluginmanager": pm})
    for name in plugins:
        cls = plugin_class(name)
        instance = cls(configs.get(name)) if configs.get(name) is not None else cls()
        instance.name = name
        try:
            pm.register(instance, name=name)
        except pluggy.PluginValidationError as exc:
            raise PluginError(f"plugin {name!r}: {exc}") from None
    unmet = _unmet_requirements(pm)
    # a plugin whose needs are unmet also implements hooks nobody declared: its need says it all
    unknown = _unknown_hooks(pm, skip={name for name, _ in unmet})
    # a hook a plugin declares goes unanswered when its answering plugin is missing: the need says it
    unanswered = _unanswered(pm, core_only=bool(unmet))
    problems = [*(p for _, p in unmet), *unknown, *_single_answers(pm), *unanswered]
    if problems:
        raise PluginError(problems[0] if len(problems) == 1 else "; ".join(problems), problems)
    return pm


def spec_names(pm: pluggy.PluginManager) -> list[str]:
    """The hooks of this manager that have a spec: the core's and those its plugins declared."""
    return sorted(n for n, caller in vars(pm.hook).items() if n.startswith("ttr_") and caller.spec is not None)


def _unknown_hooks(pm: pluggy.PluginManager, skip: set[str]) -> list[str]:
    problems = []
    for name, caller in sorted(vars(pm.hook).items()):
        if not name.startswith("ttr_") or caller.spec is not None:
            continue
        for impl in caller.get_hookimpls():
            if impl.optionalhook or impl.plugin_name in skip:
                continue
            declared = _declared_by(name)
            if declared:
                hint = f"; it is declared by plugin {declared!r}, which this variant does not enable"
            else:
                close = difflib.get_close_matches(name, spec_names(pm), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append(f"plugin {impl.plugin_name!r} implements unknown hook {name!r}{hint}")
    return problems


def _declared_by(hook: str) -> str | None:
    """The installed plugin that declares ``hook`` in its ``ttr_addhooks``, if any."""
    declared = declared_hooks().get(hook)
    return declared[0] if declared else None


def declared_hooks() -> dict[str, tuple[str, Any]]:
    """Every hook an installed plugin declares through ``ttr_addhooks``: ``{hook: (plugin, spec function)}``."""
    found: dict[str, tuple[str, Any]] = {}
    for name, cls in loadable_classes():
        if not hasattr(cls, "ttr_addhooks"):
            continue
        probe = pluggy.PluginManager(hookspecs.PROJECT)
        with contextlib.suppress(Exception):  # a broken third-party plugin declares nothing here
            cls().ttr_addhooks(probe)
            for hook, caller in vars(probe.hook).items():
                if caller.spec is not None:
                    found.setdefault(hook, (name, caller.spec.function))
    return found


def _single_answers(pm: pluggy.PluginManager) -> list[str]:
    problems = []
    for name in spec_names(pm):
        caller = getattr(pm.hook, name)
        if hookspecs.SINGLE_ANSWER not in hookspecs.marks_of(caller.spec.function):
            continue
        answers = [i for i in caller.get_hookimpls() if not (i.wrapper or i.hookwrapper)]
        if len(answers) > 1:
            names = " and ".join(repr(i.plugin_name) for i in answers)
            problems.append(
                f"plugins {names} both answer the single-answer hook {name!r}; a variant may enable only one"
            )
    return problems


def _unanswered(pm: pluggy.PluginManager, core_only: bool) -> list[str]:
    problems = []
    for name in spec_names(pm):
        caller = getattr(pm.hook, name)
        if hookspecs.REQUIRED not in hookspecs.marks_of(caller.spec.function):
            continue
        if core_only and not hasattr(hookspecs, name):
            continue
        if not [i for i in caller.get_hookimpls() if not (i.wrapper or i.hookwrapper)]:
            summary = " ".join((caller.spec.function.__doc__ or "").strip().split("\n\n")[0].split())
            first_line = re.sub(r":\w+:`([^`]*)`", r"\1", summary.split(". ")[0].rstrip(".")).replace("``", "")
            answering = [n for n, cls in loadable_classes() if hasattr(cls, name)]
            hint = f"; installed plugins that answer it: {', '.join(map(repr, answering))}" if answering else ""
            problems.append(f"no enabled plugin answers the required hook {name!r} ({first_line}){hint}")
    return problems


def _unmet_requirements(pm: pluggy.PluginManager) -> list[tuple[str, str]]:
    """``(plugin, problem)`` for every need of an enabled plugin that no enabled plugin provides."""
    plugins = pm.list_name_plugin()
    provided = {cap for _, p in plugins for cap in p.provides}
    problems = []
    for name, plugin in plugins:
        for need in plugin.requires:
            if need in provided:
                continue
            providers = [n for n, cls in loadable_classes() if need in _class_provides(cls)]
            hint = f"; add {' or '.join(map(repr, providers))}, which provides it" if providers else ""
            problems.append((name, f"plugin {name!r} requires {need!r}, which no enabled plugin provides{hint}"))
    return problems


def _class_provides(cls: type) -> tuple[str, ...]:
    provides = getattr(cls, "provides", ())
    return tuple(provides) if isinstance(provides, tuple | list | frozenset | set) else ()


# --- calling hooks ---------------------------------------------------------------------------

#: the name under which the core registers its own hook wrapper on a ruleset's manager (it notes
#: the consultations of plugins that are not deterministic, ``prepared.Watch``): not a rule plugin
WATCH = "ttr-core.watch"


def rule_plugins(pm: pluggy.PluginManager) -> list[tuple[str, Any]]:
    """``(name, instance)`` of the ruleset's rule plugins, in the variant's order (without the core's
    own hook wrapper)."""
    return [(name, plugin) for name, plugin in pm.list_name_plugin() if name != WATCH]


class Unimplemented:
    """Stands in for pluggy's hook caller of a hook that no plugin of the ruleset implements (not
    even a wrapper): calling it answers what pluggy would, no answers (``[]``, or None for a
    first-result hook), without calling pluggy, so monitoring and tracing do not see it."""

    __slots__ = ("name", "spec", "_first")

    def __init__(self, caller: pluggy.HookCaller):
        self.name, self.spec = caller.name, caller.spec
        self._first = bool(caller.spec.opts.get("firstresult"))

    def __call__(self, **kwargs: Any) -> list | None:
        return None if self._first else []

    def get_hookimpls(self) -> list:
        return []

    def __repr__(self) -> str:
        return f"<Unimplemented {self.name!r}>"


class RulesetHooks:
    """``game.hook``: one attribute per hook spec of the ruleset, called as
    ``game.hook.ttr_x(game=game, ...)``. It is pluggy's own hook caller (``pm.hook.ttr_x``), so
    monitoring, tracing and wrappers see the call, unless no plugin of the ruleset implements the
    hook: then it is an :class:`Unimplemented`, and the call costs next to nothing.

    A ruleset's plugins never change, so which hooks have implementations is looked up once, here
    (pluggy's ``get_hookimpls``); a plugin registered on the manager later reaches only the hooks
    that already had an implementation."""

    #: the names of the hooks some plugin of the ruleset implements: the core asks
    #: ``"ttr_x" in game.hook.implemented`` before the calls it makes at every turn, which then
    #: cost nothing at all where nobody answers
    implemented: frozenset[str]

    def __init__(self, pm: pluggy.PluginManager):
        implemented = set()
        for name in spec_names(pm):
            caller = getattr(pm.hook, name)
            if caller.is_historic() or caller.get_hookimpls():
                implemented.add(name)
                setattr(self, name, caller)
            else:
                setattr(self, name, Unimplemented(caller))
        self.implemented = frozenset(implemented)


# --- naming a plugin that failed ----------------------------------------------------------------


def blame(
    pm: pluggy.PluginManager, exc: BaseException, seat: int | None, action: Any, doing: str | None = None
) -> PluginFailed:
    """Name the plugin and the hook that failed: the innermost frame of the traceback that is a hook
    implementation of one of ``pm``'s plugins (whatever its function is called); failing that, the
    innermost frame of plugin code (an action handler, a helper of a plugin module)."""
    named = rule_plugins(pm)
    by_id = {id(p): name for name, p in named}
    by_module: dict[str, str] = {}
    for name, p in named:
        by_module.setdefault(type(p).__module__, name)
    functions = [  # unwrapped: a plugin's own decorators (functools.wraps) keep the plugin's frame findable
        (inspect.unwrap(impl.function), impl.plugin_name, hook)
        for hook in spec_names(pm)
        for impl in getattr(pm.hook, hook).get_hookimpls()
        if impl.plugin_name != WATCH
    ]
    by_code = {fn.__code__: (plugin, hook) for fn, plugin, hook in functions if hasattr(fn, "__code__")}
    frames: list[tuple[str, str]] = []  # (plugin, function), outermost first
    in_hooks: list[tuple[str, str]] = []
    where = None  # the file and line of the innermost frame of plugin code: where its author looks
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code in by_code:
            in_hooks.append(by_code[frame.f_code])
        owner = frame.f_locals.get("self")
        plugin = by_id.get(id(owner)) if owner is not None else None
        if plugin is None:
            plugin = by_module.get(frame.f_globals.get("__name__", ""))
        if plugin is not None:
            frames.append((plugin, frame.f_code.co_name))
            where = f"{frame.f_code.co_filename}:{tb.tb_lineno}"
        tb = tb.tb_next
    plugin, hook = (in_hooks or frames or [("?", "?")])[-1]
    return PluginFailed(plugin, hook, seat, action, exc, doing, where)
