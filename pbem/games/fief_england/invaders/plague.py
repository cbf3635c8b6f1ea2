"""The PLAGUE and the Invaders (E 2.5, 6.2, ruling R22): an army landing in, or entering, a
Region with the PLAGUE loses half its Foot Soldiers (rounded down) and rolls the d6 for its Leader,
who dies on 1-3. An army leaving and re-entering a PLAGUE Region, or going on to another, in the
same round does not roll again (2.5): the armies struck are kept for the round."""
from __future__ import annotations

from typing import Any

from pbem.games.fief.state import FiefState
from pbem.games.fief_england.invaders.armies import army_name, record
from pbem.games.fief_england.invaders.leaders import leader_lost
from pbem.rules.api import Event
from pbem.rules.rng import Rng

DEATH = (1, 2, 3)   # 2.5, 6.2: "on a 1, 2 or 3, he dies"


def plague_strikes(state: FiefState, army_id: str, rng: Rng) -> list[Event]:
    rec = record(state)
    if rec["plague"]["round"] != state.round:
        rec["plague"] = {"round": state.round, "armies": []}
    if army_id in rec["plague"]["armies"]:
        return [Event("invaders_plague_spared", f"{army_name(army_id)} suffered the PLAGUE already this round: "
                      "no new loss (2.5).", data={"army": army_id})]
    rec["plague"]["armies"].append(army_id)
    army: dict[str, Any] = rec["armies"][army_id]
    lost = army["foot"] // 2                      # 6.2: half its Foot Soldiers, rounded down
    army["foot"] -= lost
    roll = rng.d6(f"plague: {army_name(army_id)}'s Leader")
    dies = roll in DEATH and army["leader"]
    events = [Event("invaders_plague", f"The PLAGUE strikes {army_name(army_id)} in {army['city']}: "
                    f"{lost} Foot Soldier{'s' * (lost != 1)} die; the d6 for its Leader rolls {roll}: "
                    + ("he dies (2.5, 6.2)." if dies else "he lives (2.5, 6.2)."),
                    data={"army": army_id, "city": army["city"], "foot_lost": lost, "roll": roll,
                          "leader_dies": dies})]
    if dies:
        events += leader_lost(state, army_id, "died of the PLAGUE (6.2)")
    return events
