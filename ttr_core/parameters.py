"""A plugin's parameters, documented where they are declared.

A plugin's ``Config`` is a frozen attrs class, the variant's ``[rules.<plugin name>]`` table. Each
field is declared with :func:`parameter`, which keeps next to it what the parameter means and the
rule it sets (its id in docs/rules.md), in the field's attrs metadata::

    @attrs.frozen
    class Config:
        reset_locomotives: int = parameter("reset the row when this many locomotives are face up (0: never)",
                                           default=3, rule="R-ROW-2")

:func:`parameters_of` reads them back, in declaration order, for every tool that shows a
variant's rules: the plugin reference page (docs/plugins.md) lists them, and a variant diff or a
game page's rules panel can read the same.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable
from typing import Any

import attrs

#: the keys of a field's metadata that :func:`parameter` sets
DOC = "doc"
RULE = "rule"


def parameter(
    doc: str, *, default: Any = attrs.NOTHING, factory: Callable[[], Any] | None = None, rule: str | None = None,
    validator: Any = None,
) -> Any:
    """A ``Config`` field meaning ``doc``, setting ``rule`` (an id of docs/rules.md, or several:
    ``"R-CTL-1, R-SET-2"``), with its ``default`` (or a ``factory`` for a mutable one) and an attrs
    ``validator``."""
    return attrs.field(default=default, factory=factory, validator=validator, metadata={DOC: doc, RULE: rule})


@attrs.frozen
class Parameter:
    """One parameter of a plugin: its ``name`` (the key in the variant's table), ``type`` (as
    annotated), ``default`` (``attrs.NOTHING`` when it must be given), what it means (``doc``,
    empty when undocumented) and the ``rule`` it sets (None when it sets none)."""

    name: str
    type: str
    default: Any
    doc: str
    rule: str | None


def parameters_of(config: type) -> tuple[Parameter, ...]:
    """The parameters of a plugin's ``Config`` class, in declaration order (none for a class that
    is not attrs, such as a plugin's own config reader)."""
    if not attrs.has(config):
        return ()
    written = {}
    for cls in reversed(config.__mro__):  # as annotated: reading a config resolves the fields' types
        written.update(inspect.get_annotations(cls))
    return tuple(_parameter(field, written.get(field.name, field.type)) for field in attrs.fields(config))


def _parameter(field: attrs.Attribute, annotation: Any) -> Parameter:
    default = field.default
    if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
        default = default.factory()
    return Parameter(field.name, _type_text(annotation), default, field.metadata.get(DOC, ""), field.metadata.get(RULE))


def _type_text(annotation: Any) -> str:
    """A type as its annotation reads, without module prefixes (``list[MajorityBonus]``)."""
    if annotation is None:
        return ""
    if isinstance(annotation, str):
        return annotation
    if isinstance(annotation, type) and not typing.get_args(annotation):
        return annotation.__qualname__
    return re.sub(r"\b(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_])", "", repr(annotation))
