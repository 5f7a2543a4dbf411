"""``ttr playtest`` as a designer uses it to compare: parameters set without a variant file
(``--set``), the two modes (``--rescore``, ``--play``) and the players' behaviour, parameter
sweeps, ``--until``. Every figure is checked against counts made here from the games, played
again with the bots and read from their records without ``ttr_analysis``."""

from __future__ import annotations

import json
import re
import statistics
import time

import attrs
import pytest
from click.testing import CliRunner

from ttr_bots import play_game
from ttr_cli.main import main
from ttr_core import record, variant
from ttr_core.game import Game

from ttr_analysis import behaviour, enough
from ttr_analysis import playtest as pt
from ttr_analysis.rescore import Target
from ttr_analysis.settings import Setting, apply, parse_settings
from ttr_core.errors import TTRError

BOTS = ("ticket", "random")  # quick, and blind to the scoring: their games differ only by the rules of play
GAMES, SEED = 4, 5


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["playtest", *args])
    return result.exit_code, result.output


def _ruleset(points: int | None = None):
    """wor's current rules, with the ticket-leader bonus (R-BON-2) at ``points`` (made here, not by --set)."""
    rs = variant.load("wor")
    if points is None:
        return rs
    return rs.with_configs({"ticket-leader": type(rs.configs["ticket-leader"])(points=points)})


def _games(ruleset, players: int, bots=BOTS, games=GAMES, seed=SEED):
    """The games of a run, played again: game i's bots are the styles shifted by i over the seats."""
    out = []
    for i, s in enumerate(range(seed, seed + games)):
        lineup = tuple(bots[(i + k) % len(bots)] for k in range(players))
        out.append(play_game(ruleset, players, s, lineup))
    return out


def _counted(ruleset, game) -> dict[str, float]:
    """The behaviour of one game read from its record here: tickets offered (the pending choice
    when each keep-tickets action comes), kept, route lengths, stations, turns."""
    data = record.make_record(game)
    replay = Game(ruleset, data["players"], data["seed"])
    n = len(data["players"])
    offered = kept = stations = 0
    lengths = []
    length_of = {r.id: r.length for r in ruleset.board.routes}
    for entry in data["actions"]:
        if entry["kind"] == "keep-tickets":
            offered += len(replay.state.players[entry["seat"]].decision.offered)
            kept += len(entry["tickets"])
        elif entry["kind"] == "build-station":
            stations += 1
        replay.apply(entry["seat"], replay.registry.from_entry(entry))
    lengths = [length_of[ruleset.board.routes[r].id] for r, o in enumerate(replay.state.owner) if o >= 0]
    return {"tickets_drawn": offered / n, "tickets_kept": kept / n, "route_length": statistics.fmean(lengths),
            "stations": stations / n, "turns": replay.turn}


def _page_matches_json(html: str, data: dict) -> int:
    cells = re.findall(r"data-figure='([^']*)' data-value='([^']*)'", html)
    for path, value in cells:
        keys = json.loads(path.replace("&quot;", '"').replace("&#x27;", "'").replace("&amp;", "&"))
        found = data
        for k in keys:
            found = found[int(k)] if isinstance(found, list) else found[k]
        assert (found["mean"] if isinstance(found, dict) else found) == json.loads(value), keys
    return len(cells)


# --- --set -----------------------------------------------------------------------------------------


def test_a_setting_changes_the_bonus_the_games_give():
    rs = apply(variant.load("wor"), parse_settings(["ticket-leader.points=50"]))
    game = play_game(rs, 2, SEED, BOTS)
    bonuses = [b.points for s in game.result.scores for b in s.bonuses if b.name == "ticket-leader"]
    assert bonuses == [50]  # R-BON-2: the single player with the most completed tickets


@pytest.mark.parametrize("text, words", [
    ("ticket-leader.points=abc", ["ticket-leader.points=abc", "expected an integer", "points of the ticket-leader bonus"]),
    ("ticket-leader.pts=3", ["no parameter 'pts'", "points (int)"]),
    ("stations.count=2", ["does not enable a plugin 'stations'", "ticket-leader"]),
    ("points=3", ["PLUGIN.PARAMETER=VALUE"]),
])
def test_a_bad_setting_is_refused_naming_it_and_the_documented_parameters(text, words):
    with pytest.raises(TTRError) as caught:
        apply(variant.load("wor"), parse_settings([text]))
    assert all(w in str(caught.value) for w in words), str(caught.value)


def test_a_parameter_set_twice_is_refused():
    with pytest.raises(TTRError, match="set more than once"):
        parse_settings(["ticket-leader.points=5", "ticket-leader.points=6"])


def test_games_with_a_setting_are_not_taken_from_the_cache_for_games_without(tmp_path):
    args = ("--variant", "wor", "--against", "wor-legacy", "--players", "2", "--games", "2", "--bots", "ticket",
            "--workers", "1", "--cache", str(tmp_path / "games"))
    assert _run(*args, "--out", str(tmp_path / "plain"))[0] == 0
    code, text = _run(*args, "--set", "ticket-leader.points=50", "--out", str(tmp_path / "set"))
    assert code == 0, text
    assert "2 of 4 games reused" in text  # wor-legacy's, never wor's with the bonus at 50
    rep = json.loads((tmp_path / "set" / "playtest.json").read_text())
    assert rep["variant"] == "wor@2 [ticket-leader.points=50]"
    assert rep["counts"]["2"]["rescored"]["lines"]["ticket-leader"]["mean_a"] in (0, 25)  # one of two players at most


def _game_with_the_bonus_at(points: int):
    rs = apply(variant.load("wor"), parse_settings([f"ticket-leader.points={points}"]))
    return play_game(rs, 2, SEED, BOTS)


def test_a_record_of_a_game_with_a_setting_replays_under_it(tmp_path):
    game = _game_with_the_bonus_at(50)
    path = tmp_path / "game.json"
    record.save(game, path)
    assert json.loads(path.read_text())["settings"] == {"ticket-leader": {"points": 50}}
    result = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    # R-BON-2 at 50 points: the stated winner's total is what the replay scores again
    assert json.loads(result.output)["reproduced"] is True
    assert record.replay(record.load(path)).result.scores == game.result.scores


def _replay_with_settings(tmp_path, settings) -> str:
    """``ttr replay`` of a record of a game played at 50 points, its settings edited to ``settings``:
    refused (exit code 2, no traceback); returns what it printed."""
    data = record.make_record(_game_with_the_bonus_at(50))
    data["settings"] = settings
    path = tmp_path / "edited.json"
    path.write_text(record.dumps(data))
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    return result.output


def test_a_record_whose_setting_was_edited_is_reported_not_replayed(tmp_path):
    text = _replay_with_settings(tmp_path, {"ticket-leader": {"points": 10}})
    assert "edited.json" in text and "scores" in text, text


def test_a_record_with_a_setting_for_a_plugin_its_rules_lack_is_refused_located(tmp_path):
    text = _replay_with_settings(tmp_path, {"stations": {"count": 2}})
    assert "$.settings.stations" in text and "does not enable" in text, text


def test_a_game_without_settings_records_none():
    assert "settings" not in record.make_record(play_game(variant.load("wor"), 2, SEED, BOTS))


# --- the two modes and the behaviour ---------------------------------------------------------------


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """wor with a longer ticket deal against wor, --play, 2 players: the rules of play differ."""
    out = tmp_path_factory.mktemp("play")
    code, text = _run("--variant", "wor", "--set", "ticket-deal.draw={deal = {any = 4}, keep = {any = 1}, rejects = \"bottom\"}",
                      "--against", "wor", "--play", "--players", "2", "--games", str(GAMES), "--seed", str(SEED),
                      "--bots", ",".join(BOTS), "--workers", "1", "--no-cache", "--out", str(out))
    assert code == 0, text
    return json.loads((out / "playtest.json").read_text()), (out / "playtest.html").read_text()


def test_play_mode_reports_the_behaviour_counted_from_the_records(played):
    rep, _ = played
    assert rep["mode"] == "play"
    b = rep["counts"]["2"]["behaviour"]
    rs_v = variant.load("wor").with_configs({"ticket-deal": _draw_of(4)})
    rs_a = variant.load("wor")
    mine = [_counted(rs_v, g) for g in _games(rs_v, 2)]
    theirs = [_counted(rs_a, g) for g in _games(rs_a, 2)]
    for key, _ in behaviour.FIGURES:
        assert b["variant"][key]["mean"] == pytest.approx(statistics.fmean(m[key] for m in mine), abs=1e-3), key
        assert b["against"][key]["mean"] == pytest.approx(statistics.fmean(t[key] for t in theirs), abs=1e-3), key
        d = [t[key] - m[key] for m, t in zip(mine, theirs)]
        assert b["differences"][key]["mean"] == pytest.approx(statistics.fmean(d), abs=1e-3), key
        e = b["differences"][key]
        assert e["low"] <= e["mean"] <= e["high"]
    # R-SET-4, R-TIX-1: 5 tickets offered at the start, then 4 at each draw (the rejected ones go
    # to the bottom of the deck, which never runs short)
    draws_v = sum(1 for g in _games(rs_v, 2) for a in record.make_record(g)["actions"] if a["kind"] == "draw-tickets")
    assert b["variant"]["tickets_drawn"]["mean"] * 2 * GAMES == pytest.approx(5 * 2 * GAMES + 4 * draws_v)
    winners_v = [frozenset(g.result.winners.seats) for g in _games(rs_v, 2)]
    winners_a = [frozenset(g.result.winners.seats) for g in _games(rs_a, 2)]
    assert b["winner_changes"]["k"] == sum(1 for x, y in zip(winners_v, winners_a) if x != y)


def _draw_of(deal: int):
    """wor's ticket-deal parameters with ``deal`` tickets offered at each draw (R-TIX-1), made here."""
    cfg = variant.load("wor").configs["ticket-deal"]
    return attrs.evolve(cfg, draw=attrs.evolve(cfg.draw, deal={"any": deal}))


def test_the_behaviour_section_shows_the_numbers_of_the_json(played):
    rep, html = played
    assert _page_matches_json(html, rep) > 200
    assert "How the players played" in html and "games to see this difference" in html
    assert "n = (1.96 + 0.84)² · sd² / d²" in html


def test_games_needed_follow_the_documented_formula():
    # sd 2, a difference of 0.5: (1.96 + 0.84)² · 4 / 0.25 = 125.6
    assert behaviour.games_needed(2.0, 0.5) == 126
    assert behaviour.games_needed(2.0, 0.0) is None
    assert behaviour.games_for_width(0.5, 0.05) == 385  # 1.96² · 0.25 / 0.0025


def test_rescore_stays_the_default_with_against_and_its_bots_the_usual_lineup(tmp_path):
    code, text = _run("--variant", "wor", "--against", "wor-legacy", "--players", "2", "--games", "2",
                      "--workers", "1", "--no-cache", "--out", str(tmp_path))
    assert code == 0, text
    rep = json.loads((tmp_path / "playtest.json").read_text())
    assert rep["mode"] == "rescore" and tuple(rep["bots"]) == pt.DEFAULT_BOTS
    assert rep["counts"]["2"]["rescored"]["from"] == "wor@2"


# --- sweeps ------------------------------------------------------------------------------------------

VALUES = (0, 10, 40)


def _winners(totals) -> frozenset[int]:
    return frozenset(i for i, t in enumerate(totals) if t == max(totals))


@pytest.fixture(scope="module")
def rescored_sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep")
    code, text = _run("--variant", "wor", "--sweep", "ticket-leader.points=" + ",".join(map(str, VALUES)), "--rescore",
                      "--players", "2", "--games", str(GAMES), "--seed", str(SEED), "--bots", ",".join(BOTS),
                      "--workers", "1", "--no-cache", "--out", str(out))
    assert code == 0, text
    return json.loads((out / "sweep.json").read_text()), (out / "sweep.html").read_text()


def test_a_rescored_sweep_gives_each_value_the_winners_its_bonus_gives(rescored_sweep):
    rep, _ = rescored_sweep
    assert rep["mode"] == "rescore" and rep["values"] == [str(v) for v in VALUES]
    games = _games(_ruleset(), 2)
    base = [_winners([s.total for s in g.result.scores]) for g in games]
    for v, entry in zip(VALUES, rep["counts"]["2"]["values"]):
        # the ticket leader's 10 points become v; nobody else's total moves
        totals = [[s.total - s.bonus("ticket-leader") + (v if s.bonus("ticket-leader") else 0) for s in g.result.scores]
                  for g in games]
        assert entry["winner_changes"]["k"] == sum(1 for b, t in zip(base, totals) if _winners(t) != b), v
        assert entry["score_spread"]["mean"] == pytest.approx(statistics.fmean(max(t) - min(t) for t in totals), abs=1e-3)
        assert entry["seat1_win_rate"]["k"] == sum(1 for t in totals if 0 in _winners(t))
    assert rep["counts"]["2"]["values"][1]["winner_changes"]["k"] == 0  # 10 is wor's own value


def test_the_sweep_page_shows_the_numbers_of_the_json_with_labelled_axes(rescored_sweep):
    rep, html = rescored_sweep
    assert _page_matches_json(html, rep) == len(VALUES) * 8
    charts = re.findall(r"<svg.*?</svg>", html, re.S)
    assert len(charts) == 3  # rescored: the behaviour is the same games' at every value, in the table only
    for chart in charts:
        assert ">ticket-leader.points</text>" in chart  # the x axis
        assert 'rotate(-90)' in chart  # the y axis has its label
    assert "<script" not in html.lower() and "http" not in html


def test_a_played_sweep_plays_each_value(tmp_path):
    code, text = _run("--variant", "wor", "--sweep", "ticket-deal.draw=" + '{deal={any=4},keep={any=1},rejects="bottom"}',
                      "--players", "2", "--games", "2", "--seed", str(SEED), "--bots", ",".join(BOTS),
                      "--workers", "1", "--no-cache", "--out", str(tmp_path))
    assert code == 0, text
    rep = json.loads((tmp_path / "sweep.json").read_text())
    assert rep["mode"] == "play"  # the default of sweeps
    html = (tmp_path / "sweep.html").read_text()
    assert html.count("<svg") == 8 and _page_matches_json(html, rep) == 8  # a curve and a cell per figure
    rs = _ruleset().with_configs({"ticket-deal": _draw_of(4)})
    mine = [_counted(rs, g) for g in _games(rs, 2, games=2)]
    entry = rep["counts"]["2"]["values"][0]
    for key, _ in behaviour.FIGURES:
        assert entry["behaviour"][key]["mean"] == pytest.approx(statistics.fmean(m[key] for m in mine), abs=1e-3), key
    base = [frozenset(g.result.winners.seats) for g in _games(_ruleset(), 2, games=2)]
    swept = [frozenset(g.result.winners.seats) for g in _games(rs, 2, games=2)]
    assert entry["winner_changes"]["k"] == sum(1 for a, b in zip(base, swept) if a != b)


@pytest.mark.parametrize("spec, message", [
    ("ticket-leader.points=0,abc", "--sweep ticket-leader.points=abc: expected an integer"),
    ("ticket-leader.pts=0,5", "no parameter 'pts'"),
    ("ticket-leader.points=0,,5", "a value is empty"),
    ("ticket-leader.points=5,5", "given twice"),
    ("nope=1", "PLUGIN.PARAMETER=VALUE"),
])
def test_a_bad_sweep_is_refused_before_any_game(tmp_path, spec, message):
    code, text = _run("--variant", "wor", "--sweep", spec, "--players", "2", "--games", "2",
                      "--cache", str(tmp_path / "games"), "--out", str(tmp_path / "out"))
    assert code != 0 and message in text, text
    assert not (tmp_path / "out").exists() and not list((tmp_path).glob("games/**/*.z"))


# --- --until -----------------------------------------------------------------------------------------


def test_until_asks_for_the_games_the_width_says():
    until = enough.Until(0.1)
    assert enough.next_games(100, 0.09, until) is None
    assert enough.next_games(100, 0.2, until) == 400  # width halves with four times the games
    assert enough.next_games(100, 0.11, until) == 150  # at least half again as many
    assert enough.next_games(1500, 0.2, until) == 2000  # the cap
    assert enough.next_games(2000, 0.2, until) is None


def test_until_adds_games_reusing_the_cache(tmp_path):
    args = ("--variant", "wor", "--against", "wor-legacy", "--players", "2", "--games", "3", "--bots", ",".join(BOTS),
            "--workers", "1", "--cache", str(tmp_path / "games"), "--until", "0.5", "--until-cap", "9", "--json")
    code, text = _run(*args, "--out", str(tmp_path / "out"))
    assert code == 0, text
    rep = json.loads((tmp_path / "out" / "playtest.json").read_text())
    rounds = rep["until"]["rounds"]
    assert rounds[0]["games"] == 3 and len(rounds) >= 2 and rounds[-1]["games"] == rep["games"] <= 9
    assert rep["until"]["reached"] == (rounds[-1]["widest"] < 0.5)
    w = rep["counts"]["2"]["rescored"]["winner_changes"]
    assert w["n"] == rep["games"] and round(w["high"] - w["low"], 4) == rounds[-1]["widest"]
    files = list((tmp_path / "games").glob("**/*.z"))
    assert len(files) == 2 * rep["games"]  # each seed played once per rule set, whatever the rounds


def test_until_needs_the_cache_and_a_comparison(tmp_path):
    code, text = _run("--variant", "wor", "--against", "wor-legacy", "--until", "0.2", "--no-cache", "--out", str(tmp_path / "a"))
    assert code != 0 and "drop --no-cache" in text
    code, text = _run("--variant", "wor", "--until", "0.2", "--out", str(tmp_path / "b"))
    assert code != 0 and "--against or --sweep" in text


# --- the rule-aware bot --------------------------------------------------------------------------------


#: the slow test's games: 200 seeds showed a difference of 0.1 ticket per game that 400 did not
RULE_AWARE_GAMES = 400


def _kept_by(style: str, facts) -> dict[int, int]:
    """Per seed: the tickets the seat played by ``style`` kept, read from the game's record here."""
    out = {}
    for g in facts:
        data = json.loads(g.record)
        seat = g.bots.index(style)
        out[data["seed"]] = sum(len(a["tickets"]) for a in data["actions"] if a["kind"] == "keep-tickets" and a["seat"] == seat)
    return out


@pytest.mark.slow
@pytest.mark.soak  # 24 minutes on an idle 2-core VM (2026-12-04): out of the default run
@pytest.mark.xfail(strict=True, reason=(
    "not shown: measured 2026-12-04 at 1b8ab4e, search-quick keeps +0.100 [+0.008, +0.192] tickets per game at "
    "50 points over seeds 1-200 but +0.035 [-0.041, +0.111] over seeds 1-400 (1,412 s, 2 workers): no reaction "
    "beyond chance. Its play-outs do not score keeping more tickets higher at 50 points, so its search has "
    "nothing to react to (docs/playtest.md)"))
def test_the_search_bot_keeps_more_tickets_when_the_ticket_leader_bonus_is_50():
    """wor with ticket-leader.points = 50 against wor (10), 2 players, 400 seeds, --play: the search
    bot (``search-quick``, whose play-outs are scored by the rules in force) against the ticket bot,
    seats swapped from game to game. It keeps more tickets per game under the bigger bonus, the 95%
    interval of the per-seed difference excluding 0. The ticket bot does not read the scoring."""
    t0 = time.perf_counter()
    plan = pt.Plan(Target("wor", None, (Setting("ticket-leader", "points", "50"),)), Target("wor"), (2,),
                   RULE_AWARE_GAMES, ("search-quick", "ticket"), seed=1, mode=pt.PLAY)
    report, facts = pt.playtest(plan, workers=2)
    fifty, ten = _kept_by("search-quick", facts["2"]), _kept_by("search-quick", facts["2-against"])
    d = [fifty[s] - ten[s] for s in sorted(fifty)]
    mean, half = statistics.fmean(d), 1.959964 * statistics.stdev(d) / len(d) ** 0.5
    seconds = time.perf_counter() - t0
    assert mean - half > 0, f"search-quick keeps {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}] tickets per game at 50 ({seconds:.0f} s)"
    # the report's behaviour figure is both seats' (the ticket bot's too), per player
    other = _kept_by("ticket", facts["2"])
    both = statistics.fmean(fifty[s] + other[s] for s in fifty) / 2
    assert report["counts"]["2"]["behaviour"]["variant"]["tickets_kept"]["mean"] == pytest.approx(both, abs=1e-3)
