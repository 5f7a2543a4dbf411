"""Game records: variant + rules version + seed + players + action log, and replaying them.

A record is JSON with one action per line, written canonically, so the same seed and actions
give byte-identical records. It carries a digest of the state it leads to and the result it
ends with: replay checks both, so an edited, truncated or reordered record, or one with edited
scores or winners, is reported instead of half-loaded.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ttr_core import variant
from ttr_core.errors import IllegalAction, RecordError, TTRError, VariantError
from ttr_core.files import read_json, write_atomically
from ttr_core.game import Game
from ttr_core.state import digest

#: the ``format`` every record states; a record of another format is refused
FORMAT = "ttr-record/1"


def make_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` as JSON data: ``format``, ``variant``, ``version``, ``seed``,
    ``players``, ``settings`` (only when parameters were set on top of the variant file:
    :attr:`~ttr_core.variant.Ruleset.changed`), ``actions`` (``{"seat": s, "kind": ..., fields...}``
    each), ``digest`` (of the
    state the actions lead to), ``over``, and ``result`` once the game is over (``reason``,
    ``scores`` by player name, ``winners`` by name). A game need not be over to be recorded."""
    record = {
        "format": FORMAT,
        "variant": game.ruleset.variant,
        "version": game.ruleset.version,
        "seed": game.seed,
        "players": list(game.names),
        **({"settings": {name: dict(table) for name, table in game.ruleset.changed.items()}} if game.ruleset.changed else {}),
        "actions": [{"seat": seat, **game.registry.to_data(a)} for seat, a in game.log],
        "digest": digest(game.dump()),
        "over": game.over,
    }
    if game.result is not None:
        record["result"] = _result_of(game)
    return record


def _result_of(game: Game) -> dict[str, Any]:
    assert game.result is not None
    return {
        "reason": game.result.reason,
        "scores": {s.name: s.total for s in game.result.scores},
        "winners": [game.names[s] for s in game.result.winners.seats],
    }


def dumps(record: Mapping[str, Any]) -> str:
    """Canonical text: fixed key order, compact, one action per line."""
    head = {k: record[k] for k in ("format", "variant", "version", "seed", "players", "settings") if k in record}
    lines = [json.dumps(head, separators=(",", ":"))[:-1] + ',"actions":[']
    actions = record["actions"]
    lines += [json.dumps(a, separators=(",", ":")) + ("," if i < len(actions) - 1 else "") for i, a in enumerate(actions)]
    tail = {k: record[k] for k in record if k not in head and k != "actions"}
    lines.append("]," + json.dumps(tail, separators=(",", ":"))[1:])
    return "\n".join(lines) + "\n"


def save(game: Game, path: Path) -> str:
    """Write the record of ``game`` to ``path`` (UTF-8, :func:`dumps`' canonical text) and return
    the text. The file is written whole or not at all (a :class:`~ttr_core.files.WriteError`
    names it, and an older file there is left as it was)."""
    text = dumps(make_record(game))
    write_atomically(path, text)
    return text


def load(path: Path) -> dict[str, Any]:
    """Read a record file and check its shape (not yet that it replays: :func:`replay` does).
    Raises :class:`~ttr_core.errors.RecordError` listing every problem, located."""
    return check_shape(read_json(path), str(path))


def check_shape(data: Any, where: str) -> dict[str, Any]:
    """Check that ``data`` has the shape of a record (every key, of the right type) and return
    it; problems are reported as ``where: $.key: problem``, all at once, in a
    :class:`~ttr_core.errors.RecordError`."""
    problems = []
    if not isinstance(data, dict):
        raise RecordError([f"{where}: a record is a JSON object"])
    if data.get("format") != FORMAT:
        problems.append(f"{where}: $.format: expected {FORMAT!r}, got {data.get('format')!r}")
    for key, kind in (("variant", str), ("version", int), ("seed", int), ("players", list), ("actions", list), ("digest", str)):
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            problems.append(f"{where}: $.{key}: missing or not a {kind.__name__}")
    if not isinstance(data.get("over"), bool):
        problems.append(f"{where}: $.over: missing or not true/false")
    if "settings" in data and not (isinstance(data["settings"], dict) and all(isinstance(t, dict) for t in data["settings"].values())):
        problems.append(f"{where}: $.settings: a table of plugins' parameter tables")
    if isinstance(data.get("players"), list) and not all(isinstance(p, str) for p in data["players"]):
        problems.append(f"{where}: $.players: player names are strings")
    name = data.get("variant")
    if isinstance(name, str) and ("/" in name or "\\" in name or name.endswith(".toml")):
        # a record names an installed variant; a path would make whoever replays it read that file
        problems.append(f"{where}: $.variant: {name!r} is a file path, not a variant id")
    if problems:
        raise RecordError(problems)
    return data


def replay(
    record: Mapping[str, Any], where: str = "record", loader: Callable[..., Any] = variant.load,
    *, variant_id: str | None = None, version: int | None = None,
) -> Game:
    """Rebuild the game a record describes, under the rules version it names, and check its digest,
    whether it is over, and the result it states.

    ``variant_id`` (at its current version unless ``version`` names one) or ``version`` replay the
    actions under other rules instead (rescoring: the same state, scored another way). The digest
    and ``over`` are still checked, the stated scores and winners are not: they are what the
    record's own rules gave.

    ``where`` names the record in messages (a file name); ``loader`` loads the ruleset
    (``variant.load`` by default). Any problem, an action that no longer replays included, is a
    :class:`~ttr_core.errors.RecordError` located in the record (``$.actions[12]: ...``)."""
    record = check_shape(record, where)
    same_variant = variant_id in (None, record["variant"])
    own_rules = same_variant and version in (None, record["version"])
    if same_variant and version is None:
        version = record["version"]  # another variant numbers its own versions: None is its current one
    game = _new_game(record, where, loader, variant_id or record["variant"], version, own_rules)
    _apply_actions(game, record["actions"], where)
    _check_digest(game, record, where, own_rules)
    _check_end(game, record, where, own_rules)
    return game


def _new_game(
    record: Mapping[str, Any], where: str, loader: Callable[..., Any], variant_id: str, version: int | None,
    own_rules: bool,
) -> Game:
    try:
        ruleset = loader(variant_id, version)
        if own_rules and record.get("settings"):
            # the parameters the game was played with; rescoring under other rules uses those rules
            ruleset = ruleset.with_tables(record["settings"], "$.settings")
    except VariantError as exc:
        raise RecordError([f"{where}: {p}" for p in exc.problems]) from None
    try:
        return Game(ruleset, record["players"], record["seed"])
    except TTRError as exc:
        raise RecordError([f"{where}: {exc}"]) from None


def _apply_actions(game: Game, actions: list[Any], where: str) -> None:
    decode, apply = game.registry.from_entry, game.apply
    for i, entry in enumerate(actions):
        seat = entry.get("seat") if isinstance(entry, dict) else None
        if type(seat) is not int:  # a bool is an int to Python, not a seat
            raise RecordError([f"{where}: $.actions[{i}]: an action is an object with an integer 'seat'"])
        try:
            apply(seat, decode(entry))
        except IllegalAction as exc:
            raise RecordError([f"{where}: $.actions[{i}]: does not replay: {exc}"]) from None


def _check_digest(game: Game, record: Mapping[str, Any], where: str, own_rules: bool) -> None:
    got = digest(game.dump())
    if got != record["digest"]:
        rules = game.ruleset
        cause = "the record was edited, truncated or reordered" if own_rules else \
            f"{rules.variant} version {rules.version} plays these actions differently"
        raise RecordError([
            f"{where}: $.digest: the actions lead to state {got}, the record says {record['digest']}: {cause}"
        ])


def _check_end(game: Game, record: Mapping[str, Any], where: str, own_rules: bool) -> None:
    """``over`` and ``result`` as the replayed game gives them. The digest covers the state, not
    the scoring, so an edited score or winner would otherwise load as written."""
    if record["over"] != game.over:
        raise RecordError([f"{where}: $.over: {_says(record['over'], game.over)}"])
    if game.over != ("result" in record):
        why = ("missing: the actions end the game, and the record of a finished game states its result" if game.over
               else "the actions leave the game unfinished, and the record of an unfinished game states no result")
        raise RecordError([f"{where}: $.result: {why}"])
    if game.over and own_rules:
        problems = _mismatches(f"{where}: $.result", record["result"], _result_of(game))
        if problems:
            raise RecordError(problems)


_ABSENT = object()


def _mismatches(at: str, stated: Any, actual: Any) -> list[str]:
    """Where the record's ``stated`` value differs from the replay's ``actual`` one, by path."""
    if isinstance(stated, dict) and isinstance(actual, dict):
        keys = [*actual, *(k for k in stated if k not in actual)]
        return [m for k in keys
                for m in _mismatches(f"{at}{_step(k)}", stated.get(k, _ABSENT), actual.get(k, _ABSENT))]
    if stated is _ABSENT:
        return [f"{at}: missing, the actions give {_shown(actual)}"]
    if actual is _ABSENT:
        return [f"{at}: the record says {_shown(stated)}, the actions give no such entry"]
    # type-strict: JSON true is not 1, and 57.0 is not the 57 the engine writes
    if type(stated) is type(actual) and stated == actual:
        return []
    return [f"{at}: {_says(stated, actual)}"]


def _says(stated: Any, actual: Any) -> str:
    return f"the record says {_shown(stated)}, the actions give {_shown(actual)}"


def _step(key: Any) -> str:
    # player names are free text: only a plain name reads unambiguously after a dot
    return f".{key}" if isinstance(key, str) and key.isidentifier() else f"[{_shown(key)}]"


def _shown(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except (RecursionError, ValueError):
        return "(a value nested too deeply to show)"
    return text if len(text) <= 60 else text[:57] + "..."
