"""The seas at the start of the Movement Phase (5.3; France: the one off-shore area, the board's
``seas``).

"Every lord and their armies cannot stay in the offshore area during 2 consecutive rounds:
forces that are in the offshore area at the beginning of the Movement Phase must be relocated
in harbor towns by their owner during their turn." A lord at sea with no order landing them,
and a lordless troop at sea, land in the harbor the player's `land:` order names, or else in
the default harbor below (docs/fief-france-movement-rulings.md).
"""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.movement.control import effective_controller
from pbem.games.fief.movement.presence import Presence
from pbem.games.fief.state import FiefState


def lords_at_sea(state: FiefState, board: Board) -> dict[str, list[str]]:
    """Per family, its free lords at a sea of the board."""
    out: dict[str, list[str]] = {}
    for lord in state.lords.values():
        if lord.location in board.seas and not lord.captive_of:
            out.setdefault(lord.family, []).append(lord.name)
    return out


def pawns_at_sea(state: FiefState, board: Board) -> dict[str, list[str]]:
    """Per family, its unit pawns at a sea of the board."""
    out: dict[str, list[str]] = {}
    for pawn in state.pawns.values():
        if pawn.location in board.seas:
            out.setdefault(pawn.family, []).append(pawn.id)
    return out


def harbors_in_order(board: Board) -> list[str]:
    """5.3.2: "There are 6 of them, from north to south: Calais, Cherbourg, Nantes, La Rochelle,
    Bordeaux, and Montpellier" - the order in which the default harbor is looked for (the
    board's harbors are in the order of the edition's facts, France's north to south)."""
    return list(board.harbors)


def default_harbor(state: FiefState, board: Board, presence: Presence, family: str,
                   wanted: str | None = None) -> str:
    """The harbor ``wanted`` if it is one; else, north to south, the first harbor the family
    controls, else the first empty harbor, else the first harbor (5.3)."""
    harbors = harbors_in_order(board)
    if wanted in harbors:
        return wanted
    for h in harbors:
        if effective_controller(state, board, presence, h) == family:
            return h
    for h in harbors:
        if not presence.families_in(h):
            return h
    return harbors[0]
