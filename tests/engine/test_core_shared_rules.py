"""Games of one ruleset share its plugin instances and hook callers (ttr_core/prepared.py), which is
what lets a host run many games in one process cheaply. What a host relies on: games running side
by side stay apart, a ruleset's plugins answer exactly as pluggy itself would, and a rules version
change still gets its own plugins."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ttr_core import record, variant
from ttr_bots import bot_class, play_game
from ttr_core.game import Game
from ttr_core.manager import local_plugins
from ttr_core.plugin import Plugin, hookimpl

VARIANTS = ["usa", "europe", "wor", "ussr"]


@pytest.mark.parametrize("variant_id", VARIANTS)
def test_games_played_side_by_side_give_the_records_of_games_played_alone(variant_id):
    ruleset = variant.load(variant_id)
    seeds = [11, 12, 13]
    alone = [record.dumps(record.make_record(play_game(ruleset, 3, s, ("ticket", "random")))) for s in seeds]

    games = [Game(ruleset, ["P1", "P2", "P3"], s) for s in seeds]
    bots = [[bot_class(("ticket", "random")[i % 2])(s, i) for i in range(3)] for s in seeds]
    order = random.Random(5)
    while not all(g.over for g in games):  # one action of a game picked at random, then another
        k = order.choice([i for i, g in enumerate(games) if not g.over])
        seat = games[k].to_act()[0]
        games[k].apply(seat, bots[k][seat].choose(games[k].seat_view(seat)))
    assert [record.dumps(record.make_record(g)) for g in games] == alone
    assert len({id(g.pm) for g in games}) == 1  # and they did share the plugins


def test_versions_of_one_variant_keep_their_own_plugins():
    legacy, current = variant.load("wor", 1), variant.load("wor", 2)
    a, b = Game(legacy, ["A", "B"], 1), Game(current, ["A", "B"], 1)
    assert a.pm is not b.pm
    assert "ticket-leader" in dict(b.pm.list_name_plugin())
    assert "ticket-leader" not in dict(a.pm.list_name_plugin())


class Order:
    calls: list[str] = []


def _answering(name: str, **opts):
    class Answer(Plugin):
        @hookimpl(**opts)
        def ttr_end_bonuses(self, game, outcomes):
            Order.calls.append(name)
            return [] if name != "silent" else None

        @hookimpl(**opts)
        def ttr_closed_routes(self, game, seat):
            Order.calls.append(name)
            return {0: f"closed by {name}"} if name in ("first", "middle") else None

    Answer.__name__ = f"Answer_{name}"
    return Answer


def _house(tmp_path: Path, plugins: list[str]) -> Path:
    path = tmp_path / "order.toml"
    listed = ", ".join(f'"{p}"' for p in plugins)
    path.write_text(f'id = "order"\ntitle = "t"\nextends = "usa"\n[versions.1]\nadd_plugins = [{listed}]\n', encoding="utf-8")
    return path


def test_hooks_with_several_plugins_answer_in_pluggys_order_with_pluggys_results(tmp_path):
    plugins = {
        "middle": _answering("middle"),
        "first": _answering("first", tryfirst=True),
        "last": _answering("last", trylast=True),
        "silent": _answering("silent"),
    }
    with local_plugins(plugins):
        game = Game(variant.load(str(_house(tmp_path, list(plugins)))), ["A", "B"], 1)
        for hook, kwargs in [("ttr_closed_routes", {"game": game, "seat": 0, "route": None}), ("ttr_end_bonuses", {"game": game, "outcomes": []})]:
            Order.calls = []
            ours = getattr(game.hook, hook)(**kwargs)
            ours_order, Order.calls = Order.calls, []
            theirs = getattr(game.pm.hook, hook)(**kwargs)
            assert ours == theirs and ours_order == Order.calls
            assert ours_order[0] == "first" and ours_order[-1] == "last"
    assert not any(r is None for r in ours)  # a None answer is no answer


def test_a_first_result_hook_stops_at_the_first_answer(tmp_path):
    class Unsure(Plugin):
        @hookimpl
        def ttr_claim_started(self, game, route):
            Order.calls.append("unsure")
            return None  # no opinion: the next plugin decides

    class Sure(Plugin):
        @hookimpl
        def ttr_claim_started(self, game, route):
            Order.calls.append(f"sure of {route}")
            return f"decided by sure ({route})"

    with local_plugins({"sure": Sure, "unsure": Unsure}):
        game = Game(variant.load(str(_house(tmp_path, ["sure", "unsure"]))), ["A", "B"], 1)
        Order.calls = []
        kwargs = {"game": game, "seat": 0, "route": "r", "color": None, "locomotives": 0, "paid": ()}
        assert game.hook.ttr_claim_started(**kwargs) == "decided by sure (r)" == game.pm.hook.ttr_claim_started(**kwargs)
        # registered last, called first; no answer, so the next one is asked, whose answer stops the call
        assert Order.calls == ["unsure", "sure of r"] * 2
