"""Helpers for the game page's browser tests at a phone's and a desktop's size
(``test_server_browser_phone.py``, ``test_server_browser_clarity.py``): one server and one
Chromium for a test module, pages as a phone (touch) or a desktop opens them, games played
through the API, and what the tests measure in the page."""

from __future__ import annotations

import contextlib
import itertools
import math
import os
import textwrap
import time
import urllib.error
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from server_kit import CHROMIUM, CHROMIUM_ARGS, REPO, get_json, hurried_choice, need, post_json, server_process, wait_in_page

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 1}
DESKTOP = {"viewport": {"width": 1440, "height": 900}}

FINGER = 32  # px: the least a route's or a city's hit area may measure on the screen, for a finger or a mouse

# the hit areas of the routes and cities drawn on the screen, in screen pixels
HIT_AREAS = """() => {
  const svg = document.querySelector('#board'); const r = svg.getBoundingClientRect(); const out = [];
  const inside = (b) => b.right > r.left && b.left < r.right && b.bottom > r.top && b.top < r.bottom;
  for (const l of svg.querySelectorAll('.hits line.hit')) {
    if (!inside(l.getBoundingClientRect())) continue;
    out.push({what: 'route ' + l.dataset.route, size: parseFloat(getComputedStyle(l).strokeWidth) * l.getScreenCTM().a});
  }
  for (const e of svg.querySelectorAll('.hits ellipse.hit')) {
    const b = e.getBoundingClientRect();
    if (inside(b)) out.push({what: 'city ' + e.dataset.city, size: Math.min(b.width, b.height)});
  }
  return out; }"""

#: a house rule installed beside the built-ins for the server of a test module: a bonus of its
#: own ("first-aboard", 4 points to the first seat, which players read as "Head start") in a
#: variant of its own ("house-usa"), and in one where it replaces the longest-path bonus
#: ("head-start-usa": no longest trail to draw)
HOUSE_PLUGIN = '''
"""A house rule for the game page's tests: 4 points to the first seat at the end."""
import attrs

from ttr_core.plugin import Bonus, Plugin, hookimpl, parameter


class FirstAboard(Plugin):
    title = "First seat's head start"
    deterministic = True

    @attrs.frozen
    class Config:
        points: int = parameter("points to the first seat at the end", default=4)

    def bonus_titles(self):
        return {"first-aboard": "Head start"}

    @hookimpl
    def ttr_end_bonuses(self, game, outcomes):
        return [Bonus(0, "first-aboard", self.config.points, "the first seat")]
'''


def install_house_rule(folder: Path) -> Path:
    """The house rule as an installed distribution under ``folder`` (put it on PYTHONPATH)."""
    package = folder / "page_house_rules"
    (package / "variants").mkdir(parents=True)
    (package / "__init__.py").write_text(textwrap.dedent(HOUSE_PLUGIN))
    (package / "variants" / "__init__.py").write_text("")
    usa = (REPO / "variants" / "usa.toml").read_text()
    house = usa.replace('id = "usa"', 'id = "house-usa"').replace(
        'title = "Ticket to Ride: USA"', 'title = "House rules: USA"').replace(
        '"passing",          # R-TURN-2', '"passing",          # R-TURN-2\n  "first-aboard",')
    assert '"first-aboard"' in house
    (package / "variants" / "house-usa.toml").write_text(house)
    (package / "variants" / "head-start-usa.toml").write_text(
        'id = "head-start-usa"\ntitle = "House rules: a head start, no longest route"\nextends = "usa@1"\n'
        '[versions.1]\nnote = "the first seat\'s head start instead of the longest-path bonus"\n'
        'remove_plugins = ["longest-path"]\nadd_plugins = ["first-aboard"]\n'
        '[versions.1.rules.winner]\ntie_breakers = ["tickets"]\n')
    info = folder / "page_house_rules-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: page-house-rules\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[ttr]\nfirst-aboard = page_house_rules:FirstAboard\n\n[ttr.variants]\npage-house = page_house_rules.variants\n")
    return folder


@dataclass
class Site:
    """A server and a browser shared by a test module's tests."""

    base: str
    chromium: object
    problems: list[str] = field(default_factory=list)

    def open(self, url: str, device: dict = DESKTOP):
        page = self.chromium.new_context(**device).new_page()
        page.on("pageerror", lambda exc: self.problems.append(f"page error: {exc}"))
        page.on("console", lambda msg: self.problems.append(f"console: {msg.text}") if msg.type == "error" else None)
        page.set_default_timeout(30_000)
        page.goto(self.base + url)
        return page

    def game(self, variant_id: str = "usa", seed: int = 5, bots=("ticket",)):
        seats = [{"name": "Ada"}] + [{"name": name, "bot": bot} for name, bot in zip(("Robo", "Grace", "Alan", "Edsger"), bots)]
        return post_json(self.base, "/api/games", {"variant": variant_id, "seed": seed, "seats": seats})

    def unexpected(self) -> list[str]:
        out, self.problems[:] = list(self.problems), []
        return out


@contextlib.contextmanager
def site(folder: Path, house_rule: bool = False) -> Iterator[Site]:
    need("Chromium (Debian package chromium)", Path(CHROMIUM).exists())
    playwright = pytest.importorskip("playwright.sync_api", reason="the test extra installs playwright")
    with contextlib.ExitStack() as stack:
        with pytest.MonkeyPatch.context() as mp:  # the server process inherits it when it starts
            if house_rule:
                path = str(install_house_rule(folder / "house"))
                mp.setenv("PYTHONPATH", os.pathsep.join(p for p in (path, os.environ.get("PYTHONPATH", "")) if p))
            server = stack.enter_context(server_process(f"sqlite:///{folder / 'games.sqlite3'}", folder, bot_delay=0.0))
        pw = stack.enter_context(playwright.sync_playwright())
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        stack.callback(chromium.close)
        yield Site(server.base, chromium)


def play(base: str, game: dict, until=lambda snap: snap["view"]["phase"] == "over", pick=None, limit: int = 3000) -> dict:
    """Ada's seat played through the API (the bots answer in the server) until ``until(snap)``."""
    gid, token = game["game"], game["seats"][0]["token"]
    pick = pick or (lambda snap: hurried_choice(snap["legal"]))
    for _ in range(limit):
        snap = get_json(base, f"/api/games/{gid}", token)
        if until(snap):
            return snap
        if not snap["legal"]:
            time.sleep(0.01)
            continue
        try:
            post_json(base, f"/api/games/{gid}/actions", {"version": snap["version"], "action": pick(snap)}, token)
        except urllib.error.HTTPError as exc:  # a bot moved in between
            assert exc.code == 409
    raise AssertionError("the game did not get there")


def version(page) -> int:
    return int(page.evaluate("document.body.dataset.version || -1"))


def wait_past(page, v: int) -> None:
    wait_in_page(page, "v => Number(document.body.dataset.version) > v", v)


def settled(page, base: str, gid: str, token: str | None = None) -> dict:
    """Wait until the page shows the game's current version and its whole move log."""
    snap = get_json(base, f"/api/games/{gid}", token)
    last = get_json(base, f"/api/games/{gid}/moves")["moves"][-1]
    wait_in_page(page, "([v, f]) => Number(document.body.dataset.version) === v && document.body.dataset.lastMove === String(f)",
                 [snap["version"], last["first"]])
    return snap


def my_turn(page) -> None:
    wait_in_page(page, "() => document.querySelector('#status').textContent === 'Your turn'")


def box(page, selector: str) -> dict | None:
    return page.locator(selector).first.bounding_box()


def middle_car(page, route_id: str) -> str:
    """A selector for the middle car of a route: its ends may lie under its cities' dots."""
    n = page.locator(f"g.route[data-route='{route_id}'] rect.car").count()
    return f"g.route[data-route='{route_id}'] rect.car >> nth={n // 2}"


def centre(b: dict) -> tuple[float, float]:
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


# --- colours as colour-blind players see them (Machado, Oliveira and Fernandes 2009, severity 1) ---

CVD = {
    "normal vision": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb) -> tuple[float, float, float]:
    r, g, b = rgb
    x, y, z = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.9505, 0.2126 * r + 0.7152 * g + 0.0722 * b, (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.089

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen_as(hex_colour: str, vision: str) -> tuple[float, float, float]:
    """A colour (#rrggbb) in CIE Lab, as a person with ``vision`` sees it."""
    h = hex_colour.strip().lstrip("#")
    lin = [_linear(int(h[i:i + 2], 16)) for i in (0, 2, 4)]
    m = CVD[vision]
    return _lab([min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3)])


def closest_pair(colours: list[str]) -> tuple[float, str, str, str]:
    """The smallest colour difference (CIE76 ΔE) between two of ``colours`` under any vision."""
    return min((math.dist(seen_as(a, v), seen_as(b, v)), v, a, b) for v in CVD for a, b in itertools.combinations(colours, 2))
