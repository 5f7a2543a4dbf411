"""Every parameter of every built-in plugin is documented where it is declared (its meaning and the
rule it sets, ``ttr_core.plugin.parameter``) and listed on the plugin reference page, so that a
variant author finds the one TOML line a rule needs instead of writing a plugin."""

from __future__ import annotations

import re

import attrs
import pytest
from usa_kit import ROOT

from ttr_core import manager, variant
from ttr_core.game import Game
from ttr_core.plugin import NoConfig, parameter, parameters_of
from ttr_kit import testing, toml_text

PAGE = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
RULE_IDS = set(re.findall(r'<a id="(R-[A-Z]+-\d+)"></a>', (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")))
BUILT_IN = sorted(name for name, ep in manager.available().items() if ep.dist is not None and ep.dist.name == "ttr-engine")
FIELDS = [(name, p) for name in BUILT_IN for p in parameters_of(manager.plugin_class(name).Config)]


def _section(plugin: str) -> str:
    """The page's table of ``plugin``'s parameters."""
    start = PAGE.index("## The built-in plugins' parameters")
    match = re.search(rf"^### `{re.escape(plugin)}`\n(.*?)(?=^### |\Z)", PAGE[start:], re.S | re.M)
    assert match, f"docs/plugins.md has no parameters section for {plugin}"
    return match.group(1)


def test_every_config_field_of_every_built_in_plugin_is_read():
    declared = {(name, f.name) for name in BUILT_IN for f in attrs.fields(manager.plugin_class(name).Config)}
    assert {(name, p.name) for name, p in FIELDS} == declared
    assert ("open-row", "reset_locomotives") in declared


@pytest.mark.parametrize("plugin,param", FIELDS, ids=lambda x: x if isinstance(x, str) else x.name)
def test_every_parameter_has_a_meaning_and_its_row_on_the_reference_page(plugin, param):
    assert len(param.doc.split()) >= 3, f"{plugin}.{param.name}: say what it means (parameter(doc, ...))"
    meaning = param.doc.replace("|", "\\|")  # a table cell
    row = f"| `{param.name}` | `{param.type}` | `{toml_text.inline(param.default)}` | {meaning} |"
    assert row in _section(plugin), "run: python tools/make_plugin_docs.py"


@pytest.mark.parametrize("plugin,param", [(n, p) for n, p in FIELDS if p.rule], ids=lambda x: x if isinstance(x, str) else x.name)
def test_every_rule_a_parameter_sets_is_a_rule_of_docs_rules_md(plugin, param):
    for rule in param.rule.split(","):
        assert rule.strip() in RULE_IDS, f"{plugin}.{param.name}: {rule.strip()!r} is not a rule id of docs/rules.md"


def test_the_page_documents_the_open_row_reset_a_variant_sets_in_one_line():
    row = next(line for line in _section("open-row").splitlines() if line.startswith("| `reset_locomotives` |"))
    assert "`3`" in row and "locomotives are face up" in row and row.rstrip(" |").endswith("R-ROW-2")


def test_the_documented_parameter_does_what_the_page_says(tmp_path):
    # R-ROW-2 with reset_locomotives = 2, set by one TOML line: two face-up locomotives reset the row
    path = tmp_path / "usa-two-locos.toml"
    path.write_text(
        'id = "usa-two-locos"\ntitle = "USA, two locomotives reset"\nextends = "usa"\n'
        "[versions.1.rules.open-row]\nreset_locomotives = 2\n",
        encoding="utf-8",
    )
    for rules, reset in ((variant.load(str(path)), True), (variant.load("usa"), False)):
        game = testing.keep_all_starting_tickets(Game(rules, ["P1", "P2"], 1))
        testing.arrange(game, open_row=["locomotive", "red", "blue", "green", "white"],
                        deck_top=["locomotive", "black", "black", "black", "black", "black", "orange"])
        testing.act(game, 0, {"kind": "draw-card", "slot": 1})  # the red; a locomotive refills its slot
        row = game.view(None)["open_row"]
        assert (row == ["black"] * 5) is reset
        assert (row == ["locomotive", "locomotive", "blue", "green", "white"]) is not reset


def test_a_house_rule_documents_its_parameters_the_same_way():
    @attrs.frozen
    class Config:
        six: int = parameter("points of a route of length 6", default=18, rule="R-SCORE-1")
        lengths: list[int] = parameter("route lengths that score double", factory=list)

    six, lengths = parameters_of(Config)
    assert (six.name, six.type, six.default, six.rule) == ("six", "int", 18, "R-SCORE-1")
    assert (lengths.default, lengths.rule) == ([], None)
    assert Config().six == 18 and Config(six=20).six == 20
    assert parameters_of(NoConfig) == ()
    assert parameters_of(dict) == ()
