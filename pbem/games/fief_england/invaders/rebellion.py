"""6.13 REBELLION: Invaders are subject to REBELLIONS in the same way as Player Troops (10.1: the
rebels' hits fall on the Troops in the city). The card rules call ``rebellion_hits`` with the
hits the rebels score against the Invaders in a city: Foot Soldiers fall first (2 hits each),
Leaders only once every Foot Soldier there is down (3 hits each, 6.4); an army left with nothing
is out of the game."""
from __future__ import annotations

from pbem.games.fief.state import FiefState
from pbem.games.fief_england.invaders.armies import in_city, numbers, record
from pbem.games.fief_england.invaders.leaders import gone_for_good, leader_lost
from pbem.rules.api import Event


def rebellion_hits(state: FiefState, city: str, hits: int) -> list[Event]:
    n = numbers()
    armies = record(state)["armies"]
    here = in_city(state, city)
    foot = min(sum(armies[a]["foot"] for a in here), hits // n.foot_points)
    left = hits - foot * n.foot_points
    events = [Event("invaders_rebellion", f"The rebels of {city} strike the Invaders: {hits} hits, "
                    f"{foot} Foot Soldier{'s' * (foot != 1)} fall (6.13, 10.1).",
                    data={"city": city, "hits": hits, "foot": foot})]
    for army_id in here:
        take = min(foot, armies[army_id]["foot"])
        armies[army_id]["foot"] -= take
        foot -= take
    if not any(armies[a]["foot"] for a in here):
        for army_id in here:
            if left >= n.leader_points and armies[army_id]["leader"]:
                left -= n.leader_points
                events += leader_lost(state, army_id, f"falls to the rebels of {city} (6.13)")
    for army_id in here:
        if armies[army_id]["city"] == city and not armies[army_id]["leader"] and not armies[army_id]["foot"]:
            events += gone_for_good(state, army_id)
    return events


def invader_troops(state: FiefState, city: str) -> int:
    """The Invader units in a city, for a rebellion's "all Troops defeated" (10.1)."""
    armies = record(state)["armies"]
    return sum((1 if armies[a]["leader"] else 0) + armies[a]["foot"] for a in in_city(state, city))

