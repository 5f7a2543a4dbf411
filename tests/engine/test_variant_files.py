"""Variant and map files: the shipped ``usa`` file, a house variant with its own map next to it, and
broken files. Every mistake is reported as ``file: $.path: problem`` by ``ttr variants check`` (exit
code 2, no traceback) and by ``variant.load`` (VariantError, all problems of a stage at once)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from usa_kit import DATA

import ttr_bots as bots
from ttr_core import variant
from ttr_cli.main import main
from ttr_core.errors import VariantError

VALID_MAP = (DATA / "tiny_map.toml").read_text(encoding="utf-8")


def variant_text(name: str, body: str = "", head: str = "", version: str = "") -> str:
    return f'id = "{name}"\ntitle = "Test"\n{head}\n[versions.1]\n{version}\n{body}'


def write(tmp_path: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def map_with(routes: str | None = None, cities: str | None = None, tickets: str | None = None) -> str:
    """The tiny map with one of its lists replaced."""
    text = VALID_MAP
    for key, new in (("routes", routes), ("cities", cities), ("tickets", tickets)):
        if new is not None:
            start = text.index(f"\n{key} = [") + 1
            end = text.index("\n]\n", start) + 3
            text = text[:start] + f"{key} = [\n{new}\n]\n" + text[end:]
    return text


def tiny_cities(**coordinates: str) -> str:
    """The tiny map's four cities, some at other ``lat = .., lon = ..``."""
    at = {"Alpha": "lat = 0.0, lon = 0.0", "Beta": "lat = 0.0, lon = 1.0", "Gamma": "lat = 1.0, lon = 1.0",
          "Delta": "lat = 1.0, lon = 0.0", **coordinates}
    return "\n".join(f'{{ name = "{name}", {where} }},' for name, where in at.items())


ON_TINY_MAP = variant_text("bad", head='extends = "usa"\nmap = "mymap.toml"')

# name: (files, the file reported, its $.path, a piece of the problem)
BROKEN: dict[str, tuple[dict[str, str | bytes], str, str, str]] = {
    "unknown top-level key": (
        {"bad.toml": variant_text("bad", head='extends = "usa"\ncolour = "red"')},
        "bad.toml", "$", "unknown key(s) 'colour'",
    ),
    "wrong type": (
        {"bad.toml": 'id = "bad"\ntitle = 5\nextends = "usa"\n[versions.1]\n'},
        "bad.toml", "$.title", "expected a string, got int 5",
    ),
    "missing required key": (
        {"bad.toml": 'id = "bad"\nextends = "usa"\n[versions.1]\n'},
        "bad.toml", "$.title", "required key is missing",
    ),
    "unknown plugin": (
        {"bad.toml": variant_text("bad", head='extends = "usa"', version='add_plugins = ["no-such-plugin"]')},
        "bad.toml", "$.versions.1.plugins", "unknown plugin 'no-such-plugin'",
    ),
    "rules for a plugin not enabled": (
        {"bad.toml": variant_text("bad", head='extends = "usa"', body="[versions.1.rules.tunnels]\nx = 1\n")},
        "bad.toml", "$.versions.1.rules.tunnels", "rules for 'tunnels', which is not enabled",
    ),
    "bad parameter type": (
        {"bad.toml": variant_text("bad", head='extends = "usa"', body='[versions.1.rules.open-row]\nmax_resets = "3"\n')},
        "bad.toml", "$.versions.1.rules.open-row.max_resets", "expected an integer, got str '3'",
    ),
    "bad parameter value": (
        {"bad.toml": variant_text("bad", head='extends = "usa"', body='[versions.1.rules.open-row]\nrefill = "sometimes"\n')},
        "bad.toml", "$.versions.1.rules.open-row.refill", "sometimes",
    ),
    "unknown parameter": (
        {"bad.toml": variant_text("bad", head='extends = "usa"', body="[versions.1.rules.final-round]\ntrain_threshold = 3\n")},
        "bad.toml", "$.versions.1.rules.final-round", "unknown key(s) 'train_threshold'",
    ),
    "missing map": (
        {"bad.toml": variant_text("bad", head='extends = "usa"\nmap = "nowhere"')},
        "bad.toml", "$.map", "unknown map 'nowhere'",
    ),
    "route length not covered by the points table": (
        {"bad.toml": ON_TINY_MAP,
         "mymap.toml": map_with(routes='{ from = "Alpha", to = "Beta", length = 7, color = "red" },\n'
                                       '{ from = "Beta", to = "Gamma", length = 2, color = "gray" },\n'
                                       '{ from = "Gamma", to = "Delta", length = 3, color = "gray" },')},
        "bad.toml", "$.versions.1", "routes of length 7 (Alpha-Beta) that the points table does not cover",
    ),
    "ticket naming an unknown city": (
        {"bad.toml": ON_TINY_MAP, "mymap.toml": map_with(tickets='{ from = "Alpha", to = "Atlantis", points = 5 },')},
        "mymap.toml", "$.tickets[0]", "unknown city 'Atlantis'",
    ),
    "route naming an unknown city": (
        {"bad.toml": ON_TINY_MAP,
         "mymap.toml": map_with(routes='{ from = "Alpha", to = "Beta", length = 1, color = "red" },\n'
                                       '{ from = "Beta", to = "Gamma", length = 2, color = "gray" },\n'
                                       '{ from = "Gamma", to = "Delta", length = 3, color = "gray" },\n'
                                       '{ from = "Delta", to = "Omega", length = 3, color = "gray" },')},
        "mymap.toml", "$.routes[3]", "unknown city 'Omega'",
    ),
    "disconnected map": (
        {"bad.toml": ON_TINY_MAP,
         "mymap.toml": map_with(routes='{ from = "Alpha", to = "Beta", length = 1, color = "red" },\n'
                                       '{ from = "Gamma", to = "Delta", length = 3, color = "gray" },')},
        "mymap.toml", "$.routes", "not connected; cut off from Alpha: Delta, Gamma",
    ),
    "duplicate city": (
        {"bad.toml": ON_TINY_MAP,
         "mymap.toml": map_with(cities='{ name = "Alpha", lat = 0.0, lon = 0.0 },\n{ name = "Beta", lat = 0.0, lon = 1.0 },\n'
                                       '{ name = "Gamma", lat = 1.0, lon = 1.0 },\n{ name = "Delta", lat = 1.0, lon = 0.0 },\n'
                                       '{ name = "Beta", lat = 2.0, lon = 2.0 },')},
        "mymap.toml", "$.cities[4].name", "duplicate city 'Beta'",
    ),
    "negative length": (
        {"bad.toml": ON_TINY_MAP,
         "mymap.toml": map_with(routes='{ from = "Alpha", to = "Beta", length = 1, color = "red" },\n'
                                       '{ from = "Beta", to = "Gamma", length = -2, color = "gray" },\n'
                                       '{ from = "Gamma", to = "Delta", length = 3, color = "gray" },')},
        "mymap.toml", "$.routes[1].length", "must be at least 1, got -2",
    ),
    "unknown route colour": (
        {"bad.toml": ON_TINY_MAP,
         "mymap.toml": map_with(routes='{ from = "Alpha", to = "Beta", length = 1, color = "pink" },\n'
                                       '{ from = "Beta", to = "Gamma", length = 2, color = "gray" },\n'
                                       '{ from = "Gamma", to = "Delta", length = 3, color = "gray" },')},
        "mymap.toml", "$.routes[0].color", "unknown colour 'pink'",
    ),
    "map value of the wrong type": (
        {"bad.toml": ON_TINY_MAP, "mymap.toml": VALID_MAP.replace("trains = 45", 'trains = "45"')},
        "mymap.toml", "$.trains", "expected an integer",
    ),
    "extends cycle": (
        {"bad.toml": variant_text("bad", head='extends = "other.toml"'),
         "other.toml": variant_text("other", head='extends = "bad.toml"')},
        "bad.toml", "$.extends", "cycle bad -> other -> bad",
    ),
    "extends an unknown variant": (
        {"bad.toml": variant_text("bad", head='extends = "no-such-variant"')},
        "bad.toml", "$.extends", "unknown variant 'no-such-variant'",
    ),
    "extends an unknown version": (
        {"bad.toml": variant_text("bad", head='extends = "usa@9"')},
        "bad.toml", "$.extends", "no rules version 9",
    ),
    "current names an unknown version": (
        {"bad.toml": variant_text("bad", head='extends = "usa"\ncurrent = 3')},
        "bad.toml", "$.current", "no version 3",
    ),
    "versions with a gap": (
        {"bad.toml": 'id = "bad"\ntitle = "T"\nextends = "usa"\n[versions.1]\n[versions.3]\n'},
        "bad.toml", "$.versions", "without gaps, got [1, 3]",
    ),
    "id that is not the file name": (
        {"bad.toml": variant_text("good", head='extends = "usa"')},
        "bad.toml", "$.id", "does not match the file name",
    ),
    # R-SET-1: a city is a place; TOML has nan and inf literals, and nan would pass any range check
    "coordinate that is nan": (
        {"bad.toml": ON_TINY_MAP, "mymap.toml": map_with(cities=tiny_cities(Gamma="lat = nan, lon = 1.0"))},
        "mymap.toml", "$.cities[2].lat", "expected a finite number, got nan",
    ),
    "coordinate that is infinite": (
        {"bad.toml": ON_TINY_MAP, "mymap.toml": map_with(cities=tiny_cities(Alpha="lat = 0.0, lon = -inf"))},
        "mymap.toml", "$.cities[0].lon", "expected a finite number, got -inf",
    ),
    "latitude beyond a pole": (
        {"bad.toml": ON_TINY_MAP, "mymap.toml": map_with(cities=tiny_cities(Delta="lat = 91.5, lon = 0.0"))},
        "mymap.toml", "$.cities[3].lat", "must be between -90 and 90 degrees, got 91.5",
    ),
    "longitude beyond the date line": (
        {"bad.toml": ON_TINY_MAP, "mymap.toml": map_with(cities=tiny_cities(Beta="lat = 0.0, lon = -200.0"))},
        "mymap.toml", "$.cities[1].lon", "must be between -180 and 180 degrees, got -200.0",
    ),
    # a drawn board (tools/make_ussr_map.py): the page cannot draw some cities there and project others
    "board coordinates for some cities only": (
        {"bad.toml": ON_TINY_MAP, "mymap.toml": map_with(cities=tiny_cities(Beta="lat = 0.0, lon = 1.0, x = 5.0, y = 2.0"))},
        "mymap.toml", "$.cities[0]", "board coordinates (x and y) are given for every city or for none",
    ),
    "players outside the map's range": (
        {"bad.toml": variant_text("bad", head='extends = "usa"\nplayers = { min = 2, max = 7 }')},
        "bad.toml", "$.players", "2..7 does not fit the map's 2..6",
    ),
}

SYNTAX: dict[str, tuple[dict[str, str | bytes], str, str]] = {
    "non-UTF-8 bytes": ({"bad.toml": b'id = "bad"\ntitle = "Caf\xe9"\n'}, "bad.toml", "byte 23: not UTF-8 text"),
    "TOML syntax error": ({"bad.toml": 'id = "bad"\ntitle = "T\n[versions.1]\n'}, "bad.toml", "line 2"),
    "non-UTF-8 map": ({"bad.toml": ON_TINY_MAP, "mymap.toml": b"id = '\xff'\n"}, "mymap.toml", "not UTF-8 text"),
    "TOML syntax error in a map": ({"bad.toml": ON_TINY_MAP, "mymap.toml": "cities = [\n"}, "mymap.toml", "Invalid value"),
}


def _check(tmp_path: Path) -> tuple[int, str, BaseException | None]:
    result = CliRunner().invoke(main, ["variants", "check", str(tmp_path / "bad.toml")])
    return result.exit_code, result.output, result.exception


@pytest.mark.parametrize("case", list(BROKEN))
def test_broken_variant_is_reported_located_with_exit_code_2(tmp_path, case):
    files, where, path, problem = BROKEN[case]
    write(tmp_path, files)
    expected = f"{(tmp_path / where).resolve()}: {path}: "
    with pytest.raises(VariantError) as info:
        variant.load(str(tmp_path / "bad.toml"))
    matching = [p for p in info.value.problems if p.startswith(expected) and problem in p]
    assert matching, f"no problem starting {expected!r} with {problem!r} in {info.value.problems}"
    code, output, exc = _check(tmp_path)
    assert code == 2, output
    assert isinstance(exc, SystemExit)
    assert "Traceback" not in output
    lines = [line for line in output.splitlines() if line.strip()]
    assert lines and all(line.startswith("error: ") for line in lines), output
    assert any(line == f"error: {matching[0]}" for line in lines), output


@pytest.mark.parametrize("case", list(SYNTAX))
def test_unreadable_file_is_reported_located_with_exit_code_2(tmp_path, case):
    files, where, problem = SYNTAX[case]
    write(tmp_path, files)
    with pytest.raises(VariantError) as info:
        variant.load(str(tmp_path / "bad.toml"))
    (only,) = info.value.problems
    assert only.startswith(f"{(tmp_path / where).resolve()}: ")
    assert problem in only
    code, output, exc = _check(tmp_path)
    assert code == 2 and "Traceback" not in output
    assert problem in output


def test_broken_kinds_cover_the_issue_list():
    """At least 12 kinds of mistake, the issue's list among them."""
    assert len(BROKEN) + len(SYNTAX) >= 12
    for kind in ("unknown top-level key", "wrong type", "unknown plugin", "rules for a plugin not enabled",
                 "bad parameter value", "missing map", "route length not covered by the points table",
                 "ticket naming an unknown city", "disconnected map", "duplicate city", "extends cycle",
                 "extends an unknown version", "negative length"):
        assert kind in BROKEN
    assert {"non-UTF-8 bytes", "TOML syntax error"} <= set(SYNTAX)


def test_all_problems_of_a_variant_are_reported_at_once(tmp_path):
    write(tmp_path, {"bad.toml": variant_text(
        "bad", head='extends = "usa"', version='add_plugins = ["no-such-plugin"]',
        body='[versions.1.rules.open-row]\nmax_resets = "3"\nrefill = "sometimes"\n[versions.1.rules.tunnels]\nx = 1\n',
    )})
    with pytest.raises(VariantError) as info:
        variant.load(str(tmp_path / "bad.toml"))
    text = "\n".join(info.value.problems)
    for piece in ("no-such-plugin", "open-row.max_resets", "open-row.refill", "rules for 'tunnels'"):
        assert piece in text
    assert len(info.value.problems) == 4
    code, output, _ = _check(tmp_path)
    assert code == 2 and output.count("error: ") == 4


def test_all_problems_of_a_map_are_reported_at_once(tmp_path):
    write(tmp_path, {
        "bad.toml": ON_TINY_MAP,
        "mymap.toml": map_with(
            routes='{ from = "Alpha", to = "Beta", length = -1, color = "pink" },\n'
                   '{ from = "Beta", to = "Gamma", length = 2, color = "gray" },\n'
                   '{ from = "Gamma", to = "Delta", length = 3, color = "gray" },',
            tickets='{ from = "Alpha", to = "Atlantis", points = 5 },',
        ),
    })
    with pytest.raises(VariantError) as info:
        variant.load(str(tmp_path / "bad.toml"))
    text = "\n".join(info.value.problems)
    for piece in ("$.routes[0].length", "$.routes[0].color", "$.tickets[0]: unknown city 'Atlantis'"):
        assert piece in text
    assert len(info.value.problems) == 3  # the bad length is not reported again as a bad ferry count


# --- good files -------------------------------------------------------------------------------------


def test_the_usa_variant_file_loads_with_its_documented_rules():
    rs = variant.load("usa")
    assert (rs.variant, rs.version, rs.players.min, rs.players.max) == ("usa", 1, 2, 5)
    assert len(rs.board.cities) == 36 and len(rs.board.routes) == 100 and len(rs.board.tickets) == 30
    assert rs.board.trains == 45  # R-SET-5
    assert rs.configs["open-row"].refill == "immediately"  # R-ROW-1
    assert rs.configs["parallel-routes"].close_below_players == 4  # R-PAR-2
    assert rs.configs["longest-path"].everyone_if_nobody_built is False  # R-BON-1
    assert rs.configs["winner"].tie_breakers == ["tickets", "longest-path-bonus"]
    code = CliRunner().invoke(main, ["variants", "check", "usa"]).exit_code
    assert code == 0


def test_a_map_given_relative_to_the_variant_file(tmp_path):
    """``map = "tiny_map.toml"`` is found next to the variant file, wherever it is run from."""
    for name in ("tiny.toml", "tiny_map.toml"):
        shutil.copy(DATA / name, tmp_path / name)
    rs = variant.load(str(tmp_path / "tiny.toml"))
    assert rs.board.id == "tiny" and [c.name for c in rs.board.cities] == ["Alpha", "Beta", "Gamma", "Delta"]
    assert rs.plugins == variant.load("usa").plugins  # extends usa
    result = CliRunner().invoke(main, ["variants", "check", str(tmp_path / "tiny.toml")])
    assert result.exit_code == 0, result.output


def test_a_house_variant_on_a_tiny_map_plays_to_the_end_by_passing():
    """On four cities the routes run out long before the trains: the game ends when every player has
    passed in a row (R-TURN-2)."""
    game = bots.play_game(variant.load(str(DATA / "tiny.toml")), 2, seed=1)
    assert game.over and "R-TURN-2" in game.state.end_reason
    assert min(p.trains for p in game.state.players) > 2  # not the final round: the trains never ran low
    assert sum(o >= 0 for o in game.state.owner) >= 4  # most of the six routes were built
    last = [a.kind for _, a in game.log[-2:]]
    assert last == ["pass", "pass"]  # R-TURN-2: both players passed in a row


def test_messages_are_printed_as_written_even_with_brackets(tmp_path):
    """A key that looks like console markup is reported literally, without a crash."""
    write(tmp_path, {"bad.toml": variant_text("bad", head='extends = "usa"\n"[/x]" = 1\n"[red]" = 2')})
    code, output, exc = _check(tmp_path)
    assert code == 2 and isinstance(exc, SystemExit), output
    assert "Traceback" not in output
    assert "unknown key(s) '[/x]', '[red]'" in output
