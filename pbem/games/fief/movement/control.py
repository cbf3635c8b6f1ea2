"""Town control as forces come and go during the Movement Phase (5.2.2).

- The first family to arrive in an empty town takes control; others arriving later stand next
  to the town space (``Town.arrivals`` keeps the order, first = on the town space).
- An empty town of a governed fief whose title is not vacant is controlled by the family
  governing that fief (control.controller derives it while ``Town.controller`` is None).
- A controlling family that leaves gives control to a present family of its choice.
- A family taking control of a city takes the fief title with it (D.1.1 transmission,
  titles.grant_fief_title).
- A besieger left with no lord in the town removes its siege engine marker (6.4.1).
"""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.control import holder_family
from pbem.games.fief.edition import edition_of
from pbem.games.fief.movement.presence import Presence, town_place
from pbem.games.fief.state import FiefState
from pbem.games.fief.hear_ye.titles import family_lords, grant_fief_title
from pbem.rules.api import Event


def effective_controller(state: FiefState, board: Board, presence: Presence, town: str) -> str | None:
    here = state.towns[town]
    if here.controller:
        return here.controller
    if not presence.families_in(town) and edition_of(state).hooks.empty_towns == "fief":   # 5.2.2
        return holder_family(state, board.towns[town].fief)
    return None


def may_enter(state: FiefState, board: Board, presence: Presence, town: str, family: str) -> bool:
    """5.2.1: forces reaching an empty town (no troop nor lord) or a town their family controls
    are placed on the town; in a town controlled and occupied by another family they stay on
    the road. (A town occupied by others but control free, which a consistent state never
    holds, is treated like an occupied one: the newcomer waits on the road.)"""
    if town in board.seas:
        return True   # 5.3.1: a sea: no control, no battle
    others = presence.families_in(town) - {family}
    return not others or effective_controller(state, board, presence, town) == family


def enter_town(state: FiefState, board: Board, presence: Presence, town: str, family: str,
               lord: str | None) -> list[Event]:
    """Forces of ``family`` have just been placed in ``town`` (may_enter was true)."""
    if town in board.seas:
        return []
    here = state.towns[town]
    if family not in here.arrivals:
        here.arrivals.append(family)
    if here.controller == family:
        return []
    others = presence.families_in(town) - {family}
    if others:
        return []   # next to the town space; control does not change
    return set_controller(state, board, town, family, lord, why="arrives first")


def left_town(state: FiefState, board: Board, presence: Presence, town: str, family: str,
              preferences: list[str]) -> list[Event]:
    """Some forces of ``family`` have just left ``town``."""
    if town in board.seas:
        return []
    here = state.towns[town]
    events: list[Event] = []
    if family in here.besiegers and not presence.has_lord_at(town_place(town), family):
        # 6.4.1: a besieger with no lord left in the town removes its siege engine marker.
        del here.besiegers[family]
        events.append(Event("siege_marker_removed", f"{family} has no lord left in {town} and "
                            f"removes their siege engine marker ({edition_of(state).cite('6.4.1')}).",
                            data={"town": town, "family": family}))
        if not here.besiegers:
            events.append(Event("siege_lifted", f"The siege of {town} is lifted ({edition_of(state).cite('6.4.2')}).",
                                data={"town": town}))
    present = presence.families_in(town)
    if family in present:
        return events
    if family in here.arrivals:
        here.arrivals.remove(family)
    if here.controller != family:
        return events
    # 5.2.2: the leaving controller gives control to a present family of its choice; by
    # default (no choice given, or the chosen family is gone) to the earliest arrived.
    chosen = next((p for p in preferences if p in present), None)
    if chosen is None:
        chosen = next((f for f in here.arrivals if f in present), None)
    if chosen is None and present:
        chosen = sorted(present)[0]
    if chosen is None and edition_of(state).hooks.empty_towns == "fortress":
        if here.fortress:   # England 5.1, R30: a fortress stays its controller's while empty
            events.append(Event("town_control", f"{town} is left empty; its {here.fortress} keeps it "
                                f"{family}'s (5.1, R30).", data={"town": town, "controller": family}))
        else:               # England 5.1, Ex 5-1: an emptied City is lost
            here.controller = None
            events.append(Event("town_control", f"{town} is left empty: {family} no longer controls it (5.1).",
                                data={"town": town, "controller": None}))
        return events
    if chosen is None:
        here.controller = None
        holder = holder_family(state, board.towns[town].fief)
        text = (f"{town} is left empty; as a town of a governed fief it is controlled by "
                f"{holder} (5.2.2)." if holder else f"{town} is left empty and control free (5.2.2).")
        events.append(Event("town_control", text, data={"town": town, "controller": holder}))
        return events
    how = "by choice" if chosen in preferences else "by default: the earliest arrived"
    events += set_controller(state, board, town, chosen, None,
                             why=f"receives control from {family}, who left ({how})")
    return events


def set_controller(state: FiefState, board: Board, town: str, family: str, lord: str | None,
                   why: str) -> list[Event]:
    here = state.towns[town]
    here.controller = family
    if family in here.arrivals:
        here.arrivals.remove(family)
    here.arrivals.insert(0, family)    # the new controller's forces go on the town space
    here.besiegers.pop(family, None)   # nobody besieges their own town
    events = [Event("town_control", f"{family} now controls {town} ({why}, {edition_of(state).cite('5.2.2')}).",
                    data={"town": town, "controller": family})]
    if here.fortress == "city":
        events += _city_title(state, board, town, family, lord)
    return events


def _city_title(state: FiefState, board: Board, town: str, family: str, lord: str | None) -> list[Event]:
    """5.2.2: a family taking control of a city takes that fief's title (vacant or not)."""
    fief = board.towns[town].fief
    if not state.governed.get(fief):
        return []
    if holder_family(state, fief) == family:
        return []
    candidates = [lo for lo in family_lords(state, family) if lo.location is not None]
    receiver = state.lords[lord] if lord in state.lords and state.lords[lord].family == family else None
    if receiver is None:
        here = [lo for lo in candidates if lo.location == town and not lo.captive_of]
        receiver = here[0] if here else candidates[0] if candidates else None
    name = board.fiefs[fief].name
    if receiver is None:
        state.fief_titles[fief] = None
        for lo in state.lords.values():
            if fief in lo.fief_titles:
                lo.fief_titles.remove(fief)
        return [Event("title_vacant", f"{family} takes the city of {town} but has no lord to hold "
                      f"the title of the {name}: it is vacant ({edition_of(state).cite('D.1.1')}).",
                      data={"fief": fief})]
    return grant_fief_title(state, board, fief, receiver.name)
