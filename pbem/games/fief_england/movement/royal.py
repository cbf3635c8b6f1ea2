"""Royal movement (E 5.0 l.356, 2.13 l.216, 4.9 l.335; ruling R50): "Any Royal Family member,
their Royal Guards (13.1), and both of their Families' Nobles (with NO Troops) can travel to the
Royal Abbey (2.13) or Royal Stronghold (2.13) from ANY City for a total cost of 2 moves."

R50: the move takes both of the noble's Moves (it is their whole movement this round); a
besieged noble still needs the besieger's leave (7.9); no road, bandit or sea is crossed, so no
one else's permission is asked and no bandit die is rolled.
"""
from __future__ import annotations

from typing import Iterable

from pbem.games.fief.policies import permits
from pbem.games.fief.state import FiefState

ROYAL_FAMILY = ("king", "queen", "sovereign_queen", "prince_of_wales")   # Definitions (l.891)


def royal_families(state: FiefState) -> set[str]:
    """The families of the Royal Family's members ("both of their Families")."""
    return {lo.family for lo in state.lords.values() if lo.political in ROYAL_FAMILY and lo.location is not None}


def royal_move_problem(state: FiefState, noble: str, destination: str, royal_places: Iterable[str],
                       units: Iterable[str], guard_kinds: Iterable[str], moves: int) -> str | None:
    """Why ``noble`` may not make the royal move to ``destination`` with the unit ids ``units``,
    or None. ``royal_places``: the cities of the Royal Abbey and the Royal Stronghold;
    ``guard_kinds``: the royal guard's unit kinds (13.1); ``moves``: what the royal move costs
    (the record's `moves.royal_to_abbey_or_stronghold`), all of the noble's Moves (R50)."""
    lord = state.lords[noble]
    places = set(royal_places)
    if destination not in places:
        where = ", ".join(sorted(places)) or "none is on the map"
        return (f"{destination} holds neither the Royal Abbey nor the Royal Stronghold (5.0, 4.9): the royal move "
                f"reaches only them ({where})")
    if lord.captive_of or lord.location is None:
        return f"{noble} is not free on the map"
    if lord.location == destination:
        return f"{noble} is already in {destination}"
    royal = lord.political in ROYAL_FAMILY
    if not royal and lord.family not in royal_families(state):
        return (f"{noble} is neither of the Royal Family nor a noble of a royal member's family: only they "
                "travel by the royal move (5.0)")
    guards = set(guard_kinds)   # the caller passes the noble's own guard only (13.1: it leaves no Lord's side)
    troops = [pid for pid in units if state.pawns[pid].kind not in guards]
    if troops:
        return ("the royal move carries no troops: only the Royal Family's own guards go with them (5.0, 13.1); "
                f"{len(troops)} unit{'s' if len(troops) != 1 else ''} would have to stay")
    if lord.steps:
        return f"the royal move costs {moves} Moves, all of {noble}'s Moves this round, and {noble} has moved (R50)"
    town = state.towns[lord.location]
    refusing = [f for f in town.besiegers if f != lord.family and town.controller == lord.family
                and not permits(state.families[f].policies, "besieged_may_leave", lord.family)]
    if refusing:
        return (f"{lord.location} is besieged by {', '.join(refusing)}, who do not let {noble} leave "
                "(7.9, R50; standing policy `besieged_may_leave`)")
    return None
