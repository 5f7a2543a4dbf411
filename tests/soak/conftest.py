"""The soak run's summary lines, printed at the end of the pytest session (with or without ``-s``)."""

from __future__ import annotations

import pytest

_SUMMARIES: list[str] = []


@pytest.fixture
def soak_summaries() -> list[str]:
    """Append a line here to have it printed at the end of the session."""
    return _SUMMARIES


def pytest_terminal_summary(terminalreporter):
    for line in _SUMMARIES:
        terminalreporter.write_line(line)
