"""Players' names as the server takes them: trimmed, visible, and not mistakable for each other.

A name is shown to every player of its game, so the server refuses what would mislead them: a
name with nothing visible in it (empty, or only spaces), control characters, and the invisible
formatting characters (Unicode category Cf: right-to-left and other bidirectional overrides,
zero-width spaces and joiners), which can make "\u202eA" look like "A" or hide a name's end. Two
seats of one game may not have names that are equal after NFKC normalisation and case folding
("Ada" and "ADA", "Ａｄａ" and "Ada"). Names that look alike across scripts (a Latin "A" and a
Cyrillic "А") are not caught: telling confusables apart needs Unicode's confusables table, which
is out of scope here.
"""

from __future__ import annotations

import unicodedata
from types import MappingProxyType
from typing import Annotated

from pydantic import AfterValidator, Field

MAX_LENGTH = 40

#: Unicode categories a name may not hold: controls, formats (bidirectional overrides, zero-width
#: characters), line and paragraph separators, unassigned and private-use code points, surrogates
REFUSED_CATEGORIES = MappingProxyType({"Cc": "a control character", "Cf": "an invisible formatting character",
                      "Zl": "a line separator", "Zp": "a paragraph separator", "Cn": "an unassigned character",
                      "Co": "a private-use character", "Cs": "a surrogate"})


def checked_name(name: str) -> str:
    """``name`` trimmed, or a ``ValueError`` saying what is wrong with it (a 422 in the API)."""
    name = name.strip()
    if not name:
        raise ValueError("a name needs at least one visible character")
    for position, char in enumerate(name, 1):
        category = unicodedata.category(char)
        if category in REFUSED_CATEGORIES:
            raise ValueError(f"a name may not hold {REFUSED_CATEGORIES[category]} "
                             f"(U+{ord(char):04X} at character {position})")
    if len(name) > MAX_LENGTH:
        raise ValueError(f"a name has at most {MAX_LENGTH} characters, not {len(name)}")
    return name


def name_key(name: str) -> str:
    """What two names are compared by: equal keys are names players could take for each other."""
    return unicodedata.normalize("NFKC", name).casefold()


def clashing_names(names: list[str]) -> list[str]:
    """The names of ``names`` that another one can be mistaken for, in order (empty: all differ)."""
    keys = [name_key(n) for n in names]
    return [n for n, k in zip(names, keys) if keys.count(k) > 1]


PlayerName = Annotated[str, Field(min_length=1, max_length=4 * MAX_LENGTH), AfterValidator(checked_name)]
