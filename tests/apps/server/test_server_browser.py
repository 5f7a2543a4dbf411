"""The page, in a real headless Chromium (Debian's, driven by Playwright; no browser is downloaded):
create a game from the front page, choose tickets, play turns by clicking (cards from the deck
and the row, a route and its payment), check that the page shows what the API says, watch as a
spectator, and read the game-over screen. Screenshots go to ``artifacts/``."""

from __future__ import annotations

import json
import random
import time
import urllib.request
from pathlib import Path

import pytest

from server_kit import (
    CHROMIUM, CHROMIUM_ARGS, get_json, need, post_json, server_process, tunnel_opening, wait_in_page,
)

playwright = pytest.importorskip("playwright.sync_api", reason="the test extra installs playwright")


@pytest.fixture
def browser_page(tmp_path):
    need("Chromium (Debian package chromium)", Path(CHROMIUM).exists())
    with server_process(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path, bot_delay=0.0) as server:
        with playwright.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            problems: list[str] = []
            page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
            page.on("console", lambda msg: problems.append(f"console: {msg.text}") if msg.type == "error" else None)
            page.set_default_timeout(30_000)
            page.browser_ = browser
            yield server, page, problems
            browser.close()


def _version(page) -> int:
    return int(page.evaluate("document.body.dataset.version || -1"))


def _wait_past(page, version: int) -> None:
    wait_in_page(page, "v => Number(document.body.dataset.version) > v", arg=version)


def _keep_tickets(page) -> None:
    """Click "Keep these tickets"; if the bot's own choice came in between (the page then says the
    game moved on, and shows the new state), click again, as a person would."""
    for _ in range(5):
        v = _version(page)
        page.click("#keep-tickets")
        _wait_past(page, v)
        if "moved on" not in page.inner_text("#message"):
            return
    raise AssertionError("the tickets could not be kept")


def _shown_hand(page) -> dict[str, int]:
    hand = {}
    for chip in page.locator("#hand .card").all():
        hand[chip.get_attribute("data-card")] = int(chip.locator(".n").inner_text().lstrip("×"))
    return hand


def test_create_and_play_a_game_by_clicking(browser_page, artifacts):
    server, page, problems = browser_page
    # --- the front page: a person and a bot on the USA map
    page.goto(server.base + "/")
    page.wait_for_selector("#variant option[value='usa']", state="attached")
    page.select_option("#variant", "usa")
    page.fill("#seats .seat:nth-child(1) .seat-name", "Ada")
    page.select_option("#seats .seat:nth-child(1) .seat-kind", "")
    page.select_option("#seats .seat:nth-child(2) .seat-kind", "random")
    page.fill("#seed", "5")
    page.click("#create")
    href = page.get_attribute("a.seat-link", "href")
    game_id, token = href.split("/play/")[1].split("#")
    page.click("a.seat-link")

    # --- the starting tickets: at least 2 of 3 must be kept; the button says when a choice is legal
    page.wait_for_selector("#keep-tickets")
    boxes = page.locator(".offer input")
    assert boxes.count() == 3
    boxes.nth(0).uncheck()
    assert page.is_enabled("#keep-tickets")
    boxes.nth(1).uncheck()
    assert not page.is_enabled("#keep-tickets")  # keeping 1 is not allowed
    boxes.nth(1).check()
    kept = [boxes.nth(i).get_attribute("value") for i in (1, 2)]
    _keep_tickets(page)
    wait_in_page(page, "() => document.querySelector('#status').textContent === 'Your turn'")
    assert [li.get_attribute("data-ticket") for li in page.locator("#tickets li").all()] == kept

    # --- turns by clicking: draw cards until a route can be paid, then claim it
    claimed = None
    for _turn in range(12):
        wait_in_page(page, "() => document.querySelector('#status').textContent === 'Your turn'")
        v = _version(page)
        claimable = page.locator("g.route.claimable")
        if claimable.count():
            route = claimable.first.get_attribute("data-route")
            page.locator(f"g.route[data-route='{route}'] rect.car").first.click()
            options = page.locator("#panel button.choice[data-kind='claim-route']")
            assert options.count() >= 1
            options.first.click()
            _wait_past(page, v)
            claimed = route
            break
        before = sum(_shown_hand(page).values())
        page.click("#deck.legal")  # a card from the deck...
        _wait_past(page, v)
        row = page.locator("#open-row .card.legal:not(.c-locomotive)")
        if row.count():  # ...and one from the row (a locomotive there would end the turn at once)
            v = _version(page)
            row.first.click()
            _wait_past(page, v)
        else:
            v = _version(page)
            page.click("#deck.legal")
            _wait_past(page, v)
        wait_in_page(page, "n => [...document.querySelectorAll('#hand .card .n')]"
                               ".reduce((s, e) => s + Number(e.textContent.slice(1)), 0) >= n", arg=before + 2)
    assert claimed is not None, "no route became claimable in 12 turns"
    page.wait_for_selector(f"g.route.claimed[data-route='{claimed}']")

    # --- what the page shows is what the API says for this seat
    page.wait_for_selector("#status.mine")
    snap = get_json(server.base, f"/api/games/{game_id}", token)
    wait_in_page(page, "v => Number(document.body.dataset.version) === v", arg=snap["version"])
    assert _shown_hand(page) == snap["view"]["you"]["hand"]
    assert snap["view"]["routes"][claimed] == 0
    assert [c.get_attribute("data-slot") is not None for c in page.locator("#open-row .card").all()] == [
        name is not None for name in snap["view"]["open_row"]]
    assert [c.inner_text() for c in page.locator("#open-row .card").all()] == [
        ("loco" if n == "locomotive" else n) for n in snap["view"]["open_row"]]
    ada = page.locator("#players tr[data-seat='0']")
    assert ada.locator("td.points").inner_text() == str(snap["view"]["players"][0]["route_points"])
    assert int(snap["view"]["players"][0]["route_points"]) > 0
    assert page.inner_text("#status") == "Your turn"
    page.screenshot(path=str(artifacts / "browser-game.png"))

    # --- a spectator sees the board and the claimed route, and no hand
    watcher = page.browser_.new_page()
    watcher.goto(f"{server.base}/watch/{game_id}")
    watcher.wait_for_selector(f"g.route.claimed[data-route='{claimed}']")
    assert not watcher.is_visible("#mine") and watcher.locator("#hand .card").count() == 0
    assert "watching" in watcher.inner_text("#panel")
    watcher.close()
    assert not problems, problems


def test_the_game_over_screen_shows_the_score_breakdown(browser_page, artifacts):
    server, page, problems = browser_page
    game = post_json(server.base, "/api/games", {"variant": "usa", "seed": 3,
                                             "seats": [{"name": "Ada"}, {"name": "Robo", "bot": "random"}]})
    gid, token = game["game"], game["seats"][0]["token"]
    rng = random.Random(3)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # Ada plays at random through the API; the bot answers
        snap = get_json(server.base, f"/api/games/{gid}", token)
        if snap["view"]["phase"] == "over":
            break
        if not snap["legal"]:
            time.sleep(0.02)
            continue
        try:
            post_json(server.base, f"/api/games/{gid}/actions", {"version": snap["version"], "action": rng.choice(snap["legal"])},
                  token)
        except urllib.error.HTTPError as exc:  # the bot moved in between: read again
            assert exc.code == 409
    result = snap["view"]["result"]
    page.goto(f"{server.base}{game['seats'][0]['url']}")
    page.wait_for_selector("#gameover:not([hidden])")
    assert page.inner_text("#status") == "Game over"
    rows = page.locator("#scores tr[data-seat]")
    assert rows.count() == 2
    for score in result["scores"]:
        row = page.locator(f"#scores tr[data-seat='{score['seat']}']")
        assert row.locator("td.total").inner_text() == str(score["total"])
        assert row.locator("td").nth(1).inner_text() == str(score["routes"])
    winners = [result["scores"][s]["name"] for s in result["winners"]["seats"]]
    assert all(w in page.inner_text("#winners") for w in winners)
    assert page.get_attribute("#record-link", "href") == f"/api/games/{gid}/record"
    page.screenshot(path=str(artifacts / "browser-game-over.png"))
    page.click("#close-gameover")
    assert not page.is_visible("#gameover")
    assert not problems, problems


def test_a_station_is_built_by_clicking_a_city(browser_page):
    """Europe's stations: a city lists the legal build-station actions (from the seat's legal
    actions: the page has no station rules of its own), and the built station is drawn."""
    server, page, problems = browser_page
    game = post_json(server.base, "/api/games", {"variant": "europe", "seed": 2,
                                             "seats": [{"name": "Ada"}, {"name": "Robo", "bot": "random"}]})
    page.goto(f"{server.base}{game['seats'][0]['url']}")
    page.wait_for_selector("#keep-tickets")
    _keep_tickets(page)
    wait_in_page(page, "() => document.querySelector('#status').textContent === 'Your turn'")
    page.locator("g.city[data-city='Paris'] circle").click()
    builds = page.locator("#panel button.choice[data-kind='build-station']")
    assert builds.count() >= 1 and "Paris" in builds.first.inner_text()
    v = _version(page)
    builds.first.click()
    _wait_past(page, v)
    page.wait_for_selector("rect.station")
    snap = get_json(server.base, f"/api/games/{game['game']}", game["seats"][0]["token"])
    assert snap["view"]["rules"]["stations"][0]["cities"] == ["Paris"]
    assert not problems, problems


def test_a_tunnel_asks_for_extra_cards_and_can_be_given_up(browser_page):
    """Europe's tunnels: the turned cards and the extra are shown, paying or giving up are offered
    as buttons from the legal actions, and giving up leaves the route free and the hand whole."""
    seed, claim = tunnel_opening()
    server, page, problems = browser_page
    game = post_json(server.base, "/api/games", {"variant": "europe", "seed": seed,
                                             "seats": [{"name": "Ada"}, {"name": "Robo", "bot": "random"}]})
    token = game["seats"][0]["token"]
    page.goto(f"{server.base}{game['seats'][0]['url']}")
    page.wait_for_selector("#keep-tickets")
    _keep_tickets(page)  # all of them, as the seed search did
    wait_in_page(page, "() => document.querySelector('#status').textContent === 'Your turn'")
    hand = _shown_hand(page)
    page.locator(f"g.route[data-route='{claim['route']}'] rect.car").first.click()
    v = _version(page)
    page.click(f"#panel button.choice[data-action='{json.dumps(claim, separators=(',', ':'))}']")
    _wait_past(page, v)
    page.wait_for_selector("#panel .decision")
    assert page.inner_text("#panel .decision").startswith(f"Tunnel {claim['route']}: the cards turned were")
    assert page.locator("#panel button.choice[data-kind='decline-tunnel']").count() == 1
    snap = get_json(server.base, f"/api/games/{game['game']}", token)
    assert page.locator("#panel button.choice[data-kind='pay-tunnel']").count() == sum(
        a["kind"] == "pay-tunnel" for a in snap["legal"])
    v = _version(page)
    page.click("#panel button.choice[data-kind='decline-tunnel']")
    _wait_past(page, v)
    assert get_json(server.base, f"/api/games/{game['game']}")["view"]["routes"].get(claim["route"]) is None
    wait_in_page(page, "() => document.querySelector('#status').textContent === 'Your turn'")
    assert _shown_hand(page) == {**hand}  # the base came back; the bot's turn took nothing of Ada's
    assert not problems, problems
