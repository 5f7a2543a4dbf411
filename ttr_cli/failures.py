"""How the ``ttr`` commands fail: one located line per problem, an exit code from one table, and
with ``--json`` the same problems as data on standard output. Never a traceback for bad input;
``ttr --debug`` shows the traceback of a plugin's failure to its author.

The exit codes are :data:`OK`, :data:`CHECK_FAILED`, :data:`BAD_INPUT`, :data:`PORT_IN_USE` and
:data:`INTERRUPTED`; what each means is the table of docs/cli.md (tests/apps/cli/test_clean_failures.py
checks that the table and these agree, and runs a command for each).

With ``--json``, a failure prints on standard output ``{"problems": [{"where": ..., "message":
..., "code": ...}]}`` (a command that did part of its work adds what it did, under its own keys):
``message`` is the line printed without ``--json`` (less ``error:``), ``where`` the file (and
``$.path`` in it) or the option it is about, null when there is none, ``code`` the kind of
problem (:data:`CODES`).
"""

from __future__ import annotations

import functools
import json
import re
import sys
import traceback
from collections.abc import Iterable
from pathlib import Path
from types import MappingProxyType
from typing import Any

import click
from rich.console import Console
from rich.markup import escape

from ttr_cli import variant_sources
from ttr_cli.preflight import MissingExtra
from ttr_core.errors import FileProblems, IllegalAction, PluginError, PluginFailed, RecordError, TTRError, VariantError
from ttr_core.files import WriteError

OK, CHECK_FAILED, BAD_INPUT, PORT_IN_USE, INTERRUPTED = 0, 1, 2, 3, 130

#: standard error, where the ``error:`` lines go
err = Console(stderr=True, highlight=False, soft_wrap=True)

#: the ``code`` of a problem in ``--json`` output, and what it means
CODES = MappingProxyType({
    "variant-file": "a variant or map file is broken",
    "variant-package": "a package's ttr.variants entry point gives no variant file (the fix is in the message)",
    "record-file": "a game record or position file is broken, or does not reproduce",
    "cannot-write": "a file could not be written (nothing was left half-written)",
    "missing-extra": "the command needs an optional extra that is not installed",
    "plugin": "a plugin could not be loaded, or does not fit the others",
    "plugin-failed": "a plugin raised while the game was played (ttr --debug shows where)",
    "illegal-action": "an action the rules refuse",
    "usage": "an option or argument the command does not take",
    "bad-input": "any other input the command cannot use",
    "check-failed": "a check found games that break the rules' invariants",
    "interrupted": "the command was interrupted (Ctrl-C)",
    "port-in-use": "ttr serve: the address is in use",
})


class Failure(TTRError):
    """A command's own failure with its exit code and problem code (a failed check, an
    interruption, a port in use), raised inside a :func:`guarded` command."""

    def __init__(self, lines: Iterable[str], exit_code: int, code: str, extra: dict[str, Any] | None = None,
                 where: str | None = None):
        # ``where``: the location of every line when the lines cannot say it (a command's argument)
        self.lines, self.exit_code, self.code, self.extra, self.where = list(lines), exit_code, code, extra or {}, where
        super().__init__("\n".join(self.lines))


def interrupted(what: str, extra: dict[str, Any] | None = None) -> Failure:
    """The failure of a command stopped by Ctrl-C; ``what`` says what was saved and how to go on."""
    return Failure([f"interrupted: {what}"], INTERRUPTED, "interrupted", extra)


# --- problems as lines and as data -------------------------------------------------------------

# "--out x: ...", "file.toml: $.a.b: ...", "<stdin>: ...", "game.json: ..."
_LOCATION = re.compile(
    r"^(?P<where>--[\w-]+(?: [^:]+)?|(?:<stdin>|[^:\n]+?\.(?:toml|json|sqlite3|dump|html|png|svg))(?:: \$[^:\s]*)?): "
)


def where_of(line: str) -> str | None:
    """The location a problem line starts with (a file and ``$.path`` in it, an option, a folder
    or file that exists), or None."""
    m = _LOCATION.match(line)
    if m:
        return m["where"]
    first = line.split(": ", 1)[0]
    try:
        return first if ": " in line and first and Path(first).exists() else None
    except (OSError, ValueError):  # not a name a file could have
        return None


def problem(line: str, code: str, where: str | None = None) -> dict[str, Any]:
    """One problem in the ``--json`` shape."""
    return {"where": where if where is not None else where_of(line), "message": line, "code": code}


def problems_of(exc: BaseException) -> list[dict[str, Any]]:
    """The problems of an error a command raised, in the ``--json`` shape."""
    if isinstance(exc, Failure):
        return [problem(line, exc.code, exc.where) for line in exc.lines]
    if isinstance(exc, WriteError):
        return [problem(str(exc), "cannot-write", str(exc.path))]
    if isinstance(exc, FileProblems):
        code = "variant-file" if isinstance(exc, VariantError) else "record-file" if isinstance(exc, RecordError) else "bad-input"
        found = [problem(p, code) for p in exc.problems]
        if isinstance(exc, VariantError) and any("unknown variant" in p for p in exc.problems):
            # the variant may be one a package meant to ship, and left out of its wheel
            found += [problem(p, "variant-package") for p in variant_sources.problems()]
        return found
    if isinstance(exc, PluginFailed):
        return [problem(str(exc), "plugin-failed")]
    if isinstance(exc, PluginError):
        return [problem(p, "plugin") for p in exc.problems]
    if isinstance(exc, IllegalAction):
        return [problem(str(exc), "illegal-action")]
    if isinstance(exc, MissingExtra):
        return [problem(str(exc), "missing-extra")]
    if isinstance(exc, click.UsageError):
        param = getattr(exc, "param", None)
        where = param.opts[0] if param is not None and getattr(param, "opts", None) else None
        return [problem(exc.format_message(), "usage", where)]
    return [problem(line, "bad-input") for line in str(exc).splitlines() or [type(exc).__name__]]


def print_problems(problems: list[dict[str, Any]], as_json: bool, extra: dict[str, Any] | None = None) -> None:
    """The problems on standard error as ``error:`` lines, or with ``--json`` as data on standard output."""
    if as_json:
        click.echo(json.dumps({**(extra or {}), "problems": problems}, indent=2))
        return
    for p in problems:
        err.print(f"[red]error:[/red] {escape(p['message'])}", markup=True)


def debugging() -> bool:
    """``ttr --debug`` was given (or ``TTR_DEBUG=1``)."""
    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and ctx.find_root().params.get("debug"))


def _print_traceback(exc: BaseException) -> None:
    shown = exc.original if isinstance(exc, PluginFailed) else exc
    click.echo("".join(traceback.format_exception(shown)).rstrip(), err=True)


def guarded(fn):
    """Run a command's callback so that it fails cleanly: bad input becomes located lines (or
    ``--json`` problems) and exit code 2, a :class:`Failure` its own exit code, Ctrl-C exit code
    130; with ``ttr --debug`` the traceback of a failure is shown first."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        as_json = bool(kwargs.get("as_json"))
        try:
            return fn(*args, **kwargs)
        except KeyboardInterrupt:
            exc = interrupted("nothing was saved")
        except TTRError as caught:
            exc = caught
        if debugging():
            _print_traceback(exc)
        print_problems(problems_of(exc), as_json, exc.extra if isinstance(exc, Failure) and as_json else None)
        sys.exit(exc.exit_code if isinstance(exc, Failure) else BAD_INPUT)

    return wrapper


class Commands(click.Group):
    """The ``ttr`` group: a usage error (an unknown option, a value that does not parse) of a
    command given ``--json`` is reported in the ``--json`` shape too."""

    def invoke(self, ctx: click.Context):
        words = list(ctx.args)  # the command's words (the command's name aside, which is never --json)
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            options = words[: words.index("--")] if "--" in words else words
            if "--json" not in options:
                raise
            print_problems(problems_of(exc), True)
            sys.exit(exc.exit_code)
