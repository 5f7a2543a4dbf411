"""The conformance suite for a plugin that replaces a built-in one.

A plugin that provides what a built-in plugin provides (``provides = ("open-row",)``) may take
its place in any variant (``remove_plugins = ["open-row"]``, ``add_plugins = ["river"]``). The
suite checks that it can: it plays every shipped variant that has a plugin providing one of those
capabilities, with the candidate in its place (a variant file extending the shipped one, as an
author would write it), a few seeded random-bot games each, and reports every rule broken, located
by variant, seed and action:

* the capability's hooks are declared: ``ttr_addhooks`` adds the spec from :mod:`ttr_core.roles`,
  so the plugins answering them (``ussr``'s controller answers ``ttr_open_row_needs_reset``) still
  find them;
* the engine's invariants after every action, every game replayed to the same record, no game
  state kept on the plugin instance (:func:`ttr_kit.testing.conformance_problems`);
* the rules of the capability (:data:`ROLE_RULES`), judged against the replaced built-in plugin
  configured as the variant configures it. For ``open-row``: the row's size (R-SET-3); a full row
  that a rule resets (R-ROW-2, R-ROW-4: the built-in's answer, or any enabled plugin's) is reset,
  unless the reset limit stopped it (R-ROW-3: the candidate asked ``ttr_open_row_needs_reset``
  and was told to reset that many times in a row); the row is full whenever the turn passes, and
  after every action where the refill is immediate, unless the deck and the discard are empty
  (R-ROW-1).

The candidate gets the variant's parameters of the plugin it replaces, those its ``Config``
declares (``[rules.open-row]`` ``max_resets = 3`` becomes ``[rules.river]`` ``max_resets = 3``), and
``rules`` on top::

    from ttr_kit.conformance import replacement_problems

    def test_the_river_can_replace_the_open_row():
        assert replacement_problems(River, name="river") == []

The same is the fixture ``ttr_replacement_conformance`` of the house-rule kit.
"""

from __future__ import annotations

import contextlib
import inspect
import re
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar

import attrs
import pluggy

from ttr_core import hookspecs, manager, roles, variant
from ttr_core.actions import Action
from ttr_core.errors import PluginError, VariantError
from ttr_core.game import Game
from ttr_core.open_row_table import EMPTY
from ttr_core.plugin import Plugin, hookimpl
from ttr_kit import testing
from ttr_kit.toml_text import inline, key

#: the observer watching the open row's reset checks, by the name the swapped variants enable it under
RESET_WATCH = "ttr-kit-reset-watch"


def shipped_variants() -> list[str]:
    """The ids of the variants this distribution ships."""
    return sorted(path.stem for path in variant.builtin_dir().glob("*.toml"))


def replacement_problems(
    plugin: type, name: str | None = None, games: int = 3, variants: Sequence[str] | None = None,
    rules: Mapping[str, Any] | None = None, first_seed: int = 0,
) -> list[str]:
    """Every rule broken when ``plugin`` replaces the plugins that provide what it provides, in
    ``variants`` (ids or files; the shipped ones by default), ``games`` seeded games each; empty
    when it keeps them all. ``name`` is the plugin's entry-point name (installed or not: the suite
    enables it in-process when it is not installed); ``rules`` adds parameters to its table."""
    name = name or _installed_name(plugin) or _kebab(plugin.__name__)
    capabilities = _provides(plugin)
    if not capabilities:
        return [f"plugin {name!r} provides nothing, so it replaces nothing: name what it provides (provides = (...))"]
    problems = _undeclared_hooks(plugin, name, capabilities)
    observers = {watch: cls for cap in capabilities for watch, cls in _rules_of(cap).observers.items()}
    swapped = 0
    with tempfile.TemporaryDirectory(prefix="ttr-replacement-") as folder, _loadable(name, plugin, observers):
        for variant_id in variants or shipped_variants():
            base = variant.load(str(variant_id))
            replaced = [p for p in base.plugins if set(_provides(manager.plugin_class(p))) & set(capabilities)]
            if not replaced:
                continue
            swapped += 1
            path = _swap_file(Path(folder), base, replaced, name, plugin, observers, rules or {})
            try:
                ruleset = variant.load(str(path))
            except (VariantError, PluginError) as exc:
                problems += [f"{base.variant} with {name}: {p}" for p in getattr(exc, "problems", None) or [str(exc)]]
                continue
            references = {
                cap: _reference(base, p) for p in replaced for cap in _provides(manager.plugin_class(p)) if cap in capabilities
            }
            problems += testing.conformance_problems(ruleset, games, first_seed, rules=_game_rules(references))
    if not swapped:
        problems.append(f"no variant checked has a plugin providing {', '.join(capabilities)}: {name} replaces nothing")
    return problems


# --- the rules a capability keeps ------------------------------------------------------------------


class RoleRules:
    """The rules a plugin providing ``capability`` must keep, checked during one game against
    ``reference``: the built-in plugin it replaces, configured as the variant configures it."""

    capability: ClassVar[str] = ""
    #: plugins the swapped variants enable beside the candidate, to watch it, by name
    observers: ClassVar[Mapping[str, type]] = MappingProxyType({})

    def __init__(self, reference: Plugin, game: Game):
        self.reference = reference

    def start(self, game: Game) -> list[str]:
        """The rules broken once the game is set up."""
        return []

    def after(self, game: Game, seat: int, action: Action) -> list[str]:
        """The rules broken by ``seat``'s ``action``."""
        return []


@attrs.define
class ResetChecks:
    """The open row's reset checks made in one game: how many, and how many of the last ones in a
    row answered "reset"."""

    asked: int = 0
    streak: int = 0


class ResetWatch(Plugin):
    """Counts the reset checks of the open row (``ttr_open_row_needs_reset``) in ``game.memo``,
    which no record or digest holds, so that watching changes nothing a replay compares."""

    deterministic = True

    @hookimpl(wrapper=True, optionalhook=True)
    def ttr_open_row_needs_reset(self, game):
        answers = yield
        checks = game.memo.setdefault(RESET_WATCH, ResetChecks())
        checks.asked += 1
        checks.streak = checks.streak + 1 if any(answers) else 0
        return answers


class OpenRowRules(RoleRules):
    """R-SET-3's size, R-ROW-1's refill, R-ROW-2's reset within R-ROW-3's limit (and R-ROW-4's,
    through the other plugins' answers)."""

    capability = "open-row"
    observers = MappingProxyType({RESET_WATCH: ResetWatch})

    def __init__(self, reference: Plugin, game: Game):
        super().__init__(reference, game)
        config = reference.config
        self.size, self.max_resets = config.size, config.max_resets
        self.immediate = config.refill == "immediately"
        self.asked = 0  # reset checks made before the action being judged
        self.left: tuple[int, ...] | None = None  # a full row the reset limit left as it lies (R-ROW-3)
        self.turn = game.state.turn

    def start(self, game: Game) -> list[str]:
        return self._row_problems(game, refilled=True)

    def after(self, game: Game, seat: int, action: Action) -> list[str]:
        passed, self.turn = game.state.turn != self.turn, game.state.turn
        return self._row_problems(game, refilled=self.immediate or (passed and game.state.phase == "play"))

    def _row_problems(self, game: Game, refilled: bool) -> list[str]:
        st = game.state
        problems = []
        if len(st.open_row) != self.size:
            problems.append(f"R-SET-3: the open row has {len(st.open_row)} slots, not {self.size}")
        if refilled and EMPTY in st.open_row and (st.deck or st.discard):
            problems.append(f"R-ROW-1: the open row ({_names(game)}) was left with an empty slot while cards were left to deal")
        return problems + self._reset_problems(game)

    def _reset_problems(self, game: Game) -> list[str]:
        row = game.state.open_row
        checks = game.memo.get(RESET_WATCH) or ResetChecks()
        asked = checks.asked - self.asked  # the reset checks made during this action
        streak = min(checks.streak, asked)  # of them, the last ones in a row that said to reset
        problems = []
        if EMPTY not in row and tuple(row) != self.left and self._must_reset(game):
            if streak >= self.max_resets:
                self.left = tuple(row)
            else:
                why = _why(asked, streak, self.max_resets)
                problems.append(f"R-ROW-2: the open row ({_names(game)}) must be reset and was not: {why}")
        self.asked = (game.memo.get(RESET_WATCH) or ResetChecks()).asked  # the suite's own question counts for nothing
        return problems

    def _must_reset(self, game: Game) -> bool:
        row = game.state.open_row
        return bool(_answer(self.reference, "ttr_open_row_needs_reset", game=game, row=row)) or game.open_row_needs_reset()


#: the rules the kit checks for each capability (the other capabilities: the invariants, the replays)
ROLE_RULES: Mapping[str, type[RoleRules]] = MappingProxyType({OpenRowRules.capability: OpenRowRules})


@attrs.frozen
class _AllRules:
    """The rules of every replaced capability, checked in one game."""

    parts: tuple[RoleRules, ...]

    def start(self, game: Game) -> list[str]:
        return [p for part in self.parts for p in part.start(game)]

    def after(self, game: Game, seat: int, action: Action) -> list[str]:
        return [p for part in self.parts for p in part.after(game, seat, action)]


def _game_rules(references: Mapping[str, Plugin]):
    def for_game(game: Game) -> _AllRules:
        return _AllRules(tuple(ROLE_RULES[cap](ref, game) for cap, ref in references.items() if cap in ROLE_RULES))

    return for_game


def _rules_of(capability: str) -> type[RoleRules]:
    return ROLE_RULES.get(capability, RoleRules)


# --- building the swapped variants -----------------------------------------------------------------


def _swap_file(
    folder: Path, base, replaced: list[str], name: str, plugin: type, observers: Mapping[str, type],
    rules: Mapping[str, Any],
) -> Path:
    """A variant file extending ``base`` at its version, with ``name`` in place of ``replaced``."""
    vid = f"{base.variant}-with-{name}"
    installed = variant.available().get(base.variant)
    parent = base.variant if installed is not None and installed.resolve() == Path(base.path).resolve() else base.path
    fields = {f.name for f in attrs.fields(plugin.Config)} if attrs.has(plugin.Config) else set()
    table: dict[str, Any] = {}
    for old in replaced:
        config = base.configs.get(old)
        if config is not None and attrs.has(type(config)):
            table.update({k: v for k, v in attrs.asdict(config, recurse=True).items() if k in fields})
    table.update(rules)
    title = f"{base.title}, {name} in place of {', '.join(replaced)}"
    lines = [
        f"id = {inline(vid)}",
        f"title = {inline(title)}",
        f"extends = {inline(f'{parent}@{base.version}')}",
        "",
        "[versions.1]",
        f"remove_plugins = {inline(replaced)}",
        f"add_plugins = {inline([name, *observers])}",
    ]
    if table:
        lines += ["", f"[versions.1.rules.{key(name)}]", *(f"{key(k)} = {inline(v)}" for k, v in table.items())]
    path = folder / f"{vid}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _reference(base, name: str) -> Plugin:
    """The built-in plugin ``name`` as ``base`` configures it: what the candidate is judged against."""
    cls = manager.plugin_class(name)
    instance = cls(base.configs.get(name))
    instance.name = name
    return instance


@contextlib.contextmanager
def _loadable(name: str, plugin: type, observers: Mapping[str, type]) -> Iterator[None]:
    """``plugin`` loadable as ``name`` (in-process unless it is installed so), and the observers."""
    local = dict(observers)
    if _installed_name(plugin) != name:
        local[name] = plugin
    with manager.local_plugins(local):
        yield


def _undeclared_hooks(plugin: type, name: str, capabilities: Sequence[str]) -> list[str]:
    """The capabilities whose hooks (specified in :mod:`ttr_core.roles`) ``plugin`` does not declare."""
    probe = pluggy.PluginManager(hookspecs.PROJECT)
    problems = []
    declare = getattr(plugin, "ttr_addhooks", None)
    if declare is not None:
        try:
            declare(plugin(), pluginmanager=probe)
        except Exception as exc:  # noqa: BLE001 - a finding to report
            problems.append(f"plugin {name!r}: ttr_addhooks failed: {type(exc).__name__}: {exc}")
    for capability in capabilities:
        spec = roles.hooks_of(capability)
        if spec is None:
            continue
        hooks = [h for h in sorted(vars(spec)) if h.startswith("ttr_")]
        missing = [h for h in hooks if getattr(getattr(probe.hook, h, None), "spec", None) is None]
        if missing:
            problems.append(
                f"plugin {name!r} provides {capability!r} but does not declare its hooks ({', '.join(missing)}): "
                f"add pluginmanager.add_hookspecs({spec.__name__}) to its ttr_addhooks, from {spec.__module__}"
            )
    return problems


def _installed_name(plugin: type) -> str | None:
    for name, ep in manager.available().items():
        if ep.value == f"{plugin.__module__}:{plugin.__qualname__}":
            return name
    return None


def _provides(cls: type) -> tuple[str, ...]:
    provides = getattr(cls, "provides", ())
    return tuple(provides) if isinstance(provides, tuple | list | set | frozenset) else ()


def _kebab(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


def _answer(plugin: Plugin, hook: str, **kwargs: Any) -> Any:
    """``plugin``'s own answer to ``hook``, given the arguments its implementation takes (None if it has none)."""
    impl = getattr(plugin, hook, None)
    if impl is None:
        return None
    return impl(**{k: v for k, v in kwargs.items() if k in inspect.signature(impl).parameters})


def _why(asked: int, streak: int, limit: int) -> str:
    """What the provider did of the reset checks R-ROW-2..3 ask for, and what does them."""
    if asked == 0:
        done = "the plugin providing open-row did not ask ttr_open_row_needs_reset"
    elif streak == 0:
        done = "no answer to ttr_open_row_needs_reset said so, where the replaced plugin's rule does"
    else:
        done = f"the plugin providing open-row reset it {streak} time(s) in a row and stopped short of R-ROW-3's {limit}"
    return f"{done} (game.refill_open_row deals, asks and resets)"


def _names(game: Game) -> str:
    return ", ".join(game.cards.names[c] if c != EMPTY else "-" for c in game.state.open_row)
