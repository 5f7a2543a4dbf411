"""The front of a playtest report: with ``--against``, what changed (the ``ttr variants diff`` of the
two rule sets) as its first section, and before it the headline, the one paragraph answering "does
it matter", its numbers checked against the JSON and against counts made here from games played
again with the bots; without ``--against``, the headline on seat balance."""

from __future__ import annotations

import json
import re
import statistics

import pytest
from click.testing import CliRunner

from ttr_bots import play_game
from ttr_cli.main import main
from ttr_core import variant

BOTS = ("random", "ticket", "long-routes", "hoarder")
GAMES, SEED = 6, 3


def _playtest(out, *args: str) -> tuple[dict, str]:
    result = CliRunner().invoke(main, ["playtest", *args, "--games", str(GAMES), "--seed", str(SEED), "--workers", "1",
                                       "--no-cache", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return json.loads((out / "playtest.json").read_text()), (out / "playtest.html").read_text()


def _games(variant_id: str, players: int):
    """The report's games, played again: game i's lineup is the styles shifted by i."""
    rs = variant.load(variant_id)
    return [play_game(rs, players, seed, tuple(BOTS[(i + s) % len(BOTS)] for s in range(players)))
            for i, seed in enumerate(range(SEED, SEED + GAMES))]


@pytest.fixture(scope="module")
def wor(tmp_path_factory):
    return _playtest(tmp_path_factory.mktemp("front") / "wor", "--variant", "wor", "--against", "wor-legacy", "--players", "4")


def _unescape(text: str) -> str:
    return text.replace("&quot;", '"').replace("&#x27;", "'").replace("&amp;", "&")


def test_the_report_opens_with_the_headline_then_what_changed(wor):
    rep, html = wor
    body = html[html.index("<body>"):]
    assert body.index('id="headline"') < body.index('id="changes"') < body.index('id="overview"')
    diff = CliRunner().invoke(main, ["variants", "diff", "wor-legacy@1", "wor@2", "--json"])
    assert rep["changes"] == json.loads(diff.stdout)  # the same difference as the command's
    changes = html[html.index('id="changes"'):html.index('id="overview"')]
    assert "from wor-legacy@1 to wor@2" in changes
    assert "plugin added: ticket-leader (Most tickets)" in changes and "points = 10" in changes and "R-BON-2" in changes
    assert "map: the same map (usa)" in changes
    assert "Most tickets (ticket-leader, points = 10) added" in rep["headline"]["text"]


def test_the_headline_numbers_are_the_games_own(wor):
    rep, html = wor
    head = rep["headline"]["counts"]["4"]
    mine, theirs = _games("wor", 4), _games("wor-legacy", 4)
    # R-BON-2: wor-legacy's winners of the same game are those of the totals without the ticket-leader bonus
    changed = 0
    for g in mine:
        totals = [s.total - s.bonus("ticket-leader") for s in g.result.scores]
        changed += {i for i, t in enumerate(totals) if t == max(totals)} != set(g.result.winners.seats)
    assert (head["winner_changes"]["k"], head["winner_changes"]["n"]) == (changed, GAMES)
    shift = statistics.fmean(statistics.fmean(s.total for s in a.result.scores)
                             - statistics.fmean(s.total for s in b.result.scores) for a, b in zip(mine, theirs))
    s = head["score_shift"]
    assert s["mean"] == pytest.approx(shift, abs=1e-3) and s["low"] <= s["mean"] <= s["high"]
    assert s["distinguishable"] == (s["low"] > 0 or s["high"] < 0)
    first = (sum(0 in g.result.winners.seats for g in mine) - sum(0 in g.result.winners.seats for g in theirs)) / GAMES
    assert head["first_seat_win_rate_shift"]["mean"] == pytest.approx(first, abs=1e-3)
    # the page shows these numbers, each marked with its place in the JSON
    for path, value in re.findall(r"data-figure='([^']*)' data-value='([^']*)'", html):
        keys = json.loads(_unescape(path))
        if keys[0] == "headline":
            assert rep["headline"]["counts"][keys[2]][keys[3]]["mean"] == json.loads(value)
    shown = f"{s['mean']:+.1f} [{s['low']:+.1f}, {s['high']:+.1f}]"
    assert f"the mean score per player shifts by {shown} points" in _unescape(re.sub(r"<[^>]+>", "", html))
    assert "in those games, –" not in html


def test_no_difference_says_what_the_run_would_have_seen(tmp_path):
    rep, html = _playtest(tmp_path, "--variant", "wor@1", "--against", "wor-legacy", "--players", "2")
    assert rep["changes"]["plugins"] == {"added": [], "removed": []} and rep["changes"]["parameters"] == []
    head = rep["headline"]["counts"]["2"]
    assert not any(head[k]["distinguishable"] for k in ("winner_changes", "score_shift", "first_seat_win_rate_shift"))
    seen = 1 - 0.2 ** (1 / GAMES)  # the rate at which 6 games show a change 4 times in 5
    text = rep["headline"]["text"]
    assert (f"2 players: no difference found in {GAMES} games (an effect of at least this size would have been seen: "
            f"the winner changing in {seen:.1%} of games") in text
    assert text in _unescape(re.sub(r"<[^>]+>", "", html))
    assert "in those games, –" not in html and "of the games." in html  # the rescoring section, with no change
    # the difference map says there is none, rather than drawing a blank board without a scale
    assert '<figcaption class="no-difference">wor-legacy@1 − wor@1: no difference' in html


def test_every_chart_labels_both_axes_and_a_difference_map_states_its_scale(wor):
    rep, html = wor
    assert html.count('<svg class="chart"') > 0
    for chart in re.findall(r'<svg class="chart".*?</svg>', html):
        assert chart.count('class="axis-label"') == 2, chart[:200]
    assert re.search(r"<text class=\"axis-label\"[^>]*rotate\(-90[^>]*>games</text>", html)  # the histograms' y axis
    changed = any(v["claimed"]["mean"] for v in rep["counts"]["4"]["differences"]["board"]["routes"].values())
    assert ("Scale: the change in the share of games" in html) == changed
    assert ("no difference: every route and city" in html) == (not changed)


def test_without_against_the_headline_is_the_seat_balance(tmp_path):
    rep, html = _playtest(tmp_path, "--variant", "usa", "--players", "2")
    assert rep["changes"] is None and 'id="changes"' not in html
    games = _games("usa", 2)
    wins = sum(0 in g.result.winners.seats for g in games)
    head = rep["headline"]["counts"]["2"]
    assert head["first_seat_win_rate"]["k"] == wins
    adv = head["first_seat_advantage"]
    assert adv["mean"] == pytest.approx(wins / GAMES - 0.5, abs=1e-3)
    w = head["first_seat_win_rate"]
    assert f"the first seat wins {w['mean']:.1%} [{w['low']:.1%}, {w['high']:.1%}] (even: 50.0%)" in rep["headline"]["text"]
    assert html.index('id="headline"') < html.index('id="overview"')
