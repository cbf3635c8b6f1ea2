"""Fief titles changing hands (D.1.1, 4.4) and lords coming into play (G.1.2).

Shared by the purchase rules (a bought title) and the movement rules (taking a city, 5.2.2).
Both ``FiefState.fief_titles`` (fief -> holder) and ``Lord.fief_titles`` are kept in step.
"""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.control import controller, forces_by_town
from pbem.games.fief.edition import edition_of
from pbem.games.fief.policies import PLACEMENT, permits
from pbem.games.fief.state import FiefState, Lord
from pbem.rules.api import Audience, Event

PRESTIGE = {"duchy": 3, "county": 2, "barony": 1}   # D.1.1: duchy > county > barony


def family_lords(state: FiefState, family: str) -> list[Lord]:
    return [lord for lord in state.lords.values() if lord.family == family]


def grant_fief_title(state: FiefState, board: Board, fief: str, lord_name: str,
                     heir: str | None = None) -> list[Event]:
    """Give ``fief``'s title to ``lord_name``; a lord now holding 3 passes the least prestigious
    one on (D.1.1) to ``heir`` or, by default, the family's lord with the fewest fief titles
    (first in play on a tie). With no lord able to take it, that title stays vacant."""
    lord = state.lords[lord_name]
    old = state.fief_titles.get(fief)
    if old and old in state.lords and fief in state.lords[old].fief_titles:
        state.lords[old].fief_titles.remove(fief)
    lord.fief_titles.append(fief)
    state.fief_titles[fief] = lord_name
    state.governed[fief] = True
    name = board.fiefs[fief].name
    events = [Event("fief_title", f"{lord_name} ({lord.family}) now holds the title of the {name}.",
                    data={"fief": fief, "lord": lord_name, "family": lord.family})]
    most = edition_of(state).fief_titles_per_lord   # D
    if len(lord.fief_titles) <= most:
        return events
    # D.1.1: the less prestigious among the 3; on equal rank the newest one moves on.
    order = {f: i for i, f in enumerate(lord.fief_titles)}
    passed = min(lord.fief_titles, key=lambda f: (PRESTIGE[board.fiefs[f].rank], -order[f]))
    lord.fief_titles.remove(passed)
    takers = [other for other in family_lords(state, lord.family)
              if other.name != lord_name and len(other.fief_titles) < most]
    chosen = next((o for o in takers if o.name == heir), None)
    if chosen is None and takers:
        chosen = min(takers, key=lambda o: len(o.fief_titles))
    passed_name = board.fiefs[passed].name
    if chosen is None:
        state.fief_titles[passed] = None   # vacant; the fief stays governed (D.1.1)
        events.append(Event("title_vacant", f"{lord_name} cannot keep 3 fief titles and no lord of "
                            f"the family can take the {passed_name}: that title is vacant (D.1.1).",
                            data={"fief": passed, "family": lord.family}))
        return events
    chosen.fief_titles.append(passed)
    state.fief_titles[passed] = chosen.name
    events.append(Event("title_transmitted", f"{lord_name} passes the title of the {passed_name} "
                        f"to {chosen.name} (D.1.1).",
                        data={"fief": passed, "from": lord_name, "to": chosen.name}))
    return events


def city_of(state: FiefState, board: Board, fief: str) -> str | None:
    return next((t for t in board.fiefs[fief].towns if state.towns[t].fortress == "city"), None)


# G.1.2's classes, in increasing order of priority ("in increasing order" = the first that has a town).
ENTRY_CLASSES = ("a fortress you control", "a town with one of your lords", "a town you control",
                 "an empty town, or a town whose controller agrees")


def entry_classes(state: FiefState, board: Board, family: str) -> list[list[str]]:
    """G.1.2: 1. a fortress the family controls, 2. a town with one of its lords, 3. a town it
    controls, 4. an empty town "or a town controlled by another player with their agreement":
    the controller's standing `placement` policy (ruling 42; rules version 2 on, ruling 21
    before), in a town its forces occupy (one held only through a fief title, 5.2.2, would
    pass to the newcomer). In class 4 the empty towns come first, so a town of another family
    is taken only when named or when no town is empty."""
    forces = forces_by_town(state)
    ctrl = {t: controller(state, board, t, forces) for t in board.towns}
    occupied = {t for t in board.towns if any(not f.empty() for f in forces.get(t, {}).values())}
    empty = [t for t in board.towns if t not in occupied and ctrl[t] is None]
    return [
        [t for t in board.towns if ctrl[t] == family and state.towns[t].fortress],
        [t for t in board.towns if forces.get(t, {}).get(family) and forces[t][family].lords],
        [t for t in board.towns if ctrl[t] == family],
        empty + [t for t in board.towns if t in occupied and hosts(state, ctrl[t], family)],
    ]


def hosts(state: FiefState, other: str | None, family: str) -> bool:
    """G.1.2: does ``other``, controlling a town, agree that a lord of ``family`` comes into
    play there? Its standing `placement` policy (default refuse), from rules version 2 on."""
    return (state.rules_version >= 2 and other not in (None, family) and other in state.families
            and permits(state.families[other].policies, PLACEMENT, family))


def entry_town(state: FiefState, board: Board, family: str, wanted: str | None = None) -> tuple[str | None, str | None]:
    """Where a lord of ``family`` comes into play (G.1.2): the first non-empty class;
    ``wanted`` is taken if it is in that class, otherwise the class's first town (the
    documented default). Returns (the town, why ``wanted`` was not taken)."""
    for number, towns in enumerate(entry_classes(state, board, family)):
        if not towns:
            continue
        if wanted is None or wanted in towns:
            return wanted or towns[0], None
        return towns[0], _not_taken(state, board, family, wanted, number)
    return None, None


def _not_taken(state: FiefState, board: Board, family: str, wanted: str, number: int) -> str:
    other = controller(state, board, wanted, forces_by_town(state))
    if number < 3 or other in (None, family):
        return f"G.1.2 offers {ENTRY_CLASSES[number]} first, and {wanted} is not one"
    if state.rules_version < 2:
        return (f"{wanted} is controlled by {other}, and a town of another family is not offered in a game "
                "under rules version 1 (ruling 21)")
    if not state.towns[wanted].controller:
        return f"{other} holds {wanted} through a fief title only, with no forces there (ruling 42)"
    return f"{wanted} is controlled by {other}, whose `placement` policy does not agree"


def come_into_play(state: FiefState, board: Board, lord_name: str, wanted: str | None = None) -> list[Event]:
    """Place a lord as coming into play (G.1.2) and hand them the family's vacant titles."""
    lord = state.lords[lord_name]
    lord.location, lord.captive_of = None, None   # off the board while its place is chosen
    town, why = entry_town(state, board, lord.family, wanted)
    lord.location = town
    if town is None:
        return [Event("lord_unplaced", f"{lord_name} finds no town to come into play in (G.1.2) "
                      "and waits off the board.", data={"lord": lord_name})]
    host = state.towns[town].controller   # the family that agreed, in a town of another (class 4)
    if not state.towns[town].controller:
        state.towns[town].controller = lord.family
    if lord.family not in state.towns[town].arrivals:
        state.towns[town].arrivals.append(lord.family)
    agreed = f", controlled by {host} who agrees (their `placement` policy)" if host not in (None, lord.family) else ""
    events = [Event("lord_placed", f"{lord_name} ({lord.family}) comes into play in {town}{agreed} "
                                   f"({edition_of(state).cite('G.1.2')}).",
                    data={"lord": lord_name, "town": town, **({"agreed_by": host} if agreed else {})})]
    if why:   # the wanted town was part of the family's orders: told to the family only
        events.insert(0, Event("lord_place_not_taken", f"{lord_name} cannot come into play in {wanted}: "
                               f"{why} (G.1.2).", Audience.only(lord.family),
                               {"lord": lord_name, "wanted": wanted, "town": town}))
    for fief, holder in state.fief_titles.items():
        city = city_of(state, board, fief)
        if holder is None and state.governed.get(fief) and city and \
                controller(state, board, city) == lord.family and len(lord.fief_titles) < 2:
            events += grant_fief_title(state, board, fief, lord_name)
    return events
