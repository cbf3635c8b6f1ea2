"""Moves and permission in England (E 5.0, 5.1, rulings R24, R30, R64).

The core's movement already asks a family's leave to pass through a city it occupies (its
standing `safe_passage` policy, 5.0) and makes a granted passage go on (R24). England adds:

- "When moving into a City with a Stronghold, Fortified City, or Abbey, a Noble needs the owner's
  permission to enter, even if allied ... If not granted access, the Troops remain in the City
  Outskirts" (5.0): ``entry_owner``;
- "If a Player moves after opposing Troops moved into their City, the Player can exit the City
  along any Road except along the Road the opposing Troops entered from (unless that Opponent
  gives the Player permission ...)" (5.0): ``exit_refused``;
- the FAQ (l.876): passing through a City where several families have Troops, "you need to get
  permission from the opposing Player controlling the City" alone: ``asked_in_city`` (R149).

Troops that moved with one noble do not move again with another (5.0): run.py spends their
Moves once their noble's move is made. "If opposing Armies in a City did not Battle last Round,
they no longer need permission to continue moving this Round" (5.0, Ex 5-2) is the core's rule
already: an army's first step crosses no one in the city it starts from (a besieged army asks its
besiegers, 7.9) - R64.
"""
from __future__ import annotations

from typing import Collection, Iterable, Mapping

from pbem.games.fief.policies import permits
from pbem.games.fief.state import FiefState


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



def asked_in_city(state: FiefState, city: str, refused: list[tuple[str, str]],
                  on_road: Collection[str]) -> list[tuple[str, str]]:
    """FAQ (l.876), R149, rules version 3: of the families that refuse an army passing through
    ``city`` (``refused``: (family, policy), the core's crossing), only the City's controller is
    asked ("other Player Troops may be Allies"); the families on the road out (``on_road``) and
    the besiegers of a besieged City are asked as before, as is every family in a City nobody
    controls."""
    town = state.towns[city]
    if state.rules_version < 3 or town.besiegers or town.controller is None:
        return refused
    return [(f, policy) for f, policy in refused
            if f == town.controller or f in on_road or policy != "safe_passage"]
