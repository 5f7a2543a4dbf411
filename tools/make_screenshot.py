"""Make the game page's screenshots for the documentation.

Starts ``ttr serve`` on a loopback port with a throw-away database, creates a game (a person and
three bots), plays the person's turns through the API (claiming the longest route it can pay,
drawing cards otherwise), and photographs the person's page in Debian's headless Chromium
(Playwright; no browser is downloaded):

- ``docs/screenshot.png``: a usa game in its middle at 1400×860, a claimable route selected so
  that the payment choices show (``--only main``);
- ``docs/screenshots/page-{phone,desktop}-{start,mid,end,end-board}.png``: a europe game at a phone's 390×844
  (touch: the board tapped open, the route tapped) and at 1440×900, at the start (the tickets on
  offer, one of them lit on the board), in the middle (a route's payment choices) and at the end
  (the scores, then the board under them: trails, stations and borrows) (``--only set``).

    python tools/make_screenshot.py [--only main|set] [--turns 12] [--seed 12]
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
DOCS = Path(__file__).resolve().parents[1] / "docs"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1440, "height": 900}}


def call(base: str, path: str, body=None, token: str | None = None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers=headers, method="GET" if body is None else "POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def choose(snap: dict, lengths: dict[str, int]) -> dict:
    legal = snap["legal"]
    claims = [a for a in legal if a["kind"] in ("claim-route", "pay-tunnel")]
    if claims:
        return max(claims, key=lambda a: (lengths.get(a.get("route"), 0), -a["locomotives"]))
    keeps = [a for a in legal if a["kind"] == "keep-tickets"]
    if keeps:
        return max(keeps, key=lambda a: len(a["tickets"]))
    draws = [a for a in legal if a["kind"] == "draw-card"]
    row = [a for a in draws if a["slot"] is not None and snap["view"]["open_row"][a["slot"]] != "locomotive"]
    return (row or draws or legal)[0]


class Table:
    """A server with one game: Ada (the person, played through the API) and three bots."""

    def __init__(self, base: str, variant: str, seed: int, bot: str):
        self.base = base
        seats = [{"name": "Ada"}, {"name": "Grace", "bot": bot}, {"name": "Alan", "bot": bot}, {"name": "Edsger", "bot": bot}]
        self.game = call(base, "/api/games", {"variant": variant, "seed": seed, "seats": seats})
        self.gid, self.token = self.game["game"], self.game["seats"][0]["token"]
        board = call(base, f"/api/variants/{variant}/board")
        self.lengths = {r["id"]: r["length"] for r in board["routes"]}

    @property
    def url(self) -> str:
        return self.base + self.game["seats"][0]["url"]

    def snap(self) -> dict:
        return call(self.base, f"/api/games/{self.gid}", token=self.token)

    def play(self, turns: int) -> dict:
        """Ada's turns, ``turns`` of them or until the game is over."""
        done = 0
        while done < turns:
            snap = self.snap()
            if snap["view"]["phase"] == "over":
                return snap
            if not snap["legal"]:
                time.sleep(0.02)
                continue
            try:
                status = call(self.base, f"/api/games/{self.gid}/actions",
                              {"version": snap["version"], "action": choose(snap, self.lengths)}, self.token)
            except urllib.error.HTTPError:
                continue
            if 0 not in status["to_act"]:
                done += 1
        return self.snap()

    def until_claimable(self) -> dict:
        """Draw from the deck until Ada's turn can claim a route, so that a picture shows payments."""
        for _ in range(60):
            snap = self.snap()
            if snap["legal"] and any(a["kind"] == "claim-route" for a in snap["legal"]):
                return snap
            if snap["legal"]:
                draw = [a for a in snap["legal"] if a["kind"] == "draw-card" and a["slot"] is None]
                try:
                    call(self.base, f"/api/games/{self.gid}/actions", {"version": snap["version"], "action": (draw or snap["legal"])[0]},
                         self.token)
                except urllib.error.HTTPError:
                    pass
            else:
                time.sleep(0.02)
        raise SystemExit("no route became claimable")


def settled(page, table: Table) -> None:
    """Wait until the page shows the game's current version (animations over)."""
    version = table.snap()["version"]
    for _ in range(600):
        if page.evaluate("v => Number(document.body.dataset.version) === v", version):
            break
        time.sleep(0.05)
    page.wait_for_timeout(1800)


def longest_claimable(page, lengths):
    return max(page.locator("g.route.claimable").all(), key=lambda g: lengths[g.get_attribute("data-route")])


def tap_route(page, route_id: str) -> None:
    """A finger on the phone: a tap on the route opens its region, a second tap picks it."""
    for _ in range(2):
        box = page.locator(f"g.route[data-route='{route_id}'] rect.car").first.bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_timeout(300)
        if page.locator("#panel button.choice[data-kind='claim-route'], #panel button.pick").count():
            break
    pick = page.locator(f"#panel button.pick[data-route='{route_id}']")
    if pick.count():
        pick.tap()


def main_shot(base: str, pw, seed: int, turns: int, out: Path) -> None:
    table = Table(base, "usa", seed, "random")
    table.play(turns)
    table.until_claimable()
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    page = browser.new_page(viewport={"width": 1400, "height": 860})
    page.goto(table.url)
    page.wait_for_selector("g.route.claimable")
    longest_claimable(page, table.lengths).locator("rect.car").first.click()
    page.wait_for_selector("#panel button.choice")
    out.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out))
    browser.close()
    print(f"wrote {out}")


def set_shots(base: str, pw, seed: int, turns: int, folder: Path) -> None:
    table = Table(base, "europe", seed, "ticket")
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    pages = {name: browser.new_context(**options).new_page() for name, options in (("phone", PHONE), ("desktop", DESKTOP))}
    folder.mkdir(parents=True, exist_ok=True)

    def shoot(name: str, moment: str) -> None:
        path = folder / f"page-{name}-{moment}.png"
        pages[name].screenshot(path=str(path))
        print(f"wrote {path}")

    # the start: the tickets on offer, the first one lit on the board
    for name, page in pages.items():
        page.goto(table.url)
        page.wait_for_selector("#keep-tickets")
        offer = page.locator("#panel label.offer").first
        if name == "phone":
            offer.tap()
            offer.tap()  # twice: the box stays as it was, and the ticket stays lit
        else:
            offer.hover()
        page.wait_for_timeout(300)
        shoot(name, "start")
    # the middle: a route's payment choices
    table.play(turns)
    table.until_claimable()
    for name, page in pages.items():
        page.reload()
        page.wait_for_selector("g.route.claimable")
        settled(page, table)
        route = longest_claimable(page, table.lengths)
        if name == "phone":
            tap_route(page, route.get_attribute("data-route"))
        else:
            route.locator("rect.car").first.click()
        page.wait_for_selector("#panel button.choice")
        shoot(name, "mid")
    # the end: the scores
    table.play(10_000)
    for name, page in pages.items():
        page.reload()
        page.wait_for_selector("#gameover:not([hidden]) #reveal section.reveal")
        page.wait_for_timeout(300)
        shoot(name, "end")
        page.locator("#close-gameover").click()
        page.wait_for_timeout(300)
        shoot(name, "end-board")
    browser.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("main", "set"), help="only docs/screenshot.png, or only the phone and desktop set")
    parser.add_argument("--turns", type=int, default=12, help="the person's turns played before the mid-game picture")
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    work = Path(tempfile.mkdtemp(prefix="ttr-shot-"))
    server = subprocess.Popen([sys.executable, "-m", "ttr_cli.main", "serve", "--db", f"sqlite:///{work / 'g.sqlite3'}",
                               "--port", str(port), "--bot-delay", "0", "--log-level", "warning", "--allow-seed"],
                              cwd=work)
    try:
        for _ in range(300):
            try:
                call(base, "/api/health")
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        with sync_playwright() as pw:
            if args.only in (None, "main"):
                main_shot(base, pw, args.seed, args.turns, DOCS / "screenshot.png")
            if args.only in (None, "set"):
                set_shots(base, pw, args.seed, args.turns, DOCS / "screenshots")
        return 0
    finally:
        server.terminate()
        server.wait(15)


if __name__ == "__main__":
    sys.exit(main())
