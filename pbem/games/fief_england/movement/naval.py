"""England's naval moves as they are made (E 5.4, 5.5, ruling R23): who may sail, and where
STORMS or an arriving army close the sea. The path itself (port, contiguous seas, one Move per
new sea, landing at a port) is read by path.py.

- "Nobles and their Troops initiating Naval Movement must have begun the Round in a Port City or
  have been purchased and placed in that Port City this Round" (5.4): every noble and unit of
  the army has made no Move this round (Ex 5-6: Durham to Berwick, then no naval move).
- "It is forbidden to naval move into or out of a Region experiencing STORMS" (5.5): the port
  left, every sea entered and the port landed at (a sea is its Region's, E Setup l.25); the
  Regions under STORMS are the disasters part's ``storm_regions`` (the caller passes them).
- "An Army arriving at a Port prevents another Player's Army from leaving the Port without the
  arriving Player's permission" (5.4, R23): a family whose army reached the port this round
  must grant the passage (its standing `safe_passage` policy) for another family to sail out.
"""
from __future__ import annotations

from typing import Iterable

from pbem.games.fief.policies import permits
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.movement.path import SEA, Leg
from pbem.games.fief_england.movement.waters import Waters


def voyage_seas(waters: Waters, start: str, legs: list[Leg]) -> list[str]:
    """The seas of a naval move's Regions: the port's own, then every sea entered."""
    entered = [leg.place for leg in legs if leg.kind == SEA]
    return [waters.port_sea[start]] + entered if entered else []


def sail_problem(state: FiefState, waters: Waters, family: str, start: str, legs: list[Leg],
                 moved: Iterable[str], storms: set[str], arrived: Iterable[str]) -> str | None:
    """Why the naval move of ``legs`` from ``start`` may not be made now, or None.
    ``moved``: the members of the army (nobles' names, unit ids) that made a Move this round;
    ``arrived``: the families whose armies reached ``start`` this round, in order."""
    seas = voyage_seas(waters, start, legs)
    if not seas:
        return None
    moved = list(moved)
    if moved:
        return (f"{', '.join(moved)} did not begin the round in {start} (they moved this round): only "
                "forces that began the round in the port, or were bought there, sail (5.4)")
    stormy = [s for s in seas if s in storms]
    if stormy:
        return (f"STORMS on Region {', '.join(stormy)}: no naval move into or out of a Region under "
                "STORMS (5.5)")
    for other in arrived:
        if other != family and not permits(state.families[other].policies, "safe_passage", family):
            return (f"{other}'s army arrived at the port of {start} this round and does not let {family}'s "
                    "army leave it (5.4; standing policy `safe_passage`)")
    return None

