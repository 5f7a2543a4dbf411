"""The documentation site (docs/): it builds offline with Sphinx and not a single warning, its
reference keeps up with the code, and the tutorial's bot really plays.

- The build is ``sphinx-build -W --keep-going -b html docs OUT``, run with every network
  connection refused, so the site can never come to depend on a fetch (intersphinx, a remote
  image) without this test failing.
- The view reference lists exactly the keys ``game.view(seat)`` has; the action reference lists
  every action kind of the built-in variants.
- The tutorial's bot, ``docs/examples/greedy_bot.py`` (the very file the page shows), is at
  most 30 lines of code, finishes seeded ``usa`` games of 2 and 4 players through
  ``ttr_bots.play_game`` and beats the random bot on average score; the page's Python examples
  run as written.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import json
import re
import shutil
import statistics
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest
from usa_kit import ROOT
from click.testing import CliRunner

import ttr_bots
from ttr_cli.main import main
from ttr_core import record, variant
from ttr_core.game import Game

DOCS = ROOT / "docs"
EXAMPLE = DOCS / "examples" / "greedy_bot.py"
BUILT_IN_VARIANTS = ("usa", "europe", "wor", "wor-legacy", "wor-europe", "ussr")

# Sphinx in a child process whose sockets cannot connect anywhere: an offline build, proven.
OFFLINE_SPHINX = """
import socket, sys
def refuse(*args, **kwargs):
    raise OSError("tests/apps/project/test_docs.py: the documentation build must not use the network")
socket.socket.connect = refuse
socket.socket.connect_ex = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
from sphinx.cmd.build import main
sys.exit(main(sys.argv[1:]))
"""


def sphinx_build(src: Path, out: Path) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-c", OFFLINE_SPHINX, "-W", "--keep-going", "-b", "html", "-q", "-d", str(out / ".doctrees"),
         str(src), str(out)],
        capture_output=True, text=True, timeout=300,
    )
    return done.returncode, done.stdout + done.stderr


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site, built once for this module's tests."""
    out = tmp_path_factory.mktemp("site")
    code, output = sphinx_build(DOCS, out)
    assert code == 0, f"the documentation build failed or warned (warnings are errors):\n{output}"
    return out


def text_of(page: Path) -> str:
    return re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8"))


# --- the build ----------------------------------------------------------------------------------


def test_the_docs_build_offline_without_a_warning(site):
    for page in ("index", "tutorial-bot", "plugins", "api/game", "api/views", "api/actions", "api/records",
                 "api/positions", "api/variants", "api/errors", "api/bots"):
        assert (site / f"{page}.html").is_file(), page
    assert ("rules.md" in {p.name for p in DOCS.iterdir()}) == (site / "rules.html").is_file()


def test_the_reference_documents_the_public_api(site):
    index = (site / "genindex.html").read_text(encoding="utf-8")
    for name in ("to_act", "legal_actions", "apply", "view", "clone", "determinize", "dump", "make_record", "dumps",
                 "replay", "load", "score_position", "position_of", "Ruleset", "IllegalAction", "RecordError",
                 "play_game", "bot_class", "local_bots", "ActionRegistry", "from_data", "to_data"):
        assert f">{name}" in index, f"{name} is not in the reference's index"
    game = text_of(site / "api" / "game.html")
    for attribute in ("ruleset", "board", "names", "seed", "result", "log", "registry", "over"):
        assert re.search(rf"\b{attribute}\b", game)


def test_the_action_reference_lists_every_action_kind_with_its_fields(site):
    page = text_of(site / "api" / "actions.html")
    for vid in BUILT_IN_VARIANTS:
        for reg in variant.load(vid).rules.registry:
            assert reg.cls.kind in page, f"{vid}: action kind {reg.cls.kind!r} is not on the actions page"
            assert reg.cls.__name__ in page
    assert "route: str" in page and "slot: int | None = None" in page  # fields, with types and defaults


def test_a_rules_page_with_rule_anchors_builds_without_warnings(tmp_path):
    """docs/rules.md (the rule digest, from another branch) links to its rules' HTML anchors:
    the site takes it into the table of contents and resolves those links, warning-free."""
    if (DOCS / "rules.md").exists():
        pytest.skip("docs/rules.md is in the tree: the main build covers it")
    src = tmp_path / "docs"
    shutil.copytree(DOCS, src, ignore=shutil.ignore_patterns("_build", "__pycache__"))
    (src / "rules.md").write_text(
        "# Rules digest\n\n"
        '- <a id="R-END-1"></a>**R-END-1** The final round: see [R-SCORE-1](#R-SCORE-1).\n'
        '- <a id="R-SCORE-1"></a>**R-SCORE-1** Routes score by length ([R-END-1](#R-END-1)).\n',
        encoding="utf-8",
    )
    code, output = sphinx_build(src, tmp_path / "out")
    assert code == 0, output
    page = (tmp_path / "out" / "rules.html").read_text(encoding="utf-8")
    assert 'id="R-END-1"' in page and 'href="#r-end-1"' in page
    assert "rules.html" in (tmp_path / "out" / "index.html").read_text(encoding="utf-8")


# --- the view reference -----------------------------------------------------------------------------


def documented_keys(section_start: str) -> set[str]:
    """The keys in the first column of the first table after ``section_start`` in views.md."""
    text = (DOCS / "api" / "views.md").read_text(encoding="utf-8")
    rest = text[text.index(section_start):]
    table = rest[rest.index("\n|"):]
    rows = []
    for line in table.splitlines()[1:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return {m.group(1) for row in rows[2:] for m in [re.match(r"\| `([^`]+)`", row)] if m}


def test_the_view_reference_names_exactly_the_keys_of_a_view():
    game = ttr_bots.play_game(variant.load("usa"), 2, 3)
    finished = game.view(0)
    assert documented_keys("## The fields") == set(finished)
    assert documented_keys("Each entry of `players`") == set(finished["players"][0])
    assert documented_keys("`you`, the viewing seat") == set(finished["you"])
    assert "you" not in game.view(None)
    rules: set[str] = set()
    for vid in BUILT_IN_VARIANTS:
        fresh = ttr_bots.play_game(variant.load(vid), 2, 1, max_actions=20_000)
        rules |= set(fresh.view(0)["rules"])
        rules |= set(Game(variant.load(vid), ["a", "b"], 1).view(0)["rules"])  # choosing starting tickets
    assert documented_keys("## What plugins add under `rules`") == rules


# --- the tutorial -------------------------------------------------------------------------------


def load_greedy():
    spec = importlib.util.spec_from_file_location("greedy_bot", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.GreedyBot


def lines_of_code(source: str) -> int:
    """Lines holding code: not blank, not only a comment, not part of a docstring."""
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and ast.get_docstring(node) is not None:
            docstrings.update(range(node.body[0].lineno, node.body[0].end_lineno + 1))
    code: set[int] = set()
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in skip:
            code.update(range(tok.start[0], tok.end[0] + 1))
    return len(code - docstrings)


def test_the_tutorial_bot_is_at_most_30_lines_of_code_and_the_page_shows_it():
    source = EXAMPLE.read_text(encoding="utf-8")
    assert lines_of_code(source) <= 30
    page = (DOCS / "tutorial-bot.md").read_text(encoding="utf-8")
    # the code itself, not a Sphinx include: the page read as plain Markdown (on GitHub) shows it too
    assert python_blocks(DOCS / "tutorial-bot.md")[0] == source
    assert "literalinclude" not in page
    assert f"{lines_of_code(source)} lines of code" in page
    assert 'greedy = "my_bots.greedy_bot:GreedyBot"' in page  # the entry point the reader declares
    assert load_greedy().name == "greedy"


@pytest.mark.parametrize("players", [2, 4])
def test_the_tutorial_bot_finishes_games_and_beats_the_random_bot(players):
    greedy, random_ = [], []
    usa = variant.load("usa")
    with ttr_bots.local_bots({"greedy": load_greedy()}):
        for seed in range(1, 7):
            bots = ["greedy", "random"] if seed % 2 else ["random", "greedy"]  # both take every seat
            game = ttr_bots.play_game(usa, players, seed, bots)
            assert game.over and game.result.reason.startswith("the final round has been played")
            for score in game.result.scores:
                (greedy if bots[score.seat % 2] == "greedy" else random_).append(score.total)
            again = record.replay(json.loads(record.dumps(record.make_record(game))))
            assert again.result == game.result  # its games are ordinary, reproducible games
    assert statistics.mean(greedy) > statistics.mean(random_) + 30, (greedy, random_)


def python_blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.parametrize("installed", [False, True])
def test_the_tutorial_examples_run_as_written(monkeypatch, capsys, installed):
    """The page's example, before the bot is installed and after (its name then taken: a
    ``local_bots`` block stands for the installed package)."""
    monkeypatch.syspath_prepend(str(EXAMPLE.parent))  # "save it as greedy_bot.py"
    monkeypatch.delitem(sys.modules, "greedy_bot", raising=False)
    bot, block = python_blocks(DOCS / "tutorial-bot.md")
    assert bot == EXAMPLE.read_text(encoding="utf-8")
    with ttr_bots.local_bots({"greedy": load_greedy()} if installed else {}):
        exec(compile(block, "tutorial-bot.md", "exec"), {})
    printed = capsys.readouterr().out
    assert printed.count("\n") == 5 and "winners: [" in printed


def test_the_tutorial_bot_plays_through_ttr_play():
    with ttr_bots.local_bots({"greedy": load_greedy()}):
        result = CliRunner().invoke(main, ["play", "--bots", "greedy,random", "--players", "4", "--seed", "1",
                                           "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["result"]["winners"]["seats"]


def test_the_index_example_runs_as_written(capsys):
    block = python_blocks(DOCS / "index.md")[0]
    exec(compile(block, "index.md", "exec"), {})
    assert "Winners(" in capsys.readouterr().out
