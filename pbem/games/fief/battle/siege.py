"""Sieges at the end of the Battle Phase (6.4.1): in turn order, each player lifts the sieges
they order lifted, continues the others (the siege engine marker flips from its '1 battle die'
side to its '2 battle dice' side) while they still have a lord there, and declares new ones.

By mail a siege in progress continues by default (DESIGN.md: the cautious default keeps what
the player has); a siege is declared by a `siege:` order or by a battle plan's
`besiege_if_stopped` when the player stopped an attack (6.4.1 example 1). What a siege does
elsewhere: no income (income/phase.py, 6.4.2), no units placed (purchase/phase.py), the besieged army moves
only with the besiegers' leave (movement/phase.py), siege engines cancel the fortress penalty
(battle/dice.py, 6.4.3).
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.control import controller, forces_by_town
from pbem.games.fief.edition import edition_of
from pbem.games.fief.state import FiefState
from pbem.rules.api import Event

FULL = 2   # 6.4.1: the marker's '2 battle dice' side


def resolve_sieges(state: FiefState, board: Board, orders: Mapping[str, Any],
                   besiege: Mapping[str, list[str]]) -> list[Event]:
    events: list[Event] = []
    held_before = {name: set(town.besiegers) for name, town in state.towns.items() if town.besiegers}
    for player in state.turn_order():
        mine = (orders.get(player) or {})
        for town in mine.get("lifts") or []:
            if player in state.towns[town].besiegers:
                events += remove_marker(state, town, player, f"{player} lifts their siege of {town} (6.4.1)")
        for town in sorted(t for t, fams in held_before.items() if player in fams):
            events += _continue(state, board, player, town)
        for town in list(mine.get("sieges") or []) + list(besiege.get(player) or []):
            if player in held_before.get(town, ()) or player in state.towns[town].besiegers:
                continue   # a siege in progress: continued above
            events.append(declare(state, board, player, town))
    return events


def remove_marker(state: FiefState, town: str, family: str, why: str) -> list[Event]:
    here = state.towns[town]
    del here.besiegers[family]
    events = [Event("siege_marker_removed", f"{why}: the siege engine marker is removed.",
                    data={"town": town, "family": family})]
    if not here.besiegers:
        events.append(Event("siege_lifted", f"The siege of {town} is lifted (6.4.2).", data={"town": town}))
    return events


def _continue(state: FiefState, board: Board, player: str, town: str) -> list[Event]:
    here = state.towns[town]
    if player not in here.besiegers:
        return []    # removed during a battle (6.4.1) or lifted
    if not has_free_lord(state, player, town):
        return remove_marker(state, town, player, f"{player} has no lord left in {town} (6.4.1)")
    ctrl = controller(state, board, town, forces_by_town(state))
    if not here.fortress or ctrl in (None, player):
        # Ruling: a siege is held against a fortress controlled by another family (6.4.1);
        # once the besieger took the town (or it is control free) there is nothing to besiege.
        return remove_marker(state, town, player, f"{town} is no longer a fortress held by another family")
    if here.besiegers[player] >= FULL:
        return [Event("siege_continued", f"{player} keeps besieging {town} (siege engine at 2 battle dice, 6.4.1).",
                      data={"town": town, "family": player, "side": FULL})]
    here.besiegers[player] = FULL
    return [Event("siege_continued", f"{player} continues the siege of {town}: the siege engine marker "
                  "flips to its 2 battle dice side (6.4.1).", data={"town": town, "family": player, "side": FULL})]


def declare(state: FiefState, board: Board, player: str, town: str) -> Event:
    here = state.towns[town]
    ctrl = controller(state, board, town, forces_by_town(state))
    used = [t for t, v in state.towns.items() if player in v.besiegers]
    why = None
    if not here.fortress:
        why = f"{town} has no fortress"
    elif ctrl in (None, player):
        why = f"{town} is not controlled by another family"
    elif not has_free_lord(state, player, town):
        why = f"you have no free lord in {town}"
    elif len(used) >= edition_of(state).siege_engines:   # A.1, 6.4.1
        why = f"both your siege engine markers are in use ({', '.join(sorted(used))})"
    if why:
        return Event("siege_failed", f"{player} cannot besiege {town}: {why} (6.4.1).",
                     data={"town": town, "family": player, "reason": why})
    here.besiegers[player] = 1
    return Event("siege_declared", f"{player} besieges {town}, held by {ctrl}: a siege engine marker "
                 "with its 1 battle die side up (6.4.1).", data={"town": town, "family": player, "side": 1,
                                                                   "besieged": ctrl})


def has_free_lord(state: FiefState, family: str, town: str) -> bool:
    """A lord of the family in the town, not captive: to besiege (6.4.1), to declare a battle (6)."""
    return any(lo.family == family and lo.location == town and not lo.captive_of for lo in state.lords.values())
