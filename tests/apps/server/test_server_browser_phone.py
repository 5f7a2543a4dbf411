"""The game page on a phone (390×844, touch), in a real headless Chromium (Debian's, driven by
Playwright): the board takes the width and the rest sits in tabs under it, nothing is cut at the
screen's edge or lies over something else, whole turns are played by taps at screen coordinates
(the browser's own hit-testing decides what a tap means: a tap on the whole board opens a region,
where every route and city is a finger wide), the board is pinched and panned with two fingers
and one, and the end-of-game dialog fits the screen."""

from __future__ import annotations

import json

import pytest

from page_kit import FINGER, HIT_AREAS, PHONE, box, centre, middle_car, my_turn, play, settled, site, version, wait_past
from server_kit import get_json, wait_in_page
from ttr_core import variant

# the visible controls and texts under ``root`` outside the board, with their boxes; those
# scrolled out of their panel's view are left out (they are not on the screen)
CONTROLS = """(root) => {
  const seen = (e, b) => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      if (!/(auto|scroll)/.test(getComputedStyle(p).overflowY)) continue;
      const r = p.getBoundingClientRect(); if (b.bottom <= r.top || b.top >= r.bottom) return false; }
    return true; };
  return [...document.querySelector(root).querySelectorAll(
      'button, input, select, a, label, h1, h2, #status, #moves li, #players td, #tickets li, .reveal li')]
    .filter(e => !e.closest('svg') && e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .filter(e => !(e.tagName === 'INPUT' && e.closest('label')))
    .map(e => [e, e.getBoundingClientRect()]).filter(([e, b]) => seen(e, b))
    .map(([e, b]) => ({what: e.tagName + ' ' + (e.id || e.dataset.tab || e.dataset.kind || e.textContent.trim().slice(0, 24)),
                       x0: b.left, y0: b.top, x1: b.right, y1: b.bottom})); }"""


@pytest.fixture(scope="module")
def phone_site(tmp_path_factory):
    with site(tmp_path_factory.mktemp("phone")) as s:
        yield s


def _clashes(boxes):
    """Pairs of boxes that overlap (one holding the other is no clash: a button in its row)."""
    out = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            w = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
            h = min(a["y1"], b["y1"]) - max(a["y0"], b["y0"])
            contains = (a["x0"] <= b["x0"] and a["x1"] >= b["x1"] and a["y0"] <= b["y0"] and a["y1"] >= b["y1"]) or \
                       (b["x0"] <= a["x0"] and b["x1"] >= a["x1"] and b["y0"] <= a["y0"] and b["y1"] >= a["y1"])
            if w > 1 and h > 1 and not contains:
                out.append((a["what"], b["what"]))
    return out


def _fits(page, root="body", width=390):
    """Nothing sticks out sideways, nothing lies over another; the page never scrolls sideways
    (measured once the last move's animations are over: a card coming in is briefly larger)."""
    wait_in_page(page, "() => document.getAnimations().every(a => a.playState !== 'running')")
    boxes = page.evaluate(CONTROLS, root)
    assert boxes
    cut = [b["what"] for b in boxes if b["x0"] < -0.5 or b["x1"] > width + 0.5]
    assert cut == []
    assert _clashes(boxes) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def _tap(page, x, y):
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(150)


def _tap_open(page, selector):
    """A finger on something drawn on the board: the first tap on the whole board opens its region
    (the zoom changes), the next one, where it now is, picks it (or offers a choice of what lies
    under the finger, from which the one meant is tapped)."""
    before = float(page.get_attribute("#board", "data-zoom"))
    _tap(page, *centre(box(page, selector)))
    zoomed = float(page.get_attribute("#board", "data-zoom"))
    assert zoomed > before  # the region opened, nothing was picked yet
    small = [h for h in page.evaluate(HIT_AREAS) if h["size"] < FINGER - 0.01]
    assert small == []  # every route and city on the screen is a finger wide there
    _tap(page, *centre(box(page, selector)))
    return zoomed


def test_the_board_takes_the_phone_width_and_the_rest_sits_in_tabs(phone_site):
    s = phone_site
    game = s.game("usa", seed=5)
    page = s.open(game["seats"][0]["url"], PHONE)
    page.wait_for_selector("#keep-tickets")
    board = box(page, "#board")
    assert board["width"] >= 0.9 * 390
    _fits(page)
    # the panel under the board, not over it
    assert box(page, "#panel")["y"] >= board["y"] + board["height"]
    page.locator("#keep-tickets").tap()
    my_turn(page)
    _fits(page)
    # the log one tap away; the play panel comes back with another
    assert not page.is_visible("#moves")
    page.locator(".tabs [data-tab='moves']").tap()
    page.wait_for_selector("#moves li")
    assert page.is_visible("#moves") and not page.is_visible("#open-row")
    assert "Ada kept" in page.inner_text("#moves")
    _fits(page)
    for tab, shown in (("tickets", "#tickets li"), ("players", "#players tr[data-seat='1']"), ("play", "#deck")):
        page.locator(f".tabs [data-tab='{tab}']").tap()
        assert page.is_visible(shown)
        assert page.locator(".tabs [aria-selected='true']").get_attribute("data-tab") == tab
        _fits(page)
    assert box(page, "#board")["width"] >= 0.9 * 390  # the board stayed as it was
    assert s.unexpected() == []


def test_whole_turns_by_taps_cards_face_up_and_blind_and_a_claim(phone_site):
    s = phone_site
    game = s.game("usa", seed=5)
    page = s.open(game["seats"][0]["url"], PHONE)
    page.wait_for_selector("#keep-tickets")
    # the starting tickets: a tap on an offer unticks it, another ticks it again
    offer = page.locator("#panel label.offer").first
    offer.tap()
    assert not offer.locator("input").is_checked()
    offer.tap()
    assert offer.locator("input").is_checked()
    v = version(page)
    page.locator("#keep-tickets").tap()
    wait_past(page, v)
    claimed = None
    for turn in range(15):
        my_turn(page)
        claimable = page.locator("g.route.claimable")
        if turn >= 2 and claimable.count():  # a turn of each kind of draw first
            route = claimable.first.get_attribute("data-route")
            _tap_open(page, middle_car(page, route))
            pick = page.locator(f"#panel button.pick[data-route='{route}']")
            if pick.count():
                pick.tap()
            payments = page.locator("#panel button.choice[data-kind='claim-route']")
            payments.first.wait_for()
            v = version(page)
            payments.first.tap()
            wait_past(page, v)
            claimed = route
            break
        row = page.locator("#open-row .card.legal:not(.c-locomotive)")
        v = version(page)
        if turn % 2 == 0 and row.count():  # a face-up card, then one from the deck
            row.first.tap()
        else:  # two from the deck
            page.locator("#deck.legal").tap()
        wait_past(page, v)
        v = version(page)
        page.locator("#deck.legal").tap()
        wait_past(page, v)
    assert claimed is not None, "no route became claimable in 15 turns"
    page.wait_for_selector(f"g.route.claimed[data-route='{claimed}']")
    assert get_json(s.base, f"/api/games/{game['game']}")["view"]["routes"][claimed] == 0
    log = get_json(s.base, f"/api/games/{game['game']}/moves")["moves"]
    ada = [m["text"] for m in log if m["seat"] == 0]
    assert any("took a face-up" in t for t in ada) and any("drew 2 cards from the deck" in t for t in ada)
    _fits(page)
    assert s.unexpected() == []


def test_a_station_and_a_tunnel_by_taps(phone_site):
    from server_kit import tunnel_opening

    s = phone_site
    seed, claim = tunnel_opening()
    game = s.game("europe", seed=seed, bots=("random",))
    page = s.open(game["seats"][0]["url"], PHONE)
    page.wait_for_selector("#keep-tickets")
    page.locator("#keep-tickets").tap()  # all of them, as the seed search did
    my_turn(page)
    # the tunnel: its payment, then the extra cards it asks for, given up
    _tap_open(page, middle_car(page, claim["route"]))
    pick = page.locator(f"#panel button.pick[data-route='{claim['route']}']")
    if pick.count():
        pick.tap()
    v = version(page)
    page.locator(f"#panel button.choice[data-action='{json.dumps(claim, separators=(',', ':'))}']").tap()
    wait_past(page, v)
    page.wait_for_selector("#panel .decision")
    assert page.inner_text("#panel .decision").startswith(f"Tunnel {claim['route']}: the cards turned were")
    _fits(page)
    v = version(page)
    page.locator("#panel button.choice[data-kind='decline-tunnel']").tap()
    wait_past(page, v)
    my_turn(page)
    # a station: a tap on the city (the region is open already), its build, its marker
    page.locator("#zoom-reset").tap()
    _tap_open(page, "g.city[data-city='Paris'] circle")
    pick = page.locator("#panel button.pick[data-city='Paris']")
    if pick.count():
        pick.tap()
    builds = page.locator("#panel button.choice[data-kind='build-station']")
    builds.first.wait_for()
    v = version(page)
    builds.first.tap()
    wait_past(page, v)
    page.wait_for_selector("rect.station")
    assert get_json(s.base, f"/api/games/{game['game']}", game["seats"][0]["token"])["view"]["rules"]["stations"][0]["cities"] == ["Paris"]
    page.locator(".tabs [data-tab='players']").tap()
    assert page.inner_text("#players tr[data-seat='0'] td.stations-left") == "2"
    assert s.unexpected() == []


def _touch(cdp, kind, points):
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})


def _board_point(page, x, y):
    """The board point drawn at screen point (x, y), from the viewBox and the SVG's box."""
    return page.evaluate("""([x, y]) => { const svg = document.querySelector('#board'); const r = svg.getBoundingClientRect();
      const [vx, vy, vw, vh] = svg.getAttribute('viewBox').split(' ').map(Number); const s = Math.min(r.width / vw, r.height / vh);
      return [vx + (x - r.left - (r.width - vw * s) / 2) / s, vy + (y - r.top - (r.height - vh * s) / 2) / s]; }""", [x, y])


def test_pinch_zoom_and_pan_by_touch(phone_site):
    s = phone_site
    game = s.game("ussr", seed=5)
    page = s.open(f"/watch/{game['game']}", PHONE)
    page.wait_for_selector("#board text.label[data-city='Moscow']")
    cdp = page.context.new_cdp_session(page)
    b = box(page, "#board")
    mx, my = b["x"] + b["width"] * 0.45, b["y"] + b["height"] * 0.5
    under = _board_point(page, mx, my)
    # two fingers spread apart around (mx, my): the board zooms, the point between them stays
    _touch(cdp, "touchStart", [(mx - 30, my), (mx + 30, my)])
    for step in range(1, 11):
        _touch(cdp, "touchMove", [(mx - 30 - 8 * step, my), (mx + 30 + 8 * step, my)])
    _touch(cdp, "touchEnd", [])
    zoom = float(page.get_attribute("#board", "data-zoom"))
    assert zoom == pytest.approx(220 / 60, rel=0.05)
    assert _board_point(page, mx, my) == pytest.approx(under, abs=1.5)
    # one finger drags the board along
    before = [float(n) for n in page.get_attribute("#board", "viewBox").split()]
    _touch(cdp, "touchStart", [(mx, my)])
    for step in range(1, 7):
        _touch(cdp, "touchMove", [(mx + 10 * step, my + 5 * step)])
    _touch(cdp, "touchEnd", [])
    after = [float(n) for n in page.get_attribute("#board", "viewBox").split()]
    assert after[0] < before[0] and after[1] < before[1] and after[2] == pytest.approx(before[2])
    # two fingers pinched together zoom out again, down to the whole board
    _touch(cdp, "touchStart", [(mx - 120, my), (mx + 120, my)])
    for step in range(1, 11):
        _touch(cdp, "touchMove", [(mx - 120 + 11 * step, my), (mx + 120 - 11 * step, my)])
    _touch(cdp, "touchEnd", [])
    assert float(page.get_attribute("#board", "data-zoom")) == pytest.approx(1)
    # the gestures moved the board, not the page, and picked nothing
    assert page.evaluate("[window.visualViewport.scale, window.scrollX, window.scrollY]") == [1, 0, 0]
    assert page.locator("g.route.selected, g.city.selected").count() == 0
    assert s.unexpected() == []


def test_the_end_of_game_dialog_fits_the_phone(phone_site):
    s = phone_site
    game = s.game("europe", seed=5)
    final = play(s.base, game)
    page = s.open(game["seats"][0]["url"], PHONE)
    page.wait_for_selector("#gameover:not([hidden]) #reveal section.reveal")
    dialog = page.locator("#gameover .dialog")
    assert dialog.evaluate("d => d.scrollWidth <= d.clientWidth + 1")  # no sideways scroll in it
    for score in final["view"]["result"]["scores"]:
        total = page.locator(f"#scores tr[data-seat='{score['seat']}'] td.total")
        assert total.inner_text() == str(score["total"])
        b = total.bounding_box()
        assert b is not None and b["x"] >= 0 and b["x"] + b["width"] <= 390
        # and each player's points, line by line, in their box under the table
        section = page.locator(f"#reveal section.reveal[data-seat='{score['seat']}']")
        for bonus in score["bonuses"]:
            assert f"+{bonus['points']}" in section.inner_text()
    _fits(page, "#gameover")
    page.locator("#close-gameover").tap()
    assert not page.is_visible("#gameover")
    settled(page, s.base, game["game"], game["seats"][0]["token"])
    assert s.unexpected() == []


def test_a_tap_between_the_two_routes_of_a_double_asks_which(phone_site):
    s = phone_site
    game = s.game("usa", seed=5)
    page = s.open(f"/watch/{game['game']}", PHONE)
    page.wait_for_selector("g.route rect.car")
    board = variant.load("usa").board
    pairs = {}
    for r in board.routes:
        pairs.setdefault(frozenset((r.a, r.b)), []).append(r)
    first, second = next(p for p in pairs.values() if len(p) == 2 and p[0].length >= 3)

    def between():  # the point halfway between the two routes' middle cars
        a, b = (centre(box(page, middle_car(page, r.id))) for r in (first, second))
        return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2

    _tap(page, *between())  # opens the region
    assert float(page.get_attribute("#board", "data-zoom")) > 1
    _tap(page, *between())  # under the finger: both routes' hit areas, neither's cars
    picks = page.locator("#panel button.pick")
    picks.first.wait_for()
    assert sorted(b.get_attribute("data-route") for b in picks.all()) == sorted((first.id, second.id))
    assert page.locator("g.route.candidate").count() == 2
    page.locator(f"#panel button.pick[data-route='{second.id}']").tap()
    page.wait_for_selector(f"g.route.selected[data-route='{second.id}']")
    assert page.locator("#panel button.pick").count() == 0 and page.locator("g.route.candidate").count() == 0
    assert s.unexpected() == []


LABEL_BOXES = """() => [...document.querySelectorAll('#board text.label')].map(t => {
  const b = t.getBBox(); return {what: t.dataset.city, x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height}; })"""


@pytest.mark.parametrize(("variant_id", "crowded"), [("usa", "Chicago"), ("europe", "Bruxelles"), ("ussr", "Moscow")])
def test_every_map_opens_to_finger_sized_routes_and_cities(phone_site, variant_id, crowded):
    """A tap on the map's most crowded part opens it: there every route and city on the screen is
    a finger wide, the names still clear of each other, and a route of that city is picked by a
    tap on it (the ussr's routes at Moscow among them)."""
    s = phone_site
    game = s.game(variant_id, seed=5)
    page = s.open(f"/watch/{game['game']}", PHONE)
    page.wait_for_selector(f"g.city[data-city='{crowded}']")
    _tap(page, *centre(box(page, f"g.city[data-city='{crowded}'] circle")))
    assert float(page.get_attribute("#board", "data-zoom")) > 1
    assert [h for h in page.evaluate(HIT_AREAS) if h["size"] < FINGER - 0.01] == []
    assert _clashes(page.evaluate(LABEL_BOXES)) == []
    route = next(r for r in variant.load(variant_id).board.routes if crowded in (r.a, r.b) and r.length >= 2)
    _tap(page, *centre(box(page, middle_car(page, route.id))))
    pick = page.locator(f"#panel button.pick[data-route='{route.id}']")
    if pick.count():
        pick.tap()
    page.wait_for_selector(f"g.route.selected[data-route='{route.id}']")
    assert route.a in page.inner_text("#panel") and route.b in page.inner_text("#panel")
    assert s.unexpected() == []
