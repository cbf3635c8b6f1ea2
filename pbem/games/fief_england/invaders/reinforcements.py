"""6.1 Reinforcements: at the beginning of the Invaders phase each non-captive Leader already in
England recruits 3 of his own Foot Soldiers, if available: an army never has more than 5, nor
another army's (6.1 note). A Leader is never a captive (an ambushed Leader leaves the game,
6.11), so every Leader on the map recruits."""
from __future__ import annotations

from pbem.games.fief.state import FiefState
from pbem.games.fief_england.compass import Compass
from pbem.games.fief_england.invaders.armies import army_name, numbers
from pbem.games.fief_england.invaders.order import by_region
from pbem.rules.api import Event


def reinforce(state: FiefState, compass: Compass) -> list[Event]:
    n = numbers()
    events = []
    for army_id, army in by_region(state, compass):
        if not army["leader"]:
            continue            # 6.1: the Leader recruits; Foot Soldiers alone do not
        before = army["foot"]
        army["foot"] = min(n.foot_soldiers, before + n.reinforcements)   # 6.1: 3, at most 5
        gained = army["foot"] - before
        text = (f"{army_name(army_id)} in {army['city']} recruits {gained} Foot Soldier{'s' * (gained != 1)}: "
                f"its Leader and {army['foot']} Foot Soldiers (6.1)." if gained else
                f"{army_name(army_id)} in {army['city']} has all its {army['foot']} Foot Soldiers already (6.1).")
        events.append(Event("invaders_reinforced", text,
                            data={"army": army_id, "city": army["city"], "recruited": gained, "foot": army["foot"]}))
    return events
