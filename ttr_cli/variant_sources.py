"""The packages that ship variant files through the ``ttr.variants`` entry-point group, checked
as their author would want: an entry point whose package holds no ``*.toml`` (the usual cause: the
files were left out of the wheel, as package data is not included unless asked for) is said, with
the fix, instead of the variant being merely unknown.
"""

from __future__ import annotations

from importlib.metadata import entry_points

from ttr_core import variant
from ttr_core.variant import VARIANT_GROUP


def problems() -> list[str]:
    """One sentence per ``ttr.variants`` entry point that gives no variant file, with the fix."""
    found = []
    for ep in entry_points(group=VARIANT_GROUP):
        source = f"the {VARIANT_GROUP} entry point {ep.name!r}" + (f" of {ep.dist.name}" if ep.dist is not None else "")
        try:
            folders = variant.package_folders(ep.value)
        except Exception as exc:  # noqa: BLE001 - whatever a broken package raises, it is reported
            found.append(f"{source} names {ep.value!r}, which cannot be imported ({type(exc).__name__}: {exc}); "
                         f"a folder of variant files is a package in the wheel with its *.toml as package data: "
                         f"{package_data_fix(ep.value)}")
            continue
        if not any(p for folder in folders for p in folder.glob("*.toml")):
            found.append(f"{source} names the package {ep.value!r}, which holds no variant file (*.toml) in "
                         f"{', '.join(map(str, folders))}: "
                         f"ship them in the wheel as package data, in the pyproject.toml of {ep.dist.name if ep.dist else 'the package'}: "
                         f"{package_data_fix(ep.value)}")
    return found


def package_data_fix(package: str) -> str:
    """The setuptools tables that put the ``*.toml`` files of ``package`` (a dotted name) in the wheel."""
    return f'[tool.setuptools.package-data] "{package}" = ["*.toml"], with "{package}" among [tool.setuptools] packages'
