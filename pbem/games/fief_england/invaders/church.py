"""6.10 Church Intervention: a Bishop, Archbishop or Abbess in the same city as an Invader
Leader may try to intervene. The d6: 1-3 the army stops its aggressions and leaves England for
good (its markers go back to the box: fewer Invaders in the game); 4-6 the Invaders slay the
cleric (4.8). By mail an `intervene:` order of the Invaders phase (orders.py, ruling R81)."""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.hear_ye.elimination import eliminate_lord
from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief_england.invaders.armies import army_name, numbers, record
from pbem.games.fief_england.invaders.leaders import gone_for_good
from pbem.games.fief_england.invaders.leaving import leave_england
from pbem.rules.api import Event
from pbem.rules.rng import Rng


def is_cleric(state: FiefState, lord: Lord) -> bool:
    """A Bishop or Archbishop (``Lord.bishopric``, 2.14) or an Abbess (the Church's record,
    ``edition_state["abbeys"]``: each abbey's `abbess`, 2.13)."""
    abbeys = state.edition_state.get("abbeys") or {}
    return lord.bishopric is not None or any((a or {}).get("abbess") == lord.name for a in abbeys.values())


def intervene(state: FiefState, board: Board, cleric: str, army_id: str, rng: Rng) -> list[Event]:
    lord = state.lords[cleric]
    roll = rng.d6(f"Church intervention: {cleric} before {army_name(army_id)}")
    city = record(state)["armies"][army_id]["city"]
    if roll in numbers().church_leaves:
        events = [Event("invaders_church_intervention", f"{cleric} ({lord.family}) intervenes before "
                        f"{army_name(army_id)} in {city} and rolls {roll}: the army stops its aggressions and leaves "
                        "England for good (6.10).",
                        data={"lord": cleric, "family": lord.family, "army": army_id, "city": city, "roll": roll,
                              "success": True})]
        record(state).setdefault("sent_away", []).append(   # 13.3: the Garter may reward it (R28)
            {"round": state.round, "army": army_id, "lord": cleric, "by": "church"})
        events += leave_england(state, army_id, "turned back by the Church (6.10)", board)   # 7.6, R156
        return events + gone_for_good(state, army_id)
    events = [Event("invaders_church_intervention", f"{cleric} ({lord.family}) intervenes before "
                    f"{army_name(army_id)} in {city} and rolls {roll}: the Invaders slay the cleric (6.10).",
                    data={"lord": cleric, "family": lord.family, "army": army_id, "city": city, "roll": roll,
                          "success": False})]
    return events + eliminate_lord(state, board, cleric)
