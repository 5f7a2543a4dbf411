"""No hidden process-wide state in the engine, the plugins, the bots or the applications (issue 28,
item 2, and the brief's "no caches held in module globals" for every shipped package).

A game must play the same whatever else the process did before: no ``global`` statement, no
generated code, no module-level (or class-level) mutable container that could become a cache, no
``functools.cache``/``lru_cache``, no cache keyed by ``id()`` (an object's id is reused once it
dies, so such a cache can answer for another game). What a rule works out lives on the plugin
instance (one per ruleset) or in ``game.memo``; a constant table is made read-only
(``MappingProxyType``, ``frozenset``, a tuple). The registries of installed and locally
registered plugins, bots and variants are the exceptions, each named in ``REGISTRIES`` with its
reason.

The source is read with ``ast``; the checks' own tests at the end show that each one finds what it
is meant to find.
"""

from __future__ import annotations

import ast

import pytest
from usa_kit import ROOT


#: ``path:name`` of each process-wide registry, and why it may be one
REGISTRIES = {
    "ttr_core/manager.py:_LOCAL": "the plugin classes registered in-process by local_plugins (tests, unpackaged plugins)",
    "ttr_core/manager.py:installed": "the entry points installed in a group (plugins, bots), read once per process",
    "ttr_core/manager.py:_installed_class": "the installed plugin classes, each loaded from its entry point once",
    "ttr_core/variant.py:variant_dirs": "the installed variant folders (built-in and entry points)",
    "ttr_core/variant.py:_load": "the loaded rulesets, one per variant file and version: what per-ruleset caches "
                                 "belong to; emptied by variant.clear_caches when local plugins change",
    "ttr_core/variant.py:_read": "the parsed variant files behind the loaded rulesets; emptied with them",
    "ttr_bots/__init__.py:_LOCAL": "the bot classes registered in-process by local_bots (tests, unpackaged bots)",
    "ttr_bots/__init__.py:_installed_class": "the installed bot classes, each loaded from its entry point once",
    "ttr_env/actions.py:_CODECS": "the action codecs of the environment, by kind: register_codec adds a house rule's",
    "ttr_env/aec.py:metadata": "PettingZoo's convention: a class attribute its wrappers read",
    "ttr_env/single.py:metadata": "Gymnasium's convention: a class attribute its wrappers read",
    "ttr_analysis/game_cache.py:engine_identity": "the running engine's version and code digest: fixed for the process",
    "ttr_analysis/game_cache.py:code_digest": "the digest of a package's code as the process loaded it: fixed for it",
    "ttr_analysis/settings.py:_applied": "the rulesets with --set parameters applied, by the loaded ruleset they "
                                         "change (as variant.py's _load keeps the loaded ones): a worker plays "
                                         "many games of one",
}

#: calls that make a mutable container
MUTABLE_CALLS = {"dict", "list", "set", "bytearray", "defaultdict", "OrderedDict", "Counter", "deque", "ChainMap"}
MUTABLE_LITERALS = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
#: names a module may bind to a list by convention
CONVENTIONAL = {"__all__"}
#: mapping methods whose first argument is a key
KEYED_METHODS = {"get", "setdefault", "pop", "__getitem__", "__setitem__", "__contains__"}

#: every shipped package (``bench`` and ``tools`` are the project's own scripts, not shipped)
PACKAGES = ["ttr_core", "plugins", "ttr_bots", "ttr_kit", "ttr_analysis", "ttr_env", "ttr_server", "ttr_cli"]


def _sources(package: str) -> list[tuple[str, ast.Module]]:
    return [
        (path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(encoding="utf-8"), str(path)))
        for path in sorted((ROOT / package).rglob("*.py"))
    ]


def _called(node: ast.expr) -> str:
    """The last name of what a call calls: ``functools.lru_cache(...)`` -> ``lru_cache``."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


# --- the checks: each returns ``path:line: what`` for every finding ----------------------------


def global_statements(path: str, tree: ast.Module) -> list[str]:
    return [f"{path}:{n.lineno}: global {', '.join(n.names)}" for n in ast.walk(tree) if isinstance(n, ast.Global)]


def generated_code(path: str, tree: ast.Module) -> list[str]:
    """Calls of ``exec``, ``eval``, ``compile`` (not ``re.compile``), and of ``FunctionType`` or
    ``CodeType``."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        builtin = isinstance(func, ast.Name) or (isinstance(func, ast.Attribute) and _called(func.value) == "builtins")
        name = _called(func)
        if (builtin and name in ("exec", "eval", "compile")) or name in ("FunctionType", "CodeType"):
            found.append(f"{path}:{node.lineno}: {name}()")
    return found


def _shared_scopes(body: list[ast.stmt]):
    """The statements run once per process: a module's or a class's body, into ``if``/``try``/
    ``with`` blocks and nested classes, not into functions."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.ClassDef):
            yield from _shared_scopes(stmt.body)
        elif isinstance(stmt, (ast.If, ast.For, ast.While, ast.With, ast.Try)):
            for block in ("body", "orelse", "finalbody"):
                yield from _shared_scopes(getattr(stmt, block, []))
            for handler in getattr(stmt, "handlers", []):
                yield from _shared_scopes(handler.body)


def _is_mutable(value: ast.expr | None) -> bool:
    if isinstance(value, MUTABLE_LITERALS):
        return True
    return isinstance(value, ast.Call) and _called(value) in MUTABLE_CALLS


def shared_mutables(path: str, tree: ast.Module) -> list[str]:
    """Module- and class-level names bound to a mutable container, and functions behind a
    ``functools`` cache, less the ``REGISTRIES``."""
    found = []
    for stmt in _shared_scopes(tree.body):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, ast.AnnAssign) else []
        for target in targets:
            name = ast.unparse(target)
            if _is_mutable(stmt.value) and name not in CONVENTIONAL and f"{path}:{name}" not in REGISTRIES:
                found.append(f"{path}:{stmt.lineno}: {name} is a shared mutable {type(stmt.value).__name__}")
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and f"{path}:{node.name}" not in REGISTRIES:
            found += [
                f"{path}:{node.lineno}: {node.name} has a process-wide @{_called(d)}"
                for d in node.decorator_list if _called(d) in ("cache", "lru_cache")
            ]
    return found


def _has_id_call(node: ast.AST, tainted: set[str]) -> bool:
    return any(
        (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "id")
        or (isinstance(n, ast.Name) and n.id in tainted)
        for n in ast.walk(node)
    )


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _in_scope(scope: ast.AST):
    """The nodes of ``scope`` itself, and the functions directly inside it (not their insides)."""
    for child in ast.iter_child_nodes(scope):
        yield child
        if not isinstance(child, _FUNCTIONS):
            yield from _in_scope(child)


def _assigned(scope: ast.AST) -> set[str]:
    names = {n.id for n in _in_scope(scope) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    if isinstance(scope, _FUNCTIONS):
        names |= {a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)}
    return names


def _key_and_mapping(node: ast.AST) -> tuple[ast.AST | None, ast.expr | None]:
    """What ``node`` looks up, and in what: ``m[k]``, ``m.get(k)`` and the like, ``k in m``."""
    if isinstance(node, ast.Subscript):
        return node.slice, node.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in KEYED_METHODS and node.args:
        return node.args[0], node.func.value
    if isinstance(node, ast.Compare) and isinstance(node.ops[0], (ast.In, ast.NotIn)):
        return node.left, node.comparators[0]
    return None, None


def id_keys(path: str, tree: ast.Module) -> list[str]:
    """``id()`` (or a name assigned from an expression with one) used as the key of a mapping
    that outlives the call: an attribute (``self.known[id(x)]``) or a name that neither the
    function nor the functions around it bind (a module's). A local alias memo may use ``id()``."""
    found: list[str] = []

    def visit(scope: ast.AST, outer: set[str]) -> None:
        local = outer | _assigned(scope) if scope is not tree else set()
        tainted = {
            t.id
            for n in _in_scope(scope) if isinstance(n, ast.Assign) and _has_id_call(n.value, set())
            for t in n.targets if isinstance(t, ast.Name)
        }
        for node in _in_scope(scope):
            if isinstance(node, _FUNCTIONS):
                visit(node, local)
                continue
            key, mapping = _key_and_mapping(node)
            if key is not None and _has_id_call(key, tainted) and not (isinstance(mapping, ast.Name) and mapping.id in local):
                found.append(f"{path}:{node.lineno}: {ast.unparse(node)[:80]} is keyed by id()")

    visit(tree, set())
    return found


CHECKS = [global_statements, generated_code, shared_mutables, id_keys]


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("package", PACKAGES)
def test_no_hidden_process_wide_state(package, check):
    found = [line for path, tree in _sources(package) for line in check(path, tree)]
    assert found == [], "\n".join(found)


def _defined(path: str, tree: ast.Module):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield f"{path}:{node.name}"
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            yield from (f"{path}:{ast.unparse(t)}" for t in getattr(node, "targets", [getattr(node, "target", None)]))


def test_every_registry_allowed_still_exists():
    """An allowance left for a registry that is gone would let a new cache of its name in unseen."""
    names = {name for package in PACKAGES for path, tree in _sources(package) for name in _defined(path, tree)}
    assert sorted(set(REGISTRIES) - names) == []


# --- the checks find what they are meant to find ----------------------------------------------

HIDDEN = '''
import functools, types
_CACHE: dict = {}
TABLE = {c: i for i, c in enumerate("ab")}
LISTED = list(range(3))
class Plugin:
    seen = set()
    def known(self, action):
        return self.known_claims.get(id(action))
    def measure(self, state):
        key = (id(state), 1)
        return _MEASURED[key]
@functools.lru_cache(maxsize=64)
def table(board):
    global _CACHE
    exec("x = 1")
    return types.FunctionType(compile("1", "f", "eval"), {})
'''

PLAIN = '''
import re
from types import MappingProxyType
__all__ = ["Plugin"]
TABLE = MappingProxyType({c: i for i, c in enumerate("ab")})
WORDS = frozenset({"a"})
PATTERN = re.compile("a+")
class Plugin:
    def __init__(self):
        self._tables = {}
    def copy(self, fields):
        held = {}
        for f in fields:
            held[id(f)] = f
        def twin(f):
            return held.get(id(f))
        return [twin(f) for f in fields if id(f) in held]
'''


def _found(source: str) -> dict[str, list[str]]:
    tree = ast.parse(source)
    return {check.__name__: check("x.py", tree) for check in CHECKS}


def test_the_checks_find_each_kind_of_hidden_state():
    found = _found(HIDDEN)
    assert [line.split(": ", 1)[1] for line in found["global_statements"]] == ["global _CACHE"]
    assert sorted(line.split(": ", 1)[1] for line in found["generated_code"]) == ["FunctionType()", "compile()", "exec()"]
    assert [line.split(": ", 1)[1].split()[0] for line in found["shared_mutables"]] == ["_CACHE", "TABLE", "LISTED", "seen", "table"]
    assert len(found["id_keys"]) == 2, found["id_keys"]  # the attribute's key and the module dict's tainted key


def test_the_checks_leave_read_only_tables_and_local_alias_memos_alone():
    assert _found(PLAIN) == {check.__name__: [] for check in CHECKS}


def test_a_registry_is_allowed_by_name_only():
    tree = ast.parse("_LOCAL: dict = {}\n_OTHER: dict = {}\n")
    assert [line.split(": ", 1)[1].split()[0] for line in shared_mutables("ttr_core/manager.py", tree)] == ["_OTHER"]
