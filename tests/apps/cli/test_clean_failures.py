"""How the ``ttr`` commands fail, as a user meets it (issue 30): writes that never half-happen, Ctrl-C,
the ``--json`` failure shape, ``--debug``, the exit-code table of docs/cli.md, and the smaller
messages.

The writes are real writes by a real ``ttr`` process: under ``RLIMIT_FSIZE`` (with SIGXFSZ ignored,
a write past the limit fails with EFBIG, "File too large", as a full disk fails with ENOSPC), to a
target under ``/proc`` or ``/sys``, or into a folder the process may not write (a process of the
``nobody`` user when the tests run as root, as in CI). Nothing is mocked.
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from usa_kit import ROOT
from click.testing import CliRunner

from ttr_cli import failures
from ttr_cli.main import main
from ttr_core import manager
from ttr_core.files import WriteError, write_atomically
from ttr_core.plugin import Plugin, hookimpl

CLI_PAGE = ROOT / "docs" / "cli.md"
LIMIT = 4096  # bytes: less than any record, report or plot the commands write


def ttr(*args, cwd: Path, limit: int | None = None, bound_by_permissions: bool = False, env: dict | None = None,
        timeout: float = 600) -> subprocess.CompletedProcess:
    """``ttr ARGS`` in a process of its own, as a user runs it; ``limit``: the largest file it may
    write; ``bound_by_permissions``: a process of root as well is refused what the permission bits
    refuse (it runs without the capabilities that let root write anywhere)."""

    def before():
        if limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # kept across exec: the write fails with EFBIG
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        if bound_by_permissions and os.geteuid() == 0:
            drop_capabilities_that_bypass_permissions()

    done = subprocess.run([sys.executable, "-m", "ttr_cli.main", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, preexec_fn=before, env={**os.environ, **(env or {})})
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done


def drop_capabilities_that_bypass_permissions() -> None:
    """Take CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH out of this process's bounding set: the program
    it executes next, though run by root, then meets the permission bits as their owner does."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    pr_capbset_drop, cap_dac_override, cap_dac_read_search = 24, 1, 2  # <linux/prctl.h>, <linux/capability.h>
    for cap in (cap_dac_override, cap_dac_read_search):
        if libc.prctl(pr_capbset_drop, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def error_lines(done: subprocess.CompletedProcess) -> list[str]:
    return [line for line in done.stderr.splitlines() if line.strip()]


def leftovers(folder: Path) -> list[str]:
    """Temporary files a write left behind (there must be none)."""
    return sorted(p.name for p in folder.rglob("*") if p.name.startswith(".") or p.suffix in (".tmp", ".partial"))


# --- writes that never half-happen --------------------------------------------------------------


def test_play_out_on_a_full_disk_keeps_the_old_record_and_says_so_in_one_line(tmp_path):
    old = tmp_path / "game.json"
    old.write_text("the record of yesterday's game\n", encoding="utf-8")
    done = ttr("play", "--players", "2", "--quiet", "--out", "game.json", cwd=tmp_path, limit=LIMIT)
    assert done.returncode == 2
    assert error_lines(done) == ["error: cannot write game.json: File too large"]
    assert old.read_text(encoding="utf-8") == "the record of yesterday's game\n"
    assert leftovers(tmp_path) == []


def test_play_out_on_a_full_disk_leaves_no_file(tmp_path):
    done = ttr("play", "--players", "2", "--quiet", "--out", "new.json", "--json", cwd=tmp_path, limit=LIMIT)
    assert done.returncode == 2 and done.stderr == ""
    assert json.loads(done.stdout) == {"problems": [
        {"where": "new.json", "message": "cannot write new.json: File too large", "code": "cannot-write"}]}
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("target", ["/proc/ttr-test-game.json", "/sys/ttr-test-game.json"])
def test_play_out_to_a_target_the_system_refuses(tmp_path, target):
    done = ttr("play", "--players", "2", "--quiet", "--out", target, cwd=tmp_path)
    assert done.returncode == 2
    (line,) = error_lines(done)
    # as root the folder looks writable and the write itself is refused; otherwise the check before the game says so
    assert line.startswith((f"error: cannot write {target}: ", f"error: --out {target}: ")), line
    assert not Path(target).exists()


@pytest.mark.parametrize("target", ["/proc/ttr-test-record.json", "/proc/self/comm"])
def test_a_write_the_system_refuses_changes_nothing(target):
    before = Path(target).read_bytes() if Path(target).exists() else None
    with pytest.raises(WriteError, match=f"^cannot write {re.escape(target)}: "):
        write_atomically(Path(target), "not a process name\n")
    assert (Path(target).read_bytes() if Path(target).exists() else None) == before


@pytest.mark.parametrize("step", ["_keep_mode", "_flush_to_disk"])
def test_ctrl_c_while_a_file_is_being_written_leaves_the_old_file_and_no_temporary_one(tmp_path, monkeypatch, step):
    from ttr_core import files

    target = tmp_path / "game.json"
    target.write_text("the old record\n")

    def interrupted(*_):
        raise KeyboardInterrupt

    monkeypatch.setattr(files, step, interrupted)  # Ctrl-C just after the temporary file was made, or before the rename
    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, "the new record\n")
    assert target.read_text() == "the old record\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


@pytest.mark.parametrize("renamed", [True, False], ids=["after-the-rename", "before-the-rename"])
def test_records_saved_count_what_is_in_the_folder_whenever_ctrl_c_comes(tmp_path, monkeypatch, renamed):
    from types import SimpleNamespace

    from ttr_cli import analysis

    games = [SimpleNamespace(seed=s, record=f"record {s}\n", played=SimpleNamespace(variant="usa", version=1))
             for s in (1, 2)]
    (tmp_path / "usa-v1-seed2.json").write_text("a record of an earlier run\n")
    real = analysis.write_atomically

    def write_then_ctrl_c(path, content):
        if path.name == "usa-v1-seed2.json":
            if renamed:
                real(path, content)  # the file is in place; the Ctrl-C comes before it is counted
            raise KeyboardInterrupt
        real(path, content)

    monkeypatch.setattr(analysis, "write_atomically", write_then_ctrl_c)
    saver = analysis.RecordSaver(tmp_path)
    with pytest.raises(KeyboardInterrupt):
        saver(games)
    new = [p for p in tmp_path.iterdir() if not p.read_text().startswith("a record of an earlier run")]
    assert saver.saved == len(new) == (2 if renamed else 1)


def test_simulate_out_on_a_full_disk(tmp_path):
    done = ttr("simulate", "--games", "2", "--players", "2", "--workers", "1", "--no-cache", "--out", "records",
               cwd=tmp_path, limit=LIMIT)
    assert done.returncode == 2
    assert error_lines(done) == ["error: cannot write records/usa-v1-seed1.json: File too large"]
    assert list((tmp_path / "records").iterdir()) == []


def test_compare_plots_on_a_full_disk(tmp_path):
    done = ttr("compare", "--variant", "wor@1", "--variant", "wor@2", "--games", "2", "--players", "2", "--workers", "1",
               "--no-cache", "--out", "plots", cwd=tmp_path, limit=LIMIT)
    assert done.returncode == 2
    assert error_lines(done)[-1] == "error: cannot write plots/compare-wor-v1-vs-wor-v2.png: File too large"
    assert list((tmp_path / "plots").iterdir()) == []


def test_playtest_report_on_a_full_disk(tmp_path):
    done = ttr("playtest", "--games", "2", "--players", "2", "--workers", "1", "--no-cache", "--out", "report",
               cwd=tmp_path, limit=LIMIT)
    assert done.returncode == 2
    assert error_lines(done)[-1] == "error: cannot write report/playtest.json: File too large"
    assert list((tmp_path / "report").iterdir()) == []


def test_a_cache_on_a_full_disk_is_a_warning_and_leaves_no_partial_entry(tmp_path):
    # an entry is compressed: a few kilobytes
    done = ttr("simulate", "--games", "2", "--players", "2", "--workers", "1", "--cache", "cache", cwd=tmp_path, limit=256)
    assert done.returncode == 0
    assert "played games are not kept (cache: File too large)" in done.stderr
    assert leftovers(tmp_path / "cache") == [] and not list((tmp_path / "cache").rglob("*.z"))


@pytest.fixture
def database(tmp_path) -> Path:
    """A small SQLite database with the tables a backup counts."""
    path = tmp_path / "games.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE games (id TEXT, blob TEXT)")
        db.execute("CREATE TABLE actions (id TEXT)")
        db.executemany("INSERT INTO games VALUES (?, ?)", [(str(i), "x" * 500) for i in range(40)])
    return path


def test_admin_backup_on_a_full_disk(database, tmp_path):
    done = ttr("admin", "backup", "--db", f"sqlite:///{database}", "backup.sqlite3", cwd=tmp_path, limit=LIMIT)
    assert done.returncode == 2
    (line,) = error_lines(done)
    assert line.startswith("error: cannot write backup.sqlite3: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite3"]


def test_admin_backup_to_a_read_only_folder_is_one_line(database, tmp_path):
    readonly = tmp_path / "backups"
    readonly.mkdir(mode=0o555)
    try:
        done = ttr("admin", "backup", "--db", f"sqlite:///{database}", readonly / "b.sqlite3", cwd=tmp_path,
                   bound_by_permissions=True)
        assert done.returncode == 2
        assert error_lines(done) == [f"error: cannot write {readonly / 'b.sqlite3'}: Permission denied"]
        assert list(readonly.iterdir()) == []
    finally:
        readonly.chmod(0o755)


def test_admin_backup_to_sys_is_one_line(database, tmp_path):
    done = ttr("admin", "backup", "--db", f"sqlite:///{database}", "/sys/ttr-backup.sqlite3", cwd=tmp_path)
    assert done.returncode == 2
    (line,) = error_lines(done)
    assert line.startswith("error: cannot write /sys/ttr-backup.sqlite3: ")


# --- Ctrl-C ----------------------------------------------------------------------------------------


def children_of(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found += [int(c) for c in task.read_text().split()]
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] not in "ZX"
    except (OSError, IndexError):
        return False


def _ctrl_c_as_at_a_terminal() -> None:
    # A suite started in the background by a shell without job control (``cmd &`` in a script)
    # inherits SIGINT ignored, and a Python started so never sees Ctrl-C: the command under test
    # gets the disposition it has at a terminal.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt_when(args: list[str], ready, cwd: Path) -> tuple[subprocess.CompletedProcess, float, list[int]]:
    """Run ``ttr ARGS``, send it SIGINT (Ctrl-C) once ``ready()``; the finished process, the seconds
    from the signal to its end, and the worker processes it had."""
    proc = subprocess.Popen([sys.executable, "-m", "ttr_cli.main", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_ctrl_c_as_at_a_terminal)
    try:
        deadline = time.monotonic() + 300
        while not ready() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, "the run ended before it could be interrupted"
        workers = children_of(proc.pid)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert "Traceback" not in err, err[-3000:]  # nor one of a thread of the command's own
    return subprocess.CompletedProcess(args, proc.returncode, out, err), took, workers


def records_in(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


@pytest.mark.slow
def test_ctrl_c_in_simulate_stops_the_workers_at_once_and_keeps_the_finished_games(tmp_path):
    out = tmp_path / "records"
    done, took, workers = interrupt_when(
        ["simulate", "--games", "500", "--workers", "2", "--out", "records", "--cache", "cache"],
        lambda: len(records_in(out)) >= 1, tmp_path)
    assert done.returncode == 130, done.stderr
    assert took < 3, f"{took:.1f} s from Ctrl-C to the end"  # about half a second here
    assert workers and not any(alive(w) for w in workers)
    (line,) = error_lines(done)
    m = re.fullmatch(r"error: interrupted: (\d+) of 500 games finished; (\d+) record\(s\) saved in records; they are kept "
                     r"in the game cache \(cache\): the same command again plays only the rest", line)
    assert m, line
    finished, saved = int(m[1]), int(m[2])
    assert 1 <= saved <= finished < 500 and len(records_in(out)) == saved
    assert leftovers(out) == []
    # each record written is whole: it replays
    assert ttr("replay", *records_in(out)[:3], cwd=tmp_path).returncode == 0
    # what it says is so: the games it finished are not played again (each a game of its own seed)
    seeds = sorted(int(re.search(r"seed(\d+)", p.name)[1]) for p in records_in(out))[:2]
    for seed in seeds:
        again = ttr("simulate", "--games", 1, "--seed", seed, "--workers", "1", "--cache", "cache", cwd=tmp_path)
        assert "1 of 1 games reused from the cache" in again.stdout


@pytest.mark.slow
def test_ctrl_c_in_compare_keeps_the_records_and_the_cache(tmp_path):
    out = tmp_path / "out" / "records"
    done, took, _ = interrupt_when(
        ["compare", "--variant", "wor@1", "--variant", "wor@2", "--games", "500", "--workers", "2", "--save-records",
         "--out", "out", "--cache", "cache", "--json"], lambda: len(records_in(out)) >= 1, tmp_path)
    assert done.returncode == 130 and took < 3
    data = json.loads(done.stdout)
    assert data["saved"] == len(records_in(out)) >= 1 and data["cache"] == "cache" and data["games"] == 500
    (p,) = data["problems"]
    assert p["code"] == "interrupted" and "the same command again plays only the rest" in p["message"]


@pytest.mark.slow
def test_ctrl_c_in_playtest(tmp_path):
    cache = tmp_path / "cache"
    done, took, _ = interrupt_when(["playtest", "--games", "200", "--workers", "2", "--out", "report", "--cache", "cache"],
                                   lambda: cache.is_dir() and any(cache.rglob("*.z")), tmp_path)
    assert done.returncode == 130 and took < 3
    (line,) = error_lines(done)
    assert re.fullmatch(r"error: interrupted: \d+ of \d+ games finished; they are kept in the game cache \(cache\): "
                        r"the same command again plays only the rest", line), line


# --- --json on failure: one shape for every command ------------------------------------------------


def json_commands(group: click.Group = main, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    for name, cmd in group.commands.items():
        if any(p.name == "as_json" for p in cmd.params):
            found.append((*prefix, name))
        if isinstance(cmd, click.Group):
            found += json_commands(cmd, (*prefix, name))
    return found


#: a failing call of every command that takes --json
FAILING = {
    ("play",): ["play", "--variant", "no-such-variant"],
    ("replay",): ["replay", "missing.json"],
    ("score",): ["score", "missing.json"],
    ("variants",): ["variants", "--no-such-option"],
    ("variants", "show"): ["variants", "show", "no-such-variant"],
    ("variants", "check"): ["variants", "check", "no-such-variant"],
    ("variants", "diff"): ["variants", "diff", "no-such-variant", "usa"],
    ("bots",): ["bots", "--no-such-option"],
    ("rescore",): ["rescore", "missing.json"],
    ("simulate",): ["simulate", "--variant", "no-such-variant"],
    ("compare",): ["compare", "--variant", "usa"],
    ("playtest",): ["playtest", "--variant", "no-such-variant", "--out", "report"],
    ("admin", "list"): ["admin", "list", "--db", "sqlite:///missing.sqlite3"],
}


def test_every_command_with_json_is_tried():
    assert sorted(json_commands()) == sorted(FAILING)


@pytest.mark.parametrize("command", sorted(FAILING), ids=" ".join)
def test_a_failure_with_json_prints_the_problems_on_stdout(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    plain = CliRunner().invoke(main, FAILING[command])
    result = CliRunner().invoke(main, [*FAILING[command], "--json"])
    assert result.exit_code == plain.exit_code == 2, result.output
    assert result.stderr == "" and "Traceback" not in result.output
    data = json.loads(result.stdout)
    assert data["problems"] and all(set(p) == {"where", "message", "code"} for p in data["problems"])
    assert all(p["code"] in failures.CODES for p in data["problems"])
    if data["problems"][0]["code"] != "usage":  # click's own usage message is not an error: line
        # the same messages as the plain run prints
        assert [f"error: {p['message']}" for p in data["problems"]] == [
            line for line in plain.stderr.splitlines() if line.startswith("error:")]


def test_json_problems_say_where(tmp_path):
    bad = tmp_path / "usa-bad.toml"
    bad.write_text('id = "usa-bad"\ntitle = "t"\nextends = "usa"\n[versions.1.rules.open-row]\nrefill = "sometimes"\n',
                   encoding="utf-8")
    data = json.loads(CliRunner().invoke(main, ["variants", "check", str(bad), "--json"]).stdout)
    (p,) = data["problems"]
    assert p["where"] == f"{bad}: $.versions.1.rules.open-row.refill" and p["code"] == "variant-file"
    assert p["message"].startswith(f"{p['where']}: 'sometimes' is not one of")
    bots = json.loads(CliRunner().invoke(main, ["play", "--bots", "ticket,,random", "--json"]).stdout)
    assert bots["problems"][0]["where"] == "--bots 'ticket,,random'"


# --- every problem of a variant file at once -----------------------------------------------------------


SIX_PROBLEMS = """\
id = "sixx"
titel = "Six problems"
map = "usa"
players = { min = 2, max = 9 }
current = 3

[versions.1]
plugins = ["train-cards", "open-row", "claiming", "route-points", "ticket-deal", "tickets", "longest-path",
           "final-round", "winner", "passing", "no-such-plugin"]

[versions.1.rules.open-row]
refill = "sometimes"

[versions.1.rules.tunnels]
reveal = 3
"""


def test_variants_check_reports_every_problem_of_a_file_at_once(tmp_path):
    path = tmp_path / "six.toml"
    path.write_text(SIX_PROBLEMS, encoding="utf-8")
    result = CliRunner().invoke(main, ["variants", "check", str(path)])
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    for where in ("$: unknown key(s) 'titel'", "$.id: 'sixx' does not match", "$.current: no version 3",
                  "$.versions.1.plugins: unknown plugin 'no-such-plugin'", "$.versions.1.rules.open-row.refill",
                  "$.versions.1.rules.tunnels: rules for 'tunnels', which is not enabled", "$.players: 2..9 does not fit"):
        assert sum(f"error: {path}: {where}" in line for line in errors) == 1, (where, errors)


# --- smaller messages ----------------------------------------------------------------------------------


def run(*args, code: int):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result


@pytest.fixture(scope="module")
def game_record(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("record") / "game.json"
    run("play", "--players", "2", "--quiet", "--out", path, code=0)
    return path


def test_rescore_reports_a_missing_record_and_rescores_the_rest(game_record, tmp_path):
    missing = tmp_path / "missing.json"
    result = run("rescore", game_record, missing, code=2)
    assert f"error: {missing}: cannot read: No such file or directory" in result.stderr
    assert "1 game(s) rescored" in result.stdout and "1 record(s) could not be read" in result.stdout


def test_rescore_without_a_variant_says_which_column_is_which(tmp_path):
    record = tmp_path / "wor.json"
    run("play", "--variant", "wor", "--players", "2", "--quiet", "--out", record, code=0)
    table = run("rescore", record, code=0).stdout
    assert "total wor@2 (as played)" in table and "total wor@2 (current rules)" in table


def test_variants_check_of_a_folder_says_so(tmp_path):
    (tmp_path / "a.toml").write_text("", encoding="utf-8")
    result = run("variants", "check", tmp_path, code=2)
    assert result.stderr.strip() == f"error: {tmp_path}: cannot read a folder as a variant file; give a variant file (in it: a.toml)"


def test_replay_of_a_folder_without_records_says_none_was_found(tmp_path):
    result = run("replay", tmp_path, code=2)
    assert f"error: {tmp_path}: no records found" in result.stderr and "0 of 0" not in result.output


def test_score_of_a_record_and_replay_of_a_position_name_the_command_that_fits(game_record):
    scored = run("score", game_record, code=2)
    assert scored.stderr.strip().startswith(f"error: {game_record}: a game record, not a position: `ttr replay {game_record}`")
    position = ROOT / "tests" / "data" / "position_usa.json"
    replayed = run("replay", position, code=2)
    assert replayed.stderr.strip() == (f"error: {position}: a position (the players' routes and tickets), not a game "
                                       f"record: `ttr score {position}` scores it")


def test_score_under_an_unknown_variant_blames_the_option_not_the_file():
    position = ROOT / "tests" / "data" / "position_usa.json"
    result = run("score", position, "--variant", "nope", code=2)
    assert result.stderr.startswith("error: --variant nope: unknown variant 'nope'")
    assert str(position) not in result.stderr


def test_an_empty_name_in_bots_is_refused():
    result = run("play", "--bots", "ticket,,random", code=2)
    assert "error: --bots 'ticket,,random': a bot name is empty" in result.stderr


# --- a ttr.variants entry point without variant files ------------------------------------------------------


def test_a_variant_package_without_variant_files_is_named_with_the_fix(tmp_path):
    """An installed package (a dist-info on the path) whose ttr.variants entry point names a package
    that holds no *.toml: the wheel was built without its package data."""
    site = tmp_path / "site"
    (site / "usa_gen6" / "variants").mkdir(parents=True)
    (site / "usa_gen6" / "__init__.py").write_text("", encoding="utf-8")
    (site / "usa_gen6" / "variants" / "__init__.py").write_text("", encoding="utf-8")
    info = site / "usa_gen6-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: usa-gen6\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[ttr.variants]\nusa-gen6 = usa_gen6.variants\n", encoding="utf-8")
    env = {"PYTHONPATH": str(site)}
    fix = '[tool.setuptools.package-data] "usa_gen6.variants" = ["*.toml"]'
    listed = ttr("variants", cwd=tmp_path, env=env)
    assert listed.returncode == 0 and "usa" in listed.stdout
    assert "the ttr.variants entry point 'usa-gen6' of usa-gen6 names the package 'usa_gen6.variants', which holds no " \
           "variant file (*.toml)" in listed.stderr and fix in listed.stderr
    checked = ttr("variants", "check", "usa-gen6", "--json", cwd=tmp_path, env=env)
    assert checked.returncode == 2
    problems = json.loads(checked.stdout)["problems"]
    assert problems[0]["message"].startswith("unknown variant 'usa-gen6'")
    assert problems[1]["code"] == "variant-package" and fix in problems[1]["message"]


# --- --debug --------------------------------------------------------------------------------------------


class Grumpy(Plugin):
    """A house rule that fails once the game is under way."""

    @hookimpl
    def ttr_route_claimed(self, game, route):
        if route.length >= 2:
            raise ValueError("routes upset me")


def test_debug_shows_the_traceback_of_a_plugin_failure(tmp_path):
    path = tmp_path / "usa-grumpy.toml"
    path.write_text('id = "usa-grumpy"\ntitle = "t"\nextends = "usa"\n[versions.1]\nadd_plugins = ["grumpy"]\n',
                    encoding="utf-8")
    with manager.local_plugins({"grumpy": Grumpy}):
        plain = CliRunner().invoke(main, ["play", "--variant", str(path), "--players", "2", "--quiet"])
        debug = CliRunner().invoke(main, ["--debug", "play", "--variant", str(path), "--players", "2", "--quiet"])
    assert plain.exit_code == debug.exit_code == 2
    assert "Traceback" not in plain.stderr and "ValueError: routes upset me" in plain.stderr
    assert debug.stderr.startswith("Traceback (most recent call last):")
    assert f'File "{__file__}"' in debug.stderr and 'raise ValueError("routes upset me")' in debug.stderr
    assert debug.stderr.splitlines()[-1] == plain.stderr.splitlines()[-1]  # then the same error line


# --- the exit codes of docs/cli.md, each tried -------------------------------------------------------------


def exit_code_table() -> dict[int, str]:
    section = re.search(r"^## Exit codes\n(.*?)^## ", CLI_PAGE.read_text(encoding="utf-8"), re.S | re.M).group(1)
    return {int(m[1]): m[2] for m in re.finditer(r"^\| (\d+) \| (.+) \|$", section, re.M)}


def test_the_exit_code_table_is_the_one_the_commands_use():
    assert set(exit_code_table()) == {failures.OK, failures.CHECK_FAILED, failures.BAD_INPUT, failures.PORT_IN_USE,
                                      failures.INTERRUPTED} == {0, 1, 2, 3, 130}


class LuckyDraws(Plugin):
    """A house rule that breaks the card count: a free locomotive now and then."""

    @hookimpl
    def ttr_turn_ended(self, game, seat):
        if game.state.turn % 7 == 0:
            game.state.players[seat].hand[game.cards.locomotive] += 1


def test_exit_code_0_success(game_record):
    assert run("replay", game_record, code=0)


def test_exit_code_1_a_failed_check(tmp_path):
    path = tmp_path / "usa-lucky.toml"
    path.write_text('id = "usa-lucky"\ntitle = "t"\nextends = "usa"\n[versions.1]\nadd_plugins = ["lucky"]\n', encoding="utf-8")
    with manager.local_plugins({"lucky": LuckyDraws}):
        result = CliRunner().invoke(main, ["variants", "check", str(path), "--play", "3", "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["ok"] is False and {p["code"] for p in data["problems"]} == {"check-failed"}


def test_exit_code_2_bad_input():
    assert "unknown variant 'nope'" in run("play", "--variant", "nope", code=2).stderr


def test_exit_code_3_a_port_in_use(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = ttr("serve", "--port", port, cwd=tmp_path, timeout=120)
    assert done.returncode == 3
    assert error_lines(done) == [f"error: --port {port}: 127.0.0.1:{port} is in use already (another ttr serve?): "
                                 "give another --port, or stop what listens there"]
    assert list(tmp_path.iterdir()) == []  # refused before a database was made


@pytest.mark.slow
def test_exit_code_130_interrupted(tmp_path):
    done, _, _ = interrupt_when(["simulate", "--games", "500", "--workers", "1", "--no-cache", "--out", "records"],
                                lambda: len(records_in(tmp_path / "records")) >= 1, tmp_path)
    assert done.returncode == 130
    assert error_lines(done)[-1].startswith("error: interrupted: ") and "not kept (--no-cache)" in done.stderr
