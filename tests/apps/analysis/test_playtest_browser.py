"""A playtest report in a real headless Chromium (Debian's, driven by Playwright, launched as the
server's browser test does): it opens from the file alone, asks for nothing over the network,
shows the numbers of its JSON, and its screenshots are taken.

By default the reports are small runs built here and the screenshots go to the test artifacts.
The screenshots on docs/playtest.md come from its run: build the reports with ``ttr playtest`` into
``DIR/usa`` (usa, 2-5 players) and ``DIR/wor`` (wor against wor-legacy), then run this test with
``TTR_PLAYTEST_REPORTS=DIR``: it checks those reports and writes ``docs/screenshots/playtest-*.png``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from usa_kit import ROOT
from click.testing import CliRunner

from ttr_cli.main import main

from server_kit import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, need  # the server tests' browser settings

playwright = pytest.importorskip("playwright.sync_api", reason="the test extra installs playwright")

DOCS = ROOT / "docs" / "screenshots"


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> tuple[Path, Path, Path]:
    """The usa and the wor-against-wor-legacy reports, and where their screenshots go."""
    given = os.environ.get("TTR_PLAYTEST_REPORTS")
    if given:
        DOCS.mkdir(parents=True, exist_ok=True)
        return Path(given) / "usa", Path(given) / "wor", DOCS
    base = tmp_path_factory.mktemp("playtest-browser")
    for name, args in (("usa", ["--variant", "usa", "--players", "2-5"]),
                       ("wor", ["--variant", "wor", "--against", "wor-legacy", "--players", "4"])):
        result = CliRunner().invoke(main, ["playtest", *args, "--games", "2", "--workers", "1", "--out", str(base / name)])
        assert result.exit_code == 0, result.output
    ARTIFACTS.mkdir(exist_ok=True)
    return base / "usa", base / "wor", ARTIFACTS


@pytest.fixture
def page():
    need("Chromium (Debian package chromium)", Path(CHROMIUM).exists())
    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        problems: list[str] = []
        requests: list[str] = []
        page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
        page.on("console", lambda msg: problems.append(f"console: {msg.text}") if msg.type == "error" else None)
        page.on("request", lambda req: requests.append(req.url))
        page.set_default_timeout(30_000)
        yield page, problems, requests
        browser.close()


def _open(page, folder: Path) -> dict:
    page.goto((folder / "playtest.html").as_uri())
    page.wait_for_selector("#overview")
    return json.loads((folder / "playtest.json").read_text())


def _scroll_to(locator) -> None:
    locator.evaluate("e => e.scrollIntoView({block: 'start'})")


def _shown(page, path: list[str]) -> str:
    return page.locator(f"[data-figure='{json.dumps(path)}']").first.inner_text()


def test_the_usa_report_opens_offline_and_shows_its_json(reports, page):
    usa, _, shots = reports
    page, problems, requests = page
    rep = _open(page, usa)
    assert [r for r in requests if not r.startswith("file:")] == []  # nothing fetched from anywhere
    assert problems == []
    assert page.locator("nav a").all_inner_texts()[:4] == ["2 players", "3 players", "4 players", "5 players"]
    for p in ("2", "3", "4", "5"):
        first = rep["counts"][p]["variant"]["balance"]["win_rate_by_seat"]["1"]
        shown = _shown(page, ["counts", p, "variant", "balance", "win_rate_by_seat", "1"])
        assert shown.startswith(f"{first['mean']:.1%} [{first['low']:.1%}, {first['high']:.1%}]")
        board = page.locator(f"#p{p} svg.board")
        assert board.count() == 1 and board.locator("g.route").count() == 100  # the usa map's routes, all drawn
        top = rep["counts"][p]["variant"]["board"]["contested"][0]
        assert top in board.locator(f"g.route[data-route='{top}'] title").text_content()
    box = page.locator("#p4 svg.board").bounding_box()
    assert box["width"] > 400 and box["height"] > 200  # drawn at a readable size
    page.screenshot(path=str(shots / "playtest-usa-overview.png"))
    _scroll_to(page.locator("#p4 h3").first)
    page.screenshot(path=str(shots / "playtest-usa-4p-balance.png"))
    page.locator("#p4 .boards").scroll_into_view_if_needed()
    page.locator("#p4 .boards").screenshot(path=str(shots / "playtest-usa-4p-board.png"))


def test_the_wor_against_wor_legacy_report_shows_both_and_the_rescoring(reports, page):
    _, wor, shots = reports
    page, problems, requests = page
    rep = _open(page, wor)
    assert [r for r in requests if not r.startswith("file:")] == [] and problems == []
    p = str(rep["players"][-1])
    entry = rep["counts"][p]
    changes = entry["rescored"]["winner_changes"]
    shown = _shown(page, ["counts", p, "rescored", "winner_changes"])
    assert shown.startswith(f"{changes['mean']:.1%}")
    heads = page.locator(f"#p{p} table").first.locator("th").all_inner_texts()
    assert heads[1:] == ["wor@2", "wor-legacy@1", "wor-legacy@1 − wor@2 [95% CI]"]
    page.screenshot(path=str(shots / "playtest-wor-overview.png"))
    _scroll_to(page.locator(f"#p{p} h3", has_text="rescored"))
    page.screenshot(path=str(shots / "playtest-wor-rescored.png"))


def test_the_reports_read_on_a_phone_without_sideways_scrolling(reports, page):
    """At 390 px (a phone): the page is no wider than the screen, whatever table or chart it holds,
    and the headline comes first; every chart labels both axes."""
    usa, wor, shots = reports
    page, problems, _ = page
    page.set_viewport_size({"width": 390, "height": 844})
    for name, folder in (("usa", usa), ("wor", wor)):
        _open(page, folder)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, name
        wide = page.evaluate("[...document.querySelectorAll('table, svg, figure, p, ul')]"
                             ".filter(e => e.getBoundingClientRect().right > 390.5).length")
        assert wide == 0, name
        assert page.locator("#headline").bounding_box()["y"] < page.locator("#overview").bounding_box()["y"]
        charts = page.locator("svg.chart")
        assert charts.count() > 0
        for i in range(charts.count()):
            assert charts.nth(i).locator("text.axis-label").count() == 2
        page.screenshot(path=str(shots / f"playtest-{name}-390px.png"))
        _scroll_to(page.locator("table").nth(2))
        page.screenshot(path=str(shots / f"playtest-{name}-390px-table.png"))
    _scroll_to(page.locator("#changes"))
    page.screenshot(path=str(shots / "playtest-wor-390px-changes.png"))
    assert problems == []


def test_the_difference_map_says_when_there_is_no_difference(reports, page):
    _, wor, shots = reports
    page, _, _ = page
    rep = _open(page, wor)
    p = str(rep["players"][-1])
    d = rep["counts"][p]["differences"]["board"]
    changed = [v["claimed"]["mean"] for v in d.get("routes", {}).values() if v["claimed"]["mean"]]
    boards = page.locator(f"#p{p} .boards figure")
    caption = boards.last.locator("figcaption").inner_text()
    if changed:
        assert "Scale:" in caption and "no difference" not in caption
    else:  # the same games under both rule sets: nothing to colour, and the map says so
        assert "no difference" in caption
        assert "no difference" in boards.last.locator("svg .legend").text_content()
    _scroll_to(boards.last)
    page.screenshot(path=str(shots / "playtest-wor-difference-map.png"))
