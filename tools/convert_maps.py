"""Convert the verified board data in ../shared/maps/*.csv into the project's map files.

Run from the repository root: ``python tools/convert_maps.py [SHARED_MAPS_DIR]``. The output
(variants/maps/<id>.toml) is committed; re-running it must give the same bytes.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

MAPS = {
    "usa": ("United States", 45),
    "europe": ("Europe", 45),
}


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def convert(src: Path, map_id: str, title: str, trains: int) -> str:
    rows = lambda name: list(csv.DictReader((src / f"{map_id}-{name}.csv").open(encoding="utf-8")))  # noqa: E731
    out = [
        f"# {title}: converted from shared/maps/{map_id}-*.csv by tools/convert_maps.py; do not edit by hand.",
        "# The board data was verified against several public sources (see shared/maps/README.md).",
        f"id = {_q(map_id)}",
        f"title = {_q(title)}",
        f"trains = {trains}",
        f'source = "shared/maps/{map_id}-*.csv"',
        "",
        "cities = [",
    ]
    for c in rows("cities"):
        out.append(f"  {{ name = {_q(c['name'])}, lat = {float(c['lat'])}, lon = {float(c['lon'])} }},")
    out += ["]", "", "routes = ["]
    for r in rows("routes"):
        extra = ""
        if r["tunnel"] == "true":
            extra += ", tunnel = true"
        if int(r["ferry_locomotives"]):
            extra += f", ferry = {int(r['ferry_locomotives'])}"
        out.append(
            f"  {{ from = {_q(r['from'])}, to = {_q(r['to'])}, length = {int(r['length'])}, color = {_q(r['color'])}{extra} }},"
        )
    out += ["]", "", "tickets = ["]
    for t in rows("tickets"):
        kind = ', kind = "long"' if t["kind"] == "long" else ""
        out.append(f"  {{ from = {_q(t['from'])}, to = {_q(t['to'])}, points = {int(t['points'])}{kind} }},")
    out += ["]", ""]
    return "\n".join(out)


def main() -> None:
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "shared" / "maps"
    dest = Path(__file__).resolve().parents[1] / "variants" / "maps"
    for map_id, (title, trains) in MAPS.items():
        (dest / f"{map_id}.toml").write_text(convert(src, map_id, title, trains), encoding="utf-8")
        print(f"wrote {dest / (map_id + '.toml')}")


if __name__ == "__main__":
    main()
