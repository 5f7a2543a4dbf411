"""Played games kept between runs (``ttr_analysis.game_cache``): a re-run of ``compare`` or
``simulate`` reuses the games it played, plays again when anything deciding a game changed, and
treats a damaged or foreign entry as a game never played.

The bots here count their moves, so "reused" is seen as "no bot was asked anything", not timed.
Every folder is a temporary one (``conftest.py`` points ``TTR_CACHE_DIR`` at one too).
"""

from __future__ import annotations

import importlib
import json
import multiprocessing
import sys
import zlib

import pytest
from click.testing import CliRunner

from ttr_analysis import compare, game_cache, simulate
from ttr_analysis.game_cache import GameCache
from ttr_analysis.rescore import Target
from ttr_bots import local_bots
from ttr_bots.random_bot import RandomBot
from ttr_cli.main import main
from ttr_core import record, variant

#: moves asked of the counting bots in this process
MOVES: list[int] = []


class CountingBot(RandomBot):
    """The random bot, counting the moves it is asked for."""

    name = "counting"

    def choose(self, view):
        MOVES.append(view.seat)
        return super().choose(view)


class OtherCountingBot(CountingBot):
    name = "counting-too"


@pytest.fixture(autouse=True)
def counting_bots():
    MOVES.clear()
    with local_bots({"counting": CountingBot, "counting-too": OtherCountingBot}):
        yield


def _compare(cache, seed=1, games=3, bots=("counting",), a="wor", players=3):
    return compare.compare(Target(a), Target("wor-legacy"), games, seed, players, bots, workers=1, records=True, cache=cache)


def _played_and_reused(run):
    """(moves the bots were asked for, games reused) of ``run()``."""
    before = len(MOVES)
    c = run()
    return len(MOVES) - before, c.reused(), c


# --- reuse --------------------------------------------------------------------------------------


def test_a_second_comparison_reuses_every_game_and_asks_no_bot_anything(tmp_path):
    cache = GameCache(tmp_path / "games")
    moves, reused, first = _played_and_reused(lambda: _compare(cache))
    assert moves > 100 and reused == 0
    moves, reused, again = _played_and_reused(lambda: _compare(cache))
    assert (moves, reused) == (0, 3)
    assert again.games == first.games  # scores under A and B, records, turns: all the same
    assert [g.record for g in again.games] == [g.record for g in first.games]
    assert compare.report(again) == compare.report(first)
    assert all(g.reused for g in again.games) and not any(g.reused for g in first.games)


def test_kept_records_replay_byte_for_byte(tmp_path):
    cache = GameCache(tmp_path)
    _compare(cache)
    again = _compare(cache)
    for g in again.games:
        game = record.replay(json.loads(g.record))
        assert record.dumps(record.make_record(game)) == g.record


def test_a_comparison_against_another_rule_set_reuses_the_games_played_under_the_first(tmp_path):
    cache = GameCache(tmp_path)
    _compare(cache)
    before = len(MOVES)
    other = compare.compare(Target("wor"), Target("wor", 2), 3, 1, 3, ("counting",), workers=1, cache=cache)
    assert len(MOVES) == before and other.reused() == 3
    # rescored under the same rules it was played under: nothing changes
    assert compare.report(other)["winner_changes"]["games"] == 0


def test_more_seeds_play_only_the_new_ones(tmp_path):
    cache = GameCache(tmp_path)
    spec = simulate.SimSpec("usa", None, 2, ("counting",))
    simulate.run(spec, range(1, 4), cache=cache)
    games = simulate.run(spec, range(1, 6), cache=cache)
    assert [g.reused for g in games] == [True, True, True, False, False]
    assert [g.seed for g in games] == [1, 2, 3, 4, 5]
    assert games == simulate.run(spec, range(1, 6))  # the same summaries as without a cache


def test_the_process_pool_reuses_too_and_gives_the_same_games(tmp_path):
    if multiprocessing.get_start_method() != "fork":
        pytest.skip("the pool's workers see the local bots only when forked")
    cache = GameCache(tmp_path)
    spec = simulate.SimSpec("usa", None, 3, ("counting",), records=True)
    first = simulate.run(spec, range(1, 7), workers=2, cache=cache)
    again = simulate.run(spec, range(1, 7), workers=2, cache=cache)
    assert not any(g.reused for g in first) and all(g.reused for g in again)
    assert again == first and [g.record for g in again] == [g.record for g in first]


# --- what makes a different game ----------------------------------------------------------------


def _variant_file(folder, points):
    path = folder / "house.toml"
    path.write_text('id = "house"\ntitle = "wor, another longest path"\nextends = "wor@1"\n'
                    f'[versions.1]\n[versions.1.rules.longest-path]\npoints = {points}\n', encoding="utf-8")
    variant.clear_caches()
    return str(path)


def _new_engine(monkeypatch):
    monkeypatch.setattr(game_cache, "engine_identity", lambda: "ttr-engine 99.0 (another build)")


@pytest.mark.parametrize("change", ["seed", "bot", "players", "engine"])
def test_a_changed_key_plays_the_games_again(tmp_path, monkeypatch, change):
    cache = GameCache(tmp_path)
    _compare(cache)
    changed = {"seed": dict(seed=11), "bot": dict(bots=("counting-too",)), "players": dict(players=4), "engine": {}}[change]
    if change == "engine":
        _new_engine(monkeypatch)
    moves, reused, c = _played_and_reused(lambda: _compare(cache, **changed))
    assert moves > 100 and reused == 0
    assert _played_and_reused(lambda: _compare(cache, **changed))[:2] == (0, 3)  # and kept in turn


def test_an_edited_variant_file_plays_the_games_again(tmp_path):
    cache = GameCache(tmp_path / "games")
    path = _variant_file(tmp_path, 10)
    spec = simulate.SimSpec(path, None, 3, ("counting",))
    simulate.run(spec, range(1, 4), cache=cache)
    assert all(g.reused for g in simulate.run(spec, range(1, 4), cache=cache))
    _variant_file(tmp_path, 20)  # R-BON-1: the longest path is worth another bonus now
    before = len(MOVES)
    games = simulate.run(spec, range(1, 4), cache=cache)
    assert not any(g.reused for g in games) and len(MOVES) > before
    assert any(line == ("longest-path", 20) for g in games for s in g.played.seats for line in s.lines)


def test_an_edited_bot_plays_the_games_again(tmp_path, monkeypatch):
    """A bot's code is part of the key (an editable install changes code, not versions)."""
    module = tmp_path / "edited_bot.py"
    source = "from ttr_bots.random_bot import RandomBot\n\nclass EditedBot(RandomBot):\n    name = 'edited'\n"
    module.write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    bot = importlib.import_module("edited_bot").EditedBot
    cache = GameCache(tmp_path / "games")
    spec = simulate.SimSpec("usa", None, 2, ("edited",))
    try:
        with local_bots({"edited": bot}):
            simulate.run(spec, range(1, 3), cache=cache)
            assert all(g.reused for g in simulate.run(spec, range(1, 3), cache=cache))
            module.write_text(source + "    # thinks harder now\n", encoding="utf-8")
            game_cache.code_digest.cache_clear()
            assert not any(g.reused for g in simulate.run(spec, range(1, 3), cache=cache))
    finally:
        sys.modules.pop("edited_bot", None)
        game_cache.code_digest.cache_clear()


# --- damaged and foreign entries ----------------------------------------------------------------


def _entries(cache, spec, seeds):
    key = game_cache.RunKey.of(variant.load(spec.variant, spec.version), spec.players, spec.bots)
    return [cache.path(key, s) for s in seeds]


def test_damaged_and_foreign_entries_are_played_again_and_replaced(tmp_path):
    cache = GameCache(tmp_path)
    spec = simulate.SimSpec("usa", None, 2, ("counting",), records=True)
    first = simulate.run(spec, range(1, 7), cache=cache)
    paths = _entries(cache, spec, range(1, 7))
    paths[0].write_bytes(paths[0].read_bytes()[:100])  # cut short
    paths[1].write_bytes(b"not a cache entry")
    paths[2].write_bytes(paths[3].read_bytes())  # another game's entry (seed 4) under seed 3's name
    data = json.loads(zlib.decompress(paths[4].read_bytes()))
    data["game"]["played"]["seats"] = "many"  # readable, but not a game
    paths[4].write_bytes(zlib.compress(json.dumps(data).encode()))
    paths[5].unlink()
    paths[5].mkdir()  # not even a file
    again = simulate.run(spec, range(1, 7), cache=cache)
    assert [g.reused for g in again] == [False, False, False, True, False, False]
    assert again == first and [g.record for g in again] == [g.record for g in first]
    assert [g.reused for g in simulate.run(spec, range(1, 6), cache=cache)] == [True] * 5


def test_a_cache_that_cannot_be_written_is_reported_once_and_the_run_goes_on(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    problems = []
    spec = simulate.SimSpec("usa", None, 2, ("counting",))
    games = simulate.run(spec, range(1, 4), cache=GameCache(blocker / "games"), on_cache_problem=problems.append)
    assert len(games) == 3 and len(problems) == 1 and str(blocker) in problems[0]


def _put_many(folder):
    spec = simulate.SimSpec("usa", None, 2, ("random",), records=True)
    return [(g.seed, g.record) for g in simulate.run(spec, range(1, 9), cache=GameCache(folder))]


def test_processes_writing_the_same_games_at_once_leave_whole_entries(tmp_path):
    context = multiprocessing.get_context("spawn")  # separate interpreters, as separate runs are
    with context.Pool(3) as pool:
        results = pool.map(_put_many, [tmp_path] * 3)
    assert results[0] == results[1] == results[2]
    assert not list(tmp_path.rglob("*.tmp"))
    spec = simulate.SimSpec("usa", None, 2, ("random",), records=True)
    again = simulate.run(spec, range(1, 9), cache=GameCache(tmp_path))
    assert all(g.reused for g in again) and [(g.seed, g.record) for g in again] == results[0]


# --- the cache folder ---------------------------------------------------------------------------


def test_the_default_folder_is_the_user_cache_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("TTR_CACHE_DIR", str(tmp_path / "mine"))
    assert game_cache.default_folder() == tmp_path / "mine"
    monkeypatch.delenv("TTR_CACHE_DIR")
    if sys.platform.startswith("linux"):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
        assert game_cache.default_folder() == tmp_path / "xdg" / "ttr-engine" / "games"
        monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
        monkeypatch.setenv("HOME", str(tmp_path / "home"))
        assert game_cache.default_folder() == tmp_path / "home" / ".cache" / "ttr-engine" / "games"


# --- the command line ---------------------------------------------------------------------------

COMPARE = ["compare", "--variant", "wor", "--variant", "wor-legacy", "--games", "3", "--players", "3",
           "--bots", "counting", "--workers", "1", "--json"]


def _cli(*args, code=0):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == code, (result.output, result.exception)
    assert "Traceback" not in result.output
    return result


def test_compare_says_how_many_games_it_reused_and_prints_the_same_numbers(tmp_path):
    first = _cli(*COMPARE, "--cache", tmp_path)
    assert "0 of 3 games reused" in first.stderr
    moves = len(MOVES)
    again = _cli(*COMPARE, "--cache", tmp_path)
    assert len(MOVES) == moves
    assert f"3 of 3 games reused from the cache in {tmp_path}; only their scoring under wor-legacy@1 was computed" in again.stderr
    assert again.stdout == first.stdout


def test_simulate_reuses_games_from_the_default_folder_and_writes_the_same_records(tmp_path, monkeypatch):
    monkeypatch.setenv("TTR_CACHE_DIR", str(tmp_path / "default"))
    args = ["simulate", "--variant", "usa", "--games", "3", "--players", "2", "--bots", "counting", "--workers", "1", "--json"]
    first = json.loads(_cli(*args, "--out", tmp_path / "first").stdout)
    again = json.loads(_cli(*args, "--out", tmp_path / "again").stdout)
    assert (first["timing"]["reused"], again["timing"]["reused"]) == (0, 3)
    assert again["timing"]["cache"] == str(tmp_path / "default")
    for path in (tmp_path / "first").iterdir():
        assert (tmp_path / "again" / path.name).read_bytes() == path.read_bytes()
    assert {k: v for k, v in again.items() if k not in ("timing", "records")} == \
        {k: v for k, v in first.items() if k not in ("timing", "records")}


def test_no_cache_plays_every_game_and_keeps_none(tmp_path, monkeypatch):
    monkeypatch.setenv("TTR_CACHE_DIR", str(tmp_path / "default"))
    for _ in range(2):
        moves = len(MOVES)
        result = _cli(*COMPARE, "--no-cache")
        assert len(MOVES) > moves and "the game cache is off" in result.stderr
    assert not (tmp_path / "default").exists()


def test_bad_cache_options_are_refused_before_any_game(tmp_path):
    a_file = tmp_path / "file"
    a_file.write_text("", encoding="utf-8")
    result = _cli(*COMPARE, "--cache", a_file, code=2)
    assert "'--cache'" in result.output and f"'{a_file}' is a file" in result.output
    result = _cli(*COMPARE, "--cache", tmp_path, "--no-cache", code=2)
    assert "--cache and --no-cache" in result.output
    assert MOVES == []


def test_an_unwritable_default_folder_is_a_warning_not_a_failure(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("TTR_CACHE_DIR", str(blocker / "games"))
    result = _cli(*COMPARE)
    assert "warning: played games are not kept" in result.stderr and result.stderr.count("warning") == 1
    assert json.loads(result.stdout)["games"] == 3


# --- a folder of records as the games ------------------------------------------------------------


def test_compare_takes_a_folder_of_records_instead_of_playing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    played = json.loads(_cli(*COMPARE, "--no-cache", "--seed", "4", "--save-records").stdout)
    moves = len(MOVES)
    recorded = json.loads(_cli("compare", "--variant", "wor", "--variant", "wor-legacy", "--records", tmp_path / "records",
                               "--json").stdout)
    assert len(MOVES) == moves  # no game played
    assert recorded["bots"] == ["from records"] and played["bots"] == ["counting"]
    same = {k: v for k, v in played.items() if k not in ("bots", "records")}
    assert {k: v for k, v in recorded.items() if k != "bots"} == same


def test_records_of_other_rules_or_with_options_that_choose_games_are_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _cli("simulate", "--variant", "wor@1", "--games", "2", "--players", "3", "--bots", "counting", "--workers", "1",
         "--no-cache", "--out", tmp_path / "v1")
    result = _cli("compare", "--variant", "wor", "--variant", "wor-legacy", "--records", tmp_path / "v1", code=2)
    assert f"{tmp_path / 'v1' / 'wor-v1-seed1.json'}: played under wor@1, not under wor@2 (the first --variant)" in result.output
    result = _cli("compare", "--variant", "wor@1", "--variant", "wor", "--records", tmp_path / "v1", "--seed", "3", code=2)
    assert "--records takes the games from the records: --seed would choose games to play" in result.output


def _identity_with(monkeypatch, edited: str) -> str:
    """The engine's identity as if the code of module ``edited`` had changed."""
    monkeypatch.undo()
    real = game_cache.code_digest.__wrapped__
    monkeypatch.setattr(game_cache, "code_digest", lambda top: real(top) + ("edited" if top == edited else ""))
    return game_cache.engine_identity.__wrapped__()


def test_editing_a_report_keeps_the_played_games_and_editing_how_they_are_played_does_not(monkeypatch):
    now = game_cache.engine_identity.__wrapped__()
    assert _identity_with(monkeypatch, "ttr_analysis.playtest") == now  # a report: the games are the same
    assert _identity_with(monkeypatch, "ttr_analysis.simulate") != now  # what plays them: played again
    assert _identity_with(monkeypatch, "ttr_plugins") != now


def test_the_modules_that_make_an_entry_bring_every_analysis_module_they_import():
    """What ``simulate`` imports from ``ttr_analysis`` shapes the entries too: it must count in the key."""
    import ast
    import importlib.util

    for name in game_cache.PLAYING_MODULES:
        tree = ast.parse(open(importlib.util.find_spec(name).origin, encoding="utf-8").read())
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        imported |= {f"{n.module}.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                     and n.module == "ttr_analysis" for a in n.names}
        inside = {m for m in imported if m.startswith("ttr_analysis.")}
        assert inside <= set(game_cache.PLAYING_MODULES), (name, inside - set(game_cache.PLAYING_MODULES))
