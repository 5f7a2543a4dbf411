"""What the game page costs: ``python -m bench.game_page`` (needs the ``serve`` and ``test`` extras
and Debian's chromium).

Plays one seeded usa game to its end on a ``ttr serve`` process over loopback (a person's seat
played through the API, a ticket bot in the server), restarts the server, and times the move log
(the first read replays the game; later reads whole and with ``since``) and the trails; then, in
Chromium, the placement of the city names on each shipped map. Figures are printed, never asserted.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from server_kit import hurried_choice, server_process  # noqa: E402 - as bench/server_capacity.py

CHROMIUM = "/usr/bin/chromium"


def _get(base, path, token=None):
    req = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {token}"} if token else {})
    with urllib.request.urlopen(req) as r:
        return json.load(r)


def _post(base, path, body, token=None):
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req) as r:
        return json.load(r)


def _timed(fn, n=20):
    runs = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs) * 1000


def main() -> None:
    tmp = Path(tempfile.mkdtemp())
    db = f"sqlite:///{tmp / 'games.sqlite3'}"
    with server_process(db, tmp) as server:
        base = server.base
        game = _post(base, "/api/games", {"variant": "usa", "seed": 7, "seats": [{"name": "Ada"}, {"name": "Robo", "bot": "ticket"}]})
        gid, token = game["game"], game["seats"][0]["token"]
        while (snap := _get(base, f"/api/games/{gid}", token))["view"]["phase"] != "over":
            if snap["legal"]:
                try:
                    _post(base, f"/api/games/{gid}/actions", {"version": snap["version"], "action": hurried_choice(snap["legal"])}, token)
                except urllib.error.HTTPError:
                    pass  # the bot moved in between
    with server_process(db, tmp) as server:  # a fresh process: the first read replays the stored game
        base = server.base
        t = time.perf_counter()
        log = _get(base, f"/api/games/{gid}/moves")
        cold = (time.perf_counter() - t) * 1000
        size = len(urllib.request.urlopen(base + f"/api/games/{gid}/moves").read())
        whole = _timed(lambda: _get(base, f"/api/games/{gid}/moves"))
        tail = _timed(lambda: _get(base, f"/api/games/{gid}/moves?since={log['version'] - 2}"))
        trails = _timed(lambda: _get(base, f"/api/games/{gid}/trails"), 5)
        print(f"usa, {log['version']} actions, {len(log['moves'])} turns: move log first read {cold:.0f} ms, "
              f"then {whole:.1f} ms whole ({size} bytes), {tail:.1f} ms with since; trails {trails:.1f} ms (medians)")
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(base + f"/watch/{gid}")
            page.wait_for_selector("#board text.label")
            for vid in ("usa", "europe", "ussr"):
                ms, cities = page.evaluate("""async (v) => {
                  const m = await import('/static/board.js');
                  const board = await (await fetch(`/api/variants/${v}/board`)).json();
                  const runs = [];
                  for (let i = 0; i < 5; i++) {
                    const t = performance.now();
                    m.placeLabels(board, m.project(board), (n) => n.length * 6.5);
                    runs.push(performance.now() - t);
                  }
                  runs.sort((a, b) => a - b);
                  return [runs[2], board.cities.length];
                }""", vid)
                print(f"{vid}: {cities} city names placed in {ms:.0f} ms (median of 5)")
            browser.close()


if __name__ == "__main__":
    main()
