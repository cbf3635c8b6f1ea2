"""The random generator's small draws and its way of writing names and units: every draw from
the ``Rng`` handed in (never the global ``random``), every name written as a player might
(the board's spelling, lower case, without accents; the kinds' other words: knights, foot,
bowmen), so the readers' tolerance is exercised too (docs/orders-kard-es-korona.md)."""
from __future__ import annotations

import json
import re
import unicodedata
from typing import Sequence, TypeVar

from pbem.games.kard_es_korona.units import UNIT_KINDS
from pbem.rules.rng import Rng

T = TypeVar("T")

KIND_SPELLINGS = {"cavalry": ("cavalry", "cavalry", "knights", "Cavalry"),
                  "infantry": ("infantry", "infantry", "foot", "Infantry"),
                  "archers": ("archers", "archers", "bowmen", "archer")}
_PLAIN = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*$")
_YAML_WORDS = {"yes", "no", "true", "false", "on", "off", "null", "y", "n", "none"}


def below(rng: Rng, n: int, why: str = "random orders") -> int:
    """A whole number in [0, n)."""
    return rng.choice(range(n), why)


def between(rng: Rng, low: int, high: int) -> int:
    """A whole number in [low, high] (low when the range is empty)."""
    return low + below(rng, high - low + 1) if high > low else low


def chance(rng: Rng, percent: int) -> bool:
    return below(rng, 100) < percent


def pick(rng: Rng, items: Sequence[T]) -> T:
    return rng.choice(list(items), "random orders")


def some(rng: Rng, items: Sequence[T], at_most: int | None = None, at_least: int = 0) -> list[T]:
    """A random selection of ``items`` in a random order."""
    pool = list(items)
    rng.shuffle(pool, "random orders")
    top = len(pool) if at_most is None else min(at_most, len(pool))
    return pool[:between(rng, min(at_least, top), top)]


def county(rng: Rng, name: str) -> str:
    """A county as a player may write it: mostly the board's spelling, else folded."""
    roll = below(rng, 10)
    if roll == 0:
        return name.lower()
    if roll == 1:
        return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return name


def kind(rng: Rng, name: str) -> str:
    return pick(rng, KIND_SPELLINGS[name])


def units(rng: Rng, counts: dict[str, int]) -> str:
    """`{knights: 2, infantry: 1}`: the kinds present, each once, in any spelling."""
    parts = [f"{kind(rng, k)}: {counts[k]}" for k in UNIT_KINDS if counts.get(k)]
    return "{" + ", ".join(parts) + "}"


def county_units(rng: Rng, places: dict[str, dict[str, int]]) -> str:
    return "{" + ", ".join(f"{county(rng, c)}: {units(rng, u)}" for c, u in places.items()) + "}"


def name(text: str) -> str:
    """A player's name as a YAML scalar (quoted when YAML would read it otherwise)."""
    return text if _PLAIN.match(text) and text.lower() not in _YAML_WORDS else json.dumps(text)


def flow_list(items: Sequence[str]) -> str:
    return "[" + ", ".join(items) + "]"
