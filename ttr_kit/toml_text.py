"""Values written as a variant file writes them: TOML inline values, for the reference page's
defaults and for the variant files the kit writes (the standard library reads TOML, it does not
write it)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import attrs

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def inline(value: Any) -> str:
    """``value`` as a TOML inline value: ``3``, ``"end-of-turn"``, ``[1, 2, 3]``, ``{ any = 3 }``; an
    attrs instance (a parameter's structured value) as the table it is read from."""
    if attrs.has(type(value)):
        value = attrs.asdict(value, recurse=True)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{key(k)} = {inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list | tuple | set | frozenset):
        return "[" + ", ".join(inline(v) for v in value) + "]"
    raise TypeError(f"no TOML value for {value!r}")


def key(name: Any) -> str:
    """A TOML key: bare when it may be, quoted otherwise."""
    text = str(name)
    return text if _BARE_KEY.fullmatch(text) else json.dumps(text, ensure_ascii=False)
