"""The doors through which the battle engine eliminates a lord (D.4) or makes one captive
(6.3), both with the royal guard's fate (1.5.5: "When the king is eliminated or made captive,
replace the king's retinue knight pawns in his army with the same number of knight pawns from
the pool of his family, if able"; the queen's sergeants likewise with men-at-arms).

The shared D.4 elimination lives with the movement rules for now; the Battle Phase work
(issue 4, helper B2) moves it to elimination.py: only the import below changes then. The guard
replacement is idempotent (a second call finds no guard left), so it may also live there.
"""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.movement_disasters import eliminate_lord as _eliminate_lord
from pbem.games.fief.state import POOL, FiefState
from pbem.rules.api import Event

__all__ = ["eliminate_lord", "capture_lord", "royal_guard_replaced"]

# 1.5.5: guard kind -> (the titles it serves, the pawn that replaces it)
GUARD = {"kings_knight": (("king",), "knight"), "queens_sergeant": (("queen", "regent_queen"), "man_at_arms")}


def eliminate_lord(state: FiefState, board: Board, name: str) -> list[Event]:
    events = royal_guard_replaced(state, name)
    return events + _eliminate_lord(state, board, name)


def capture_lord(state: FiefState, board: Board, name: str, jailer: str) -> list[Event]:
    """6.3: flip the lord to 'captive'; they stay where they stand, with their jailer's forces."""
    state.lords[name].captive_of = jailer
    return royal_guard_replaced(state, name)


def royal_guard_replaced(state: FiefState, name: str) -> list[Event]:
    """1.5.5: the guard pawns of the king's (queen's) family standing with them are replaced by
    knights (men-at-arms) from the family's pool while it has some; the others are removed."""
    lord = state.lords[name]
    kinds = [g for g, (titles, _unit) in GUARD.items() if lord.political in titles]
    if not kinds or lord.location is None:
        return []
    guard_kind = kinds[0]
    unit = GUARD[guard_kind][1]
    guards = [p for p in state.pawns.values()
              if p.family == lord.family and p.kind == guard_kind and p.location == lord.location]
    if not guards:
        return []
    left = POOL[unit] - sum(1 for p in state.pawns.values() if p.family == lord.family and p.kind == unit)
    replaced = 0
    for pawn in guards:
        if left > 0:
            pawn.kind = unit
            left -= 1
            replaced += 1
        else:
            del state.pawns[pawn.id]
    removed = len(guards) - replaced
    text = (f"{name}'s royal guard in {lord.location} is replaced by {replaced} "
            f"{'knight' if unit == 'knight' else 'man-at-arms'} pawn{'s' if replaced != 1 else ''} from "
            f"{lord.family}'s pool" + (f"; {removed} cannot be replaced and {'is' if removed == 1 else 'are'} removed" if removed else "")
            + " (1.5.5).")
    return [Event("royal_guard_replaced", text, data={"lord": name, "family": lord.family,
                                                        "replaced": replaced, "removed": removed})]
