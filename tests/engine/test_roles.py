"""The capabilities' hook specs (``ttr_core.roles``): every hook a built-in plugin declares is
specified there, in the module of a capability the plugin provides, so that a plugin replacing it
declares the same hooks from the plugin API instead of copying them; the modules name capabilities,
never plugins, and import nothing of the engine but ``ttr_core.plugin``."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil

import pytest
from usa_kit import ROOT

from ttr_core import manager, roles

ROLES = [importlib.import_module(m.name) for m in pkgutil.iter_modules(roles.__path__, roles.__name__ + ".")]
DECLARED = manager.declared_hooks()
PAGE = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("hook", sorted(DECLARED))
def test_every_declared_hook_is_specified_under_a_capability_its_plugin_provides(hook):
    plugin, spec_function = DECLARED[hook]
    provides = manager.plugin_class(plugin).provides
    specs = {cap: roles.hooks_of(cap) for cap in provides}
    assert any(spec is not None and getattr(spec, hook, None) is spec_function for spec in specs.values()), (
        f"{plugin} declares {hook}: specify it in ttr_core.roles, in the module of one of {provides}"
    )


@pytest.mark.parametrize("module", ROLES, ids=lambda m: m.__name__)
def test_a_role_module_is_named_for_its_capability_and_imports_only_the_plugin_api(module):
    assert module.__name__.rsplit(".", 1)[1] == module.CAPABILITY.replace("-", "_")
    assert roles.hooks_of(module.CAPABILITY) is module.HOOKS
    providers = [name for name, cls in manager.loadable_classes() if module.CAPABILITY in getattr(cls, "provides", ())]
    assert providers, f"no installed plugin provides {module.CAPABILITY}"
    imported = {
        node.module for node in ast.walk(ast.parse(inspect.getsource(module)))
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ttr_")
    }
    assert imported <= {"ttr_core.plugin"}, imported


def test_names_that_are_not_capabilities_with_hooks_have_no_spec():
    assert roles.hooks_of("tie-breaker:fewest-stations") is None  # an answer a plugin provides, not a hook set
    assert roles.hooks_of("ticket-deal") is None  # provided by answering the tickets capability's hook
    assert roles.hooks_of("../plugin") is None


@pytest.mark.parametrize("module", ROLES, ids=lambda m: m.__name__)
def test_the_reference_page_says_where_a_replacement_imports_the_specs_from(module):
    name = module.__name__.rsplit(".", 1)[1]
    assert f"Specs: `from ttr_core.roles import {name}`, `{name}.{module.HOOKS.__name__}`." in PAGE
