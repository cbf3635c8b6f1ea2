"""What England's cards leave to the end of the round (E 2.10, 8.0, 9.3, 11.3): the disaster,
fortune and TAX cards on the Regions are discarded (INVADERS stay for the Invaders part), the
Treasure markers come back to the family boards, the PARLIAMENT card turns back from its
Rebellion side. The edition's ``end_of_round`` hook."""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.disasters import KEY, end_of_round
from pbem.games.fief_england.fortune import CROWN_TALLAGES
from pbem.games.fief_england.reading import PARLIAMENT
from pbem.games.fief_england.treasure import KEY as TREASURES, return_treasures
from pbem.rules.api import Event


def cards_view(state: FiefState) -> dict:
    """What a view shows of this part's state, all public: round 1's disasters lying face up on
    their Seas until round 2 (2.4), the Treasure markers lying on played cards (11.3), the
    PARLIAMENT card's side (9.3)."""
    out: dict = {}
    waiting = (state.edition_state.get(KEY) or {}).get("waiting")
    if waiting:
        out["disasters_waiting"] = [dict(w) for w in waiting]
    if state.edition_state.get(TREASURES):
        out["treasures_used"] = {f: list(a) for f, a in state.edition_state[TREASURES].items()}
    if state.edition_state.get(PARLIAMENT):
        out["parliament_rebellion"] = True
    return out


def round_end(state: FiefState, board: Board) -> list[Event]:
    events = end_of_round(state)
    if return_treasures(state):
        events.append(Event("treasures_returned", "The Treasure markers used this round return to their family "
                            "boards (11.3).", data={}))
    state.edition_state.pop(CROWN_TALLAGES, None)   # 2.8: this round's (fortune.py)
    if state.edition_state.pop(PARLIAMENT, None):
        events.append(Event("parliament_turned", "The PARLIAMENT card turns back from its Rebellion side (9.3).",
                            data={}))
    return events
