"""Trying a parameter without writing a variant file: ``--set plugin.param=value``.

A setting names one documented parameter of one plugin the rule set enables (its ``Config``
field, declared with :func:`ttr_core.parameters.parameter`) and a value written as in a variant
file's TOML (``50``, ``true``, ``"end-of-turn"``; a bare word is taken as text). It is checked
against the plugin's documented parameters and converted as the variant file's table would be, so
``--set ticket-leader.points=abc`` is refused with the parameter's type and meaning, before any
game is played.

The rule set with settings keeps its variant id and rules version; a game record names those and
carries the settings (``Ruleset.changed``), so that it replays under them. The played-games cache keys a game
by the resolved rules, every parameter included (``game_cache.rules_digest``), so games played
with a setting are never mistaken for games without it.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Sequence
from typing import Any

import attrs

from ttr_core import manager, variant
from ttr_core.errors import TTRError, VariantError
from ttr_core.files import CONVERTER, structure
from ttr_core.parameters import parameters_of
from ttr_core.variant import Ruleset


@attrs.frozen
class Setting:
    """``plugin.name=text``: a parameter of a plugin and its value as written (TOML)."""

    plugin: str
    name: str
    text: str

    @classmethod
    def parse(cls, text: str, option: str = "--set") -> Setting:
        key, eq, value = text.partition("=")
        plugin, dot, name = key.strip().partition(".")
        if not (eq and dot and plugin and name and value.strip()):
            raise TTRError(f"{option} {text!r}: write PLUGIN.PARAMETER=VALUE, e.g. ticket-leader.points=50")
        return cls(plugin, name.strip(), value.strip())

    @property
    def value(self) -> Any:
        """The value as a variant file's TOML would give it; a bare word is text."""
        try:
            return tomllib.loads(f"v = {self.text}")["v"]
        except tomllib.TOMLDecodeError:
            return self.text

    def __str__(self) -> str:
        return f"{self.plugin}.{self.name}={self.text}"


def parse_settings(texts: Sequence[str], option: str = "--set") -> tuple[Setting, ...]:
    """Every ``--set``, in order; a parameter set twice is refused (which value would count?)."""
    out = tuple(Setting.parse(t, option) for t in texts)
    keys = [(s.plugin, s.name) for s in out]
    twice = sorted({f"{p}.{n}" for p, n in keys if keys.count((p, n)) > 1})
    if twice:
        raise TTRError(f"{option}: {', '.join(twice)} is set more than once")
    return out


def apply(ruleset: Ruleset, settings: Sequence[Setting], option: str = "--set") -> Ruleset:
    """``ruleset`` with ``settings`` applied, each checked against the plugin's documented
    parameters; a :class:`TTRError` naming the setting and what is wrong otherwise."""
    if not settings:
        return ruleset
    tables: dict[str, dict[str, Any]] = {}
    for s in settings:
        where = f"{option} {s}"
        if s.plugin not in ruleset.plugins:
            tunable = [p for p in ruleset.plugins if parameters_of(manager.plugin_class(p).Config)]
            raise TTRError(f"{where}: {ruleset.variant}@{ruleset.version} does not enable a plugin {s.plugin!r} "
                           f"(plugins with parameters: {', '.join(tunable)})")
        params = {p.name: p for p in parameters_of(manager.plugin_class(s.plugin).Config)}
        if s.name not in params:
            known = "; ".join(f"{p.name} ({p.type}): {p.doc}" if p.doc else f"{p.name} ({p.type})" for p in params.values())
            raise TTRError(f"{where}: {s.plugin} has no parameter {s.name!r} (its parameters: {known or 'none'})")
        table = tables.setdefault(s.plugin, CONVERTER.unstructure(ruleset.configs[s.plugin]))
        table[s.name] = s.value
    configs = {}
    for plugin, table in tables.items():
        cls = manager.plugin_class(plugin).Config
        try:
            configs[plugin] = structure(table, cls, f"{option} {plugin}")
        except VariantError as exc:
            raise TTRError("; ".join(_located(line, option, plugin, settings) for line in exc.problems)) from None
    try:
        return ruleset.with_configs(configs)
    except Exception as exc:  # noqa: BLE001 - a plugin refusing the value while preparing: say which setting
        raise TTRError(f"{option} {', '.join(map(str, settings))}: {exc}") from None


def _located(line: str, option: str, plugin: str, settings: Sequence[Setting]) -> str:
    """A converter's ``--set plugin: $.name: problem`` as ``--set plugin.name=text: problem (its meaning)``."""
    for s in settings:
        prefix = f"{option} {plugin}: $.{s.name}: "
        if s.plugin == plugin and line.startswith(prefix):
            doc = next(p for p in parameters_of(manager.plugin_class(plugin).Config) if p.name == s.name)
            return f"{option} {s}: {line[len(prefix):]} ({s.name} is {doc.type}: {doc.doc})"
    return line


def load(name: str, version: int | None, settings: tuple[Setting, ...] = ()) -> Ruleset:
    """``variant.load(name, version)`` with ``settings`` applied."""
    base = variant.load(name, version)
    return _applied(base, base.rules, settings) if settings else base


@functools.lru_cache(maxsize=32)
def _applied(base: Ruleset, rules: object, settings: tuple[Setting, ...]) -> Ruleset:
    # kept per process: a worker plays many games of one rule set, each needing its rules prepared
    # once, as ``variant.load`` keeps them. Keyed by the loaded ruleset's prepared rules too (a
    # ruleset compares without its parameters; its prepared rules are its own object), so an
    # edited variant file, loaded anew after ``variant.clear_caches``, is applied anew.
    return apply(base, settings)


def label(settings: Sequence[Setting]) -> str:
    """The settings as they are shown after a rule set's name: `` [ticket-leader.points=50]``."""
    return f" [{', '.join(map(str, settings))}]" if settings else ""
