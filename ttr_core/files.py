"""Reading TOML and JSON files into frozen attrs classes, with every problem located.

One strict cattrs converter for all files (ufoLib2 style: built by a function, nothing registered
at import time). Strict means no silent coercion: ``"3"`` is not an int and ``true`` is not a
number. Unknown keys are errors so that typos in a variant file are reported, not ignored.
"""

from __future__ import annotations

import json
import math
import tomllib
import typing
from pathlib import Path
from typing import Any, TypeVar, get_args, get_origin

import cattrs
from cattrs.gen import make_dict_structure_fn

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
