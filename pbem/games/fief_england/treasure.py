"""Treasure markers (E 11.3): each family has 2; one is placed on a played card's action to use
it (a BURGHER's Parliament vote, Rebellion or Passage; a TAX card's Tallage or Tithe) and every
used marker returns to the Family Board at the end of the round (8.0).

One function for every England part that spends a treasure (this module's fortune cards and
opportunity cards; the Church's tithe): ``spend_treasure``. The state lives in
``FiefState.edition_state["treasures"]``: family -> the actions its markers lie on this round
(plain JSON; absent: none used).
"""
from __future__ import annotations

from pbem.games.fief.state import FiefState
from pbem.games.fief_england.regions import record

KEY = "treasures"
# 11.3 (l.760-765): the actions a treasure pays for (cards.yaml `treasures.actions`).
ACTIONS = ("burgher_votes", "burgher_rebellion", "burgher_passage", "tax_tallage", "tax_tithe")


def used(state: FiefState, family: str) -> list[str]:
    """The actions ``family``'s treasure markers lie on this round (11.3)."""
    return list(state.edition_state.get(KEY, {}).get(family, []))


def treasures_left(state: FiefState, family: str) -> int:
    return record(state, "supply.treasures") - len(used(state, family))   # 11.3 (l.760)


def treasure_problem(state: FiefState, family: str, action: str) -> str | None:
    """Why ``family`` cannot pay a treasure for ``action`` now (None: it can)."""
    if action not in ACTIONS:
        raise ValueError(f"unknown treasure action {action!r}")
    if treasures_left(state, family) <= 0:
        return (f"both of your Treasure markers already lie on played cards this round "
                f"({', '.join(_word(a) for a in used(state, family))}); they return at the end of the round "
                "(11.3)")
    return None


def spend_treasure(state: FiefState, family: str, action: str) -> str | None:
    """11.3: place one of ``family``'s treasure markers on ``action``. Returns why it cannot (the
    state unchanged), or None once placed."""
    problem = treasure_problem(state, family, action)
    if problem is None:
        state.edition_state.setdefault(KEY, {}).setdefault(family, []).append(action)
    return problem


def return_treasures(state: FiefState) -> bool:
    """8.0 / 11.3 (l.766): "At Round end, used Treasure Markers are returned to the Player
    Board". True if any marker came back."""
    return bool(state.edition_state.pop(KEY, None))


def _word(action: str) -> str:
    kind, what = action.split("_", 1)
    return f"{kind.upper()} {what}"
