"""What differs between two rule sets: plugins, their parameters, the rules version and its
notes, and the map, as data (:func:`variant_diff`) and as lines of text (:func:`diff_lines`).

``ttr variants diff A B`` prints it, and every ``ttr playtest --against`` report opens with it.
What a parameter means and the rule it sets come from the plugin's own declaration of it
(``parameter(meaning, rule=...)`` on its ``Config``, read with :func:`ttr_core.plugin.parameters_of`,
the same source as docs/plugins.md), and what players call a plugin's rule from its ``title``:
nothing here keeps a table of its own.

The difference reads from A to B: "added" is in B and not in A.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Mapping
from typing import Any

import attrs
import cattrs

from ttr_core import manager
from ttr_core.board import Board
from ttr_core.plugin import parameters_of
from ttr_core.variant import Ruleset

_conv = cattrs.Converter()

FORMAT = "ttr-variant-diff/1"
#: how many cities, routes or tickets of one kind the text names (the JSON has them all)
LISTED = 12


def label(rs: Ruleset) -> str:
    return f"{rs.variant}@{rs.version}"


def variant_diff(a: Ruleset, b: Ruleset) -> dict[str, Any]:
    """Everything that differs from rule set ``a`` to rule set ``b``, as JSON data: ``plugins``
    (``added``, ``removed``: each with its title and the parameters in force), ``parameters`` (per
    plugin in both, the ones whose value differs: ``old``, ``new``, ``meaning``, ``rule``),
    ``metadata`` (title, rules version, its note, players) and ``map``; ``same`` when nothing
    differs but the names."""
    added = [p for p in b.plugins if p not in a.plugins]
    removed = [p for p in a.plugins if p not in b.plugins]
    changed = [entry for name in b.plugins if name in a.plugins for entry in _changed_parameters(name, a, b)]
    metadata = _metadata(a, b)
    board = map_diff(a.board, b.board)
    return {
        "format": FORMAT,
        "from": label(a),
        "to": label(b),
        "plugins": {"added": [_plugin(b, p) for p in added], "removed": [_plugin(a, p) for p in removed]},
        "parameters": changed,
        "metadata": metadata,
        "map": board,
        "same": not (added or removed or changed or board["differs"]),
    }


# --- plugins and their parameters ----------------------------------------------------------------


def _title(name: str) -> str:
    """What players call a plugin's rule (``Plugin.title``), else its name as words."""
    return getattr(manager.plugin_class(name), "title", "") or name.replace("-", " ")


def _values(rs: Ruleset, name: str) -> dict[str, Any]:
    config = rs.configs.get(name)
    data = _conv.unstructure(config) if config is not None else {}
    return data if isinstance(data, dict) else {}


def _documented(name: str) -> dict[str, Any]:
    """A plugin's documented parameters by name (its ``Config`` fields)."""
    return {p.name: p for p in parameters_of(manager.plugin_class(name).Config)}


def _parameter(name: str, key: str, documented: Mapping[str, Any], **values: Any) -> dict[str, Any]:
    doc = documented.get(key)
    return {"plugin": name, "title": _title(name), "parameter": key, **values,
            "meaning": doc.doc if doc is not None else "", "rule": doc.rule if doc is not None else None}


def _plugin(rs: Ruleset, name: str) -> dict[str, Any]:
    documented = _documented(name)
    return {"plugin": name, "title": _title(name), "module": _summary(name),
            "parameters": [_parameter(name, k, documented, value=v) for k, v in _values(rs, name).items()]}


def _summary(name: str) -> str:
    """The first sentence of the plugin's module docstring (what the plugin table of
    docs/plugins.md shows as its rules)."""
    doc = inspect.getdoc(inspect.getmodule(manager.plugin_class(name))) or ""
    return " ".join(doc.split("\n\n")[0].split()).replace("``", "")


def _changed_parameters(name: str, a: Ruleset, b: Ruleset) -> list[dict[str, Any]]:
    old, new = _values(a, name), _values(b, name)
    documented = _documented(name)
    keys = [*old, *(k for k in new if k not in old)]
    return [_parameter(name, k, documented, old=old.get(k), new=new.get(k)) for k in keys if old.get(k) != new.get(k)]


def _metadata(a: Ruleset, b: Ruleset) -> list[dict[str, Any]]:
    """The rule sets' own facts that differ: title, variant, rules version and its note, players."""
    fields = [
        ("variant", a.variant, b.variant),
        ("title", a.title, b.title),
        ("rules version", a.version, b.version),
        ("version note", a.notes[-1] if a.notes else "", b.notes[-1] if b.notes else ""),
        ("players", f"{a.players.min}-{a.players.max}", f"{b.players.min}-{b.players.max}"),
    ]
    return [{"field": f, "old": x, "new": y} for f, x, y in fields if x != y]


# --- the map -------------------------------------------------------------------------------------


def _by_key(items, key) -> dict[str, dict[str, Any]]:
    out = {}
    for item in items:
        data = {k: v for k, v in attrs.asdict(item).items() if k not in ("index", "ai", "bi", "parallel")}
        out[key(item)] = data
    return out


def _compare(old: dict[str, dict[str, Any]], new: dict[str, dict[str, Any]]) -> dict[str, Any]:
    changed = []
    for k in old:
        if k in new and old[k] != new[k]:
            changed.append({"id": k, "fields": {f: {"old": old[k].get(f), "new": new[k].get(f)}
                                                 for f in {**old[k], **new[k]} if old[k].get(f) != new[k].get(f)}})
    return {"added": [k for k in new if k not in old], "removed": [k for k in old if k not in new], "changed": changed}


def map_diff(a: Board, b: Board) -> dict[str, Any]:
    """The cities (by name), routes (by id) and tickets (by id) added, removed and changed from
    map ``a`` to map ``b``, and the map's own facts (id, title, trains per player)."""
    parts = {
        "cities": _compare(_by_key(a.cities, lambda c: c.name), _by_key(b.cities, lambda c: c.name)),
        "routes": _compare(_by_key(a.routes, lambda r: r.id), _by_key(b.routes, lambda r: r.id)),
        "tickets": _compare(_by_key(a.tickets, lambda t: t.id), _by_key(b.tickets, lambda t: t.id)),
    }
    facts = [{"field": f, "old": x, "new": y}
             for f, x, y in (("id", a.id, b.id), ("title", a.title, b.title), ("trains", a.trains, b.trains)) if x != y]
    differs = bool(facts) or any(v for part in parts.values() for v in part.values())
    return {"from": a.id, "to": b.id, "differs": differs, "facts": facts, **parts}


# --- in words ------------------------------------------------------------------------------------


def _value(v: Any) -> str:
    return "(unset)" if v is None else json.dumps(v, ensure_ascii=False)


def _meaning(p: Mapping[str, Any]) -> str:
    bits = [p["meaning"]] if p["meaning"] else []
    if p["rule"]:
        bits.append(p["rule"])
    return f" ({'; '.join(bits)})" if bits else ""


def diff_lines(d: Mapping[str, Any]) -> list[str]:
    """The difference as lines of plain text, from ``d["from"]`` to ``d["to"]``."""
    lines = [f"from {d['from']} to {d['to']}:"]
    if d["same"]:
        lines.append("  the same rules: same plugins, same parameters, same map"
                     + (" (only the names and notes differ)" if d["metadata"] else ""))
    for kind in ("added", "removed"):
        for p in d["plugins"][kind]:
            lines.append(f"  plugin {kind}: {p['plugin']} ({p['title']})" + (f": {p['module']}" if p["module"] else ""))
            for q in p["parameters"]:
                lines.append(f"    {q['parameter']} = {_value(q['value'])}{_meaning(q)}")
    for p in d["parameters"]:
        lines.append(f"  parameter changed: {p['plugin']}.{p['parameter']} ({p['title']}): "
                     f"{_value(p['old'])} → {_value(p['new'])}{_meaning(p)}")
    for m in d["metadata"]:
        lines.append(f"  {m['field']}: {_value(m['old'])} → {_value(m['new'])}")
    lines += map_lines(d["map"])
    return lines


def map_lines(m: Mapping[str, Any]) -> list[str]:
    if not m["differs"]:
        return [f"  map: the same map ({m['from']})"]
    lines = [f"  map: {m['from']} → {m['to']}"]
    for f in m["facts"]:
        lines.append(f"    {f['field']}: {_value(f['old'])} → {_value(f['new'])}")
    for part in ("cities", "routes", "tickets"):
        got = m[part]
        for kind in ("added", "removed"):
            if got[kind]:
                shown = ", ".join(got[kind][:LISTED]) + (f", and {len(got[kind]) - LISTED} more" if len(got[kind]) > LISTED else "")
                lines.append(f"    {part} {kind} ({len(got[kind])}): {shown}")
        for c in got["changed"][:LISTED]:
            fields = ", ".join(f"{f} {_value(v['old'])} → {_value(v['new'])}" for f, v in c["fields"].items())
            lines.append(f"    {part[:-1]} changed: {c['id']}: {fields}")
        if len(got["changed"]) > LISTED:
            lines.append(f"    and {len(got['changed']) - LISTED} more {part} changed (--json lists them all)")
    return lines
