"""Reading TOML and JSON files into frozen attrs classes, with every problem located; writing
files so that a failure never leaves half a file.

One strict cattrs converter for all files (ufoLib2 style: built by a function, nothing registered
at import time). Strict means no silent coercion: ``"3"`` is not an int and ``true`` is not a
number. Unknown keys are errors so that typos in a variant file are reported, not ignored.
"""

from __future__ import annotations

import json
import math
import os
import secrets
import stat
import tomllib
import typing
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar, get_args, get_origin

import cattrs
from cattrs.gen import make_dict_structure_fn

from ttr_core.errors import TTRError

try:  # cattrs >= 24.1
    from cattrs.cols import homogenous_tuple_structure_factory, list_structure_factory
except ImportError:  # pragma: no cover - older cattrs keeps its lenient sequences
    list_structure_factory = None

T = TypeVar("T")

#: Numbers larger than this in a file are certainly typos (a route of 10**9 cars).
MAX_NUMBER = 10_000


def _strict_int(value: Any, _type: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {type(value).__name__} {value!r}")
    if abs(value) > MAX_NUMBER:
        raise ValueError(f"{value} is out of range (at most {MAX_NUMBER})")
    return value


def _strict_float(value: Any, _type: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"expected a number, got {type(value).__name__} {value!r}")
    try:
        number = float(value)
    except OverflowError:  # an integer beyond the largest float
        number = math.inf
    if not math.isfinite(number):
        # TOML has inf and nan literals (and reads 1e400 as inf); no coordinate means either, and
        # a nan compares unequal to itself, so it would slip past every later range check
        raise ValueError(f"expected a finite number, got {number}")
    return number


def _strict_str(value: Any, _type: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {type(value).__name__} {value!r}")
    return value


def _strict_bool(value: Any, _type: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {type(value).__name__} {value!r}")
    return value


def _is_list_or_tuple(type_: Any) -> bool:
    # lists, and tuples of one element type (``tuple[str, ...]``)
    if type_ in (list, tuple) or get_origin(type_) is list:
        return True
    return get_origin(type_) is tuple and len(get_args(type_)) == 2 and get_args(type_)[1] is Ellipsis


def _strict_sequence_factory(type_: Any, conv: cattrs.Converter):
    # cattrs builds a list from any iterable: a string "ab" would become ["a", "b"] and a table its
    # keys. A file's array must be an array.
    if get_origin(type_) is tuple or type_ is tuple:
        base = homogenous_tuple_structure_factory(type_, conv)
    else:
        base = list_structure_factory(type_, conv)

    def structure_sequence(value: Any, t: Any):
        if not isinstance(value, list | tuple):
            raise TypeError(f"expected a list, got {type(value).__name__} {value!r}")
        return base(value, t)

    return structure_sequence


def _is_literal(type_: Any) -> bool:
    return typing.get_origin(type_) is typing.Literal


def _strict_literal(value: Any, type_: Any) -> Any:
    allowed = typing.get_args(type_)
    if value not in allowed or type(value) not in {type(a) for a in allowed}:
        raise ValueError(f"{value!r} is not one of: {', '.join(map(repr, allowed))}")
    return value


def make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True)
    conv.register_structure_hook_func(_is_literal, _strict_literal)
    conv.register_structure_hook(int, _strict_int)
    conv.register_structure_hook(float, _strict_float)
    conv.register_structure_hook(str, _strict_str)
    conv.register_structure_hook(bool, _strict_bool)
    if list_structure_factory is not None:
        conv.register_structure_hook_factory(_is_list_or_tuple, _strict_sequence_factory)
    return conv


CONVERTER = make_converter()


def register_renames(cls: type, **renames: str) -> None:
    """Let a file use keys that are Python keywords (``from``) for attributes ``cls`` names otherwise."""
    from cattrs.gen import override

    CONVERTER.register_structure_hook(
        cls,
        make_dict_structure_fn(
            cls, CONVERTER, _cattrs_forbid_extra_keys=True, **{k: override(rename=v) for k, v in renames.items()}
        ),
    )


def structure(data: Any, cls: type[T], where: str) -> T:
    """Structure ``data`` as ``cls``; on failure raise a list of ``where: $.path: problem`` lines."""
    from ttr_core.errors import VariantError

    try:
        return CONVERTER.structure(data, cls)
    except (cattrs.BaseValidationError, TypeError, ValueError, KeyError) as exc:
        if isinstance(exc, cattrs.BaseValidationError):
            lines = cattrs.transform_error(exc, path="$", format_exception=_format_exception)
        else:
            lines = [f"$: {exc}"]
        raise VariantError([f"{where}: {_tidy(line)}" for line in lines]) from None


def structure_fields(data: Any, cls: type) -> dict[str, Any]:
    """The attributes of ``cls`` that ``data`` (a table) gives correctly, each structured on its
    own: what is still usable of a table that :func:`structure` refused as a whole."""
    if not isinstance(data, dict):
        return {}
    fields = {}
    for name, hint in typing.get_type_hints(cls).items():
        if name in data:
            try:
                fields[name] = CONVERTER.structure(data[name], hint)
            except (cattrs.BaseValidationError, TypeError, ValueError, KeyError, AttributeError):  # cattrs: a str for a dict
                continue
    return fields


def _format_exception(exc: BaseException, type_: Any) -> str:
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        return f"unknown key(s) {', '.join(sorted(map(repr, exc.extra_fields)))}"
    if isinstance(exc, KeyError):
        return "required key is missing"
    if isinstance(exc, TypeError | ValueError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


def _tidy(line: str) -> str:
    # cattrs says "problem @ $.a.b"; we say "$.a.b: problem", the order of a compiler message.
    if " @ " in line:
        problem, path = line.rsplit(" @ ", 1)
        return f"{path}: {problem}"
    return line


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file; a missing file, bad bytes or bad syntax become one located problem."""
    from ttr_core.errors import VariantError

    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise VariantError([f"{path}: cannot read: {exc.strerror or exc}"]) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise VariantError([f"{path}: byte {exc.start}: not UTF-8 text"]) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError([f"{path}: {exc}"]) from None
    except RecursionError:
        raise VariantError([f"{path}: arrays or tables nested too deeply to read"]) from None


def read_json(path: Path) -> Any:
    """Parse a JSON file; a missing file, bad bytes or bad syntax become one located problem."""
    from ttr_core.errors import RecordError

    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RecordError([f"{path}: cannot read: {exc.strerror or exc}"]) from None
    return parse_json(raw, str(path))


def parse_json(raw: bytes, where: str) -> Any:
    """Parse JSON bytes read from ``where`` (a file name, ``<stdin>``); bad bytes or bad syntax
    become one located problem."""
    from ttr_core.errors import RecordError

    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RecordError([f"{where}: byte {exc.start}: not UTF-8 text"]) from None
    except json.JSONDecodeError as exc:
        raise RecordError([f"{where}: line {exc.lineno} column {exc.colno}: {exc.msg}"]) from None
    except RecursionError:
        raise RecordError([f"{where}: arrays or objects nested too deeply to read"]) from None


# --- writing ---------------------------------------------------------------------------------


class WriteError(TTRError):
    """A file could not be written (a full disk, a folder that is not writable, a target the
    system refuses). Nothing was left half-written: the old file is still there, or none is."""

    def __init__(self, path: Path, exc: OSError):
        self.path, self.original = path, exc
        super().__init__(f"cannot write {path}: {exc.strerror or exc}")


@contextmanager
def atomic_path(path: Path, durable: bool = True) -> Iterator[Path]:
    """``with atomic_path(target) as tmp:`` write the whole file at ``tmp`` (a new empty file
    beside ``target``, ``.NAME.RANDOM.tmp``; a writer that guesses a format from the file name
    must be told it); when the block ends without an error, ``tmp`` is renamed onto ``target`` in
    one step, so that a reader sees the old file or the new one, never a part.

    On an error the temporary file is removed and ``target`` is untouched; an ``OSError`` becomes
    a :class:`WriteError` naming ``target``. ``durable``: the data reaches the disk before the
    rename (a crash then leaves the old file or the new one, not an empty one)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    # one try from the file's creation on: a Ctrl-C arriving anywhere after it removes the file too
    try:
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))  # the umask applies, as to any new file
        _keep_mode(path, tmp)
        yield tmp
        if durable:
            _flush_to_disk(tmp)
        os.replace(tmp, path)
    except BaseException as exc:
        if not isinstance(exc, FileExistsError):  # only O_EXCL raises it: that file is another writer's
            _remove(tmp)
        if isinstance(exc, OSError):
            raise WriteError(path, exc) from None
        raise


def write_atomically(path: Path, content: str | bytes, durable: bool = True) -> None:
    """Write ``content`` (text as UTF-8) to ``path`` whole or not at all (:func:`atomic_path`)."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    with atomic_path(path, durable) as tmp:
        with open(tmp, "wb") as f:
            f.write(data)


def make_folder(path: Path) -> Path:
    """Make the folder ``path`` (and those above it) unless it exists; a :class:`WriteError` if it
    cannot be made. Returns ``path``."""
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WriteError(path, exc) from None
    return path


def _keep_mode(path: Path, tmp: Path) -> None:
    # a file written anew keeps the permissions it had, as writing it in place would
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return
    os.chmod(tmp, mode)


def _flush_to_disk(tmp: Path) -> None:
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove(tmp: Path) -> None:
    # on a read-only mount even removing a file that is not there fails (EROFS): the error that
    # matters is the one being raised, not this one
    try:
        tmp.unlink(missing_ok=True)
    except OSError:
        pass
