"""The shape of what an edition's rulebook states about its board (``BoardFacts``), checked
whenever board data is loaded; each edition's facts are its own (France's:
pbem/games/fief_france/facts.py), reached through its hooks (``Hooks.board_facts``).

These facts live in code, not in the data file, on purpose: a game master who swaps in the
printed board's data (docs/fief-france.md) can correct towns, roads and memberships, but the
loader still holds the file to what the rulebook says.
"""
from __future__ import annotations

from dataclasses import dataclass, field

RANK_SIZE = {"duchy": 4, "county": 3, "barony": 2}  # 4.4 (line 731)


@dataclass(frozen=True)
class BoardFacts:
    town_count: int
    # fief id -> (name, rank), D.1
    fiefs: dict[str, tuple[str, str]]
    # bishopric number -> (name, chief town), D.2.1
    bishoprics: dict[int, tuple[str, str]]
    harbors: tuple[str, ...]                                  # 5.3.2, north to south
    named_towns: frozenset[str]                               # towns the rulebook names
    # (fief id, towns, exactly?, where the rulebook says so)
    fief_members: tuple[tuple[str, frozenset[str], bool, str], ...] = ()
    # (bishopric number, towns, exactly?, where)
    bishopric_members: tuple[tuple[int, frozenset[str], bool, str], ...] = ()
    bishopric_sizes: dict[int, tuple[int, str]] = field(default_factory=dict)
    roads: tuple[tuple[str, str, str], ...] = ()              # (a, b, where)
