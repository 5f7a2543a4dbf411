"""Checks a command makes before it does any work: the optional libraries it will need, and the
places it will write to (their permissions, and a file made and removed there). A run that would fail at the end (after minutes of simulation) fails at
once instead, with a message naming what to install or which path is wrong, and exit code 2.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

from ttr_core.errors import TTRError
from ttr_core.files import WriteError


class MissingExtra(TTRError):
    """A command needs a library of an optional extra that is not installed."""


def require_extra(extra: str, modules: tuple[str, ...], needed_for: str) -> None:
    """Import ``modules`` now (the command would import them later); if one cannot be imported,
    raise :class:`MissingExtra` naming the extra to install."""
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            why = f"{name} is not installed" if isinstance(exc, ModuleNotFoundError) and exc.name == name \
                else f"{name} cannot be imported: {type(exc).__name__}: {exc}"
            raise MissingExtra(f"{needed_for} needs the {extra!r} extra ({why}): "
                               f'pip install "ttr-engine[{extra}]"') from None


def check_out_file(path: Path, option: str = "--out") -> None:
    """``path`` can be written as a file: not a folder, in a folder that exists and is writable."""
    where = f"{option} {path}"
    if path.is_dir():
        raise TTRError(f"{where}: is a folder; give a file name")
    parent = path.parent
    if not parent.exists():
        raise TTRError(f"{where}: the folder {_shown(parent)} does not exist")
    if not parent.is_dir():
        raise TTRError(f"{where}: {_shown(parent)} is not a folder")
    if path.exists() and not os.access(path, os.W_OK):
        raise TTRError(f"{where}: the file is not writable")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise TTRError(f"{where}: the folder {_shown(parent)} is not writable")
    _try_writing_in(parent, path)


def check_out_dir(path: Path, option: str = "--out") -> None:
    """``path`` can be used as an output folder: a writable folder, or one that can be made (the
    nearest existing folder above it is writable, and nothing on the way is a file)."""
    where = f"{option} {path}"
    if path.exists():
        if not path.is_dir():
            raise TTRError(f"{where}: is a file, not a folder")
        if not os.access(path, os.W_OK | os.X_OK):
            raise TTRError(f"{where}: the folder is not writable")
        _try_writing_in(path, path)
        return
    above = path.parent
    while not above.exists() and above != above.parent:
        above = above.parent
    if not above.is_dir():
        raise TTRError(f"{where}: {_shown(above)} is a file, not a folder")
    if not os.access(above, os.W_OK | os.X_OK):
        raise TTRError(f"{where}: cannot create it, the folder {_shown(above)} is not writable")
    _try_writing_in(above, path)


def _try_writing_in(folder: Path, target: Path) -> None:
    """Make and remove a file in ``folder``: what the permission bits do not tell (a read-only
    mount, ``/proc`` or ``/sys``, a process of root, which the bits do not stop) is found now, not
    after the games. A refusal is the :class:`WriteError` the write itself would give."""
    probe = (folder if str(folder) else Path(".")) / f".ttr-write-check-{os.getpid()}.tmp"
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        os.unlink(probe)
    except OSError as exc:
        raise WriteError(target, exc) from None


def _shown(path: Path) -> str:
    return repr(str(path) if str(path) else ".")
