"""`pip install .` ships every module and every data file: what setuptools builds from this
checkout holds each package of pbem/ (found by setup.py, never listed by hand) and each board,
card, geography and template file of games/ and templates/ under pbem/data/."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory) -> set[str]:
    """The files setuptools puts in the package (what a wheel holds under its root): its
    build_py step, run on a copy of the checkout so that nothing is written into it."""
    src = tmp_path_factory.mktemp("src")
    for name in ("pbem", "games", "templates"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    lib = tmp_path_factory.mktemp("lib")
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(lib)],
                          capture_output=True, text=True, cwd=src)
    assert done.returncode == 0, done.stderr
    return {p.relative_to(lib).as_posix() for p in lib.rglob("*") if p.is_file()}


def test_every_module_of_the_package_is_in_the_wheel(wheel_names):
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "pbem").rglob("*.py")
               if "__pycache__" not in p.parts}
    assert len(modules) > 100
    assert sorted(modules - wheel_names) == []


def test_every_data_file_ships_under_pbem_data(wheel_names):
    data = {f"pbem/data/{p.relative_to(ROOT).as_posix()}"
            for folder in ("games", "templates") for p in (ROOT / folder).rglob("*")
            if p.suffix in (".yaml", ".md", ".j2") and "__pycache__" not in p.parts}
    assert any(name.endswith("board.yaml") for name in data)
    assert any(name.endswith(".j2") for name in data)
    assert sorted(data - wheel_names) == []
