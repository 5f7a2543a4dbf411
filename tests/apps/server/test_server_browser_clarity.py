"""The game page as players read it, at 1440×900 in a real headless Chromium (Debian's, driven by
Playwright): the final totals in the side table once the game is over, plain words (no rule id,
no plugin id, one spelling of grey; a house rule's bonus read as well as a built-in one), the move
log beside the board with names in the players' colours and a turn still going on said as such,
tickets lighting their cities, station markers and the stations left, borrows listed once, the
board updated in place with the last claim animated, players' colours that colour-blind players
tell apart, and the rules of the game one click away."""

from __future__ import annotations

import re
import urllib.parse

import pytest

from page_kit import box, closest_pair, middle_car, my_turn, play, settled, site, version, wait_past
from server_kit import get_json, hurried_choice, post_json, wait_in_page
from ttr_core import variant

# every text a player may read: what is on the screen, in the dialogs (open or not) and the
# tooltips (title attributes, the board's <title> elements)
PLAYER_TEXTS = """() => [document.body.innerText, ...[...document.querySelectorAll('.dialog')].map(d => d.textContent),
  ...[...document.querySelectorAll('[title]')].map(e => e.title), ...[...document.querySelectorAll('svg title')].map(t => t.textContent)]"""
RULE_ID = re.compile(r"\bR-[A-Z]+(-[\w.]+)?")


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    with site(tmp_path_factory.mktemp("clarity"), house_rule=True) as s:
        yield s


@pytest.fixture(scope="module")
def house_game(desk):
    """A finished game of the house rule's variant: its bonus is part of every total."""
    game = desk.game("house-usa", seed=7)
    final = play(desk.base, game)
    assert any(b["name"] == "first-aboard" for s in final["view"]["result"]["scores"] for b in s["bonuses"])
    return game, final


def _engine_words(base, variant_id):
    """The ids a player should never read: the variant's plugins' and its bonuses' (those that are
    not plain words already: "longest-path", not "tickets")."""
    listed = next(v for v in get_json(base, "/api/variants")["variants"] if v["id"] == variant_id)
    rules = get_json(base, f"/api/variants/{variant_id}/board")["rules"]
    return {p for p in [*listed["plugins"], *rules["bonuses"]] if "-" in p}


def _check_plain(texts, ids):
    for text in texts:
        assert not RULE_ID.search(text), text
        assert not [i for i in ids if i in text], text
        assert "gray" not in text.lower() and "space(s)" not in text, text


def test_the_side_table_shows_the_final_totals_after_the_end(desk, house_game):
    game, final = house_game
    record = get_json(desk.base, f"/api/games/{game['game']}/record")
    page = desk.open(game["seats"][0]["url"])
    page.wait_for_selector("#gameover:not([hidden])")
    page.click("#close-gameover")
    assert page.inner_text("#players th.points") == "Total"
    shown = {page.inner_text(f"#players tr[data-seat='{s}'] td:nth-child(2)").splitlines()[0]:
             int(page.inner_text(f"#players tr[data-seat='{s}'] td.points")) for s in range(2)}
    assert shown == record["result"]["scores"]
    # not the route points any more (the house bonus alone makes Ada's total differ from them)
    assert shown["Ada"] != final["view"]["players"][0]["route_points"]
    assert desk.unexpected() == []


def test_plain_words_for_players_with_a_house_rule_bonus(desk, house_game):
    game, final = house_game
    ids = _engine_words(desk.base, "house-usa") | {b["name"] for s in final["view"]["result"]["scores"] for b in s["bonuses"]}
    assert {"first-aboard", "longest-path"} <= ids
    page = desk.open(game["seats"][0]["url"])
    page.wait_for_selector("#gameover:not([hidden]) #reveal section.reveal")
    page.click("#close-gameover")
    page.click("#show-rules")
    page.wait_for_selector("#rules:not([hidden]) .rule-names")
    texts = page.evaluate(PLAYER_TEXTS)
    _check_plain(texts, ids)
    # the bonuses by the names their plugins give them, the house rule's as well
    assert "Head start" in page.inner_text("#scores") and "Longest route" in page.inner_text("#scores")
    ada = page.locator("#reveal section.reveal[data-seat='0']").inner_text()
    assert "Head start (the first seat)" in ada and "+4" in ada
    # the rules in play by their plugins' names, with their parameters in words
    rules = page.inner_text("#rules")
    assert "First seat's head start" in rules and "Points to the first seat at the end: 4" in rules
    assert "Longest route" in rules and "Stations" not in rules
    assert "R-END" not in page.inner_text("#reason") and page.inner_text("#reason").startswith("The game ended: ")
    assert desk.unexpected() == []


def test_a_grey_route_that_cannot_be_paid_says_what_would_pay_it(desk):
    game = desk.game("usa", seed=3)
    gid, token = game["game"], game["seats"][0]["token"]
    board = variant.load("usa").board
    snap = play(desk.base, game, until=lambda s: s["view"]["phase"] == "play" and bool(s["legal"]))
    page = desk.open(game["seats"][0]["url"])
    settled(page, desk.base, gid, token)
    hand = snap["view"]["you"]["hand"]
    most = max((n for c, n in hand.items() if c != "locomotive"), default=0) + hand.get("locomotive", 0)
    route = next(r for r in board.routes if r.color == "gray" and r.length > most and r.id not in snap["view"]["routes"])
    page.locator(middle_car(page, route.id)).click()
    refusal = page.locator(f"#panel p.refusal[data-route='{route.id}']")
    refusal.wait_for()
    check = get_json(desk.base, f"/api/games/{gid}/claim-check?route={urllib.parse.quote(route.id)}", token)
    text = refusal.inner_text()
    assert f"A grey route takes {route.length} cards of any one colour" in text
    missing = " + ".join(f"{k} {n}" for n, k in check["missing"].items())
    assert f"{missing} would pay it" in text
    _check_plain([text, *page.evaluate(PLAYER_TEXTS)], _engine_words(desk.base, "usa"))
    assert desk.unexpected() == []


def test_the_log_beside_the_board_names_in_colour_and_a_turn_going_on(desk):
    game = desk.game("usa", seed=5)
    gid, token = game["game"], game["seats"][0]["token"]

    def one_face_up(snap):  # Ada's turn: one face-up card (not a locomotive) and no more
        row = [a for a in snap["legal"] if a["kind"] == "draw-card" and a["slot"] is not None
               and snap["view"]["open_row"][a["slot"]] != "locomotive"]
        return row[0] if row else hurried_choice(snap["legal"])

    play(desk.base, game, until=lambda s: s["view"]["phase"] == "play" and s["view"]["turn"] >= 6 and bool(s["legal"])
         and s["view"]["players"][0]["decision"] is None)
    snap = get_json(desk.base, f"/api/games/{gid}", token)
    post_json(desk.base, f"/api/games/{gid}/actions", {"version": snap["version"], "action": one_face_up(snap)}, token)
    page = desk.open(game["seats"][0]["url"])
    settled(page, desk.base, gid, token)
    # beside the board, in the first screen, and tall
    log, board = box(page, "#moves"), box(page, "#board")
    assert log["x"] >= board["x"] + board["width"] and log["y"] < 900 and log["y"] + log["height"] <= 900
    assert log["height"] >= 400
    moves = get_json(desk.base, f"/api/games/{gid}/moves")["moves"]
    going = page.locator("#moves li").first
    assert "going" in going.get_attribute("class")
    assert going.inner_text().endswith("(still playing)") and "…" not in going.inner_text()
    assert going.inner_text().startswith(f"turn {moves[-1]['turn'] + 1} ")
    assert not any(li.startswith("T0") for li in page.locator("#moves li").all_inner_texts())
    # each name in its player's colour
    for seat in (0, 1):
        name = page.locator(f"#moves li .who[data-seat='{seat}']").first
        colour = page.evaluate(f"getComputedStyle(document.documentElement).getPropertyValue('--seat-{seat}').trim()")
        shown = name.evaluate("e => getComputedStyle(e).backgroundColor")
        r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
        assert shown == f"rgb({r}, {g}, {b})"
    assert desk.unexpected() == []


def test_a_ticket_lights_its_two_cities(desk):
    game = desk.game("usa", seed=5)
    page = desk.open(game["seats"][0]["url"])
    page.wait_for_selector("#keep-tickets")
    tickets = {t.id: t for t in variant.load("usa").board.tickets}
    lit = lambda: {g.get_attribute("data-city") for g in page.locator("g.city.lit").all()}  # noqa: E731
    assert lit() == set()
    offer = page.locator("#panel label.offer").nth(1)
    offer.hover()
    t = tickets[offer.get_attribute("data-ticket")]
    assert lit() == {t.a, t.b}
    assert {e.get_attribute("data-city") for e in page.locator("text.label.lit").all()} == {t.a, t.b}
    page.mouse.move(5, 5)
    assert lit() == set()
    v = version(page)
    page.click("#keep-tickets")
    wait_past(page, v)
    mine = page.locator("#tickets li[data-ticket]").first
    t = tickets[mine.get_attribute("data-ticket")]
    mine.hover()
    assert lit() == {t.a, t.b}
    mine.click()  # a click keeps it lit
    page.mouse.move(5, 5)
    assert lit() == {t.a, t.b}
    assert desk.unexpected() == []


def test_a_station_marker_is_clear_and_the_stations_left_are_counted(desk):
    game = desk.game("europe", seed=2, bots=("random",))
    page = desk.open(game["seats"][0]["url"])
    page.wait_for_selector("#keep-tickets")
    assert page.inner_text("#players tr[data-seat='0'] td.stations-left") == "3"
    v = version(page)
    page.click("#keep-tickets")
    wait_past(page, v)
    my_turn(page)
    page.locator("g.city[data-city='Paris'] circle").click()
    v = version(page)
    page.locator("#panel button.choice[data-kind='build-station']").first.click()
    wait_past(page, v)
    marker = page.locator("g.station-mark[data-city='Paris'] rect.station")
    marker.wait_for()
    # over the city's dot, and larger than a claimed route's cars are tall (9 board units)
    dot = box(page, "g.city[data-city='Paris'] circle")
    m = marker.bounding_box()
    assert m["x"] < dot["x"] and m["x"] + m["width"] > dot["x"] + dot["width"]
    assert m["y"] < dot["y"] and m["y"] + m["height"] > dot["y"] + dot["height"]
    scale = page.evaluate("document.querySelector('#board').getScreenCTM().a")
    assert min(m["width"], m["height"]) >= 12 * scale
    assert marker.get_attribute("fill") == "url(#seat-0)"
    assert page.text_content("g.station-mark[data-city='Paris'] text") == "1"
    assert page.inner_text("#players tr[data-seat='0'] td.stations-left") == "2"
    assert desk.unexpected() == []


def test_borrows_are_listed_once_at_the_end(desk):
    from test_server_browser_page import _station_then_hurry

    game = desk.game("europe", seed=5)
    final = play(desk.base, game, pick=_station_then_hurry)
    borrowed = [(s["seat"], b) for s in final["view"]["result"]["scores"] for b in s.get("borrows", []) if b["route"]]
    assert borrowed
    page = desk.open(f"/watch/{game['game']}")
    page.wait_for_selector("#gameover:not([hidden]) #reveal section.reveal")
    for seat, b in borrowed:
        section = page.locator(f"#reveal section.reveal[data-seat='{seat}']")
        text = section.inner_text().replace(section.locator(".trail-note").inner_text() if section.locator(".trail-note").count() else "", "")
        assert text.count(b["route"]) == 1, text
    assert desk.unexpected() == []


def test_a_variant_that_replaces_the_longest_path_bonus_draws_no_trail(desk, house_game):
    # with the bonus (house-usa) the page draws each longest trail and says it in the reveal
    game, _ = house_game
    page = desk.open(f"/watch/{game['game']}")
    page.wait_for_selector("#gameover:not([hidden]) #reveal section.reveal")
    assert page.locator("polyline.trail").count() > 0 and page.locator("#reveal .trail-note").count() > 0
    # head-start-usa replaces it by the house rule: the server gives no trail, the page draws none
    game = desk.game("head-start-usa", seed=7)
    final = play(desk.base, game)
    assert [b["name"] for s in final["view"]["result"]["scores"] for b in s["bonuses"]] == ["first-aboard"]
    assert get_json(desk.base, f"/api/games/{game['game']}/highlights")["highlights"] == []
    assert get_json(desk.base, f"/api/games/{game['game']}/trails")["trails"] == []
    page = desk.open(f"/watch/{game['game']}")
    page.wait_for_selector("#gameover:not([hidden]) #reveal section.reveal")
    assert "Head start" in page.inner_text("#scores")
    assert page.locator("polyline.trail, .trail-casing, line.route-mark").count() == 0
    assert page.locator("#reveal .highlight-note").count() == 0
    assert page.locator("#scores td.fact[data-fact='longest-path']").count() == 0
    assert desk.unexpected() == []


def test_the_board_is_updated_in_place_and_the_claim_is_animated(desk):
    game = desk.game("usa", seed=5)
    gid, token = game["game"], game["seats"][0]["token"]
    play(desk.base, game, until=lambda s: any(a["kind"] == "claim-route" for a in s["legal"] or ()),
         pick=lambda s: next((a for a in s["legal"] if a["kind"] in ("keep-tickets",)), None)
         or next(a for a in s["legal"] if a["kind"] == "draw-card"))
    page = desk.open(game["seats"][0]["url"])
    settled(page, desk.base, gid, token)
    route = page.locator("g.route.claimable").first.get_attribute("data-route")
    # the route's element, the board's element count, and what happens to the route's classes
    page.evaluate("""id => { const g = document.querySelector(`g.route[data-route="${id}"]`);
      window.probe = {g, count: document.querySelectorAll('#board *').length, claimed: document.querySelectorAll('g.route.claimed').length,
                      fresh: false, animation: ''};
      new MutationObserver(() => { if (g.classList.contains('fresh')) {
        window.probe.fresh = true; window.probe.animation = getComputedStyle(g.querySelector('rect.car')).animationName; } })
        .observe(g, {attributes: true, attributeFilter: ['class']}); }""", route)
    page.locator(middle_car(page, route)).click()
    v = version(page)
    page.locator("#panel button.choice[data-kind='claim-route']").first.click()
    wait_past(page, v)
    page.wait_for_selector(f"g.route.claimed[data-route='{route}']")
    probe = page.evaluate("""() => ({same: window.probe.g === document.querySelector(`g.route[data-route="${window.probe.g.dataset.route}"]`),
      connected: window.probe.g.isConnected, fresh: window.probe.fresh, animation: window.probe.animation,
      grew: document.querySelectorAll('#board *').length - window.probe.count,
      claims: document.querySelectorAll('g.route.claimed').length - window.probe.claimed})""")
    assert probe["same"] and probe["connected"]  # the same element, now claimed: nothing was redrawn
    assert probe["fresh"] and probe["animation"] == "car-in"  # its cars filled in
    assert probe["grew"] == 3 * probe["claims"]  # each claim's owner marker (a group, a circle, a number), no more
    wait_in_page(page, f"() => !document.querySelector(`g.route[data-route=\"{route}\"]`).classList.contains('fresh')")
    assert desk.unexpected() == []


def test_players_colours_stay_apart_for_colour_blind_players(desk):
    game = desk.game("usa", seed=5, bots=("random",) * 4)
    page = desk.open(f"/watch/{game['game']}")
    page.wait_for_selector("pattern#seat-4", state="attached")
    colours = page.evaluate("() => [0, 1, 2, 3, 4, 5].map(n => getComputedStyle(document.documentElement).getPropertyValue(`--seat-${n}`).trim())")
    difference, vision, a, b = closest_pair(colours)
    assert difference >= 20, f"{a} and {b} look alike with {vision} (ΔE {difference:.1f})"
    # and each seat's pattern differs from every other's, on the board and beside it
    shapes = page.evaluate("""() => [0, 1, 2, 3, 4].map(n => { const p = document.querySelector(`pattern#seat-${n}`);
      return p.getAttribute('patternTransform') + [...p.children].slice(1).map(c => c.tagName + [...c.attributes]
        .filter(a => a.name !== 'fill').map(a => a.name + a.value).join()).join(); })""")
    assert len(set(shapes)) == 5
    swatches = page.evaluate("() => [0, 1, 2, 3, 4].map(n => getComputedStyle(document.querySelector(`#players .swatch[data-seat='${n}']`)).backgroundImage)")
    assert len(set(swatches)) == 5 and all(s != "none" for s in swatches)
    assert desk.unexpected() == []


def test_the_rules_of_the_game_are_one_click_away(desk):
    game = desk.game("wor", seed=5)
    listed = next(v for v in get_json(desk.base, "/api/variants")["variants"] if v["id"] == "wor")
    page = desk.open(game["seats"][0]["url"])
    page.wait_for_selector("#keep-tickets")
    assert not page.is_visible("#rules")
    page.click("#show-rules")
    page.wait_for_selector("#rules:not([hidden]) .rule-names")
    text = page.inner_text("#rules")
    assert listed["title"] in text and f"rules version {listed['version']}" in text and listed["description"] in text
    assert "Most tickets" in text  # wor's version 2 bonus, as its plugin calls it
    _check_plain([text], _engine_words(desk.base, "wor"))
    page.click("#close-rules")
    assert not page.is_visible("#rules")
    assert desk.unexpected() == []
