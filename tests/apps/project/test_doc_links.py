"""Every relative link of the README and of the documentation pages leads somewhere: the file
exists, and a ``#section`` names a heading (or an ``<a id>`` anchor) of the page it points to, as
GitHub and the documentation site (MyST's heading anchors) spell them."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from usa_kit import ROOT

PAGES = [ROOT / "README.md", ROOT / "bench" / "data" / "README.md",
         *sorted(p for p in (ROOT / "docs").rglob("*.md") if "_build" not in p.parts)]
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
CODE_SPAN = re.compile(r"`[^`\n]*`")


def prose(text: str) -> str:
    """The text without its code blocks and code spans, where a link is only an example."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """A heading's anchor as GitHub and MyST make it: lower case, punctuation dropped, spaces as ``-``."""
    text = re.sub(r"[`*]", "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    found: set[str] = set(re.findall(r'<a id="([^"]+)"></a>', text))
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6} (.+?)\s*$", text, re.M):
        base = slug(heading)
        found.add(base if base not in seen else f"{base}-{seen[base]}")
        seen[base] = seen.get(base, 0) + 1
    return found


def links(page: Path) -> list[str]:
    return [t for t in LINK.findall(prose(page.read_text(encoding="utf-8")))
            if not re.match(r"[a-z][a-z0-9+.-]*:", t)]  # http:, https:, mailto: lead elsewhere


def _where(path: Path) -> Path:
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def broken(page: Path) -> list[str]:
    problems = []
    for target in links(page):
        path, _, anchor = unquote(target).partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            problems.append(f"{target}: no file {_where(dest)}")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            problems.append(f"{target}: no heading or anchor #{anchor} in {_where(dest)}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_relative_link_resolves(page):
    assert broken(page) == []


def test_the_readme_links_every_guide_page_of_the_site():
    readme = {unquote(t).partition("#")[0] for t in links(ROOT / "README.md")}
    pages = {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md") if p.name != "index.md"}
    assert pages - readme == set()


def test_the_check_finds_a_missing_file_and_a_missing_section(tmp_path):
    (tmp_path / "other.md").write_text("# Other\n\n## A `code` section, with commas\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("[ok](other.md#a-code-section-with-commas) [gone](missing.md) [no](other.md#nowhere)\n"
                    "`[in code](missing.md)` [web](https://example.org/x.md) [here](#page)\n\n# Page\n",
                    encoding="utf-8")
    problems = broken(page)
    assert len(problems) == 2
    assert problems[0].startswith("missing.md: no file") and problems[1].startswith("other.md#nowhere: no heading")
