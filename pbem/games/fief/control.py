"""Who controls what (5.2.2) and who stands where, computed once per resolution.

A town's ``controller`` field is kept by the movement and battle rules; one more case of 5.2.2
is derived here: an empty town of a governed fief whose title is not vacant is controlled by
the family governing that fief.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from pbem.games.fief.board import Board
from pbem.games.fief.edition import edition_of
from pbem.games.fief.state import FiefState


@dataclass
class Forces:
    """One family's forces in one town (5.1): lords (not captive) and unit pawns by kind."""

    lords: list[str] = field(default_factory=list)
    captives: list[str] = field(default_factory=list)   # lords of other families it holds (6.3)
    units: Counter = field(default_factory=Counter)

    def empty(self) -> bool:
        return not (self.lords or self.units or self.captives)


def forces_by_town(state: FiefState) -> dict[str, dict[str, Forces]]:
    """town -> family -> Forces, in one pass over lords and pawns."""
    out: dict[str, dict[str, Forces]] = defaultdict(lambda: defaultdict(Forces))
    for lord in state.lords.values():
        if lord.location is None:
            continue
        if lord.captive_of:
            out[lord.location][lord.captive_of].captives.append(lord.name)
        else:
            out[lord.location][lord.family].lords.append(lord.name)
    for pawn in state.pawns.values():
        out[pawn.location][pawn.family].units[pawn.kind] += 1
    return out


def holder_family(state: FiefState, fief: str) -> str | None:
    holder = state.fief_titles.get(fief)
    return state.lords[holder].family if holder and holder in state.lords else None


def controller(state: FiefState, board: Board, town: str,
               forces: dict[str, dict[str, Forces]] | None = None) -> str | None:
    """The family controlling ``town`` (5.2.2), or None when it is control free."""
    here = state.towns[town]
    if here.controller:
        return here.controller
    occupied = forces is not None and any(not f.empty() for f in forces.get(town, {}).values())
    if not occupied and edition_of(state).hooks.empty_towns == "fief":   # 5.2.2 (England: R30)
        return holder_family(state, board.towns[town].fief)
    return None


def controllers(state: FiefState, board: Board) -> dict[str, str | None]:
    forces = forces_by_town(state)
    return {t: controller(state, board, t, forces) for t in board.towns}


def is_besieged(state: FiefState, town: str) -> bool:
    return bool(state.towns[town].besiegers)   # 6.4.2: at least 1 siege engine marker
