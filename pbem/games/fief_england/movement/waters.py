"""England's seas, ports and Sherwood's bandit paths as movement reads them (E Setup l.25, 5.4,
13.4), from England's board (``EnglandBoard``, board_loader.py: its regions, each region's sea,
the seas' links, the Bandit Paths).

Seas are named here by their Region's number (`I` .. `VI`, E Setup l.25); a path writes them as
the board names them (`Sea V`, board_loader.sea_name).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pbem.games.fief_england.board_loader import EnglandBoard, sea_name
from pbem.games.fief_england.regions import NUMERALS
from pbem.orders.reading import fold


@dataclass(frozen=True)
class Waters:
    seas: tuple[str, ...]                   # "I" .. "VI", a Region's number (E Setup l.25)
    touches: dict[str, frozenset[str]]      # sea -> the seas contiguous to it (5.4)
    port_sea: dict[str, str]                # port city -> the sea it lies on (5.4)
    forest: str                             # "Sherwood" (13.4)
    bandit_cities: tuple[str, ...]          # the cities the bandit paths join (13.4)

    @staticmethod
    def name(sea: str) -> str:
        """A sea as paths and reports write it: `Sea V`."""
        return sea_name(sea)

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


@lru_cache(maxsize=8)
def waters_of(board: EnglandBoard) -> Waters:
    """The waters of England's board."""
    number = {board.sea_of[fief]: n for n, fief in board.regions.items()}
    seas = tuple(n for n in NUMERALS if n in board.regions)
    touches: dict[str, set[str]] = {s: set() for s in seas}
    for pair in board.sea_links:
        a, b = (number[s] for s in pair)
        touches[a].add(b)
        touches[b].add(a)
    port_sea = {h: board.region_number(board.towns[h].fief) for h in board.harbors}
    return Waters(seas, {s: frozenset(t) for s, t in touches.items()}, port_sea, board.forest,
                  tuple(board.bandit_cities))
