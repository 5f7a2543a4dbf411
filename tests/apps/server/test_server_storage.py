"""The storage layer's group commit: the writes waiting together go in one transaction; a refusal
concerns its own write only; a write that fails undoes its whole batch."""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa

from ttr_server import db


@pytest.fixture
def engine(database_url):
    engine = db.make_engine(database_url)
    db.migrate(engine)
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE IF NOT EXISTS notes (k VARCHAR(20) PRIMARY KEY)"))
    yield engine
    engine.dispose()


def _notes(engine) -> set[str]:
    with engine.connect() as conn:
        return {r[0] for r in conn.execute(sa.text("SELECT k FROM notes"))}


def _note(k):
    def write(conn):
        conn.execute(sa.text("INSERT INTO notes VALUES (:k)"), {"k": k})
        return k
    return write


def _batch(engine, writes) -> tuple[dict, int]:
    """Queue ``writes`` behind a held first write, release it: they commit as one batch. Returns
    each write's result (or exception) and the number of transactions committed from the release."""
    commits = db.GroupCommit(engine)
    commits_seen = []
    sa.event.listen(engine, "commit", lambda conn: commits_seen.append(1))
    release = threading.Event()
    results = {}

    def held(conn):
        release.wait(30)
        return "held"

    def call(name, write):
        try:
            results[name] = commits.run(name, write)
        except Exception as exc:  # noqa: BLE001 - recorded for the test to look at
            results[name] = exc

    threads = [threading.Thread(target=call, args=("0-held", held))]
    threads[0].start()
    while commits._queue.qsize() or not threads[0].is_alive():  # the writer has taken the held write
        threading.Event().wait(0.01)
    for name, write in writes.items():
        threads.append(threading.Thread(target=call, args=(name, write)))
        threads[-1].start()
    while commits._queue.qsize() < len(writes):
        threading.Event().wait(0.01)
    before = len(commits_seen)
    release.set()
    for t in threads:
        t.join(30)
    commits.close()
    return results, len(commits_seen) - before


def test_writes_waiting_together_commit_in_one_transaction_and_a_refusal_is_theirs_alone(engine):
    writes = {f"n{i}": _note(f"n{i}") for i in range(10)}
    writes["n3"] = lambda conn: LookupError("stale")  # refused: raised in its caller only
    results, transactions = _batch(engine, writes)
    assert isinstance(results.pop("n3"), LookupError)
    assert results == {"0-held": "held", **{f"n{i}": f"n{i}" for i in range(10) if i != 3}}
    assert _notes(engine) == {f"n{i}" for i in range(10) if i != 3}
    assert transactions == 2  # the held write's own, then one for everything queued behind it


def test_a_write_that_fails_undoes_its_batch(engine):
    def broken(conn):
        conn.execute(sa.text("INSERT INTO notes VALUES ('lost')"))
        raise RuntimeError("disk on fire")

    results, _ = _batch(engine, {"a": _note("a"), "b": broken, "c": _note("c")})
    assert all(isinstance(results[k], RuntimeError) for k in "abc")
    assert _notes(engine) == set()
