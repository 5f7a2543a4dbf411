"""Write docs/plugins.md, the plugin reference, from the hook specs and the installed plugins.

    python tools/make_plugin_docs.py          # rewrite the page
    python tools/make_plugin_docs.py --check  # exit 1 if the page is not what the code says
"""

from __future__ import annotations

import sys
from pathlib import Path

from ttr_kit.reference import render

PAGE = Path(__file__).resolve().parent.parent / "docs" / "plugins.md"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        same = PAGE.exists() and PAGE.read_text(encoding="utf-8") == text
        print("docs/plugins.md is up to date" if same else "docs/plugins.md differs: run python tools/make_plugin_docs.py")
        return 0 if same else 1
    PAGE.write_text(text, encoding="utf-8")
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
