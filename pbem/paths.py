"""Where the shipped data lives: games/ and templates/ at the top of a checkout, or inside
the installed package as pbem.data.games / pbem.data.templates (see pyproject.toml)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent


def _data_dir(name: str) -> Path:
    in_checkout = _CHECKOUT / name
    if (in_checkout / "__init__.py").exists() and (_CHECKOUT / "pyproject.toml").exists():
        return in_checkout
    spec = importlib.util.find_spec(f"pbem.data.{name}")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"pbem is installed without its {name}/ data; reinstall with `pip install .`")
    return Path(list(spec.submodule_search_locations)[0])


def games_dir() -> Path:
    """The folder holding games/<game_type>/ board, card and table data."""
    return _data_dir("games")


def templates_dir() -> Path:
    """The folder holding the Jinja2 templates."""
    return _data_dir("templates")
