"""Plugins declare what they need (``requires``) and what they offer (``provides``, and the hooks they
declare); ``ttr variants check`` refuses a variant whose plugins do not fit, before any game runs,
naming the plugin, what is missing and the installed plugin that would provide it.

One case per dependency of the shipped plugins: a house variant extends a shipped one and removes
one plugin, and the check (without ``--play``) must refuse it, located at the version.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ttr_cli.main import main
from ttr_core import manager, variant

DEPENDENCIES = [
    # (shipped variant, plugin removed, what the check must say)
    ("usa", "ticket-deal", "plugin 'tickets' requires 'ticket-deal', which no enabled plugin provides; add 'ticket-deal'"),
    ("usa", "tickets", "plugin 'ticket-deal' requires 'tickets', which no enabled plugin provides; add 'tickets'"),
    ("usa", "tickets", "no enabled plugin answers the required hook 'ttr_ticket_outcomes'"),
    ("usa", "train-cards", "plugin 'open-row' requires 'card-draws', which no enabled plugin provides; add 'train-cards'"),
    ("usa", "route-points", "no enabled plugin answers the required hook 'ttr_route_points'"),
    ("usa", "final-round", "no enabled plugin answers the required hook 'ttr_final_round_triggered'"),
    ("usa", "turn-order", "no enabled plugin answers the required hook 'ttr_first_seat' (Return the seat that takes "
                          "the first turn of the game, one that has not resigned); installed plugins that answer it: 'turn-order'"),
    ("usa", "winner", "no enabled plugin answers the required hook 'ttr_choose_winners'"),
    ("usa", "longest-path", "plugin 'winner' requires 'tie-breaker:longest-path-bonus'"),
    ("europe", "claiming", "plugin 'tunnels' requires 'route-claims', which no enabled plugin provides; add 'claiming'"),
    ("europe", "claiming", "plugin 'ferries' requires 'route-claims'"),
    ("europe", "stations", "plugin 'winner' requires 'tie-breaker:fewest-stations'"),
    ("europe", "tickets", "plugin 'stations' requires 'tickets'"),
    ("ussr", "open-row", "plugin 'controller' requires 'open-row', which no enabled plugin provides; add 'open-row'"),
    ("ussr", "train-cards", "plugin 'controller' requires 'card-draws'"),
    ("ussr", "longest-path", "plugin 'winner' requires 'tie-breaker:longest-path-length'"),
    ("wor", "claiming", "plugin 'tunnels' requires 'route-claims'"),
]


def without(tmp_path: Path, parent: str, plugin: str) -> Path:
    path = tmp_path / f"{parent}-without.toml"
    path.write_text(
        f'id = "{parent}-without"\ntitle = "t"\nextends = "{parent}"\n[versions.1]\nremove_plugins = ["{plugin}"]\n',
        encoding="utf-8",
    )
    return path


def check(path: Path):
    variant.clear_caches()
    return CliRunner().invoke(main, ["variants", "check", str(path)])


@pytest.mark.parametrize("parent,plugin,message", DEPENDENCIES, ids=lambda v: str(v)[:30])
def test_removing_a_needed_plugin_is_refused_naming_what_is_missing(tmp_path, parent, plugin, message):
    path = without(tmp_path, parent, plugin)
    result = check(path)
    assert result.exit_code == 2, result.output
    assert f"{path}: $.versions.1: {message}" in result.stderr


def test_a_plugin_nobody_needs_can_go(tmp_path):
    # wor breaks no tie, so its longest-path bonus is a plugin like any other
    result = check(without(tmp_path, "wor", "longest-path"))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("parent", ["usa", "europe", "wor", "wor-legacy", "wor-europe", "ussr"])
def test_every_removal_from_a_shipped_variant_is_accepted_or_refused_never_a_crash(tmp_path, parent):
    for plugin in variant.load(parent).plugins:
        result = check(without(tmp_path, parent, plugin))
        assert result.exit_code in (0, 2) and (result.exception is None or isinstance(result.exception, SystemExit))
        if result.exit_code == 2:
            assert "requires" in result.stderr or "required hook" in result.stderr, (plugin, result.stderr)


def test_a_hook_implemented_without_its_declaring_plugin_names_that_plugin(tmp_path):
    from ttr_core.plugin import Plugin, hookimpl

    class Lighthouse(Plugin):
        @hookimpl
        def ttr_claim_started(self, game, route):
            return None

    path = tmp_path / "usa-light.toml"
    path.write_text('id = "usa-light"\ntitle = "t"\nextends = "usa"\n[versions.1]\n'
                    'remove_plugins = ["claiming"]\nadd_plugins = ["lighthouse"]\n', encoding="utf-8")
    with manager.local_plugins({"lighthouse": Lighthouse}):
        result = check(path)
    assert result.exit_code == 2
    assert ("plugin 'lighthouse' implements unknown hook 'ttr_claim_started'; it is declared by plugin "
            "'claiming', which this variant does not enable") in result.stderr


def test_a_refused_parameter_does_not_hide_what_the_plugins_need(tmp_path):
    # one version, two problems of different stages: both are reported at once
    path = tmp_path / "usa-two.toml"
    path.write_text('id = "usa-two"\ntitle = "t"\nextends = "usa"\n[versions.1]\nremove_plugins = ["ticket-deal"]\n'
                    '[versions.1.rules.open-row]\nrefill = "sometimes"\n', encoding="utf-8")
    result = check(path)
    assert result.exit_code == 2
    assert f"{path}: $.versions.1.rules.open-row.refill: 'sometimes' is not one of" in result.stderr
    assert f"{path}: $.versions.1: plugin 'tickets' requires 'ticket-deal'" in result.stderr
