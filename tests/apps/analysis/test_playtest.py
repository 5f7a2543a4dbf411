"""``ttr playtest``: the report's figures checked against totals computed independently from the
games (played again here with the bots, watched live rather than replayed), the HTML page and the
JSON agreeing, the page needing nothing from outside, ``--against``, and bad input refused."""

from __future__ import annotations

import json
import re
import statistics
from collections import Counter

import pytest
from usa_kit import DATA
from click.testing import CliRunner

from ttr_bots import play_game
from ttr_cli.main import main
from ttr_core import record, variant

BOTS = ("random", "ticket", "long-routes", "hoarder")
GAMES, SEED = 6, 3


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["playtest", *args])
    return result.exit_code, result.output  # stdout and stderr, as a terminal shows them


@pytest.fixture(scope="module")
def usa(tmp_path_factory):
    """usa at 2 and 3 players, 6 games each, the default mix of bots."""
    out = tmp_path_factory.mktemp("playtest") / "usa"
    code, text = _run("--variant", "usa", "--players", "2,3", "--games", str(GAMES), "--seed", str(SEED),
                      "--workers", "1", "--out", str(out))
    assert code == 0, text
    return out, json.loads((out / "playtest.json").read_text()), (out / "playtest.html").read_text()


def _watched_games(variant_id: str, players: int):
    """The games the report should hold, played again here: game i's bots are the styles shifted by
    i over the seats; each route's claiming turn is seen as it happens."""
    ruleset = variant.load(variant_id)
    games = []
    for i, seed in enumerate(range(SEED, SEED + GAMES)):
        lineup = tuple(BOTS[(i + s) % len(BOTS)] for s in range(players))
        first_turn: dict[str, int] = {}

        def watch(game, seat, action, first_turn=first_turn):
            owned = {game.board.routes[r].id for r, o in enumerate(game.state.owner) if o >= 0}
            for rid in owned - set(first_turn):
                # the turn counter has moved on if the claim ended the turn
                first_turn[rid] = game.state.turn if action.kind in ("claim-route", "pay-tunnel") else game.state.turn + 1

        game = play_game(ruleset, players, seed, lineup, on_action=watch)
        games.append((lineup, game, first_turn))
    return games


def test_the_figures_match_totals_from_the_games(usa):
    _, rep, _ = usa
    assert rep["players"] == [2, 3] and rep["games"] == GAMES and rep["seeds"] == [SEED, SEED + GAMES - 1]
    for players in (2, 3):
        fig = rep["counts"][str(players)]["variant"]
        games = _watched_games("usa", players)
        results = [g.result for _, g, _ in games]
        bal = fig["balance"]
        for seat in range(players):
            wins = sum(1 for r in results if seat in r.winners.seats)
            assert bal["win_rate_by_seat"][str(seat + 1)]["k"] == wins
            edge = statistics.fmean(r.scores[seat].total - statistics.fmean(s.total for s in r.scores) for r in results)
            assert bal["score_edge_by_seat"][str(seat + 1)]["mean"] == pytest.approx(edge, abs=1e-3)
        style_scores: dict[str, list[int]] = {}
        style_wins = Counter()
        for lineup, g, _ in games:
            for s, score in enumerate(g.result.scores):
                style_scores.setdefault(lineup[s], []).append(score.total)
                style_wins[lineup[s]] += s in g.result.winners.seats
        assert set(bal["win_rate_by_style"]) == set(style_scores)
        for style, scores in style_scores.items():
            assert bal["win_rate_by_style"][style]["k"] == style_wins[style]
            assert bal["win_rate_by_style"][style]["n"] == len(scores)
            assert bal["score_by_style"][style]["mean"] == pytest.approx(statistics.fmean(scores), abs=1e-3)
        assert bal["turns"]["mean"] == pytest.approx(statistics.fmean(g.state.turn for _, g, _ in games), abs=1e-3)
        assert {k: v["k"] for k, v in bal["ends"].items()} == dict(Counter(r.reason for r in results))
        # the board: how often each route is owned at the end, and when it was claimed
        owned = Counter(g.board.routes[r].id for _, g, _ in games for r, o in enumerate(g.state.owner) if o >= 0)
        board = fig["board"]["routes"]
        assert {rid: v["claimed"]["k"] for rid, v in board.items() if v["claimed"]["k"]} == dict(owned)
        top = max(owned, key=lambda rid: (owned[rid], rid))
        turns = [first[top] for _, _, first in games if top in first]
        assert board[top]["median_turn"] == statistics.median(turns)
        # tickets: completed of those held at the end, and one ticket's net points
        done = sum(len(s.tickets_completed) for r in results for s in r.scores)
        failed = sum(len(s.tickets_failed) for r in results for s in r.scores)
        assert (fig["tickets"]["completion"]["k"], fig["tickets"]["completion"]["n"]) == (done, done + failed)
        points = {t.id: t.points for t in games[0][1].board.tickets}
        nets: dict[str, list[int]] = {}
        for r in results:
            for s in r.scores:
                for t in s.tickets_completed:
                    nets.setdefault(t, []).append(points[t])
                for t in s.tickets_failed:
                    nets.setdefault(t, []).append(-points[t])
        for tid, values in nets.items():
            assert fig["tickets"]["by_ticket"][tid]["held"] == len(values)
            assert fig["tickets"]["by_ticket"][tid]["net_points"]["mean"] == pytest.approx(statistics.fmean(values), abs=1e-3)
        # the longest-path bonus (R-BON-1): in how many games, and to which seat
        lp = fig["bonuses"]["longest-path"]
        assert lp["given"]["k"] == sum(1 for r in results if any(s.bonus("longest-path") for s in r.scores))
        for seat in range(players):
            assert lp["by_seat"][str(seat + 1)]["k"] == sum(1 for r in results if r.scores[seat].bonus("longest-path"))
        assert sum(v["k"] for v in bal["decided_by"].values()) == GAMES


def test_doubles_are_never_both_taken_with_2_or_3_players(usa):
    _, rep, _ = usa
    for players in ("2", "3"):  # R-PAR-2: with 2 or 3 players, one route of a double closes the other
        doubles = rep["counts"][players]["variant"]["board"]["doubles"]
        assert doubles and all(v["both_taken"]["k"] == 0 for v in doubles.values())


def _figure(rep: dict, path: list[str]):
    value = rep
    for key in path:
        value = value[key]
    return value["mean"] if isinstance(value, dict) else value


def test_the_page_shows_the_numbers_of_the_json(usa):
    _, rep, html = usa
    cells = re.findall(r"data-figure='([^']*)' data-value='([^']*)'", html)
    assert len(cells) > 200
    for path, value in cells:
        keys = json.loads(path.replace("&quot;", '"').replace("&#x27;", "'").replace("&amp;", "&"))
        assert _figure(rep, keys) == json.loads(value), keys
    first = rep["counts"]["2"]["variant"]["balance"]["win_rate_by_seat"]["1"]
    assert f"{first['mean']:.1%} [{first['low']:.1%}, {first['high']:.1%}]" in html


def test_the_page_needs_nothing_from_outside(usa):
    _, _, html = usa
    assert html.startswith("<!doctype html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:|//)""", html, re.I)
    assert not re.search(r"url\(\s*['\"]?\s*(https?:|//)", html, re.I)
    assert "<script" not in html.lower() and "<link" not in html.lower() and "@import" not in html
    assert html.count("<svg") >= 2 * 6  # per player count: 5 or more charts and a board
    assert html.count('class="board"') == 2


def test_the_run_is_the_same_on_a_rerun_with_two_workers(usa, tmp_path):
    _, rep, html = usa
    code, text = _run("--variant", "usa", "--players", "2-3", "--games", str(GAMES), "--seed", str(SEED),
                      "--workers", "2", "--no-cache", "--out", str(tmp_path))
    assert code == 0, text
    assert json.loads((tmp_path / "playtest.json").read_text()) == rep
    assert (tmp_path / "playtest.html").read_text() == html


def test_a_rerun_takes_the_games_already_played_from_the_cache(usa, tmp_path):
    _, rep, html = usa
    args = ("--variant", "usa", "--players", "2,3", "--games", str(GAMES), "--seed", str(SEED),
            "--cache", str(tmp_path / "games"))
    code, first = _run(*args, "--out", str(tmp_path / "first"))
    assert code == 0, first
    assert f"0 of {2 * GAMES} games reused" in first
    code, again = _run(*args, "--out", str(tmp_path / "again"))
    assert code == 0, again
    assert f"{2 * GAMES} of {2 * GAMES} games reused" in again
    assert json.loads((tmp_path / "again" / "playtest.json").read_text()) == rep
    assert (tmp_path / "again" / "playtest.html").read_text() == html


def _legacy_winners(result) -> set[int]:
    """wor-legacy winners of a wor game, without the engine's scoring: the ticket-leader bonus (10
    points to the single player with the most completed tickets) taken away, highest totals win."""
    totals = [s.total - s.bonus("ticket-leader") for s in result.scores]
    return {i for i, t in enumerate(totals) if t == max(totals)}


def test_against_puts_every_figure_side_by_side_and_rescores_the_games(tmp_path):
    code, text = _run("--variant", "wor", "--against", "wor-legacy", "--players", "4", "--games", str(GAMES),
                      "--seed", str(SEED), "--workers", "1", "--out", str(tmp_path), "--json")
    assert code == 0, text
    rep = json.loads((tmp_path / "playtest.json").read_text())
    assert (rep["variant"], rep["against"]) == ("wor@2", "wor-legacy@1")
    entry = rep["counts"]["4"]
    for seat in "1234":
        a = entry["variant"]["balance"]["win_rate_by_seat"][seat]
        b = entry["against"]["balance"]["win_rate_by_seat"][seat]
        d = entry["differences"]["balance"]["win_rate_by_seat"][seat]
        assert d["mean"] == pytest.approx(b["mean"] - a["mean"], abs=1e-4) and d["low"] <= d["mean"] <= d["high"]
    games = _watched_games("wor", 4)
    changed = [SEED + i for i, (_, g, _) in enumerate(games) if _legacy_winners(g.result) != set(g.result.winners.seats)]
    assert entry["rescored"]["winner_changes"]["k"] == len(changed)
    assert entry["rescored"]["winner_changes"]["seeds"] == changed
    assert entry["rescored"]["lines"]["ticket-leader"]["mean_b"] == 0
    assert entry["rescored"]["export_mismatches"] == []
    html = (tmp_path / "playtest.html").read_text()
    assert "wor-legacy@1 − wor@2" in html and html.count('class="board"') == 3  # both, and their difference
    headlines = json.loads(text[text.index("{"):])["headlines"]
    assert any(f"the winner changes in {len(changed)} of {GAMES} games" in h for h in headlines)


def test_example_records_of_rule_failures_replay(usa):
    out, rep, _ = usa
    named = {f"usa-v1-{p}p-seed{e}.json" for p in ("2", "3") for f in rep["counts"][p]["variant"]["failures"].values()
             if isinstance(f, dict) and (e := f.get("example")) is not None}
    named |= {f"usa-v1-{p}p-seed{b['decides_winner_example']}.json" for p in ("2", "3")
              for b in rep["counts"][p]["variant"]["bonuses"].values() if b["decides_winner_example"] is not None}
    files = {p.name for p in (out / "records").glob("*.json")} if (out / "records").exists() else set()
    assert files == named
    for name in files:
        record.replay(record.load(out / "records" / name))


@pytest.mark.parametrize("args,message", [
    (["--variant", "nope"], "nope"),
    (["--variant", "usa", "--players", "2,x"], "--players"),
    (["--variant", "usa", "--players", "1,2"], "takes 2 to 5 players, not 1"),
    (["--variant", "usa", "--players", "6"], "takes 2 to 5 players, not 6"),
    (["--variant", "usa", "--against", "europe"], "different maps"),
    (["--variant", "usa", "--bots", "ticket,nobody"], "--bots"),
])
def test_bad_input_is_refused_before_anything_is_written(tmp_path, args, message):
    out = tmp_path / "report"
    code, text = _run(*args, "--games", "2", "--out", str(out))
    assert code == 2
    assert message in text and "Traceback" not in text
    assert not out.exists()


def test_rule_failures_are_counted_with_an_example_to_replay(monkeypatch, tmp_path):
    """On the tiny test map (6 routes) random bots claim everything early, then draw until the deck
    and the discard are empty, and every player passes in a row: the game ends (R-TURN-2)."""
    installed = variant.available
    monkeypatch.setattr(variant, "available", lambda: {**installed(), "tiny": DATA / "tiny.toml"})
    from ttr_analysis import playtest

    monkeypatch.setattr(playtest, "LONG_PASS_RUN", 1)  # these games pass once per player
    out = tmp_path / "tiny"
    code, text = _run("--variant", "tiny", "--players", "2", "--games", "4", "--bots", "random", "--workers", "1",
                      "--out", str(out))
    assert code == 0, text
    fails = json.loads((out / "playtest.json").read_text())["counts"]["2"]["variant"]["failures"]
    ended, emptied, passes, runs = [], {}, [], 0
    for seed in range(1, 5):
        seen = {"turn": 0}

        def watch(game, seat, action, seen=seen, seed=seed):
            st = game.state
            if not st.deck and not st.discard and st.phase == "play" and seed not in emptied:
                emptied[seed] = seen["turn"] + 1  # the turn during which they ran out
            seen["turn"] = st.turn

        game = play_game(variant.load("tiny"), 2, seed, ("random",), on_action=watch)
        passed = Counter(seat for seat, a in game.log if a.kind == "pass")
        passes.append(sum(passed.values()))
        runs += len(passed)
        if game.log[-1][1].kind == "pass":
            ended.append(seed)
    assert (fails["ended_by_passing"]["k"], fails["ended_by_passing"]["example"]) == (len(ended), ended[0])
    assert fails["deck_and_discard_exhausted"]["k"] == len(emptied)
    assert fails["deck_and_discard_exhausted"]["first_turn"] == min(emptied.values())
    assert fails["passes_per_game"]["mean"] == pytest.approx(statistics.fmean(passes))
    assert fails["long_pass_runs"]["k"] == runs
    assert (out / "records" / f"tiny-v1-2p-seed{ended[0]}.json").exists()
    html = (out / "playtest.html").read_text()
    assert f"ttr replay records/tiny-v1-2p-seed{ended[0]}.json" in html


def test_differences_by_hand():
    from ttr_analysis.playtest import average, difference, share

    # Newcombe: 8/10 − 5/10 = 0.3, from the Wilson limits [0.4902, 0.9433] and [0.2366, 0.7634]
    d = difference(share(5, 10), share(8, 10))
    assert d["mean"] == pytest.approx(0.3)
    assert (d["low"], d["high"]) == pytest.approx((0.3 - ((0.8 - 0.4902) ** 2 + (0.7634 - 0.5) ** 2) ** 0.5,
                                                   0.3 + ((0.9433 - 0.8) ** 2 + (0.5 - 0.2366) ** 2) ** 0.5), abs=2e-4)
    # means: 4 − 2 = 2 ± 1.96·√(sd²/n + sd²/n), each sample's variance 2/3 over 4 values
    m = difference(average([1, 2, 3, 2]), average([3, 4, 5, 4]))
    half = 1.959964 * ((2 / 3) / 4 * 2) ** 0.5
    assert (m["mean"], m["low"], m["high"]) == pytest.approx((2, 2 - half, 2 + half), abs=1e-3)
    assert difference(share(0, 0), share(1, 2)) is None
