"""The README tour's "Write a house rule", as a reader follows it: the files it shows (each code
block names its file on its first line; docs/house-rules.md includes the same text) make a package
that builds, installs beside the engine in a fresh virtual environment, and whose variant is found,
checked and played."""

from __future__ import annotations

import json
import re
import subprocess

import pytest
from usa_kit import ROOT, fresh_venv


pytestmark = pytest.mark.packaging


def plugin_section() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.search(r"^### Write a house rule\n(.*?)^##", readme, re.S | re.M).group(1)


def package_files() -> dict[str, str]:
    """The section's code blocks that name a file on their first line (``# my_house_rules/points.py``,
    ``# pyproject.toml of your package``), by file."""
    found = {}
    for block in re.findall(r"```(?:python|toml)\n(.*?)```", plugin_section(), re.S):
        first = block.splitlines()[0]
        m = re.match(r"# (\S+\.(?:py|toml))\b", first)
        if m:
            found[m[1]] = block
    return found


def test_the_section_shows_the_whole_package():
    assert set(package_files()) == {"my_house_rules/points.py", "my_house_rules/variants/usa-generous.toml",
                                    "pyproject.toml"}


def test_the_house_rules_page_includes_the_readme_package():
    page = (ROOT / "docs" / "house-rules.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for marker in re.findall(r"^:(?:start-after|end-before): (.+)$", page, re.M):
        assert readme.count(marker) == 1, marker
    start, end = readme.index("<!-- house-rule-package: start -->"), readme.index("<!-- house-rule-package: end -->")
    assert all(block in readme[start:end] for block in package_files().values())


def test_the_readme_house_rule_installs_and_its_variant_plays(project_wheel, tmp_path):
    source = tmp_path / "my-house-rules"
    for name, text in package_files().items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(text, encoding="utf-8")
    # a wheel of the package, as pip install . builds it: only what the wheel holds is installed
    bin_dir = fresh_venv(tmp_path / "venv", project_wheel, source)
    work = tmp_path / "elsewhere"
    work.mkdir()

    def ttr(*args: str) -> subprocess.CompletedProcess:
        done = subprocess.run([str(bin_dir / "ttr"), *args], cwd=work, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        return done

    assert "warning" not in ttr("variants").stderr  # no entry point without its variant files
    checked = ttr("variants", "check", "usa-generous", "--play", "5")
    assert "ok (usa-generous, rules versions 1-1; 5 games played)" in checked.stdout
    shown = json.loads(ttr("variants", "show", "usa-generous", "--json").stdout)
    assert shown["plugins"]["generous-points"] == {"six": 18}
    played = json.loads(ttr("play", "--variant", "usa-generous", "--players", "2", "--json").stdout)
    assert played["variant"] == "usa-generous" and played["result"]["winners"]["seats"]
