"""``ttr variants diff A B``: what changes from one rule set to another, in words and as JSON:
plugins added and removed, parameters changed with the meaning and rule id their plugin declares,
the rules version and its note, the map; a bad rule set is refused with a located line."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner
from usa_kit import DATA

from ttr_cli.main import main
from ttr_core import manager, variant
from ttr_core.files import read_toml
from ttr_core.plugin import parameters_of


def _run(*args: str, code: int = 0) -> str:
    result = CliRunner().invoke(main, ["variants", "diff", *map(str, args)])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result.output


def _meaning(plugin: str, name: str) -> tuple[str, str]:
    """What the plugin itself says of its parameter: its meaning and rule."""
    (p,) = [p for p in parameters_of(manager.plugin_class(plugin).Config) if p.name == name]
    return p.doc, p.rule


def test_wor_against_wor_legacy_names_the_ticket_leader_bonus():
    text = _run("wor", "wor-legacy")
    doc, rule = _meaning("ticket-leader", "points")
    assert rule == "R-BON-2"
    assert "plugin removed: ticket-leader (Most tickets)" in text
    assert f"points = 10 ({doc}; R-BON-2)" in text  # the +10 of R-BON-2, said as the plugin declares it
    assert "rules version: 2 → 1" in text
    assert "map: the same map (usa)" in text
    back = _run("wor-legacy", "wor")
    assert "plugin added: ticket-leader (Most tickets)" in back and "+10" in back


def test_the_json_has_the_same_difference():
    data = json.loads(_run("wor-legacy", "wor@2", "--json"))
    assert (data["from"], data["to"]) == ("wor-legacy@1", "wor@2")
    (added,) = data["plugins"]["added"]
    assert added["plugin"] == "ticket-leader" and data["plugins"]["removed"] == []
    assert added["parameters"] == [{"plugin": "ticket-leader", "title": "Most tickets", "parameter": "points",
                                    "value": 10, "meaning": _meaning("ticket-leader", "points")[0], "rule": "R-BON-2"}]
    assert data["parameters"] == [] and data["map"]["differs"] is False and data["same"] is False


def test_parameters_changed_old_to_new_with_their_rules():
    data = json.loads(_run("usa", "wor", "--json"))
    # the variant files as written: usa's open row refills at once, wor's at the end of the turn (R-ROW-1)
    wor = read_toml(variant.find_variant("wor"))["versions"]["1"]["rules"]["open-row"]
    changed = {(p["plugin"], p["parameter"]): p for p in data["parameters"]}
    refill = changed[("open-row", "refill")]
    assert (refill["old"], refill["new"]) == ("immediately", wor["refill"])
    assert (refill["meaning"], refill["rule"]) == _meaning("open-row", "refill") and refill["rule"] == "R-ROW-1"
    assert changed[("open-row", "reset_same_color")]["new"] == wor["reset_same_color"] == 4  # R-ROW-2
    assert {p["plugin"] for p in data["plugins"]["added"]} >= {"ferries", "tunnels", "ticket-leader"}
    assert {"field": "players", "old": "2-5", "new": "2-6"} in data["metadata"]
    text = _run("usa", "wor")
    assert 'parameter changed: open-row.refill (Face-up cards): "immediately" → "end-of-turn"' in text


def test_map_differences_cities_routes_tickets(tmp_path):
    """A copy of the tiny map with a route made longer, a city and a ticket added, one ticket gone."""
    shutil.copy(DATA / "tiny.toml", tmp_path / "tiny.toml")
    text = (DATA / "tiny_map.toml").read_text()
    text = text.replace('{ from = "Alpha", to = "Beta", length = 1, color = "red" }',
                        '{ from = "Alpha", to = "Beta", length = 2, color = "red" },\n'
                        '  { from = "Alpha", to = "Omega", length = 1, color = "gray" }')
    text = text.replace('{ name = "Delta", lat = 1.0, lon = 0.0 },',
                        '{ name = "Delta", lat = 1.0, lon = 0.0 },\n  { name = "Omega", lat = 2.0, lon = 2.0 },')
    text = text.replace('{ from = "Alpha", to = "Beta", points = 1 },', '{ from = "Omega", to = "Beta", points = 9 },')
    (tmp_path / "tiny_map.toml").write_text(text)
    theirs = variant.load(str(tmp_path / "tiny.toml")).board
    assert len(theirs.cities) == 5  # the copy is a map the engine reads
    data = json.loads(_run(DATA / "tiny.toml", tmp_path / "tiny.toml", "--json"))
    m = data["map"]
    assert m["differs"] and data["same"] is False and data["plugins"] == {"added": [], "removed": []}
    assert m["cities"] == {"added": ["Omega"], "removed": [], "changed": []}
    assert m["routes"]["added"] == ["Alpha-Omega"]
    assert m["routes"]["changed"] == [{"id": "Alpha-Beta", "fields": {"length": {"old": 1, "new": 2}}}]
    assert m["tickets"]["added"] == ["Omega-Beta"] and m["tickets"]["removed"] == ["Alpha-Beta"]
    words = _run(DATA / "tiny.toml", tmp_path / "tiny.toml")
    assert "route changed: Alpha-Beta: length 1 → 2" in words and "cities added (1): Omega" in words


def test_the_same_rule_set_is_said_to_be_the_same():
    text = _run("usa", "usa@1")
    assert "the same rules: same plugins, same parameters, same map" in text
    assert json.loads(_run("usa", "usa", "--json"))["same"] is True


@pytest.mark.parametrize("args,message,where", [
    (["nope", "wor"], "A nope: unknown variant 'nope'", "A"),
    (["wor", "nope"], "B nope: unknown variant 'nope'", "B"),
    (["wor@x", "wor"], "A wor@x: ", "A"),
    (["wor", "wor@7"], "has no rules version 7", str(variant.load("wor").path)),
])
def test_a_bad_rule_set_is_refused_with_a_located_line(args, message, where):
    assert message in _run(*args, code=2)
    data = json.loads(_run(*args, "--json", code=2))
    assert message in data["problems"][0]["message"]
    assert data["problems"][0]["where"] == where  # the argument, or the variant file that lacks the version
