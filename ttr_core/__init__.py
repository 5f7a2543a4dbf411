"""ttr-engine: a rules engine for the Ticket to Ride family of railway games.

The engine: it runs turns and asks pluggy hooks (``ttr_core.hookspecs``) for every rule; the
rules are plugins found through entry points, written against ``ttr_core.plugin``; variants and
maps are TOML files. Start with ``ttr_core.variant.load`` and ``ttr_core.game.Game``, or the
``ttr`` command (``ttr_cli``).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("ttr-engine")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"
