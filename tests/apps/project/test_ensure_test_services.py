"""tools/ensure_test_services.py waits for another package manager run instead of failing.

The apt-get runs here use a sandbox (APT_CONFIG pointing every apt folder, the configuration
parts included, into a temporary folder, with no package sources), so that holding a lock and
running apt-get touch nothing of the machine's package manager and fetch nothing.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from usa_kit import ROOT



def _tool():
    spec = importlib.util.spec_from_file_location("ensure_test_services", ROOT / "tools" / "ensure_test_services.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class HeldLock:
    """Another process holding an fcntl write lock on ``path``, as apt and dpkg take theirs."""

    def __init__(self, path: Path, seconds: float):
        code = ("import fcntl, os, sys, time\n"
                "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o640)\n"
                "fcntl.lockf(fd, fcntl.LOCK_EX)\n"
                "print('locked', flush=True)\n"
                "time.sleep(float(sys.argv[2]))\n")
        self.proc = subprocess.Popen([sys.executable, "-c", code, str(path), str(seconds)], stdout=subprocess.PIPE,
                                     text=True)
        assert self.proc.stdout.readline().strip() == "locked"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.proc.kill()
        self.proc.wait(10)


def test_apt_get_commands_wait_for_the_dpkg_lock():
    tool = _tool()
    for args in (["update"], ["install", "-y", "--no-install-recommends", "chromium"]):
        cmd = tool.apt_command(args)
        assert cmd[0] == "apt-get" and cmd[-len(args):] == args
        timeout = cmd.index(f"DPkg::Lock::Timeout={tool.LOCK_TIMEOUT}")
        assert cmd[timeout - 1] == "-o" and timeout < len(cmd) - len(args)
    assert tool.LOCK_TIMEOUT >= 300


def test_lock_holder_names_the_process_without_taking_the_lock(tmp_path):
    tool = _tool()
    lock = tmp_path / "lock"
    assert tool.lock_holder(lock) is None  # no file yet
    lock.touch()
    assert tool.lock_holder(lock) is None
    with HeldLock(lock, 30) as held:
        assert tool.lock_holder(lock) == held.proc.pid
        assert tool.process_name(held.proc.pid).startswith("python")
    assert tool.lock_holder(lock) is None


def test_wait_for_lock_waits_and_says_whom_it_waits_for(tmp_path):
    tool = _tool()
    lock = tmp_path / "lock"
    said: list[str] = []
    with HeldLock(lock, 1.5) as held:
        t0 = time.monotonic()
        assert tool.wait_for_lock(lock, timeout=60, poll=0.1, tell=said.append)
        assert time.monotonic() - t0 >= 1.0
    assert said[0].startswith(f"waiting for {lock}, held by process {held.proc.pid} (python")
    assert said[-1].startswith(f"{lock} is free after")


def test_wait_for_lock_gives_up_after_its_timeout(tmp_path):
    tool = _tool()
    lock = tmp_path / "lock"
    said: list[str] = []
    with HeldLock(lock, 30):
        assert not tool.wait_for_lock(lock, timeout=0.5, poll=0.1, tell=said.append)
    assert said[-1].startswith("gave up after")


@pytest.fixture
def apt_sandbox(tmp_path, monkeypatch) -> Path:
    if not (shutil.which("apt-get") and shutil.which("apt-config")):
        pytest.skip("apt-get is not installed")
    for folder in ("none", "state/lists/partial", "admin", "cache/archives/partial", "log"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "admin" / "status").touch()
    conf = tmp_path / "apt.conf"
    conf.write_text("\n".join(f'{key} "{value}";' for key, value in {
        "Dir::Etc::Parts": tmp_path / "none", "Dir::Etc::Main": tmp_path / "none" / "apt.conf",
        "Dir::Etc::SourceList": "/dev/null", "Dir::Etc::SourceParts": tmp_path / "none",
        "Dir::State": tmp_path / "state", "Dir::State::status": tmp_path / "admin" / "status",
        "Dir::Cache": tmp_path / "cache", "Dir::Log": tmp_path / "log",
    }.items()) + "\n")
    monkeypatch.setenv("APT_CONFIG", str(conf))
    assert _tool().lists_lock() == tmp_path / "state" / "lists" / "lock"
    return tmp_path


def test_apt_get_update_waits_for_the_package_lists_lock(apt_sandbox, capsys):
    tool = _tool()
    lock = apt_sandbox / "state" / "lists" / "lock"
    with HeldLock(lock, 1.5) as held:
        t0 = time.monotonic()
        assert tool.run_apt(["update"]) == 0
        assert time.monotonic() - t0 >= 1.0
    out = capsys.readouterr().out
    assert f"waiting for {lock}, held by process {held.proc.pid}" in out
    assert "running apt-get -o DPkg::Lock::Timeout=" in out


def test_apt_get_install_waits_for_the_dpkg_lock(apt_sandbox, capsys):
    tool = _tool()
    with HeldLock(apt_sandbox / "admin" / "lock-frontend", 1.5) as held:
        t0 = time.monotonic()
        assert tool.run_apt(["install", "-y"]) == 0  # nothing to install: only the lock matters
        assert time.monotonic() - t0 >= 1.0
    out = capsys.readouterr().out
    assert f"Waiting for cache lock: Could not get lock {apt_sandbox / 'admin' / 'lock-frontend'}" in out
    assert f"held by process {held.proc.pid}" in out
