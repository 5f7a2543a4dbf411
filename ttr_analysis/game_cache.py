"""Played games kept between runs, so that ``ttr compare`` and ``ttr simulate`` play a game once.

Re-running a comparison plays the same seeded games under rule set A every time, while only the
scoring under B changes. A :class:`GameCache` keeps what a played game leaves behind (its record
text, the position it reached, how its own rules scored it) in one small file per game, under a
key naming everything that decides the game besides chance:

* the variant and rules version, and the resolved rules themselves (plugins, every parameter,
  the map), so an edited variant or map file is a different key;
* the number of players and the seed;
* the bots per seat, each with the package that installed it and a digest of its code;
* the engine: the ``ttr-engine`` version and a digest of the code that plays and scores games
  (an editable install changes its code without changing its version; the analysis modules that
  make an entry count, the reports made from entries do not), and of every plugin from
  outside the package the rules use.

A run then plays only the seeds it has no entry for; for the others it reads the entry and scores
the stored position under the rule sets asked (``SimSpec.rescore``), as a replay would give it:
the position is what ``position_of`` returned for the game when it was played, and the record is
kept beside it (``--save-records``, ``simulate --out`` write it byte for byte). Reading the
position instead of replaying the record is what makes a re-run cheap: a replay costs a fifth to
a third of playing the game again with the ticket-seeking bot (more once the bots get faster),
scoring one position about a thirtieth.

**Safety.** An entry is written to a temporary file in its folder and renamed into place, so a
reader (another process, another run at the same time) sees a whole entry or none. Each entry
states its full key and is zlib-compressed (whose checksum catches a damaged file): an entry that
cannot be read, is damaged, or belongs to another key is a miss, and is replaced when the game is
played again. Only the process that runs the simulation reads and writes the cache, never its
workers (a Dask worker may be on a machine without the folder).

**Where.** ``TTR_CACHE_DIR`` if set, else the platform's user cache folder (``$XDG_CACHE_HOME``
or ``~/.cache`` on Linux, ``~/Library/Caches`` on macOS, ``%LOCALAPPDATA%`` on Windows), in
``ttr-engine/games``. The standard library finds it: the rules are three lines, not worth a
dependency (``platformdirs``). Deleting the folder is always safe.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import sys
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from ttr_analysis.rescore import Scored
from ttr_bots import bot_class
from ttr_bots import available as installed_bots
from ttr_core import manager
from ttr_core.errors import TTRError
from ttr_core.files import CONVERTER, WriteError, structure, write_atomically
from ttr_core.variant import Ruleset

#: the ``format`` every entry states; an entry of another format is a miss
FORMAT = "ttr-game-cache/1"
#: the environment variable naming the cache folder (tests point it at a temporary folder)
ENV = "TTR_CACHE_DIR"
#: the packages whose code decides how a game is played and scored
ENGINE_PACKAGES = ("ttr_core", "ttr_plugins", "ttr_bots")
#: the analysis modules that make what an entry keeps (the played game, its summary, its own
#: scoring); the reports made from the entries are not among them, so that changing a report,
#: a chart or a statistic keeps the games already played
PLAYING_MODULES = ("ttr_analysis.game_cache", "ttr_analysis.rescore", "ttr_analysis.settings", "ttr_analysis.simulate")


def default_folder() -> Path:
    """Where the played games are kept when no folder is given: ``$TTR_CACHE_DIR``, else the
    user's cache folder of the platform, ``ttr-engine/games`` in it."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        xdg = os.environ.get("XDG_CACHE_HOME", "")
        base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"  # the XDG spec ignores a relative one
    return base / "ttr-engine" / "games"


@attrs.frozen
class PlayedGame:
    """What a run knows of every game it played, kept in the cache or not."""

    seed: int
    bots: tuple[str, ...]  # per seat
    turns: int
    actions: int
    end_reason: str
    played: Scored  # as the game's own rules scored it

    def played_fields(self) -> dict[str, Any]:
        """These fields by name, to make another kind of ``PlayedGame`` of the same game."""
        return {f.name: getattr(self, f.name) for f in attrs.fields(PlayedGame)}


@attrs.frozen
class KeptGame(PlayedGame):
    """What a played game leaves in the cache: enough to summarise it and score it again."""

    self_scored: Scored | None  # its position scored under its own rules (None: it could not be)
    position: dict[str, Any]  # ``position_of`` the finished game
    record: str  # the canonical record text


@attrs.frozen
class RunKey:
    """What decides the games of a run besides their seeds, as JSON data."""

    fields: Mapping[str, Any]

    @classmethod
    def of(cls, ruleset: Ruleset, players: int, bots: Sequence[str]) -> RunKey:
        return cls({
            "variant": ruleset.variant,
            "version": ruleset.version,
            "rules": rules_digest(ruleset),
            "players": players,
            "bots": list(bots),
            "bot_code": {name: bot_identity(name) for name in sorted(set(bots))},
            "engine": engine_identity(),
        })

    def of_game(self, seed: int) -> dict[str, Any]:
        return {**self.fields, "seed": seed}

    def digest(self, seed: int) -> str:
        return _sha(json.dumps(self.of_game(seed), sort_keys=True))


@attrs.frozen
class GameCache:
    """Played games on disk, one file per game, under ``folder``."""

    folder: Path

    def path(self, key: RunKey, seed: int) -> Path:
        digest = key.digest(seed)
        return self.folder / digest[:2] / f"{digest}.json.z"

    def get(self, key: RunKey, seed: int) -> KeptGame | None:
        """The game kept under ``key`` and ``seed``; None when there is none, or the entry cannot
        be read, is damaged or is another game's."""
        try:
            data = json.loads(zlib.decompress(self.path(key, seed).read_bytes()))
            if data.get("format") != FORMAT or data.get("key") != key.of_game(seed):
                return None
            kept = structure(data.get("game"), KeptGame, "cache entry")
        except (OSError, zlib.error, ValueError, TypeError, AttributeError, TTRError):
            return None
        return kept if kept.seed == seed else None

    def put(self, key: RunKey, kept: KeptGame) -> str | None:
        """Keep ``kept`` (atomically: a reader sees the whole entry or none). Returns None, or why
        the entry could not be written (a full disk, a folder that is not writable): a run goes on
        without the cache rather than fail."""
        data = {"format": FORMAT, "key": key.of_game(kept.seed), "game": CONVERTER.unstructure(kept)}
        blob = zlib.compress(json.dumps(data, separators=(",", ":")).encode("utf-8"), 6)
        path = self.path(key, kept.seed)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # not flushed to the disk: after a crash a damaged entry is a miss (zlib's checksum)
            write_atomically(path, blob, durable=False)
        except OSError as exc:
            return f"{self.folder}: {exc.strerror or exc}"
        except WriteError as exc:
            return f"{self.folder}: {exc.original.strerror or exc.original}"
        return None


def rules_digest(ruleset: Ruleset) -> str:
    """The resolved rules (plugins in order, every parameter, the whole map) and the code of the
    plugins from outside the engine: what an edited variant, map or house-rule package changes."""
    configs = sorted((name, _canonical(config)) for name, config in ruleset.configs.items())
    outside = {name: _plugin_identity(name) for name in ruleset.plugins}
    return _sha(repr((ruleset.plugins, configs, ruleset.board, sorted(outside.items()))))


def _canonical(config: Any) -> str:
    """A plugin's config as text that is the same in every process (a set's order is not)."""
    return json.dumps(CONVERTER.unstructure(config), sort_keys=True, default=_sorted_or_repr)


def _sorted_or_repr(value: Any) -> Any:
    return sorted(value, key=repr) if isinstance(value, set | frozenset) else repr(value)


def _plugin_identity(name: str) -> str:
    cls = manager.plugin_class(name)
    top = cls.__module__.partition(".")[0]
    if top in ENGINE_PACKAGES:
        return "engine"  # its code is in the engine's digest
    ep = manager.available().get(name)
    return f"{_origin(ep)} {cls.__module__}:{cls.__qualname__} {code_digest(top)}"


def bot_identity(name: str) -> str:
    """Where bot ``name`` comes from (its distribution and version, or ``local``) and its code."""
    cls = bot_class(name)
    return f"{_origin(installed_bots().get(name))} {cls.__module__}:{cls.__qualname__} {code_digest(cls.__module__.partition('.')[0])}"


def _origin(ep) -> str:
    if ep is None:
        return "local"
    return f"{ep.dist.name} {ep.dist.version}" if ep.dist is not None else "installed"


@functools.cache
def engine_identity() -> str:
    """The engine's version and a digest of the code that plays and scores the games."""
    try:
        version = importlib.metadata.version("ttr-engine")
    except importlib.metadata.PackageNotFoundError:
        version = "not installed"
    return f"ttr-engine {version} " + _sha("".join(code_digest(p) for p in ENGINE_PACKAGES + PLAYING_MODULES))


@functools.cache
def code_digest(top: str) -> str:
    """A digest of the Python files of the top-level module or package ``top`` (its name alone
    when they cannot be found)."""
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return _sha(top)
    if spec.submodule_search_locations:
        files = sorted((p.relative_to(d).as_posix(), p) for d in spec.submodule_search_locations for p in Path(d).rglob("*.py"))
    else:
        files = [(top, Path(spec.origin))] if spec.origin and Path(spec.origin).is_file() else []
    h = hashlib.sha256(top.encode())
    for name, path in files:
        h.update(name.encode())
        try:
            h.update(path.read_bytes())
        except OSError:
            h.update(b"unreadable")
    return h.hexdigest()


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
