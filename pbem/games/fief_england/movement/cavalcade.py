"""England's cavalcade (E 5.2, 5.3 and the FAQ, l.876-880): a battle fought during Movement by
an army of nobles and knights only, with the Melee rules (7.3), the defender +1 hit per battle
die (5.3). The battle itself is the battle rules' (the core's cavalcade hook); what England
decides around it is here.

- "If a Player cavalcades through a defended Stronghold or Fortified City, the Cavalcade can
  just pass through this City without permission - unless the Defender decides to give up their
  defensive Stronghold/Fortified City positions to immediately engage the Cavalcade without any
  defensive benefits" (5.2): ``through_fortress``. By mail the defender decides by a standing
  policy, `cavalcade: come_out` (R56: by default the defender stays inside).
- "Can a Cavalcade fight in its final Move? No." (FAQ): ``cavalcade_problem``.
- "Can a Player ... if he wins decide to stay in that City instead of moving on? No. The Player
  must continue moving to the next City" (FAQ, 5.2 "it must continue its movement"): a won
  cavalcade makes its next step (the core's movement goes on after a won cavalcade); it may leave
  a knight behind (5.2).
- "Can a Player initiate a Cavalcade from a besieged Stronghold or Fortified City? Yes" (FAQ).
"""
from __future__ import annotations

from typing import Iterable

from pbem.games.fief.state import FiefState

MEMBERS = ("knight",)          # 5.2: "composed exclusively of Nobles and Knights"
POLICY = "cavalcade"           # the defender's standing answer: "come_out" | "stay" (default)


def split_units(state: FiefState, units: Iterable[str]) -> tuple[list[str], list[str]]:
    """5.2: (the knights who ride, the units who stay behind: "All other Units may not Cavalcade,
    remain behind")."""
    ride, stay = [], []
    for pid in units:
        (ride if state.pawns[pid].kind in MEMBERS else stay).append(pid)
    return ride, stay


def cavalcade_problem(moves_left: int) -> str | None:
    """FAQ (l.878): a cavalcade is fought only with a Move left after it: ``moves_left`` is what
    the army has once in the city it fights in."""
    if moves_left < 1:
        return ("a cavalcade never fights on its final Move (FAQ): the battle waits for the Battle phase if the "
                "opponent is still there")
    return None


def through_fortress(state: FiefState, city: str, defenders: Iterable[str]) -> tuple[bool, list[str]]:
    """5.2: whether the cavalcade passes ``city`` without a battle, and who comes out to fight
    it. A family holding the city's Stronghold or Fortified City (its controller) stays inside,
    and lets the cavalcade pass, unless its policy is to come out (R56); a defender with no
    fortress there fights."""
    town = state.towns[city]
    fighters: list[str] = []
    for fam in defenders:
        inside = bool(town.fortress) and town.controller == fam
        if not inside or state.families[fam].policies.get(POLICY) == "come_out":
            fighters.append(fam)
    return not fighters, fighters
