"""England's cavalcade (E 5.2, 5.3 and the FAQ, l.876-880): a battle fought during Movement by
an army of nobles and knights only, with the Melee rules (7.3), the defender +1 hit per battle
die (5.3). The battle itself is the battle rules' (the core's cavalcade hook); what England
decides around it is here.

- "If a Player cavalcades through a defended Stronghold or Fortified City, the Cavalcade can
  just pass through this City without permission - unless the Defender decides to give up their
  defensive Stronghold/Fortified City positions to immediately engage the Cavalcade without any
  defensive benefits" (5.2): ``through_fortress``. By mail the defender cannot be asked as the
  cavalcade arrives: it stays inside, the cautious answer (R65).
- "Can a Cavalcade fight in its final Move? No." (FAQ): the core fights a cavalcade when a
  refused army tries its next step, so only with a Move left.
- "Can a Player ... if he wins decide to stay in that City instead of moving on? No. The Player
  must continue moving to the next City" (FAQ, 5.2 "it must continue its movement"): a won
  cavalcade makes its next step (the core's movement goes on after a won cavalcade); it may leave
  a knight behind (5.2).
- "Can a Player initiate a Cavalcade from a besieged Stronghold or Fortified City? Yes" (FAQ):
  the core's cavalcade against the besiegers who refuse their leave.
- "composed exclusively of Nobles and Knights" (5.2): the core's order check (5.2.4 in France).
"""
from __future__ import annotations

from typing import Iterable

from pbem.games.fief.state import FiefState

def through_fortress(state: FiefState, city: str, defenders: Iterable[str]) -> tuple[bool, list[str]]:
    """5.2: whether the cavalcade passes ``city`` without a battle, and who comes out to fight
    it. A family holding the city's Stronghold or Fortified City (its controller) stays inside
    and lets the cavalcade pass (R65); a defender with no fortress there fights."""
    town = state.towns[city]
    fighters: list[str] = []
    for fam in defenders:
        inside = bool(town.fortress) and town.controller == fam
        if not inside:
            fighters.append(fam)
    return not fighters, fighters
