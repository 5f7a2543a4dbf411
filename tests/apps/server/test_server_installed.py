"""The server tests exercise the installed package, not the source tree.

A server process runs in a temporary working directory (``server_kit.work_dir``), since Python puts
the working directory first on ``sys.path``. Under tox, which installs the wheel, the packages the
server imports must come from the environment's site-packages. Under an editable install (a
developer's ``pip install -e``) the installed location *is* the source tree, so only the working
directory can be checked.
"""

from __future__ import annotations

import json
import os
import subprocess
from importlib import metadata
from pathlib import Path

import pytest

from server_kit import REPO, python_command, server_process

PACKAGES = ("ttr_server", "ttr_cli", "ttr_core", "ttr_plugins")
_WHERE = (
    "import importlib, json, sysconfig\n"
    "paths = sysconfig.get_paths()\n"
    "print(json.dumps({'site': sorted({paths['purelib'], paths['platlib']}),\n"
    f"                  'files': {{n: importlib.import_module(n).__file__ for n in {PACKAGES!r}}}}}))\n"
)


def _editable_install() -> bool:
    # every copy of the metadata: a build's ttr_engine.egg-info in the working directory is one too
    urls = [d.read_text("direct_url.json") or "{}" for d in metadata.distributions(name="ttr-engine")]
    return any(json.loads(url).get("dir_info", {}).get("editable") for url in urls)


def _imported_in(cwd: Path) -> dict:
    """What a server process started as the tests start them, in ``cwd``, imports, and its site-packages."""
    done = subprocess.run([*python_command(), "-c", _WHERE], cwd=cwd, capture_output=True, text=True, timeout=60,
                          check=True)
    return json.loads(done.stdout)


def _under(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def test_a_server_process_runs_outside_the_repository(tmp_path):
    with server_process(f"sqlite:///{tmp_path / 'games.sqlite3'}", tmp_path) as server:
        proc_cwd = Path(f"/proc/{server.proc.pid}/cwd")
        cwd = proc_cwd.resolve() if proc_cwd.exists() else server.cwd
        assert cwd == server.cwd.resolve()
        assert not _under(cwd, REPO), f"the server runs in {cwd}, inside the repository"


def test_under_tox_the_server_imports_the_installed_wheel(tmp_path):
    under_tox = bool(os.environ.get("TOX_ENV_NAME"))
    if _editable_install():
        assert not under_tox, "tox must install the wheel, not an editable copy of the source tree"
        pytest.skip("editable install: the installed package is the source tree (only the working directory is checked)")
    found = _imported_in(tmp_path)
    site = [Path(p).resolve() for p in found["site"]]
    for name, file in found["files"].items():
        path = Path(file).resolve()
        assert any(_under(path, s) for s in site), f"the server imports {name} from {path}, not from {site}"


def test_under_tox_the_tests_import_the_installed_wheel():
    """The in-process tests (TestClient) too: the test process's ttr_server is the installed one."""
    if _editable_install():
        pytest.skip("editable install: the installed package is the source tree")
    import sysconfig

    import ttr_server

    path = Path(ttr_server.__file__).resolve()
    site = {Path(sysconfig.get_paths()[k]).resolve() for k in ("purelib", "platlib")}
    assert any(_under(path, s) for s in site), f"the tests import ttr_server from {path}"
