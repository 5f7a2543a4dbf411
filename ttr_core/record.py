"""Game records: variant + rules version + seed + players + action log, and replaying them.

A record is JSON with one action per line, written canonically, so the same seed and actions
give byte-identical records. It carries a digest of the state it leads to: replay checks it,
so an edited, truncated or reordered record is reported instead of half-loaded.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ttr_core import variant
from ttr_core.errors import IllegalAction, RecordError, TTRError, VariantError
from ttr_core.files import read_json
from ttr_core.game import Game
from ttr_core.state import digest

FORMAT = "ttr-record/1"
_KEYS = ("format", "variant", "version", "seed", "players", "actions", "digest", "over")


def make_record(game: Game) -> dict[str, Any]:
    record = {
        "format": FORMAT,
        "variant": game.ruleset.variant,
        "version": game.ruleset.version,
        "seed": game.seed,
        "players": list(game.names),
        "actions": [{"seat": seat, **game.registry.to_data(a)} for seat, a in game.log],
        "digest": digest(game.dump()),
        "over": game.over,
    }
    if game.result is not None:
        record["result"] = {
            "reason": game.result.reason,
            "scores": {s.name: s.total for s in game.result.scores},
            "winners": [game.names[s] for s in game.result.winners.seats],
        }
    return record


def dumps(record: Mapping[str, Any]) -> str:
    """Canonical text: fixed key order, compact, one action per line."""
    head = {k: record[k] for k in ("format", "variant", "version", "seed", "players")}
    lines = [json.dumps(head, separators=(",", ":"))[:-1] + ',"actions":[']
    actions = record["actions"]
    lines += [json.dumps(a, separators=(",", ":")) + ("," if i < len(actions) - 1 else "") for i, a in enumerate(actions)]
    tail = {k: record[k] for k in record if k not in head and k != "actions"}
    lines.append("]," + json.dumps(tail, separators=(",", ":"))[1:])
    return "\n".join(lines) + "\n"


def save(game: Game, path: Path) -> str:
    text = dumps(make_record(game))
    path.write_text(text, encoding="utf-8")
    return text


def load(path: Path) -> dict[str, Any]:
    return check_shape(read_json(path), str(path))


def check_shape(data: Any, where: str) -> dict[str, Any]:
    problems = []
    if not isinstance(data, dict):
        raise RecordError([f"{where}: a record is a JSON object"])
    if data.get("format") != FORMAT:
        problems.append(f"{where}: $.format: expected {FORMAT!r}, got {data.get('format')!r}")
    for key, kind in (("variant", str), ("version", int), ("seed", int), ("players", list), ("actions", list), ("digest", str)):
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            problems.append(f"{where}: $.{key}: missing or not a {kind.__name__}")
    if isinstance(data.get("players"), list) and not all(isinstance(p, str) for p in data["players"]):
        problems.append(f"{where}: $.players: player names are strings")
    name = data.get("variant")
    if isinstance(name, str) and ("/" in name or "\\" in name or name.endswith(".toml")):
        # a record names an installed variant; a path would make whoever replays it read that file
        problems.append(f"{where}: $.variant: {name!r} is a file path, not a variant id")
    if problems:
        raise RecordError(problems)
    return data


def replay(record: Mapping[str, Any], where: str = "record", loader: Callable[..., Any] = variant.load) -> Game:
    """Rebuild the game a record describes, under the rules version it names, and check its digest."""
    record = check_shape(record, where)
    try:
        ruleset = loader(record["variant"], record["version"])
    except VariantError as exc:
        raise RecordError([f"{where}: {p}" for p in exc.problems]) from None
    try:
        game = Game(ruleset, record["players"], record["seed"])
    except TTRError as exc:
        raise RecordError([f"{where}: {exc}"]) from None
    for i, entry in enumerate(record["actions"]):
        at = f"{where}: $.actions[{i}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("seat"), int):
            raise RecordError([f"{at}: an action is an object with an integer 'seat'"])
        data = {k: v for k, v in entry.items() if k != "seat"}
        try:
            game.apply(entry["seat"], game.registry.from_data(data, entry["seat"]))
        except IllegalAction as exc:
            raise RecordError([f"{at}: does not replay: {exc}"]) from None
    got = digest(game.dump())
    if got != record["digest"]:
        raise RecordError([
            f"{where}: $.digest: the actions lead to state {got}, the record says {record['digest']}: "
            "the record was edited, truncated or reordered"
        ])
    return game
