"""The README's Install section names every extra and every import package that pyproject.toml declares."""

from __future__ import annotations

import re
import tomllib

from usa_kit import ROOT


def _install_section() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.search(r"^## Install\n(.*?)^## ", readme, re.S | re.M).group(1)


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_extra_has_an_install_command_and_a_line_saying_what_it_enables():
    section = _install_section()
    extras = _project()["project"]["optional-dependencies"]
    assert extras, "pyproject.toml declares extras"
    for extra in extras:
        assert re.search(rf'pip install (-e )?"\.\[{extra}\]"', section), f"no install command for [{extra}]"
        row = re.search(rf"^\| `{extra}` \| ([^|]|\\\|)+ \|", section, re.M)
        assert row, f"the Install table does not say what [{extra}] enables"


def test_the_install_section_names_every_import_package_of_the_wheel():
    section = _install_section()
    packages = {p.split(".")[0] for p in _project()["tool"]["setuptools"]["packages"]}
    missing = sorted(p for p in packages if f"`{p}`" not in section)
    assert not missing, f"import packages the wheel installs but the Install section does not name: {missing}"
