"""Moves and permission in England (E 5.0, 5.1, rulings R24, R30, R55).

The core's movement already asks a family's leave to pass through a city it occupies (its
standing `safe_passage` policy, 5.0) and makes a granted passage go on (R24). England adds:

- "Once Troops have moved with a Noble, they cannot be picked up and moved again by a different
  Noble" (5.0): ``may_pick_up``;
- "When moving into a City with a Stronghold, Fortified City, or Abbey, a Noble needs the owner's
  permission to enter, even if allied ... If not granted access, the Troops remain in the City
  Outskirts" (5.0): ``entry_owner``;
- "If a Player moves after opposing Troops moved into their City, the Player can exit the City
  along any Road except along the Road the opposing Troops entered from (unless that Opponent
  gives the Player permission ...)" (5.0): ``exit_refused``;
- "If opposing Armies in a City did not Battle last Round, they no longer need permission to
  continue moving this Round" (5.0, Ex 5-2): ``leave_needed``.
"""
from __future__ import annotations

from typing import Iterable, Mapping

from pbem.games.fief.policies import permits
from pbem.games.fief.state import FiefState, Pawn


def may_pick_up(pawn: Pawn, moved_with: Mapping[str, str], noble: str) -> str | None:
    """5.0: why ``noble`` may not take ``pawn`` along, or None. ``moved_with``: unit id -> the
    noble it moved with this round."""
    first = moved_with.get(pawn.id)
    if first is not None and first != noble:
        return f"it moved with {first} this round: troops moved by one noble do not move again with another (5.0)"
    return None


def entry_owner(state: FiefState, city: str, family: str, abbeys: Mapping[str, str]) -> str | None:
    """5.0: the family whose permission ``family`` needs to enter ``city`` (inside its
    Stronghold, Fortified City, Royal Stronghold or Abbey), even an ally's, or None. ``abbeys``:
    city -> the family of its Abbess. A fortress is its controller's, occupied or empty (R30)."""
    town = state.towns[city]
    owner = town.controller if town.fortress else abbeys.get(city)
    return owner if owner is not None and owner != family else None


def entry_refused(state: FiefState, city: str, family: str, abbeys: Mapping[str, str]) -> str | None:
    """5.0: the owner who refuses ``family`` entry into ``city`` (its standing `safe_passage`
    policy answers, as for passing through), or None: the army enters. A refused army stays in
    the City Outskirts, on the road it came by."""
    owner = entry_owner(state, city, family, abbeys)
    if owner is None or permits(state.families[owner].policies, "safe_passage", family):
        return None
    return owner


def exit_refused(state: FiefState, city: str, family: str, road_to: str,
                 entered: Iterable[tuple[str, str]]) -> list[str]:
    """5.0: the opponents who entered ``city`` this round from ``road_to`` (``entered``: (family,
    the city they came from), in order) and do not let ``family`` leave along that road. Every
    other road is open."""
    out: list[str] = []
    for other, came_from in entered:
        if other != family and came_from == road_to and other not in out \
                and not permits(state.families[other].policies, "safe_passage", family):
            out.append(other)
    return out


def leave_needed(city: str, battled_last_round: Iterable[str]) -> bool:
    """5.0, Ex 5-2: does an army that waited in ``city`` (or its Outskirts) since last round need
    the occupier's permission to move on through it? Only if a battle was fought there last
    round ("If neither side declares Battle, Lucia could wait until the next Round to pass
    through Canterbury without having to ask permission")."""
    return city in set(battled_last_round)
