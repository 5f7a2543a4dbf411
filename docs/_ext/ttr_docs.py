"""A small Sphinx extension for this site.

- ``ttr-action-kinds``: a directive writing the table of the action kinds the built-in plugins
  register, read from the installed variants' action registries (so the page cannot fall behind
  the code), followed by the reference of each action class.
- The index's table of contents names ``rules`` (the rule digest, ``docs/rules.md``) only when
  that page exists, so the site builds with or without it.
- The signatures of attrs classes show their defaults as values (``resigned: bool = False``):
  with ``autodoc_preserve_defaults`` (which keeps ``loader=variant.load`` readable) attrs'
  generated ``__init__`` would otherwise read ``attr_dict['resigned'].default``.
- HTML anchors written for GitHub's Markdown view, ``<a id="R-END-1"></a>`` (the rule ids of
  ``docs/rules.md``), also become MyST targets (``[]{#R-END-1}``), so that the page's links to
  them, ``[R-END-1](#R-END-1)``, resolve in Sphinx too instead of being reported missing.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs
from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

RULES_MARKER = "%rules-page-when-present"
HTML_ANCHOR = re.compile(r'<a id="([A-Za-z][\w.-]*)"></a>')


def builtin_action_kinds() -> list[dict]:
    """Every action kind registered by a built-in plugin (``ttr_plugins``), with the variants using
    it, in the order of first registration over the built-in variants."""
    from ttr_core import variant

    found: dict[str, dict] = {}
    builtin = variant.builtin_dir()
    for vid, path in sorted(variant.available().items()):
        if path.parent != builtin:
            continue  # a third-party variant: its plugins are not the engine's to document
        for reg in variant.load(vid).rules.registry:
            if not reg.cls.__module__.startswith("ttr_plugins."):
                continue
            entry = found.setdefault(reg.cls.kind, {"reg": reg, "variants": []})
            entry["variants"].append(vid)
    # turn actions first, then answers to decisions, the fallback, the any-time ones
    return sorted(found.values(), key=lambda k: _ORDER.index(_when(k["reg"])))


_ORDER = [
    "as a turn",
    "only to answer a pending decision",
    "as a turn, only when no other turn action is legal",
    "at any moment, by any seat still playing (in or out of turn)",
]


def _when(reg) -> str:
    if reg.any_time:
        return "at any moment, by any seat still playing (in or out of turn)"
    if reg.fallback:
        return "as a turn, only when no other turn action is legal"
    if reg.starts_turn:
        return "as a turn"
    return "only to answer a pending decision"


def _fields(cls) -> str:
    out = []
    for f in attrs.fields(cls):
        kind = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        default = "" if f.default is attrs.NOTHING else f" = {f.default!r}"
        out.append(f"``{f.name}: {kind}{default}``")
    return ", ".join(out) or "(none)"


class ActionKinds(SphinxDirective):
    """``.. ttr-action-kinds::``: the table, then an ``autoclass`` per action class."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        kinds = builtin_action_kinds()
        lines = [
            ".. list-table:: Action kinds of the built-in plugins",
            "   :header-rows: 1",
            "   :widths: 14 14 12 26 18 16",
            "",
            "   * - ``kind``",
            "     - class",
            "     - plugin",
            "     - fields (JSON keys besides ``kind``)",
            "     - played",
            "     - variants",
        ]
        for k in kinds:
            reg = k["reg"]
            lines += [
                f"   * - ``{reg.cls.kind}``",
                f"     - :class:`~{reg.cls.__module__}.{reg.cls.__qualname__}`",
                f"     - ``{reg.plugin}``",
                f"     - {_fields(reg.cls)}",
                f"     - {_when(reg)}",
                f"     - {', '.join(f'``{v}``' for v in k['variants'])}",
            ]
        lines.append("")
        for k in kinds:
            cls = k["reg"].cls
            lines += [f".. autoclass:: {cls.__module__}.{cls.__qualname__}", "   :no-members:", ""]
        node = nodes.section()
        node.document = self.state.document
        self.state.nested_parse(StringList(lines, source="ttr-action-kinds"), self.content_offset, node)
        return node.children


ATTRS_DEFAULT = re.compile(r"attr_dict\['(\w+)'\]\.default")


def _attrs_defaults(app, what, name, obj, options, signature, return_annotation):
    if what != "class" or not signature or "attr_dict[" not in signature or not attrs.has(obj):
        return None
    fields = attrs.fields_dict(obj)

    def shown(m: re.Match) -> str:
        default = fields[m.group(1)].default if m.group(1) in fields else attrs.NOTHING
        if isinstance(default, attrs.Factory):  # attrs.Factory(list): a fresh empty list per instance
            return f"{getattr(default.factory, '__name__', 'factory')}()"
        return m.group(0) if default is attrs.NOTHING else repr(default)

    return ATTRS_DEFAULT.sub(shown, signature), return_annotation


def _rules_page(app, docname: str, source: list[str]) -> None:
    if docname != app.config.root_doc:
        return
    present = (Path(app.srcdir) / "rules.md").is_file()
    source[0] = source[0].replace(RULES_MARKER, "rules" if present else "")


def _html_anchors(app, docname: str, source: list[str]) -> None:
    # the raw anchor stays (its id, "R-END-1", is what links from outside name); the MyST target
    # beside it gets Sphinx's own id ("r-end-1") and makes the in-page links resolve
    source[0] = HTML_ANCHOR.sub(lambda m: f"{m.group(0)}[]{{#{m.group(1)}}}", source[0])


def setup(app):
    app.add_directive("ttr-action-kinds", ActionKinds)
    app.connect("source-read", _rules_page)
    app.connect("source-read", _html_anchors)
    app.connect("autodoc-process-signature", _attrs_defaults)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
