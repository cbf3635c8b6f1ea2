"""England's seas, ports and Sherwood's bandit paths as the board file gives them (E Setup
l.25, 5.4, 13.4; `games/fief_england/board.yaml`: `regions:` with their port, `seas:`,
`sea_adjacency:`, `bandit_paths:`).

The core's ``Board`` holds the cities, roads, harbors and the names of the seas; which seas
touch, which sea each port lies on and which cities the bandit paths join are England's own,
read here once per board file.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from pbem.orders.reading import fold
from pbem.paths import games_dir

GAME = "fief_england"
ROMAN = ("I", "II", "III", "IV", "V", "VI")


@dataclass(frozen=True)
class Waters:
    seas: tuple[str, ...]                   # "I" .. "VI", a Region's number (E Setup l.25)
    touches: dict[str, frozenset[str]]      # sea -> the seas contiguous to it (5.4)
    port_sea: dict[str, str]                # port city -> the sea it lies on (5.4)
    forest: str                             # "Sherwood" (13.4)
    bandit_cities: tuple[str, ...]          # the cities the bandit paths join (13.4)

    def port_of(self, sea: str) -> str | None:
        return next((p for p, s in self.port_sea.items() if s == sea), None)

    def find_sea(self, text: Any) -> str | None:
        """A sea as a mail writes it: its number (`V`, `5`) with or without `sea` before it
        (`sea V`, `Sea 5`), or `sea of <region number>`."""
        if isinstance(text, bool):
            return None
        if isinstance(text, int):
            return self.seas[text - 1] if 1 <= text <= len(self.seas) else None
        if not isinstance(text, str):
            return None
        word = fold(text).replace("sea region", "").replace("sea", "").replace("of", "").strip()
        if word.isdigit():
            n = int(word)
            return self.seas[n - 1] if 1 <= n <= len(self.seas) else None
        return next((s for s in self.seas if fold(s) == word), None)

    def is_forest(self, text: Any) -> bool:
        return isinstance(text, str) and fold(text) == fold(self.forest)

    def bandit_path(self, a: str, b: str) -> bool:
        """13.4: the bandit paths join each two of their cities directly, for one Move."""
        return a != b and a in self.bandit_cities and b in self.bandit_cities


def waters_from(data: dict[str, Any]) -> Waters:
    seas = tuple(str(s["number"]) for s in data["seas"])
    touches: dict[str, set[str]] = {s: set() for s in seas}
    for pair in data["sea_adjacency"]:
        a, b = (str(x) for x in pair["between"])
        touches[a].add(b)
        touches[b].add(a)
    port_sea = {r["port"]: next(str(s["number"]) for s in data["seas"] if str(s["region"]) == str(r["number"]))
                for r in data["regions"]}
    paths = data["bandit_paths"]
    return Waters(seas, {s: frozenset(t) for s, t in touches.items()}, port_sea, paths["forest"],
                  tuple(paths["cities"]))


def load_waters(board: str = "board") -> Waters:
    """The waters of one of England's board files (`games/fief_england/<board>.yaml`)."""
    return waters_at(str(games_dir() / GAME / f"{board}.yaml"))


@lru_cache(maxsize=8)
def waters_at(path: str) -> Waters:
    """The waters of the board file at ``path`` (a core ``Board``'s ``source``); the file was
    read and checked when the Board was loaded."""
    return waters_from(yaml.safe_load(Path(path).read_text(encoding="utf-8")))
