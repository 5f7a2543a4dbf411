"""The hooks of the capabilities plugins offer each other: part of the public plugin API.

A plugin that offers an extension point (a capability it ``provides``, such as ``open-row``)
declares that capability's hooks in ``ttr_addhooks``, and the plugins answering them name the
capability in ``requires``. The hook specs of the capabilities the built-in plugins provide live
here, one module per capability and named after it, never after a plugin (``open-row`` ->
:mod:`ttr_core.roles.open_row`), so that a plugin *replacing* a built-in provider declares the
same hooks without copying their specs and without importing another plugin::

    from ttr_core.plugin import Plugin, hookimpl
    from ttr_core.roles import open_row

    class River(Plugin):
        provides = ("open-row",)

        @hookimpl
        def ttr_addhooks(self, pluginmanager):
            pluginmanager.add_hookspecs(open_row.OpenRowHooks)

The engine never declares these hooks itself: a ruleset has them exactly when one of its plugins
provides the capability. Each module holds the spec class, the types its hooks pass, and
``CAPABILITY`` and ``HOOKS`` (the capability's name and its spec class), which
:func:`hooks_of` reads. A module imports only :mod:`ttr_core.plugin`.
"""

from __future__ import annotations

import importlib
import re

#: what a capability with hooks of its own is named like: words joined by "-"
CAPABILITY_NAME = r"[a-z][a-z0-9]*(-[a-z0-9]+)*"


def hooks_of(capability: str) -> type | None:
    """The spec class of ``capability``'s hooks (``"open-row"``: :class:`ttr_core.roles.open_row.OpenRowHooks`),
    or None when the plugin API defines none for it."""
    if not re.fullmatch(CAPABILITY_NAME, capability):
        return None  # "tie-breaker:fewest-stations" and the like name an answer, not a set of hooks
    name = f"{__name__}.{capability.replace('-', '_')}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None
    return getattr(module, "HOOKS", None)
