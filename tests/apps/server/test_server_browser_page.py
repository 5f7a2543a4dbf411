"""The game page as people follow a game, in a real headless Chromium (Debian's, driven by
Playwright, as in test_server_browser.py): the move log after bot moves and the last move
highlighted on the board, a spectator's log, the board of every shipped map readable (names
that do not overlap, none cut at an edge; zoom and pan by buttons, wheel, keyboard and drag),
the game-over reveal (tickets, trails, borrows, the breakdown), and a refused claim's reason.

Screenshots of each shipped map's board at the start and at the end are written to
docs/screenshots/ (shown on docs/game-page.md)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from page_kit import DESKTOP, FINGER, HIT_AREAS
from server_kit import CHROMIUM, CHROMIUM_ARGS, REPO, get_json, hurried_choice, need, post_json, server_process, wait_in_page
from ttr_core import variant

playwright = pytest.importorskip("playwright.sync_api", reason="the test extra installs playwright")

SCREENSHOTS = REPO / "docs" / "screenshots"


def _a_variant_per_map() -> dict[str, str]:
    """Every map of the installed variants (the wor variants play the usa and europe maps), with
    a variant that plays it: the one named as the map where there is one."""
    out: dict[str, str] = {}
    for vid in sorted(variant.available()):
        board = variant.load(vid).board.id
        if board not in out or vid == board:
            out[board] = vid
    return out


MAPS = _a_variant_per_map()

LABEL_BOXES = """() => [...document.querySelectorAll('#board text.label')].map(t => {
  const b = t.getBBox(); return {name: t.dataset.city, x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height}; })"""
VIEWBOX = "() => document.querySelector('#board').getAttribute('viewBox').split(' ').map(Number)"


def _create(base, variant_id, seed, bot="ticket"):
    return post_json(base, "/api/games", {"variant": variant_id, "seed": seed,
                                      "seats": [{"name": "Ada"}, {"name": "Robo", "bot": bot}]})


def _hurry(snap):
    """Ada in a hurry: claims whenever she can, else draws; keeps the most tickets."""
    return hurried_choice(snap["legal"])


def _play_ada(base, game, until=lambda snap: snap["view"]["phase"] == "over", pick=_hurry, limit=3000):
    """Ada's seat played through the API (the bot answers in the server) until ``until(snap)``."""
    gid, token = game["game"], game["seats"][0]["token"]
    for _ in range(limit):
        snap = get_json(base, f"/api/games/{gid}", token)
        if until(snap):
            return snap
        if not snap["legal"]:
            continue  # the bot's turn: read again
        try:
            post_json(base, f"/api/games/{gid}/actions", {"version": snap["version"], "action": pick(snap)}, token)
        except urllib.error.HTTPError as exc:  # the bot moved in between
            assert exc.code == 409
    raise AssertionError("the game did not get there")


@pytest.fixture
def browser(tmp_path):
    need("Chromium (Debian package chromium)", Path(CHROMIUM).exists())
    with server_process(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path, bot_delay=0.0) as server:
        with playwright.sync_playwright() as pw:
            chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            problems: list[str] = []

            def new_page(url, viewport=None):
                page = chromium.new_page(viewport=viewport or {"width": 1400, "height": 900})
                page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
                page.on("console", lambda msg: problems.append(f"console: {msg.text}") if msg.type == "error" else None)
                page.set_default_timeout(30_000)
                page.goto(server.base + url)
                return page

            yield server, new_page, problems
            chromium.close()


def _settled(page, base, gid, token=None):
    """Wait until the page shows the game's current version and its whole move log."""
    snap = get_json(base, f"/api/games/{gid}", token)
    last = get_json(base, f"/api/games/{gid}/moves", token)["moves"][-1]
    wait_in_page(page, "([v, f]) => Number(document.body.dataset.version) === v && document.body.dataset.lastMove === String(f)",
           [snap["version"], last["first"]])
    return snap


def _shown_log(page) -> list[str]:
    return [li.inner_text() for li in page.locator("#moves li:not(.final-round)").all()]


def test_the_move_log_follows_the_bot_and_the_last_move_is_highlighted(browser, artifacts):
    server, new_page, problems = browser
    game = _create(server.base, "usa", seed=21)
    gid, token = game["game"], game["seats"][0]["token"]
    page = new_page(game["seats"][0]["url"])
    watcher = new_page(f"/watch/{gid}")
    page.wait_for_selector("#keep-tickets")
    page.click("#keep-tickets")
    highlighted = None
    for _ in range(40):  # Ada draws from the deck; the bot answers, until it claims a route
        wait_in_page(page, "() => document.querySelector('#status').textContent === 'Your turn'")
        _settled(page, server.base, gid, token)
        log = get_json(server.base, f"/api/games/{gid}/moves")["moves"]
        last = log[-1]
        if last["seat"] == 1 and last["routes"]:
            highlighted = last
            break
        v = int(page.evaluate("document.body.dataset.version"))
        page.click("#deck.legal")
        wait_in_page(page, "v => Number(document.body.dataset.version) > v", v)
        page.wait_for_selector("#deck.legal")
        v = int(page.evaluate("document.body.dataset.version"))
        page.click("#deck.legal")
        wait_in_page(page, "v => Number(document.body.dataset.version) > v", v)
    assert highlighted is not None, "the bot claimed nothing in 40 turns"
    # newest first, in the server's words; the newest is marked
    shown = _shown_log(page)
    assert len(shown) == len(log)
    assert all(t["text"] in s for s, t in zip(shown, reversed(log)))
    assert f"Robo claimed {highlighted['routes'][0]} with " in shown[0]
    assert page.locator("#moves li").first.get_attribute("class") == "last"
    assert any("Ada drew 2 cards from the deck" in s for s in shown)
    # the bot's last claim is highlighted on the board, and nothing else is
    marked = sorted(g.get_attribute("data-route") for g in page.locator("g.route.last-move").all())
    assert marked == sorted(highlighted["routes"])
    assert page.locator("g.route.last-move").first.locator("line.halo").evaluate("e => getComputedStyle(e).stroke") != "rgba(0, 0, 0, 0)"
    # a spectator follows the same log, and sees the same highlight
    _settled(watcher, server.base, gid)
    assert _shown_log(watcher) == shown
    assert sorted(g.get_attribute("data-route") for g in watcher.locator("g.route.last-move").all()) == marked
    page.screenshot(path=str(artifacts / "page-move-log.png"))
    assert not problems, problems


@pytest.mark.parametrize("map_id", sorted(MAPS))
def test_every_map_is_readable_and_its_board_is_screenshot_at_the_start(browser, map_id):
    """At 1440×900 and the default zoom: no two city names overlap, none is cut at the board's
    edge, and every route's and city's hit area is a finger wide (where they overlap, a click asks
    which was meant)."""
    server, new_page, problems = browser
    variant_id = MAPS[map_id]
    game = _create(server.base, variant_id, seed=5)
    page = new_page(game["seats"][0]["url"], DESKTOP["viewport"])
    page.wait_for_selector("#keep-tickets")
    page.click("#keep-tickets")
    wait_in_page(page, "() => document.querySelector('#status').textContent === 'Your turn'")
    boxes = page.evaluate(LABEL_BOXES)
    assert sorted(b["name"] for b in boxes) == sorted(c.name for c in variant.load(variant_id).board.cities)
    clashes = [(a["name"], b["name"]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
               if min(a["x1"], b["x1"]) > max(a["x0"], b["x0"]) and min(a["y1"], b["y1"]) > max(a["y0"], b["y0"])]
    assert clashes == []
    x, y, w, h = page.evaluate(VIEWBOX)
    cut = [b["name"] for b in boxes if b["x0"] < x or b["y0"] < y or b["x1"] > x + w or b["y1"] > y + h]
    assert cut == []
    assert page.get_attribute("#board", "data-zoom") == "1.000"
    hits = page.evaluate(HIT_AREAS)
    assert len(hits) == len(variant.load(variant_id).board.routes) + len(variant.load(variant_id).board.cities)
    assert [h for h in hits if h["size"] < FINGER - 0.01] == []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".board-wrap").screenshot(path=str(SCREENSHOTS / f"board-{map_id}-start.png"))
    assert not problems, problems


def test_zoom_and_pan_the_ussr_board(browser):
    server, new_page, problems = browser
    game = _create(server.base, "ussr", seed=5)
    page = new_page(f"/watch/{game['game']}")
    page.wait_for_selector("#board text.label[data-city='Moscow']")
    moscow = page.locator("#board text.label[data-city='Moscow']")
    whole = page.evaluate(VIEWBOX)
    width_before = moscow.bounding_box()["width"]
    # the buttons
    page.click("#zoom-in")
    page.click("#zoom-in")
    zoomed = page.evaluate(VIEWBOX)
    assert zoomed[2] == pytest.approx(whole[2] / 1.25 ** 2, rel=0.01)
    page.click("#zoom-reset")
    assert page.evaluate(VIEWBOX) == pytest.approx(whole, rel=0.001)
    # the wheel, over Moscow: Moscow stays under the pointer, and its name grows on the screen
    dot = page.locator("g.city[data-city='Moscow'] circle").bounding_box()
    cx, cy = dot["x"] + dot["width"] / 2, dot["y"] + dot["height"] / 2
    page.mouse.move(cx, cy)
    for _ in range(4):
        page.mouse.wheel(0, -100)
    wait_in_page(page, "() => Number(document.querySelector('#board').dataset.zoom) > 2")
    after = page.locator("g.city[data-city='Moscow'] circle").bounding_box()
    assert after["x"] + after["width"] / 2 == pytest.approx(cx, abs=3)
    assert after["y"] + after["height"] / 2 == pytest.approx(cy, abs=3)
    assert moscow.bounding_box()["width"] > 2 * width_before
    # zoomed in, the names around Moscow still do not overlap
    near = [b for b in page.evaluate(LABEL_BOXES)]
    clashes = [(a["name"], b["name"]) for i, a in enumerate(near) for b in near[i + 1:]
               if min(a["x1"], b["x1"]) > max(a["x0"], b["x0"]) and min(a["y1"], b["y1"]) > max(a["y0"], b["y0"])]
    assert clashes == []
    page.locator(".board-wrap").screenshot(path=str(SCREENSHOTS / "board-ussr-zoomed.png"))
    # dragging moves the view
    before = page.evaluate(VIEWBOX)
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + 120, cy + 40, steps=6)
    page.mouse.up()
    moved = page.evaluate(VIEWBOX)
    assert moved[0] < before[0] and moved[2] == pytest.approx(before[2])
    # the keyboard, with the board focused: arrows pan, 0 shows the whole board again, + zooms
    page.focus("#board")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(VIEWBOX)[0] > moved[0]
    page.keyboard.press("0")
    assert page.evaluate(VIEWBOX) == pytest.approx(whole, rel=0.001)
    page.keyboard.press("+")
    assert page.evaluate(VIEWBOX)[2] == pytest.approx(whole[2] / 1.25, rel=0.01)
    assert not problems, problems


def _station_then_hurry(snap):
    """Ada builds a station where a route of the bot would join two parts of one of her open
    tickets (so that it borrows that route at the end, R-STA-3), else hurries."""
    routes = {r.id: r for r in variant.load("europe").board.routes}
    tickets = {t.id: t for t in variant.load("europe").board.tickets}
    parent: dict[str, str] = {}

    def part(city):
        while parent.get(city, city) != city:
            city = parent[city]
        return city

    for rid, owner in snap["view"]["routes"].items():
        if owner == 0:
            parent[part(routes[rid].a)] = part(routes[rid].b)
    for build in (a for a in snap["legal"] if a["kind"] == "build-station"):
        city = build["city"]
        for rid, owner in snap["view"]["routes"].items():
            r = routes[rid]
            if owner != 1 or city not in (r.a, r.b):
                continue
            other = r.b if r.a == city else r.a
            for t in map(tickets.get, snap["view"]["you"]["tickets"]):
                if part(t.a) != part(t.b) and {part(city), part(other)} == {part(t.a), part(t.b)}:
                    return build
    return _hurry(snap)


@pytest.mark.parametrize("variant_id", sorted(MAPS.values()))
def test_game_over_reveals_tickets_trails_and_borrows(browser, variant_id):
    server, new_page, problems = browser
    game = _create(server.base, variant_id, seed=5 if variant_id == "europe" else 7)
    gid = game["game"]
    final = _play_ada(server.base, game, pick=_station_then_hurry if variant_id == "europe" else _hurry)
    result = final["view"]["result"]
    trails = get_json(server.base, f"/api/games/{gid}/trails")["trails"]
    page = new_page(f"/watch/{gid}")  # everything is laid open at the end, to spectators too
    page.wait_for_selector("#gameover:not([hidden])")
    page.wait_for_selector("#reveal section.reveal")
    tickets = {t.id: t for t in variant.load(variant_id).board.tickets}
    for score in result["scores"]:
        section = page.locator(f"#reveal section.reveal[data-seat='{score['seat']}']")
        done = [li.get_attribute("data-ticket") for li in section.locator("li.done").all()]
        failed = [li.get_attribute("data-ticket") for li in section.locator("li.failed").all()]
        assert done == score["tickets_completed"] and failed == score["tickets_failed"]
        for t in score["tickets_completed"]:
            assert f"{tickets[t].a} – {tickets[t].b}" in section.inner_text()
        row = page.locator(f"#scores tr[data-seat='{score['seat']}']")
        assert row.locator("td.total").inner_text() == str(score["total"])
        assert row.locator("td.fact[data-fact='longest-path']").inner_text() == str(score["facts"]["longest-path"])
        borrowed = [b for b in score.get("borrows", []) if b["route"]]
        for b in borrowed:
            assert f"{b['label']} borrows {b['route']}" in section.inner_text()
    if variant_id == "europe":  # Ada's stations stand where the bot has routes
        assert any(b["route"] for s in result["scores"] for b in s.get("borrows", []))
    page.click("#close-gameover")
    for trail in trails:
        if trail["routes"]:
            line = page.locator(f"polyline.trail[data-seat='{trail['seat']}']")
            assert line.count() == 1
            assert len(line.get_attribute("points").split()) == len(trail["routes"]) + 1
    for score in result["scores"]:
        for b in score.get("borrows", []):
            if b["route"]:
                assert page.locator(f"line.route-mark[data-highlight='stations'][data-seat='{score['seat']}'][data-route='{b['route']}']").count() == 1
    # a claimed route shows its owner by stripes and a numbered marker, not only by a colour
    owned = next(iter(final["view"]["routes"].items()))
    route = page.locator(f"g.route.claimed[data-route='{owned[0]}']")
    assert route.locator("rect.car").first.get_attribute("fill") == f"url(#seat-{owned[1]})"
    assert route.locator(".owner-mark text").text_content() == str(owned[1] + 1)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".board-wrap").screenshot(path=str(SCREENSHOTS / f"board-{variant.load(variant_id).board.id}-over.png"))
    page.click("#show-scores")
    page.locator("#gameover .dialog").screenshot(path=str(SCREENSHOTS / f"game-over-{variant.load(variant_id).board.id}.png"))
    assert not problems, problems


def _towards_first_ticket(snap):
    """Ada works on her first ticket only: she claims the routes of a shortest free way between
    its cities, and otherwise draws."""
    board = variant.load("usa").board
    ticket = next(t for t in board.tickets if t.id == snap["view"]["you"]["tickets"][0]) if snap["view"].get("you", {}).get("tickets") else None
    if ticket is None or snap["view"]["phase"] == "setup":
        return _hurry(snap)
    free = [r for r in board.routes if snap["view"]["routes"].get(r.id, 0) == 0]
    way, todo = {ticket.a: []}, [ticket.a]
    while todo:  # breadth first, over routes that are free or Ada's
        city = todo.pop(0)
        for r in free:
            if city in (r.a, r.b):
                other = r.b if r.a == city else r.a
                if other not in way:
                    way[other] = way[city] + [r.id]
                    todo.append(other)
    wanted = set(way.get(ticket.b, ()))
    claims = [a for a in snap["legal"] if a["kind"] == "claim-route" and a["route"] in wanted]
    if claims:
        return claims[0]
    draws = [a for a in snap["legal"] if a["kind"] in ("draw-card", "keep-tickets", "pay-tunnel")]
    return _hurry({**snap, "legal": draws or snap["legal"]})


def test_my_tickets_progress_and_a_refused_claim_says_why(browser):
    server, new_page, problems = browser
    game = _create(server.base, "usa", seed=3)
    gid, token = game["game"], game["seats"][0]["token"]
    # Ada plays until one of her tickets is connected
    board = variant.load("usa").board
    tickets = {t.id: t for t in board.tickets}

    def connected(snap):
        you = snap["view"].get("you")
        if snap["view"]["phase"] == "over" or not you or not you["tickets"] or not snap["legal"]:
            return False
        mine = [r for r in board.routes if snap["view"]["routes"].get(r.id) == 0]
        reach = {}
        for r in mine:
            reach.setdefault(r.a, set()).add(r.b)
            reach.setdefault(r.b, set()).add(r.a)

        def joined(a, b):
            seen, todo = {a}, [a]
            while todo:
                for n in reach.get(todo.pop(), ()):
                    if n not in seen:
                        seen.add(n)
                        todo.append(n)
            return b in seen
        return any(joined(tickets[t].a, tickets[t].b) for t in you["tickets"]) and \
            not all(joined(tickets[t].a, tickets[t].b) for t in you["tickets"])

    snap = _play_ada(server.base, game, until=connected, pick=_towards_first_ticket)
    page = new_page(game["seats"][0]["url"])
    _settled(page, server.base, gid, token)
    done = page.locator("#tickets li.done")
    open_ = page.locator("#tickets li.open")
    assert done.count() >= 1 and open_.count() >= 1
    assert "connected" in done.first.inner_text() and "open" in open_.first.inner_text()
    assert page.inner_text("#tickets-progress") == f"{done.count()} of {done.count() + open_.count()} connected"
    # the cities of the open tickets are highlighted, those of the connected ones are not
    open_cities = {c for li in open_.all() for c in (tickets[li.get_attribute("data-ticket")].a, tickets[li.get_attribute("data-ticket")].b)}
    marked = {g.get_attribute("data-city") for g in page.locator("g.city.ticket").all()}
    assert marked == open_cities
    # a route Ada's hand cannot pay: the panel says which cards are missing, and why
    hand = snap["view"]["you"]["hand"]
    route = next(r for r in board.routes if r.color != "gray" and r.id not in snap["view"]["routes"]
                 and r.length > hand.get(r.color, 0) + hand.get("locomotive", 0)
                 and not any(a.get("route") == r.id for a in snap["legal"]))
    short = route.length - hand.get(route.color, 0) - hand.get("locomotive", 0)
    page.locator(f"line.hit[data-route='{route.id}']").dispatch_event("click")
    refusal = page.locator(f"#panel p.refusal[data-route='{route.id}']")
    refusal.wait_for()
    assert refusal.inner_text().startswith(f"Cannot claim {route.id}: Missing {short} {route.color}")
    # in plain words: what the route takes, and no rule id
    assert f"It takes {route.length} {route.color} cards" in refusal.inner_text()
    assert "R-" not in refusal.inner_text()
    # an action the server refuses (422): its reason is shown next to the actions
    payable = next(a for a in snap["legal"] if a["kind"] == "claim-route")
    bad = {"kind": "claim-route", "route": route.id, "color": route.color, "locomotives": 0}

    def swap(r):  # the page sends a legal claim; on its way it becomes one the hand cannot pay
        body = json.loads(r.request.post_data)
        body["action"] = bad
        r.continue_(post_data=json.dumps(body))

    page.route("**/actions", swap)
    page.locator(f"line.hit[data-route='{payable['route']}']").dispatch_event("click")
    page.click("#panel button.choice[data-kind='claim-route']")
    page.wait_for_selector("#panel p.refusal.refused")
    assert page.inner_text("#panel p.refusal.refused") == (
        f"Refused: the payment needs {route.length} {route.color}, the hand has {hand.get(route.color, 0)}")
    assert page.locator("#panel button.choice[data-kind='claim-route']").count() >= 1  # next to the actions
    assert get_json(server.base, f"/api/games/{gid}")["version"] == snap["version"]  # nothing was applied
    # the browser reports the refused request itself; nothing else went wrong
    assert [p for p in problems if "status of 422" not in p] == []
