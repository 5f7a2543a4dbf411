"""The hooks are a documented, tested contract (datasette's tests/test_plugins.py is the model): every
hook spec, the core's and the ones built-in plugins declare, has a caller where it is declared, a
docstring saying who calls it with an example, a test named after it, and its entry on the plugin
reference page, which is rendered from the code and must match it."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import pytest
from usa_kit import ROOT

from ttr_core import hookspecs, manager
from ttr_kit import reference

TESTS = ROOT / "tests"
PAGE = TESTS.parent / "docs" / "plugins.md"

CORE = {name: getattr(hookspecs, name) for name in dir(hookspecs) if name.startswith("ttr_")}
DECLARED = {hook: (plugin, fn) for hook, (plugin, fn) in manager.declared_hooks().items()}
ALL = {**CORE, **{hook: fn for hook, (_, fn) in DECLARED.items()}}


def _sources(package: str) -> dict[str, str]:
    """The source of every module of an installed package, by module name."""
    pkg = importlib.import_module(package)
    names = [package] + [m.name for m in pkgutil.walk_packages(pkg.__path__, package + ".")]
    return {n: inspect.getsource(importlib.import_module(n)) for n in names}


def _calls(source: str, hook: str) -> bool:
    # game.hook.ttr_x(...), pm.hook.ttr_x..., or a per-ruleset answer: game.policy("ttr_x", ...)
    return re.search(rf"\bhook\.{hook}\b|\bpolicy\(\"{hook}\"", source) is not None


@pytest.mark.parametrize("hook", sorted(CORE))
def test_every_core_hook_is_called_by_the_core(hook):
    assert any(_calls(src, hook) for src in _sources("ttr_core").values()), f"nothing in ttr_core calls {hook}"


def _game_operations_calling(hook: str) -> set[str]:
    """The game's operations that call ``hook``, directly or through another of them (the open row's
    table operations ask ``ttr_open_row_needs_reset`` for whichever plugin provides ``open-row``)."""
    from ttr_core.game import Game

    sources = {name: inspect.getsource(fn) for name, fn in inspect.getmembers(Game, inspect.isfunction)}
    calling = {name for name, src in sources.items() if _calls(src, hook)}
    while True:
        more = {name for name, src in sources.items() if any(re.search(rf"\bself\.{op}\(", src) for op in calling)}
        if more <= calling:
            return calling
        calling |= more


@pytest.mark.parametrize("hook", sorted(DECLARED))
def test_every_declared_hook_is_called_by_the_plugin_declaring_it(hook):
    plugin, _ = DECLARED[hook]
    source = inspect.getsource(inspect.getmodule(manager.plugin_class(plugin)))
    through = [op for op in sorted(_game_operations_calling(hook)) if re.search(rf"\bgame\.{op}\(", source)]
    assert _calls(source, hook) or through, f"{plugin} declares {hook} but never calls it, nor a game operation that does"


def test_the_core_declares_only_hooks_it_calls_and_plugins_declare_the_rest():
    assert not set(CORE) & set(DECLARED)
    plugin_sources = _sources("ttr_plugins")
    for hook in CORE:
        if hook == "ttr_addhooks":
            continue
        called_in_core = any(_calls(src, hook) for src in _sources("ttr_core").values())
        called_in_plugins = [m for m, src in plugin_sources.items() if _calls(src, hook)]
        assert called_in_core, f"{hook} is the core's but only {called_in_plugins} call it"


@pytest.mark.parametrize("hook", sorted(ALL))
def test_every_hook_has_a_docstring_saying_who_calls_it_with_an_example(hook):
    doc = " ".join((inspect.getdoc(ALL[hook]) or "").split())
    assert "Called by" in doc, f"{hook}: say who calls it and when"
    assert "Example::" in doc, f"{hook}: give a short example"
    opts = getattr(ALL[hook], "ttr_spec")
    if opts.get("firstresult"):
        assert "Stops at first non-None result" in doc, f"{hook}: say that the first result wins"


@pytest.mark.parametrize("hook", sorted(ALL))
def test_every_hook_has_a_test_named_after_it(hook):
    names = {m for path in TESTS.rglob("test_*.py") for m in re.findall(r"def test_hook_(ttr_\w+)\(", path.read_text())}
    assert hook in names, f"write test_hook_{hook}: a test that exercises it"


@pytest.mark.parametrize("hook", sorted(h for h, fn in ALL.items() if hookspecs.PER_RULESET in hookspecs.marks_of(fn)))
def test_a_per_ruleset_hook_takes_no_game(hook):
    # its answer serves every game of the ruleset, so it cannot depend on one
    assert "game" not in inspect.signature(ALL[hook]).parameters


def test_the_plugin_reference_page_is_what_the_code_says():
    assert PAGE.read_text(encoding="utf-8") == reference.render(), "run: python tools/make_plugin_docs.py"


@pytest.mark.parametrize("hook", sorted(ALL))
def test_every_hook_is_on_the_reference_page(hook):
    assert f"#### `{hook}(" in PAGE.read_text(encoding="utf-8")
