"""A plugin written to replace a built-in one, checked by the house-rule kit's conformance suite
(``ttr_kit.conformance``): the "river" open row (``tests/open_row_river.py``, written through the
plugin API only and chosen by a variant file alone) passes it in every shipped variant; rivers that
skip R-ROW-2's reset, or do not declare the capability's hook, are rejected, the problem located by
variant, seed and action."""

from __future__ import annotations

import re

import pytest

from open_row_river import River, SkippingRiver
from ttr_core import variant
from ttr_core.game import Game
from ttr_core.manager import local_plugins
from ttr_core.plugin import hookimpl
from ttr_kit import testing
from ttr_kit.conformance import replacement_problems, shipped_variants
from ttr_plugins.open_row import OpenRow

LOCATED = r"(?P<variant>[\w-]+-with-[\w-]+) v\d+ seed (?P<seed>\d+) \(\d players\), action \d+ \([\w-]+ by seat \d\)"


def river_variant(tmp_path, base: str = "usa"):
    """The variant file an author writes to play ``base`` with the river."""
    path = tmp_path / f"{base}-river.toml"
    path.write_text(
        f'id = "{base}-river"\ntitle = "River"\nextends = "{base}"\n\n[versions.1]\n'
        'remove_plugins = ["open-row"]\nadd_plugins = ["river"]\n',
        encoding="utf-8",
    )
    return path


def row(game: Game) -> list[str | None]:
    return game.view(None)["open_row"]


def test_the_river_is_chosen_by_the_variant_file_alone_and_the_oldest_card_leaves_at_each_turn_end(tmp_path):
    with local_plugins({"river": River}):
        rules = variant.load(str(river_variant(tmp_path)))
        assert "river" in rules.plugins and "open-row" not in rules.plugins
        game = testing.keep_all_starting_tickets(Game(rules, ["P1", "P2"], 1))
        testing.arrange(game, open_row=["red", "blue", "green", "white", "black"],
                        deck_top=["yellow", "yellow", "orange", "purple", "purple", "red"])
        for seat in (0, 1):  # two blind cards each: nobody touches the row
            testing.act(game, seat, {"kind": "draw-card", "slot": None})
            testing.act(game, seat, {"kind": "draw-card", "slot": None})
            testing.assert_invariants(game)
        assert row(game) == ["orange", "red", "green", "white", "black"]  # slot 0's red, then slot 1's blue, left
        assert [game.cards.names[c] for c in game.state.discard[-2:]] == ["red", "blue"]


@pytest.mark.slow
def test_the_river_passes_the_conformance_suite(ttr_replacement_conformance):
    assert ttr_replacement_conformance(River, name="river") == []


@pytest.mark.slow
def test_the_built_in_open_row_passes_its_own_suite():
    assert replacement_problems(OpenRow, name="open-row-again", games=2) == []


@pytest.mark.slow
def test_a_river_that_skips_the_reset_is_rejected_naming_the_game_to_look_at():
    problems = replacement_problems(SkippingRiver, name="skipping-river")
    assert problems and all("R-ROW-2: the open row (" in p for p in problems)
    located = [re.search(LOCATED, p) for p in problems]
    assert all(located), problems[0]
    assert {m["variant"] for m in located} >= {"usa-with-skipping-river", "ussr-with-skipping-river"}
    assert "did not ask ttr_open_row_needs_reset" in problems[0]
    # the seed named is a game that fails again on its own
    first = located[0]
    base = first["variant"].removesuffix("-with-skipping-river")
    again = replacement_problems(SkippingRiver, name="skipping-river", games=1, variants=[base],
                                 first_seed=int(first["seed"]))
    assert again and f"seed {first['seed']} " in again[0]


def test_a_river_whose_own_answer_leaves_out_r_row_2_is_rejected():
    class DeafRiver(River):
        @hookimpl
        def ttr_open_row_needs_reset(self, game, row):
            return False  # asked, but the three locomotives of R-ROW-2 are forgotten

    problems = replacement_problems(DeafRiver, name="deaf-river", variants=["usa"])
    assert problems and "where the replaced plugin's rule does" in problems[0]


def test_a_replacement_that_does_not_declare_the_capabilitys_hook_is_rejected():
    class UndeclaredRiver(River):
        @hookimpl
        def ttr_addhooks(self, pluginmanager):
            pass  # the spec left out: the controller's R-ROW-4 answer would find no hook

    problems = replacement_problems(UndeclaredRiver, name="undeclared-river", games=1, variants=["ussr"])
    assert problems[0] == (
        "plugin 'undeclared-river' provides 'open-row' but does not declare its hooks (ttr_open_row_needs_reset): "
        "add pluginmanager.add_hookspecs(OpenRowHooks) to its ttr_addhooks, from ttr_core.roles.open_row"
    )
    assert any(p.startswith("ussr with undeclared-river:") and "unknown hook 'ttr_open_row_needs_reset'" in p
               for p in problems[1:])


@pytest.mark.parametrize("provides,expected", [((), "provides nothing"), (("nothing-built-in",), "replaces nothing")])
def test_a_plugin_that_replaces_nothing_is_told_so(provides, expected):
    class Stray(River):
        pass

    Stray.provides = provides
    problems = replacement_problems(Stray, name="stray", games=1)
    assert len(problems) == 1 and expected in problems[0]


def test_the_shipped_variants_are_the_ones_the_suite_plays():
    assert shipped_variants() == ["europe", "usa", "ussr", "wor", "wor-europe", "wor-legacy"]
