"""The lobby in a real headless Chromium (set up as ``test_server_browser.py``): a game opened with
an open seat and listed, found in the lobby and joined by its invitation link from a second
browser (a separate context: its own storage, as another person's browser), rejoined after a
reload and without the link, bad and stale links answered by a page that says so, and the API
documentation rendered with every request to the outside world blocked. Screenshots go to
``artifacts/``."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from server_kit import CHROMIUM, CHROMIUM_ARGS, get_json, need, post_json, server_process

playwright = pytest.importorskip("playwright.sync_api", reason="the test extra installs playwright")

LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


class Browsers:
    """One Chromium; each ``person()`` is a separate context (its own localStorage and cookies),
    as another person's browser would be. Page errors and console errors are collected."""

    def __init__(self, browser, base: str):
        self.browser = browser
        self.base = base
        self.problems: list[str] = []

    def person(self):
        context = self.browser.new_context(viewport={"width": 1200, "height": 850})
        context.set_default_timeout(30_000)
        page = context.new_page()
        page.on("pageerror", lambda exc: self.problems.append(f"page error: {exc}"))
        page.on("console", lambda msg: self.problems.append(f"console: {msg.text}") if msg.type == "error" else None)
        page.on("dialog", lambda dialog: dialog.accept())  # "make a new link?": yes
        return page

    def unexpected(self) -> list[str]:
        """The problems, less the refusals the pages asked for on purpose to tell a bad link
        (Chromium logs a 4xx answer to a fetch as a failed load)."""
        return [p for p in self.problems if not re.search(r"Failed to load resource: .* status of 40[1349]", p)]


@pytest.fixture
def browsers(tmp_path):
    need("Chromium (Debian package chromium)", Path(CHROMIUM).exists())
    with server_process(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path, bot_delay=0.0) as server:
        with playwright.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield server, Browsers(browser, server.base)
            browser.close()


def _open_with_an_open_seat(page, base) -> tuple[str, str]:
    """On the start page: Ada (a person) and an open seat, listed. Returns the game id and the
    invitation link."""
    page.goto(base + "/")
    page.wait_for_selector("#variant option[value='usa']", state="attached")
    page.select_option("#variant", "usa")
    page.fill("#seats .seat:nth-child(1) .seat-name", "Ada")
    page.select_option("#seats .seat:nth-child(1) .seat-kind", "")
    page.select_option("#seats .seat:nth-child(2) .seat-kind", "open")
    assert page.is_disabled("#seats .seat:nth-child(2) .seat-name")  # the joiner names the open seat
    page.check("#listed")
    page.click("#create")
    invite = page.get_attribute("a.invite-link", "href")
    game_id = invite.split("/join/")[1].split("#")[0]
    return game_id, invite


def test_a_second_browser_finds_the_game_in_the_lobby_joins_by_link_and_rejoins(browsers, artifacts):
    server, people = browsers
    ada = people.person()
    game_id, invite = _open_with_an_open_seat(ada, server.base)
    seat_link = ada.get_attribute("a.seat-link", "href")
    assert seat_link.startswith(f"/play/{game_id}#")

    # --- Bob's browser: the lobby lists the game with its free seat
    bob = people.person()
    bob.goto(server.base + "/")
    row = bob.locator(f"#open-games tr[data-game='{game_id}']")
    row.wait_for()
    assert row.locator("td.free").inner_text() == "1 of 2"
    assert "Ada" in row.inner_text() and "Ticket to Ride" in row.inner_text()
    bob.screenshot(path=str(artifacts / "browser-lobby.png"))

    # --- Bob opens the invitation link, picks a name and lands on his seat: the game starts
    bob.goto(server.base + invite)
    bob.wait_for_selector("#take:not([hidden])")
    assert "1 of 2 seats free" in bob.inner_text("#game-title")
    bob.screenshot(path=str(artifacts / "browser-join.png"))
    bob.fill("#name", "Bob")
    bob.click("#join")
    bob.wait_for_url(f"**/play/{game_id}#*")
    bob.wait_for_selector("#keep-tickets")  # his own starting tickets: he is seated
    token = urlsplit(bob.url).fragment
    assert get_json(server.base, f"/api/games/{game_id}", token)["seat"] == 1
    assert get_json(server.base, f"/api/games/{game_id}")["seats"] == [{"name": "Ada", "bot": None}, {"name": "Bob", "bot": None}]
    assert bob.locator("#hand .card").count() > 0

    # --- Ada's browser never saw Bob's token; her own seat link works
    assert token not in ada.content()
    ada.click("a.seat-link")
    ada.wait_for_selector("#keep-tickets")

    # --- Bob reloads: still his seat; and without any link, from the start page's "your games"
    bob.reload()
    bob.wait_for_selector("#keep-tickets")
    bob.goto(server.base + "/")
    bob.wait_for_selector(f"#my-game-list li[data-game='{game_id}'] a.my-seat")
    assert bob.locator(f"#open-games tr[data-game='{game_id}']").count() == 0  # started: no longer open
    bob.click(f"#my-game-list li[data-game='{game_id}'] a.my-seat")
    bob.wait_for_selector("#keep-tickets")
    assert bob.evaluate("location.hash.slice(1)") == token
    # the spent invitation, opened again in Bob's browser, leads back to his seat
    bob.goto(server.base + invite)
    bob.wait_for_selector("#continue:not([hidden])")
    assert "has started" in bob.inner_text("#held-text")
    assert people.unexpected() == []


def test_players_wait_until_the_last_seat_is_taken(browsers):
    """The creator opens her own seat link and a first joiner takes an invitation before the
    last seat is taken, from the lobby's Join link: both wait, then all three are at the table."""
    server, people = browsers
    opened = post_json(server.base, "/api/lobby", {"variant": "usa", "listed": True, "seats": [{"name": "Ada"}, {}, {}]})
    gid = opened["game"]["game"]
    ada, bob, cy = people.person(), people.person(), people.person()
    ada.goto(server.base + opened["seats"][0]["url"])
    ada.wait_for_url(f"**/join/{gid}")
    ada.wait_for_selector("#held-text.waiting")
    assert "Waiting for 2 more players" in ada.inner_text("#held-text")

    bob.goto(server.base + opened["seats"][1]["invitation_url"])
    bob.fill("#name", "Bob")
    bob.click("#join")
    bob.wait_for_selector("#held-text.waiting")
    assert "Waiting for 1 more player" in bob.inner_text("#held-text")

    cy.goto(server.base + "/")
    cy.click(f"#open-games tr[data-game='{gid}'] a.join-link")
    cy.fill("#name", "Cy")
    cy.click("#join")
    for page, seat in ((ada, 0), (bob, 1), (cy, 2)):  # each goes to their own seat once the game starts
        page.wait_for_url(f"**/play/{gid}#*")
        page.wait_for_selector("#keep-tickets")
        assert get_json(server.base, f"/api/games/{gid}", urlsplit(page.url).fragment)["seat"] == seat
    assert people.unexpected() == []


def test_bad_and_stale_links_get_a_page_that_says_so(browsers, artifacts):
    server, people = browsers
    page = people.person()
    opened = post_json(server.base, "/api/lobby", {"variant": "usa", "seats": [{"name": "Ada"}, {}]})
    gid = opened["game"]["game"]
    ada = opened["seats"][0]["token"]

    def says(path, title):
        page.goto("about:blank")  # a link that differs only in its fragment must load anew, as a fresh tab does
        page.goto(server.base + path)
        page.wait_for_selector("#bad-link:not([hidden]) h2")
        assert page.inner_text("#bad-link h2") == title
        assert page.locator("#board").count() == 0 or not page.is_visible("#board")
        assert page.locator("#deck, #draw-tickets, #keep-tickets").count() == 0

    says("/play/no-such-game#whatever", "No such game")
    says("/watch/no-such-game", "No such game")
    says("/join/no-such-game#whatever", "No such game")
    says(f"/join/{gid}#not-an-invitation", "This invitation is not valid")
    says(f"/join/{gid}", "This invitation is not valid")  # an unlisted game, no invitation
    invite = opened["seats"][1]["invitation_url"]
    bob = post_json(server.base, f"/api/lobby/{gid}/join", {"name": "Bob", "invitation": invite.split("#")[1]})
    says(invite, "This invitation was used already")
    says(f"/play/{gid}#wrong-token", "This seat link is not valid")
    page.screenshot(path=str(artifacts / "browser-bad-link.png"))

    # the host replaces Bob's seat link: the old one now gets the page, the new one the seat
    new = post_json(server.base, f"/api/lobby/{gid}/seats/1/reissue", {}, opened["host_token"])
    says(bob["url"], "This seat link is not valid")
    page.goto("about:blank")
    page.goto(server.base + new["url"])
    page.wait_for_selector("#keep-tickets")
    assert get_json(server.base, f"/api/games/{gid}", ada)["seat"] == 0
    assert people.unexpected() == []


def test_the_host_replaces_a_lost_link_from_the_game_page(browsers):
    server, people = browsers
    ada = people.person()
    game_id, invite = _open_with_an_open_seat(ada, server.base)
    ada.click("#manage-link")
    ada.wait_for_selector("#seat-list li[data-seat='1'] button.reissue")
    ada.click("#seat-list li[data-seat='1'] button.reissue")
    fresh = ada.get_attribute("#seat-list li[data-seat='1'] a.new-link", "href")
    assert fresh != invite and f"/join/{game_id}#" in fresh
    bob = people.person()
    bob.goto(server.base + invite)  # the lost link no longer takes the seat
    bob.wait_for_selector("#bad-link:not([hidden])")
    assert bob.inner_text("#bad-link h2") == "This invitation is not valid"
    bob.goto("about:blank")  # the new link differs only in its fragment: load it anew, as a fresh tab does
    bob.goto(fresh)
    bob.fill("#name", "Bob")
    bob.click("#join")
    bob.wait_for_url(f"**/play/{game_id}#*")
    bob.wait_for_selector("#keep-tickets")
    assert people.unexpected() == []


def test_the_api_docs_render_with_the_outside_world_blocked(browsers, artifacts):
    server, people = browsers
    page = people.person()
    blocked: list[str] = []

    def only_loopback(route):
        host = urlsplit(route.request.url).hostname or ""
        if route.request.url.startswith(("data:", "blob:")) or host in LOOPBACK:
            return route.continue_()
        blocked.append(route.request.url)
        return route.abort()

    page.context.route("**/*", only_loopback)
    page.goto(server.base + "/api/docs")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "ttr-engine game server" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector(".swagger-ui .opblock-tag[data-tag='lobby']")
    assert page.locator(".swagger-ui .opblock").count() >= 10  # every operation, lobby's included
    page.wait_for_load_state("networkidle")
    page.screenshot(path=str(artifacts / "browser-api-docs.png"))
    assert blocked == [], f"/api/docs asked the outside world for {blocked}"
    assert people.unexpected() == []
