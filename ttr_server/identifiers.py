"""The one maker of the server's identifiers: game ids, seat tokens, invitations, host secrets.

They are URL-safe (``secrets.token_urlsafe``), and never start with ``-``: an identifier pasted
into a command line (``ttr admin token GAME SEAT``) would otherwise be read as an option. The
draw is simply repeated in that case, so every identifier that does not start with ``-`` stays
equally likely. Identifiers stored before this rule keep working: nothing checks the first
character when one is looked up, and ``ttr admin`` accepts any identifier after ``--``.
"""

from __future__ import annotations

import secrets


def new_identifier(nbytes: int) -> str:
    """A fresh random identifier of ``nbytes`` random bytes, never starting with ``-``."""
    while True:
        identifier = secrets.token_urlsafe(nbytes)
        if not identifier.startswith("-"):
            return identifier
