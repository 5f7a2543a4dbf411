"""Install the system packages the game server's tests use, when they are missing.

Run before the tests (tox's ``commands_pre``): PostgreSQL (a real server for the storage tests)
and Chromium (the browser test), both from Debian's packages; no browser is ever downloaded.
Installs only as root on a Debian-like system with apt-get, and only what is missing; otherwise
it says what is missing and leaves the decision to the tests (they skip on a developer's machine
and fail under CI=true).
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys

# what must exist -> the Debian package that provides it
NEEDED = {
    "/usr/bin/chromium": "chromium",
    "/usr/lib/postgresql/*/bin/initdb": "postgresql",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf": "fonts-dejavu-core",  # text in screenshots
}


def missing() -> list[str]:
    return sorted({pkg for path, pkg in NEEDED.items() if not glob.glob(path)})


def main() -> int:
    packages = missing()
    if not packages:
        print("ensure_test_services: postgresql and chromium are installed")
        return 0
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        print(f"ensure_test_services: missing {', '.join(packages)}; not root with apt-get, so not installing "
              "(the tests that need them skip, or fail under CI=true)")
        return 0
    print(f"ensure_test_services: installing {', '.join(packages)} with apt-get", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update", "-q"],
                ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]):
        done = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if done.returncode:
            print(done.stdout[-4000:], done.stderr[-4000:], sep="\n", file=sys.stderr)
            print(f"ensure_test_services: {' '.join(cmd)} failed ({done.returncode})", file=sys.stderr)
            return done.returncode
    still = missing()
    if still:
        print(f"ensure_test_services: still missing after installing: {', '.join(still)}", file=sys.stderr)
        return 1
    print("ensure_test_services: done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
