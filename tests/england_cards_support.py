"""Hand-built England positions for the cards' tests (tests/test_fief_england_fortune.py): England's
board (``EnglandBoard``), a ``FiefState`` of the fief_england game and fixed dice."""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import load_board
from pbem.games.fief.state import Family, FiefState, Lord, Pawn, Town
from pbem.rules.rng import Rng

VARIANT = "fief_england"


def england_board():
    return load_board(VARIANT)


class Dice(Rng):
    """d6 results and battle-die faces (hits) in order; a die never listed fails the test."""

    def __init__(self, d6: list[int] | None = None, battle: list[int] | None = None):
        super().__init__("england cards test")
        self.d6s, self.faces = list(d6 or []), list(battle or [])

    def d6(self, why: str = "d6") -> int:
        assert self.d6s, f"an unexpected d6: {why}"
        value = self.d6s.pop(0)
        self.rolls.append((why, value))
        return value

    def die(self, faces, why: str = "die"):
        assert self.faces, f"an unexpected battle die: {why}"
        value = self.faces.pop(0)
        assert value in faces
        self.rolls.append((why, value))
        return value


def position(players: list[str], *, round: int = 2, lords: dict[str, dict[str, Any]] | None = None,
             units: dict[str, dict[str, dict[str, int]]] | None = None,
             towns: dict[str, dict[str, Any]] | None = None, hands: dict[str, list[str]] | None = None,
             deniers: int = 10, edition_state: dict | None = None) -> FiefState:
    board = england_board()
    state = FiefState(variant=VARIANT, options={"rules_version": 2}, players=list(players), round=round,
                      phase="cards_play")
    state.families = {p: Family(p, deniers=deniers, hand=list((hands or {}).get(p, []))) for p in players}
    state.towns = {t: Town(t) for t in board.towns}
    for name, spec in (towns or {}).items():
        for key, value in spec.items():
            setattr(state.towns[name], key, value)
    state.fief_titles = {f: None for f in board.fiefs}
    state.governed = {f: False for f in board.fiefs}
    for name, spec in (lords or {}).items():
        spec = dict(spec)
        titles = spec.pop("titles", [])
        state.lords[name] = Lord(name, spec.pop("family"), spec.pop("female", False), spec.pop("at"), **spec)
        for fief in titles:
            state.lords[name].fief_titles.append(fief)
            state.fief_titles[fief] = name
            state.governed[fief] = True
    for town, by_family in (units or {}).items():
        for family, kinds in by_family.items():
            for kind, n in kinds.items():
                for _ in range(n):
                    pid = state.new_pawn_id()
                    state.pawns[pid] = Pawn(pid, kind, family, town)
    state.edition_state = dict(edition_state or {})
    return state


def units_in(state: FiefState, town: str, family: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for p in state.pawns.values():
        if p.location == town and p.family == family:
            out[p.kind] = out.get(p.kind, 0) + 1
    return out
