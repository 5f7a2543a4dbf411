"""Sphinx configuration: the API reference built from the docstrings, the Markdown pages through
MyST. Build it with ``python -m sphinx -W --keep-going -b html docs docs/_build/html``
(tests/apps/project/test_docs.py does exactly that, so a warning fails the test suite).

The reference documents the *installed* packages (``pip install -e ".[docs]"``): the rule
plugins exist as ``ttr_plugins`` only once installed, so nothing is added to ``sys.path`` here
but the page extension in ``_ext/``. No extension fetches anything (no intersphinx): the build
works offline.
"""

from __future__ import annotations

import sys
from pathlib import Path

import ttr_core

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

project = "ttr-engine"
author = "the ttr-engine authors"
copyright = "the ttr-engine authors"  # noqa: A001 - Sphinx's name
release = ttr_core.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "myst_parser",
    "ttr_docs",  # _ext/ttr_docs.py: the action-kinds table, docs/rules.md when present
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
# docs/examples/*.py are included by the tutorial (literalinclude), not pages of their own
exclude_patterns = ["_build", "_ext", "examples", "Thumbs.db", ".DS_Store"]

# --- autodoc ------------------------------------------------------------------------------------
# Plain reST docstrings (``code``, :class:`...`): no napoleon, nothing rewrites them.
autodoc_default_options = {"member-order": "bysource"}
# Types are shown in the signatures as written in the code (``from __future__ import annotations``
# keeps them as strings); no cross-reference checking of every annotation (nitpicky is off).
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
# defaults as written (``loader=variant.load``, not ``<function load at 0x...>``); attrs classes'
# generated defaults are shown as values by _ext/ttr_docs.py
autodoc_preserve_defaults = True
# autodoc imports the modules; these are the engine's own, nothing to mock.
add_module_names = False

# --- MyST (the Markdown pages: this site's, and the generated docs/plugins.md, docs/rules.md) ---
# attrs_inline: ``[]{#R-END-1}`` targets (see _ext/ttr_docs.py, for docs/rules.md's rule anchors)
myst_enable_extensions = ["colon_fence", "deflist", "attrs_inline"]
# "## What a plugin may use of a game" gets an anchor, so pages can link to a section
myst_heading_anchors = 3

# --- HTML ---------------------------------------------------------------------------------------
html_theme = "alabaster"  # Sphinx's own: no theme package to install
# wide enough for the tutorial's 100-column code lines
html_theme_options = {"page_width": "1240px", "sidebar_width": "220px", "body_max_width": "none"}
html_title = f"ttr-engine {release}"
html_static_path: list[str] = []
html_show_sourcelink = False
