"""Hostile variant and map files: every broken file gives located errors and exit code 2 through
``ttr variants check FILE``, never a traceback or a hang.

Mutations are generated from the parsed TOML of every shipped variant and map (a key dropped, a
value of another type, a number out of range...), written to ``tmp_path`` and checked in-process
with click's ``CliRunner``; a few go through a real ``ttr`` subprocess. Named cases cover what a
person gets wrong: an unknown plugin, a plugin implementing an unknown hook, a cycle of
``extends``, duplicate cities, a route to nowhere, negative lengths, no tickets, huge numbers,
bytes that are not UTF-8, deeply nested junk, an empty file.
"""

from __future__ import annotations

import copy
import json
import math
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from ttr_core import manager, variant
from ttr_cli.main import main
from ttr_core.plugin import Plugin, hookimpl

VARIANTS = sorted(variant.available())
MAPS = sorted({variant.load(v).board.id: Path(variant.load(v).path).parent / "maps" / f"{variant.load(v).board.id}.toml"
               for v in VARIANTS}.items())

#: a value of another type for every kind of value a file holds
OTHER_TYPES = {
    str: [0, ["x"], {"x": 1}],
    int: ["3", 2.5, True, [1]],
    float: ["1.5", False, {}],
    bool: [1, "true", []],
    list: ["a b", 7, {"0": "x"}],
    dict: [[], "table", 3],
}
OUT_OF_RANGE = [-1, 0, 10**18, -(10**18)]
#: numbers TOML can write that no file means (R-SET-1: a city is a place on the map)
NON_FINITE = [math.nan, math.inf, -math.inf]


# --- writing TOML (nothing to install: every value as an inline value) ---------------------------


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # a JSON string is a TOML basic string
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(v)


def toml_text(data: dict) -> str:
    return "".join(f"{json.dumps(k)} = {toml_value(v)}\n" for k, v in data.items())


def test_the_toml_writer_round_trips_every_shipped_file():
    for path in [*variant.available().values(), *(p for _, p in MAPS)]:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert tomllib.loads(toml_text(data)) == data, path


# --- mutations ---------------------------------------------------------------------------------


def paths(obj, prefix=()):
    """Every key path of ``obj``; of a list, its first three items only."""
    if prefix:
        yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:3]):
            yield from paths(v, (*prefix, i))


def mutated(data, path, value=None, drop=False):
    data = copy.deepcopy(data)
    node = data
    for key in path[:-1]:
        node = node[key]
    if drop:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return data


def get(data, path):
    for key in path:
        data = data[key]
    return data


def mutations(data, salt: int):
    """(label, mutated data, must fail) for every path: dropped, and a value of another type
    (picked in turn, so that every kind of wrong value is tried somewhere), and for numbers a
    value out of range."""
    for n, path in enumerate(paths(data)):
        value = get(data, path)
        label = "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path)
        yield f"{label} dropped", mutated(data, path, drop=True), False
        others = OTHER_TYPES[type(value)]
        for k in range(1):
            wrong = others[(n + salt + k) % len(others)]
            # an integer is a fine float (a latitude of 0)
            must_fail = not (isinstance(value, float) and isinstance(wrong, int) and not isinstance(wrong, bool))
            yield f"{label} = {wrong!r}", mutated(data, path, wrong), must_fail
        if isinstance(value, int) and not isinstance(value, bool):
            big = OUT_OF_RANGE[(n + salt) % len(OUT_OF_RANGE)]
            yield f"{label} = {big!r}", mutated(data, path, big), abs(big) > 10_000
        if isinstance(value, float):
            odd = NON_FINITE[(n + salt) % len(NON_FINITE)]
            yield f"{label} = {odd!r}", mutated(data, path, odd), True


LOCATED = re.compile(r"^error: (?P<file>/\S[^:]*\.toml): (?P<rest>.+)$")


def check(path: Path, runner=None):
    result = (runner or CliRunner()).invoke(main, ["variants", "check", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{path.name}: crashed with {result.exception!r}"
    )
    assert result.exit_code in (0, 2), (result.exit_code, result.output)
    if result.exit_code == 2:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert lines, "exit code 2 without a message"
        for line in lines:
            m = LOCATED.match(line)
            assert m and Path(m["file"]).is_file(), f"not located: {line!r}"
    return result


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_every_mutation_of_a_variant_file_is_reported_or_harmless(variant_id, tmp_path):
    source = variant.available()[variant_id]
    data = tomllib.loads(source.read_text(encoding="utf-8"))
    target = tmp_path / source.name  # the same name: the id must match it
    tried = failed = 0
    for label, bad, must_fail in mutations(data, salt=len(variant_id)):
        target.write_text(toml_text(bad), encoding="utf-8")
        variant.clear_caches()
        result = check(target)
        tried += 1
        failed += result.exit_code == 2
        if must_fail:
            assert result.exit_code == 2, f"{variant_id}: {label} was accepted"
        if result.exit_code == 2 and "dropped" not in label:
            # the problem is reported in the file that was changed, at the changed key or its table
            assert str(target) in result.stderr, f"{label}: {result.stderr}"
    assert tried >= 10 and failed > tried // 3


@pytest.mark.parametrize("map_id,map_path", MAPS, ids=[m for m, _ in MAPS])
def test_every_mutation_of_a_map_file_is_reported_or_harmless(map_id, map_path, tmp_path):
    data = tomllib.loads(map_path.read_text(encoding="utf-8"))
    uses = next(v for v in VARIANTS if variant.load(v).board.id == map_id and not _extends(v))
    text = variant.available()[uses].read_text(encoding="utf-8")
    text = re.sub(r'^id = ".*"$', 'id = "on-a-bad-map"', text, count=1, flags=re.M)
    text = re.sub(r'^map = ".*"$', 'map = "bad-map.toml"', text, count=1, flags=re.M)
    (tmp_path / "on-a-bad-map.toml").write_text(text, encoding="utf-8")
    target = tmp_path / "bad-map.toml"
    target.write_text(toml_text(data), encoding="utf-8")
    assert check(tmp_path / "on-a-bad-map.toml").exit_code == 0  # the copy itself is fine
    for label, bad, must_fail in mutations(data, salt=len(map_id)):
        target.write_text(toml_text(bad), encoding="utf-8")
        variant.clear_caches()
        result = check(tmp_path / "on-a-bad-map.toml")
        if must_fail:
            assert result.exit_code == 2, f"{map_id}: {label} was accepted"
            assert str(target) in result.stderr, f"{label}: {result.stderr}"


def _extends(variant_id):
    return "extends" in tomllib.loads(variant.available()[variant_id].read_text(encoding="utf-8"))


# --- named cases --------------------------------------------------------------------------------


def usa_data():
    return tomllib.loads(variant.available()["usa"].read_text(encoding="utf-8"))


def usa_map():
    return tomllib.loads((variant.builtin_dir() / "maps" / "usa.toml").read_text(encoding="utf-8"))


def write_variant(folder: Path, data: dict, name: str = "usa") -> Path:
    path = folder / f"{name}.toml"
    path.write_text(toml_text({**data, "id": name}), encoding="utf-8")
    return path


def write_on_map(folder: Path, map_data: dict) -> Path:
    (folder / "m.toml").write_text(toml_text(map_data), encoding="utf-8")
    return write_variant(folder, {**usa_data(), "map": "m.toml"}, "on-m")


def expect(path: Path, *fragments: str):
    variant.clear_caches()
    result = check(path)
    assert result.exit_code == 2, result.output
    for fragment in fragments:
        assert fragment in result.stderr, f"{fragment!r} not in {result.stderr}"
    return result.stderr


def test_a_required_key_dropped(tmp_path):
    data = usa_data()
    del data["title"]
    expect(write_variant(tmp_path, data), "$.title", "required")


def test_wrong_types_are_named_with_their_place(tmp_path):
    data = usa_data()
    data["versions"]["1"]["rules"]["final-round"]["trains_threshold"] = "two"
    data["versions"]["1"]["rules"]["winner"]["tie_breakers"] = "tickets"  # a string, not a list
    err = expect(write_variant(tmp_path, data), "$.versions.1.rules.final-round.trains_threshold: expected an integer",
                 "$.versions.1.rules.winner.tie_breakers: expected a list")
    assert "usa.toml.versions" not in err  # the place is after the file name, not glued to it


def test_an_unknown_plugin(tmp_path):
    data = usa_data()
    data["versions"]["1"]["plugins"].append("tiket-leader")
    expect(write_variant(tmp_path, data), "$.versions.1.plugins", "unknown plugin 'tiket-leader'", "did you mean 'ticket-leader'")


def test_a_plugin_implementing_an_unknown_hook(tmp_path):
    class Typo(Plugin):
        @hookimpl
        def ttr_turn_endd(self, game):
            return None

    data = usa_data()
    data["versions"]["1"]["plugins"].append("typo")
    with manager.local_plugins({"typo": Typo}):
        expect(write_variant(tmp_path, data), "$.versions.1", "'typo' implements unknown hook 'ttr_turn_endd'", "ttr_turn_ended")


def test_two_plugins_answering_one_policy_hook(tmp_path):
    from ttr_plugins.route_points import RoutePoints

    class MyPoints(RoutePoints):
        pass

    data = usa_data()
    data["versions"]["1"]["plugins"].append("my-points")
    with manager.local_plugins({"my-points": MyPoints}):
        expect(write_variant(tmp_path, data), "'route-points' and 'my-points' both answer the single-answer hook 'ttr_route_points'")


def test_removing_a_configured_plugin_and_adding_its_replacement(tmp_path):
    """The way to replace a built-in policy: a removed plugin takes its inherited parameters along."""
    from ttr_plugins.route_points import RoutePoints

    class MyPoints(RoutePoints):
        pass

    path = tmp_path / "usa-mine.toml"
    path.write_text('id = "usa-mine"\ntitle = "t"\nextends = "usa"\n[versions.1]\n'
                    'remove_plugins = ["route-points", "longest-path"]\nadd_plugins = ["my-points"]\n'
                    # the longest path no longer breaks ties once its plugin is gone
                    '[versions.1.rules.winner]\ntie_breakers = ["tickets"]\n', encoding="utf-8")
    with manager.local_plugins({"my-points": MyPoints}):
        variant.clear_caches()
        assert check(path).exit_code == 0
        assert "route-points" not in variant.load(str(path)).plugins
    # rules given for a removed plugin in the same version are still an error
    path.write_text(path.read_text() + '[versions.1.rules.longest-path]\npoints = 3\n', encoding="utf-8")
    with manager.local_plugins({"my-points": MyPoints}):
        expect(path, "$.versions.1.rules.longest-path: rules for 'longest-path', which is not enabled")


def test_a_cycle_of_extends(tmp_path):
    (tmp_path / "a.toml").write_text('id = "a"\ntitle = "a"\nextends = "b.toml"\n[versions.1]\n', encoding="utf-8")
    (tmp_path / "b.toml").write_text('id = "b"\ntitle = "b"\nextends = "a.toml"\n[versions.1]\n', encoding="utf-8")
    (tmp_path / "c.toml").write_text('id = "c"\ntitle = "c"\nextends = "c.toml"\n[versions.1]\n', encoding="utf-8")
    expect(tmp_path / "a.toml", "$.extends: cycle")
    expect(tmp_path / "c.toml", "$.extends: cycle")


def test_duplicate_cities(tmp_path):
    m = usa_map()
    m["cities"].append(dict(m["cities"][3]))
    expect(write_on_map(tmp_path, m), f"$.cities[{len(m['cities']) - 1}].name: duplicate city")


def test_a_route_to_nowhere(tmp_path):
    m = usa_map()
    m["routes"][5]["to"] = "Atlantis"
    expect(write_on_map(tmp_path, m), "$.routes[5]: unknown city 'Atlantis'")


def test_negative_and_zero_lengths(tmp_path):
    m = usa_map()
    m["routes"][0]["length"] = -3
    m["routes"][1]["length"] = 0
    expect(write_on_map(tmp_path, m), "$.routes[0].length: must be at least 1, got -3", "$.routes[1].length")


def test_no_tickets(tmp_path):
    m = usa_map()
    m["tickets"] = []
    expect(write_on_map(tmp_path, m), "$.tickets: the map has no tickets")


def test_a_map_cut_in_two(tmp_path):
    m = usa_map()
    m["cities"].append({"name": "Atlantis", "lat": 0.0, "lon": 0.0})
    m["cities"].append({"name": "Lemuria", "lat": 0.0, "lon": 1.0})
    m["routes"].append({"from": "Atlantis", "to": "Lemuria", "length": 2, "color": "red"})
    expect(write_on_map(tmp_path, m), "the map is not connected", "Atlantis")


@pytest.mark.parametrize("where,value,fragment", [
    (("trains",), 10**30, "$.trains: 1000000000000000000000000000000 is out of range"),
    (("routes", 0, "length"), 10**9, "$.routes[0].length: 1000000000 is out of range"),
    (("tickets", 0, "points"), -(10**12), "$.tickets[0].points"),
    (("players", "max"), 10**6, "$.players.max"),
    (("players", "min"), -(10**9), "$.players.min"),
])
def test_huge_numbers(tmp_path, where, value, fragment):
    m = usa_map()
    m.setdefault("players", {"min": 2, "max": 5})
    expect(write_on_map(tmp_path, mutated(m, where, value)), "m.toml: " + fragment)


@pytest.mark.parametrize("literal,shown", [("nan", "nan"), ("-nan", "nan"), ("inf", "inf"), ("-inf", "-inf"),
                                           ("1e400", "inf"),
                                           pytest.param(str(10**400), "inf", id="an-integer-of-401-digits")])
def test_R_SET_1_a_city_whose_coordinate_is_not_a_finite_number(tmp_path, literal, shown):
    """TOML has inf and nan literals; a city at nan would pass any range check (nan compares false)."""
    marker = 0.123456789  # written in the file where the literal goes
    text = toml_text(mutated(usa_map(), ("cities", 3, "lat"), marker))
    assert text.count(repr(marker)) == 1
    text = text.replace(repr(marker), literal)
    (tmp_path / "m.toml").write_text(text, encoding="utf-8")
    path = write_variant(tmp_path, {**usa_data(), "map": "m.toml"}, "on-m")
    expect(path, f"m.toml: $.cities[3].lat: expected a finite number, got {shown}")


def test_huge_numbers_in_rules(tmp_path):
    data = usa_data()
    data["versions"]["1"]["rules"]["open-row"]["size"] = 10**12
    data["versions"]["1"]["rules"]["route-points"]["table"]["6"] = 10**15
    expect(write_variant(tmp_path, data), "out of range")


def test_non_utf8_bytes(tmp_path):
    path = tmp_path / "usa.toml"
    path.write_bytes(variant.available()["usa"].read_bytes().replace(b"Ticket to Ride", b"Ticket \xff\xfe Ride", 1))
    expect(path, "not UTF-8")


def test_non_utf8_bytes_in_a_map(tmp_path):
    (tmp_path / "m.toml").write_bytes((variant.builtin_dir() / "maps" / "usa.toml").read_bytes().replace(b"Atlanta", b"Atl\xc3\x28nta", 1))
    expect(write_variant(tmp_path, {**usa_data(), "map": "m.toml"}, "on-m"), "m.toml: byte", "not UTF-8")


def test_deeply_nested_junk_in_a_rules_table(tmp_path):
    data = usa_data()
    junk = 1
    for _ in range(50):
        junk = {"deeper": [junk]}
    data["versions"]["1"]["rules"]["open-row"]["junk"] = junk
    expect(write_variant(tmp_path, data), "$.versions.1.rules.open-row", "unknown key(s) 'junk'")


@pytest.mark.parametrize("depth", [2_000, 200_000])
def test_junk_nested_past_what_a_parser_can_follow(tmp_path, depth):
    path = tmp_path / "usa.toml"
    path.write_text('id = "usa"\njunk = ' + "[" * depth + "]" * depth + "\n", encoding="utf-8")
    expect(path, f"{path}: arrays or tables nested too deeply")
    path.write_text('id = "usa"\njunk = ' + "{a = " * depth + "1" + "}" * depth + "\n", encoding="utf-8")
    expect(path, f"{path}: arrays or tables nested too deeply")


@pytest.mark.parametrize("content", [b"", b"\n\n", b"# only a comment\n", b"\x00\x00", b"[versions", b"id = \"usa\"\n"])
def test_an_empty_or_truncated_file(tmp_path, content):
    path = tmp_path / "usa.toml"
    path.write_bytes(content)
    expect(path, str(path))


def test_a_missing_file_and_a_folder(tmp_path):
    result = CliRunner().invoke(main, ["variants", "check", str(tmp_path / "nothing.toml")])
    assert result.exit_code == 2 and "cannot read" in result.stderr
    (tmp_path / "dir.toml").mkdir()
    result = CliRunner().invoke(main, ["variants", "check", str(tmp_path / "dir.toml")])
    assert result.exit_code == 2 and "cannot read" in result.stderr


def test_a_map_named_by_a_path_outside_is_refused_or_read_as_a_map(tmp_path):
    data = usa_data()
    data["map"] = "../../../../../../etc/hostname"
    expect(write_variant(tmp_path, data), "$.map: unknown map")


def test_many_problems_are_reported_at_once(tmp_path):
    m = usa_map()
    m["routes"][0]["length"] = -1
    m["routes"][1]["color"] = "mauve"
    m["tickets"][0]["points"] = 0
    err = expect(write_on_map(tmp_path, m), "$.routes[0].length", "$.routes[1].color", "$.tickets[0].points")
    assert len([line for line in err.splitlines() if line.startswith("error:")]) >= 3


# --- through a real process ---------------------------------------------------------------------


def test_broken_files_through_the_ttr_command(tmp_path):
    """A real process: exit code 2, located messages on stderr, no traceback."""
    cases = {}
    data = usa_data()
    data["versions"]["1"]["plugins"].append("no-such-plugin")
    (tmp_path / "a").mkdir()
    cases["unknown plugin"] = write_variant(tmp_path / "a", data)
    (tmp_path / "b").mkdir()
    cases["not utf-8"] = tmp_path / "b" / "usa.toml"
    cases["not utf-8"].write_bytes(b"id = \"usa\"\ntitle = \"\xff\"\n")
    (tmp_path / "c").mkdir()
    cases["deep"] = tmp_path / "c" / "usa.toml"
    cases["deep"].write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    for label, path in cases.items():
        # run outside the repository, so that ``-m`` imports the installed ttr_cli, not the source tree's
        done = subprocess.run([sys.executable, "-m", "ttr_cli.main", "variants", "check", str(path)],
                              capture_output=True, text=True, timeout=120, cwd=tmp_path)
        assert done.returncode == 2, (label, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr and f"error: {path}" in done.stderr, (label, done.stderr)


def test_an_offer_of_tickets_too_large_to_list_is_refused_not_played(tmp_path):
    """Every subset of an offer is a legal choice: 28 tickets offered made listing the legal actions
    of the first player never end (``--play`` hung). The file is refused instead."""
    path = tmp_path / "usa-greedy.toml"
    path.write_text('id = "usa-greedy"\ntitle = "t"\nextends = "usa"\n[versions.1]\n[versions.1.rules.ticket-deal]\n'
                    'start = { deal = { any = 28 }, keep = { any = 1 }, rejects = "bottom" }\n', encoding="utf-8")
    variant.clear_caches()
    result = CliRunner().invoke(main, ["variants", "check", str(path), "--play", "1"])
    assert result.exit_code == 2, result.output
    assert "$.versions.1.rules.ticket-deal.start" in result.stderr and "at most 10 tickets" in result.stderr
