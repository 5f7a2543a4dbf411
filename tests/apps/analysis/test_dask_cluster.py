"""``ttr simulate --scheduler tcp://…`` on a real Dask cluster: a ``dask scheduler`` and two
``dask worker`` processes on loopback, started as a user would start them (separate processes,
not a ``LocalCluster`` inside the test), give the same records as a run on the local cores.

Everything started here is stopped at the end, whatever happens: each process is the leader of
its own process group, and that group is ended by its id.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

pytestmark = pytest.mark.slow

BIN = Path(sys.executable).parent
START_TIMEOUT = 60  # seconds for the scheduler to write its address and both workers to join
RUN_TIMEOUT = 300  # seconds for each `ttr simulate`


def _command(name: str) -> str:
    path = BIN / name
    found = str(path) if path.exists() else shutil.which(name)
    if found is None:
        pytest.skip(f"the {name!r} command is not installed")
    return found


def _start(args: list[str], log: Path, cwd: Path) -> subprocess.Popen:
    with log.open("wb") as out:
        return subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, cwd=cwd, start_new_session=True)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)  # its own group (start_new_session): the worker and what it forked
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


@pytest.fixture
def cluster(tmp_path):
    """The scheduler's address, once two workers have joined it."""
    dask = _command("dask")
    scheduler_file = tmp_path / "scheduler.json"
    procs = []
    try:
        # port 0: the system picks a free port, which the scheduler writes into its file
        procs.append(_start([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                             "--scheduler-file", str(scheduler_file)], tmp_path / "scheduler.log", tmp_path))
        address = _wait_for_address(scheduler_file, procs[0], tmp_path / "scheduler.log")
        for i in range(2):
            procs.append(_start([dask, "worker", address, "--host", "127.0.0.1", "--nthreads", "1", "--no-nanny",
                                 "--no-dashboard", "--name", f"worker-{i}", "--local-directory", str(tmp_path / f"w{i}")],
                                tmp_path / f"worker-{i}.log", tmp_path))
        _wait_for_workers(address, 2)
        yield address
    finally:
        for proc in reversed(procs):
            _stop(proc)


def _wait_for_address(scheduler_file: Path, proc: subprocess.Popen, log: Path) -> str:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"dask scheduler exited ({proc.returncode}): {log.read_text(errors='replace')[-2000:]}")
        try:
            return json.loads(scheduler_file.read_text(encoding="utf-8"))["address"]
        except (OSError, ValueError, KeyError):
            time.sleep(0.2)
    pytest.fail(f"dask scheduler gave no address within {START_TIMEOUT} s")


def _wait_for_workers(address: str, n: int) -> None:
    from distributed import Client

    with Client(address, timeout=START_TIMEOUT) as client:
        client.wait_for_workers(n, timeout=START_TIMEOUT)


def _simulate(out: Path, *options: str) -> dict:
    ttr = _command("ttr")
    done = subprocess.run(
        [ttr, "simulate", "--variant", "usa", "--games", "8", "--seed", "3", "--bots", "ticket,random",
         "--out", str(out), "--json", *options],
        capture_output=True, text=True, timeout=RUN_TIMEOUT,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _ran_games(address: str) -> dict[str, bool]:
    """Per worker: whether it has run a task of ``ttr_analysis.simulate`` (its module is loaded)."""
    from distributed import Client

    with Client(address, timeout=START_TIMEOUT) as client:
        return client.run(lambda: "ttr_analysis.simulate" in sys.modules)


def _same_records(one: Path, other: Path) -> None:
    names = sorted(p.name for p in one.iterdir())
    assert names == sorted(f"usa-v1-seed{s}.json" for s in range(3, 11))
    assert sorted(p.name for p in other.iterdir()) == names
    for name in names:
        assert (one / name).read_bytes() == (other / name).read_bytes()


def _numbers(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in ("timing", "records")}


def test_simulate_on_a_dask_cluster_gives_the_records_of_a_local_run(cluster, tmp_path):
    kept = tmp_path / "kept"
    remote = _simulate(tmp_path / "remote", "--scheduler", cluster, "--workers", "2", "--cache", str(kept))
    local = _simulate(tmp_path / "local", "--workers", "1", "--no-cache")
    assert remote["timing"]["where"] == f"dask {cluster}" and local["timing"]["where"] == "this process"
    assert remote["timing"]["reused"] == 0
    assert any(_ran_games(cluster).values())  # the games were played by the workers
    _same_records(tmp_path / "remote", tmp_path / "local")
    assert _numbers(remote) == _numbers(local)
    # what the workers played was kept by the process that ran the simulation, and serves a local run
    again = _simulate(tmp_path / "again", "--workers", "1", "--cache", str(kept))
    assert again["timing"]["reused"] == 8
    _same_records(tmp_path / "again", tmp_path / "local")
    assert _numbers(again) == _numbers(local)


def _sweep(out: Path, *options: str) -> dict:
    ttr = _command("ttr")
    done = subprocess.run(
        [ttr, "playtest", "--variant", "wor", "--sweep", "ticket-leader.points=0,40", "--players", "2", "--games", "4",
         "--seed", "3", "--bots", "ticket,random", "--out", str(out), "--json", *options],
        capture_output=True, text=True, timeout=RUN_TIMEOUT,
    )
    assert done.returncode == 0, done.stderr
    return json.loads((out / "sweep.json").read_text())


def test_a_played_sweep_on_a_dask_cluster_gives_the_figures_of_a_local_run(cluster, tmp_path):
    kept = tmp_path / "kept"
    remote = _sweep(tmp_path / "remote", "--scheduler", cluster, "--workers", "2", "--cache", str(kept))
    assert any(_ran_games(cluster).values())  # the workers played, with the setting each task carries
    local = _sweep(tmp_path / "local", "--workers", "1", "--no-cache")
    assert remote == local and remote["mode"] == "play"
    assert len(list(kept.glob("**/*.z"))) == 4 * 3  # the base's games and each value's, kept by this process
