"""Make ``docs/screenshot.png``: the game page in the middle of a four-player game.

Starts ``ttr serve`` on a loopback port with a throw-away database, creates a game (a person and
three random bots), plays the person's turns through the API (claiming the longest route it can
pay, drawing cards otherwise) until the board has filled up a little, then opens the person's
page in Debian's headless Chromium (Playwright; no browser is downloaded), selects a route that
can be claimed so that the payment choices show, and saves the screenshot.

    python tools/make_screenshot.py [--out docs/screenshot.png] [--turns 22]
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
    claims = [a for a in legal if a["kind"] == "claim-route"]
    if claims:
        return max(claims, key=lambda a: (lengths[a["route"]], -a["locomotives"]))
    keeps = [a for a in legal if a["kind"] == "keep-tickets"]
    if keeps:
        return max(keeps, key=lambda a: len(a["tickets"]))
    draws = [a for a in legal if a["kind"] == "draw-card"]
    row = [a for a in draws if a["slot"] is not None and snap["view"]["open_row"][a["slot"]] != "locomotive"]
    return (row or draws or legal)[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "docs" / "screenshot.png")
    parser.add_argument("--turns", type=int, default=22, help="the person's turns played before the picture")
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    work = Path(tempfile.mkdtemp(prefix="ttr-shot-"))
    server = subprocess.Popen([sys.executable, "-m", "ttr_cli.main", "serve", "--db", f"sqlite:///{work / 'g.sqlite3'}",
                               "--port", str(port), "--bot-delay", "0", "--log-level", "warning"])
    try:
        for _ in range(300):
            try:
                call(base, "/api/health")
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        seats = [{"name": "Ada"}, {"name": "Grace", "bot": "random"}, {"name": "Alan", "bot": "random"},
                 {"name": "Edsger", "bot": "random"}]
        game = call(base, "/api/games", {"variant": "usa", "seats": seats, "seed": args.seed})
        gid, token = game["game"], game["seats"][0]["token"]
        board = call(base, "/api/variants/usa/board")
        lengths = {r["id"]: r["length"] for r in board["routes"]}
        turns = 0
        while turns < args.turns:
            snap = call(base, f"/api/games/{gid}", token=token)
            if snap["view"]["phase"] == "over":
                break
            if not snap["legal"]:
                time.sleep(0.02)
                continue
            action = choose(snap, lengths)
            try:
                status = call(base, f"/api/games/{gid}/actions", {"version": snap["version"], "action": action}, token)
            except urllib.error.HTTPError:
                continue
            if 0 not in status["to_act"]:
                turns += 1
        # a turn where a route can be paid, so that the picture shows the payment choices
        for _ in range(40):
            snap = call(base, f"/api/games/{gid}", token=token)
            if snap["legal"] and any(a["kind"] == "claim-route" for a in snap["legal"]):
                break
            if snap["legal"]:
                draw = [a for a in snap["legal"] if a["kind"] == "draw-card" and a["slot"] is None]
                call(base, f"/api/games/{gid}/actions", {"version": snap["version"], "action": (draw or snap["legal"])[0]},
                     token)
            else:
                time.sleep(0.02)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 860})
            page.goto(base + game["seats"][0]["url"])
            page.wait_for_selector("g.route.claimable")
            route = max(page.locator("g.route.claimable").all(), key=lambda g: lengths[g.get_attribute("data-route")])
            route.locator("rect.car").first.click()
            page.wait_for_selector("#panel button.choice")
            args.out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(args.out))
            browser.close()
        print(f"wrote {args.out}")
        return 0
    finally:
        server.terminate()
        server.wait(15)


if __name__ == "__main__":
    sys.exit(main())
