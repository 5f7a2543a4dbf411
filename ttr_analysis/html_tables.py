"""Wide report tables made readable on a phone: each cell of a table with many columns carries
its column's heading (``data-label``), so that on a narrow screen (:data:`CSS`, under 700 px) each
row is stacked as a card of "heading: value" lines instead of squeezing the columns until the
page scrolls sideways."""

from __future__ import annotations

import re
from html import unescape

#: a table with at least this many columns is stacked on a narrow screen; narrower ones wrap
STACK_FROM = 5

CSS = """
@media (max-width: 700px) {
  table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; width: auto; }
  table.stack th { display: none; }
  table.stack tr { border-bottom: 2px solid #ccc; padding: 3px 0; }
  table.stack td { border: 0; text-align: left; padding: 1px 4px; }
  table.stack td:first-child { font-weight: bold; }
  table.stack td[data-label]::before { content: attr(data-label) ": "; color: #555; }
}
"""

_TABLE = re.compile(r"<table>(.*?)</table>", re.S)
_ROW = re.compile(r"<tr>(.*?)</tr>", re.S)
_HEAD = re.compile(r"<th>(.*?)</th>", re.S)
_CELL = re.compile(r"<td(?=[ >])")
_TAG = re.compile(r"<[^>]+>")


def _label(text: str) -> str:
    return unescape(_TAG.sub("", text)).replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def _stacked(match: re.Match) -> str:
    body = match.group(1)
    rows = _ROW.findall(body)
    heads = _HEAD.findall(rows[0]) if rows else []
    if len(heads) < STACK_FROM:
        return match.group(0)
    labels = [_label(h) for h in heads]

    def row(m: re.Match) -> str:
        cells = iter(labels)
        return "<tr>" + _CELL.sub(lambda _: f'<td data-label="{next(cells, "")}"', m.group(1)) + "</tr>"

    return '<table class="stack">' + _ROW.sub(row, body) + "</table>"


def stackable(html: str) -> str:
    """``html`` with every table of :data:`STACK_FROM` or more columns marked to stack on a phone."""
    return _TABLE.sub(_stacked, html)
