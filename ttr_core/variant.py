"""Variant files: which map, which plugins with which parameters, under which rules version.

A variant is a TOML file (see ``variants/usa.toml`` and the README). It keeps every published
rules version: version 1 lists the plugins, each later version says what changed, and a game
record names the version it was created with, so old games keep old rules. ``extends`` builds
a variant on another one (``"wor"`` follows its current version; ``"wor@1"`` pins one).

Loading checks everything and reports all problems at once, each as ``file: path: problem``.
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Mapping
from importlib.metadata import entry_points
from importlib.resources import files
from pathlib import Path
from typing import Any

import attrs

from ttr_core import manager, prepared
from ttr_core.board import Board, PlayerRange, load_map
from ttr_core.errors import PluginError, VariantError
from ttr_core.files import CONVERTER, read_toml, structure, structure_fields

VARIANT_GROUP = "ttr.variants"  # entry points naming packages that hold more *.toml variant files


@attrs.frozen
class VersionEntry:
    note: str = ""
    plugins: list[str] | None = None
    add_plugins: list[str] = attrs.Factory(list)
    remove_plugins: list[str] = attrs.Factory(list)
    rules: dict[str, dict[str, Any]] = attrs.Factory(dict)


@attrs.frozen
class VariantFile:
    id: str
    title: str
    versions: dict[str, VersionEntry]
    map: str | None = None
    extends: str | None = None
    current: int | None = None
    players: PlayerRange | None = None
    description: str = ""


@attrs.frozen
class Ruleset:
    """One variant at one rules version, fully resolved and checked: what a game is built from."""

    variant: str
    version: int
    title: str
    board: Board
    plugins: tuple[str, ...]
    configs: Mapping[str, Any] = attrs.field(eq=False)
    players: PlayerRange
    #: what the games of this ruleset share: plugins, hook callers, action registry, policy answers
    rules: prepared.PreparedRules = attrs.field(eq=False, repr=False)
    notes: tuple[str, ...] = ()  # the version history up to this version
    path: str = ""
    #: the plugins' parameters set on top of the variant file (``{plugin name: its whole table}``,
    #: as TOML would write it): a game record carries them, so that the game replays under them
    changed: Mapping[str, Mapping[str, Any]] = attrs.field(factory=dict, eq=False)

    def with_configs(self, configs: Mapping[str, Any]) -> Ruleset:
        """This ruleset with some plugins' parameters replaced (``{plugin name: Config}``), its shared
        part built anew: the way to try a parameter without writing a variant file."""
        merged = {**self.configs, **configs}
        changed = {**self.changed, **{name: CONVERTER.unstructure(config) for name, config in configs.items()}}
        return attrs.evolve(self, configs=merged, rules=prepared.prepare(self.plugins, merged, self.board),
                            changed=changed)

    def with_tables(self, tables: Mapping[str, Any], where: str) -> Ruleset:
        """This ruleset with the plugins' parameter tables ``tables`` (as :attr:`changed` gives them,
        read back from a record) in place of the variant file's. A plugin the ruleset does not
        enable, or a table its ``Config`` refuses, is a :class:`VariantError` located at ``where``."""
        problems, configs = [], {}
        for name, table in tables.items():
            if name not in self.plugins:
                problems.append(f"{where}.{name}: {self.variant}@{self.version} does not enable a plugin {name!r}")
                continue
            try:
                configs[name] = structure(table, manager.plugin_class(name).Config, f"{where}.{name}")
            except VariantError as exc:
                problems += exc.problems
        if problems:
            raise VariantError(problems)
        return self.with_configs(configs)


@attrs.frozen
class _Spec:  # a variant version before checking
    plugins: tuple[str, ...]
    rules: Mapping[str, Mapping[str, Any]]
    origins: Mapping[str, str]  # plugin name -> where its rules table was last set
    map: str | None
    players: PlayerRange | None
    notes: tuple[str, ...]
    #: what is wrong so far; the resolution goes on, so that a file's problems are all found at once
    problems: tuple[str, ...] = ()


# --- finding variant and map files -----------------------------------------------------------


def builtin_dir() -> Path:
    return Path(str(files("ttr_variants")))


@functools.cache
def variant_dirs() -> tuple[Path, ...]:
    dirs = [builtin_dir()]
    for ep in entry_points(group=VARIANT_GROUP):
        try:
            dirs += package_folders(ep.value)
        except Exception:  # noqa: BLE001 - a broken third-party package must not hide the built-ins
            continue
    return tuple(dirs)


def package_folders(package: str) -> tuple[Path, ...]:
    """The folders of the package named ``package`` (dotted): one for a package with an
    ``__init__.py``, each of its parts for a namespace package (a folder without one)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"no package named {package!r}", name=package)
    return tuple(Path(p) for p in spec.submodule_search_locations)


def available() -> dict[str, Path]:
    """Every installed variant, by id: the built-in ones and those shipped by packages through
    the ``ttr.variants`` entry-point group (a built-in id wins over a third-party one)."""
    found: dict[str, Path] = {}
    for d in variant_dirs():
        for p in sorted(d.glob("*.toml")):
            found.setdefault(p.stem, p)
    return found


def find_variant(name: str) -> Path:
    """The file of variant ``name``: an installed id, or a path (``*.toml``, or containing ``/``)
    taken as it is. An unknown id is a :class:`~ttr_core.errors.VariantError` listing the known ones."""
    if name.endswith(".toml") or "/" in name:
        return Path(name)
    known = available()
    if name not in known:
        raise VariantError([f"unknown variant {name!r} (known: {', '.join(sorted(known))})"])
    return known[name]


def _find_map(name: str, near: Path) -> Path:
    for candidate in (near.parent / name, near.parent / "maps" / f"{name}.toml", builtin_dir() / "maps" / f"{name}.toml"):
        if candidate.suffix == ".toml" and candidate.is_file():
            return candidate
    raise VariantError([f"{near}: $.map: unknown map {name!r}"])


def clear_caches() -> None:
    """Forget loaded variant files (after they changed on disk, or plugins were added)."""
    _load.cache_clear()
    _read.cache_clear()
    variant_dirs.cache_clear()


# --- loading --------------------------------------------------------------------------------


def load(name_or_path: str, version: int | None = None) -> Ruleset:
    """Load a variant by id or path at ``version`` (default: its current version), checked.

    Everything is checked at once (the file, every version up to ``version``, the map, each
    plugin's parameters, the plugins against each other), and every problem is reported in one
    :class:`~ttr_core.errors.VariantError`, each located as ``file: $.path: problem``. Loaded
    rulesets are cached, and shared by their games (:func:`clear_caches` forgets them)."""
    path = find_variant(name_or_path)
    return _load(path.resolve(), version)


@functools.lru_cache(maxsize=64)
def _load(path: Path, version: int | None) -> Ruleset:
    vf, problems = _read(path)
    number = version if version is not None else _current(vf, path)
    if str(number) not in vf.versions:
        raise VariantError([
            *problems,
            f"{path}: variant {vf.id!r} has no rules version {number} (versions: {', '.join(sorted(vf.versions, key=int))})"
        ])
    spec = _resolve(path, number, ())
    return _check(path, vf, number, spec)


@functools.lru_cache(maxsize=64)
def _read(path: Path) -> tuple[VariantFile, tuple[str, ...]]:
    """The variant file at ``path`` and what is wrong with it. A problem that leaves the rest of
    the file readable is returned, not raised, so that the versions are still checked and every
    problem of the file is reported at once; a :class:`VariantError` when nothing more can be."""
    raw = read_toml(path)
    try:
        vf, problems = structure(raw, VariantFile, str(path)), []
    except VariantError as exc:
        # check the rest of the file with the keys that are right (a typo'd key must not hide
        # the problems of the versions)
        fields = structure_fields(raw, VariantFile)
        if "versions" not in fields:
            raise
        vf, problems = VariantFile(**{"id": path.stem, "title": "", **fields}), list(exc.problems)
    if vf.id != path.stem:
        problems.append(f"{path}: $.id: {vf.id!r} does not match the file name {path.stem!r}")
    if not vf.versions:
        problems.append(f"{path}: $.versions: a variant needs at least version 1")
        raise VariantError(problems)
    bad_keys = [key for key in vf.versions if not key.isdigit() or int(key) < 1]
    problems += [f"{path}: $.versions.{key}: version numbers are whole numbers from 1" for key in bad_keys]
    numbers = sorted(int(k) for k in vf.versions if k not in bad_keys)
    if bad_keys or numbers != list(range(1, len(numbers) + 1)):
        if not bad_keys:
            problems.append(f"{path}: $.versions: versions must run 1, 2, 3... without gaps, got {numbers}")
        raise VariantError(problems)  # which version is which cannot be told
    if vf.current is not None and str(vf.current) not in vf.versions:
        problems.append(f"{path}: $.current: no version {vf.current} in this file")
        vf = attrs.evolve(vf, current=None)
    if vf.map is None and vf.extends is None:
        problems.append(f"{path}: $.map: required (or extend another variant)")
        raise VariantError(problems)  # no map, no rules to check against it
    return vf, tuple(problems)


def _current(vf: VariantFile, path: Path) -> int:
    return vf.current if vf.current is not None else max(int(k) for k in vf.versions)


def _resolve(path: Path, number: int, chain: tuple[Path, ...]) -> _Spec:
    if path in chain:
        names = " -> ".join(p.stem for p in (*chain, path))
        raise VariantError([f"{path}: $.extends: cycle {names}"])
    vf, problems = _read(path)
    if vf.extends:
        parent_name, _, pinned = vf.extends.partition("@")
        try:
            parent_path = _find_parent(parent_name, path)
        except VariantError:
            raise VariantError([f"{path}: $.extends: unknown variant {parent_name!r}"]) from None
        if pinned and not pinned.isdigit():
            raise VariantError([f"{path}: $.extends: {vf.extends!r}: after '@' comes a version number"])
        parent_vf = _read(parent_path)[0] if parent_path not in chain else None
        if pinned and parent_vf is not None and str(int(pinned)) not in parent_vf.versions:
            raise VariantError([
                f"{path}: $.extends: {vf.extends!r}: variant {parent_vf.id!r} has no rules version {int(pinned)} "
                f"(versions: {', '.join(sorted(parent_vf.versions, key=int))})"
            ])
        parent_version = int(pinned) if pinned else (_current(parent_vf, parent_path) if parent_vf else 1)
        spec = _resolve(parent_path, parent_version, (*chain, path))
    else:
        spec = _Spec((), {}, {}, None, None, ())
    spec = attrs.evolve(spec, problems=spec.problems + problems)
    for n in range(1, number + 1):
        spec = _apply(spec, vf.versions[str(n)], f"{path}: $.versions.{n}")
    return attrs.evolve(spec, map=vf.map or spec.map, players=vf.players or spec.players)


def _find_parent(name: str, near: Path) -> Path:
    """The variant that ``near`` extends: an installed id, or a file path relative to ``near``."""
    if name.endswith(".toml") or "/" in name:
        candidate = near.parent / name
        if not candidate.is_file():
            raise VariantError([f"{near}: $.extends: no file {name!r}"])
        return candidate.resolve()
    return find_variant(name).resolve()


def _apply(spec: _Spec, v: VersionEntry, where: str) -> _Spec:
    plugins = list(spec.plugins if v.plugins is None else v.plugins)
    problems = []
    for name in v.remove_plugins:
        if name in plugins:
            plugins.remove(name)
        else:
            problems.append(f"{where}.remove_plugins: {name!r} is not enabled here")
    for name in v.add_plugins:
        if name in plugins:
            problems.append(f"{where}.add_plugins: {name!r} is enabled already")
        else:
            plugins.append(name)
    rules = {k: dict(val) for k, val in spec.rules.items()}
    origins = dict(spec.origins)
    for name in v.remove_plugins:
        # a removed plugin takes its inherited parameters with it (rules given for it in this same
        # version are still reported below, as rules for a plugin that is not enabled)
        rules.pop(name, None)
        origins.pop(name, None)
    for name, table in v.rules.items():
        rules[name] = _merge(rules.get(name, {}), table)
        origins[name] = f"{where}.rules.{name}"
    notes = spec.notes + ((v.note,) if v.note else ())
    return _Spec(tuple(plugins), rules, origins, spec.map, spec.players, notes, spec.problems + tuple(problems))


def _merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


# --- checking -------------------------------------------------------------------------------


def _check(path: Path, vf: VariantFile, number: int, spec: _Spec) -> Ruleset:
    problems: list[str] = list(spec.problems)
    where = f"{path}: $.versions.{number}"
    if not spec.plugins:
        problems.append(f"{where}: no plugins enabled")
    if len(set(spec.plugins)) != len(spec.plugins):
        problems.append(f"{where}: a plugin is listed twice: {', '.join(spec.plugins)}")
    configs: dict[str, Any] = {}
    classes: dict[str, type] = {}
    for name in spec.plugins:
        try:
            cls = classes[name] = manager.plugin_class(name)
        except PluginError as exc:
            problems.append(f"{where}.plugins: {exc}")
            continue
        table = spec.rules.get(name, {})
        origin = spec.origins.get(name, f"{where}.rules.{name}")
        try:
            configs[name] = structure(table, cls.Config, origin)
        except VariantError as exc:
            problems += [_relocate(p, origin) for p in exc.problems]
    for name in spec.rules:
        if name not in spec.plugins:
            problems.append(f"{spec.origins[name]}: rules for {name!r}, which is not enabled in this version")
    board = None
    if spec.map is None:
        problems.append(f"{path}: $.map: no map named")
    else:
        try:
            board = load_map(_find_map(spec.map, path))
        except VariantError as exc:
            problems += exc.problems
    players = spec.players or (board.players if board is not None else None)
    if board is not None and (players.min < max(2, board.players.min) or players.max > board.players.max
                              or players.min > players.max):
        problems.append(
            f"{path}: $.players: {players.min}..{players.max} does not fit the map's {board.players.min}..{board.players.max}"
        )
    if board is None or len(classes) < len(set(spec.plugins)) or len(set(spec.plugins)) != len(spec.plugins):
        raise VariantError(problems)  # without a board or every plugin, their fit cannot be judged
    # The plugins' fit is judged even when a parameter was refused (that plugin with its defaults),
    # so that a file's problems are all reported at once.
    trial = {name: configs.get(name) or _defaults(classes[name]) for name in spec.plugins}
    try:
        rules = prepared.prepare(spec.plugins, trial, board)
    except PluginError as exc:
        raise VariantError(problems + [f"{where}: {p}" for p in exc.problems]) from None
    problems += _check_against_board(rules, board, where)
    if problems:
        raise VariantError(problems)
    return Ruleset(vf.id, number, vf.title, board, spec.plugins, configs, players, rules, spec.notes, str(path))


def _defaults(cls: type) -> Any:
    try:
        return cls.Config()
    except Exception:  # noqa: BLE001 - a Config with required fields: the plugin's own default
        return None


def _relocate(problem: str, origin: str) -> str:
    # cattrs reports the config's own "$"; the origin ("file: $.versions.1.rules.x") already names
    # the table, so "origin: $.a: problem" -> "origin.a: problem" and "origin: $: problem" -> "origin: problem".
    # (The origin itself holds the file's ": $", so the split must come after it.)
    prefix = f"{origin}: $"
    if not problem.startswith(prefix):
        return problem
    rest = problem[len(prefix):]
    return f"{origin}{rest}" if rest.startswith((".", "[", ":")) else problem


def _check_against_board(rules: prepared.PreparedRules, board: Board, where: str) -> list[str]:
    """Every map route must score (``ttr_route_score``): the routes that do not, by length."""
    problems = []
    unscored = [r for r in board.routes if rules.route_scores[r.index] is None]
    for length in sorted({r.length for r in unscored}):
        ids = [r.id for r in unscored if r.length == length][:3]
        problems.append(
            f"{where}: map {board.id!r} has routes of length {length} ({', '.join(ids)}) that the points table does not cover"
        )
    return problems
