"""An Invader Leader lost (6.4, 6.11 AMBUSH, 6.12 ASSASSINATE Leader, 2.5 the PLAGUE, 7.2 an
aimed volley): he is removed from the game. His Foot Soldiers follow another Leader present in
the city, or stay where they are, unable to move (R88) (6.3: the Leader "must be present to move their
Foot Soldiers"); his captives are released (7.6). An army without Leader or Foot Soldiers is
gone for good. The card rules (AMBUSH, ASSASSINATION) call ``ambush_leader`` and
``assassinate_leader``."""
from __future__ import annotations

from pbem.games.fief.state import FiefState
from pbem.games.fief_england.invaders.armies import army_name, numbers, record
from pbem.games.fief_england.invaders.captives import release_all
from pbem.rules.api import Event


def leader_lost(state: FiefState, army_id: str, why: str) -> list[Event]:
    rec = record(state)
    army = rec["armies"][army_id]
    army["leader"] = False
    city = army["city"]
    events = [Event("invaders_leader_lost", f"The Leader of {army_name(army_id)} {why}: he is removed from the game.",
                    data={"army": army_id, "city": city, "why": why})]
    events += release_all(state, army_id, f"the Leader of {army_name(army_id)} who held them is gone (7.6)")
    other = next((a for a, x in sorted(rec["armies"].items(), key=lambda kv: int(kv[0]))
                  if a != army_id and x["city"] == city and x["leader"]), None)
    for follower in [a for a, x in rec["armies"].items() if x["follows"] == army_id]:
        rec["armies"][follower]["follows"] = other
    if not army["foot"]:
        events += gone_for_good(state, army_id)
    elif other is not None:
        army["follows"] = other
        events.append(Event("invaders_follow", f"The {army['foot']} Foot Soldiers of {army_name(army_id)} follow the "
                            f"Leader of {army_name(other)} in {city} (6.11, 6.12).",
                            data={"army": army_id, "follows": other, "city": city}))
    else:
        events.append(Event("invaders_leaderless", f"The {army['foot']} Foot Soldiers of {army_name(army_id)} stay in "
                            f"{city} without a Leader: they cannot move (6.3, 6.12).",
                            data={"army": army_id, "city": city}))
    return events


def gone_for_good(state: FiefState, army_id: str) -> list[Event]:
    rec = record(state)
    army = rec["armies"][army_id]
    events = release_all(state, army_id, f"{army_name(army_id)} is no more")
    army.update(city=None, foot=0, leader=False, holds=False, follows=None)
    if army_id not in rec["gone"]:
        rec["gone"].append(army_id)
    left = numbers().armies - len(rec["gone"])
    events.append(Event("invaders_gone", f"{army_name(army_id)} is out of the game for good: {left} Invader "
                        "armies remain in the game.", data={"army": army_id}))
    return events


def ambush_leader(state: FiefState, army_id: str) -> list[Event]:
    """6.11, 10.5: an ambushed Invader Leader is removed from the game."""
    return leader_lost(state, army_id, "is ambushed (6.11)")


def assassinate_leader(state: FiefState, army_id: str) -> list[Event]:
    """6.12, 10.3: an Invader Leader is assassinated with no sponsor."""
    return leader_lost(state, army_id, "is assassinated (6.12)")
