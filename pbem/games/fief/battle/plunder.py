"""Plunder (6.5): once all battles are resolved, every player in turn order may plunder the
mills of the non-besieged towns they control and of the towns they besiege; each mill gives
2 deniers and goes back to the common supply (the supply counts the mills on the board)."""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.control import controller, forces_by_town
from pbem.games.fief.edition import edition_of
from pbem.games.fief.state import FiefState
from pbem.rules.api import Event



def resolve_plunder(state: FiefState, board: Board, orders: Mapping[str, Any]) -> list[Event]:
    events: list[Event] = []
    for player in state.turn_order():
        for order in (orders.get(player) or {}).get("plunder") or []:
            events.append(plunder(state, board, player, order["town"], order.get("mills")))
    return events


def plunder(state: FiefState, board: Board, player: str, town: str, wanted: int | None) -> Event:
    here = state.towns[town]
    besieger = player in here.besiegers
    ctrl = controller(state, board, town, forces_by_town(state))
    owner = ctrl == player and not here.besiegers
    why = None
    if not (besieger or owner):
        why = (f"{town} is besieged: only its besiegers may plunder it" if here.besiegers and
               ctrl == player else f"you neither control nor besiege {town}")
    elif not here.mills:
        why = f"{town} has no mill left"
    if why:
        return Event("plunder_failed", f"{player} cannot plunder {town}: {why} (6.5).",
                     data={"player": player, "town": town, "reason": why})
    count = here.mills if wanted is None else min(wanted, here.mills)
    here.mills -= count
    taken = edition_of(state).income["plunder_per_mill"] * count   # 6.5
    state.families[player].deniers += taken
    return Event("plundered", f"{player} plunders {count} mill{'s' if count > 1 else ''} in {town} "
                 f"and takes {edition_of(state).coins(taken)}; the mills go back to the supply (6.5).",
                 data={"player": player, "town": town, "mills": count, "deniers": taken})
