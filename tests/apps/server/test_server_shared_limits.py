"""The limits every server process shares, counted in the database: a client's games per minute,
event streams per client and per game, and the streams of a process that died stop counting."""

from __future__ import annotations

import pytest

sa = pytest.importorskip("sqlalchemy")

from ttr_server import db, shared_limits  # noqa: E402
from ttr_server.shared_limits import SharedRateLimit, SharedSlots  # noqa: E402


@pytest.fixture
def engine(tmp_path):
    engine = db.make_engine(f"sqlite:///{tmp_path / 'limits.sqlite3'}")
    db.migrate(engine)
    yield engine
    engine.dispose()


def test_games_per_minute_count_per_client_and_two_counters_on_one_database_share_them(engine):
    first, second = (SharedRateLimit(engine, "create-game", 2, 60.0) for _ in range(2))  # two processes
    assert first.take("10.0.0.1") == 0.0 and second.take("10.0.0.1") == 0.0
    wait = first.take("10.0.0.1")
    assert 59.0 < wait <= 60.0  # the third within the minute waits for the first to leave the window
    assert second.take("10.0.0.2") == 0.0  # another address has its own count
    with engine.begin() as conn:  # a minute later
        conn.execute(sa.update(db.limit_events).values(at=db.limit_events.c.at - 61))
    assert second.take("10.0.0.1") == 0.0


def test_streams_are_counted_per_client_and_per_game_until_released(engine):
    one, two = SharedSlots(engine, 2, 3), SharedSlots(engine, 2, 3)
    a, _ = one.acquire("ada", "g1")
    b, _ = two.acquire("ada", "g2")
    assert a and b
    assert one.acquire("ada", "g3") == (None, "client")
    two.release(a)
    c, _ = one.acquire("ada", "g1")
    assert c
    d, _ = one.acquire("bob", "g1")
    e, _ = one.acquire("eve", "g1")
    assert two.acquire("zoe", "g1") == (None, "game")  # three streams on g1: c, d, e
    assert d and e


def test_the_streams_of_a_process_that_died_stop_counting(engine):
    slots = SharedSlots(engine, 1, 0)
    held, _ = slots.acquire("ada", "g1")
    assert slots.acquire("ada", "g1") == (None, "client")
    with engine.begin() as conn:  # nobody refreshed the row for longer than STALE_AFTER
        conn.execute(sa.update(db.stream_slots).values(seen_at=db.stream_slots.c.seen_at - shared_limits.STALE_AFTER - 1))
    again, _ = slots.acquire("ada", "g1")
    assert again
    slots.refresh(again)  # an open stream refreshes its row: it keeps counting
    assert slots.acquire("ada", "g1") == (None, "client")
    other, _ = slots.acquire("zoe", "g2")  # a stream of another process, which then dies
    with engine.begin() as conn:
        conn.execute(sa.update(db.stream_slots).where(db.stream_slots.c.id == other)
                     .values(seen_at=db.stream_slots.c.seen_at - shared_limits.STALE_AFTER - 1))
    assert shared_limits.forget_expired(engine) == 1  # the dead process's row is swept away
    with engine.connect() as conn:
        assert conn.execute(sa.select(db.stream_slots.c.id)).scalars().all() == [again]
