"""Package discovery, which pyproject.toml alone cannot state here: the code's packages are
found (every folder of pbem/ with an __init__.py), and the two data folders at the top of the
repository, games/ and templates/, ship inside the package as pbem.data.games and
pbem.data.templates (their folders and files: pyproject.toml, [tool.setuptools.package-dir] and
package-data). setuptools' declarative `packages.find` cannot be combined with such mapped
packages (pypa/setuptools#1912, #5145), so the list is built here. Everything else about the
package is in pyproject.toml. tests/test_packaging.py builds the wheel and checks that every
module and data file is in it."""
from setuptools import find_packages, setup

setup(packages=find_packages(include=["pbem", "pbem.*"]) + ["pbem.data.games", "pbem.data.templates"])
