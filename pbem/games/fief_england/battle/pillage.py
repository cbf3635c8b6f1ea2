"""Pillage (E 7.10): when all battles are resolved, players in turn order may pillage the cities
they control: each Mill destroyed gives 2 shillings (the record's `income.plunder_per_mill`);
the opponents' trebuchets and bombards there are exchanged for the pillager's own markers while
its stockpile has some, or destroyed. (Pillaging an Abbey, 10 shillings, its relics and the
Heresy marker, belongs with the Abbeys, 2.13: not done here.)"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.control import controller, forces_by_town
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.battle.numbers import ENGINES, england_numbers
from pbem.games.fief_england.battle.sides import units_text
from pbem.rules.api import Event

PER_MILL = 2   # 7.10 (l.592): "Collect 2 Shillings per Mill"


def resolve_pillage(state: FiefState, board: Board, orders: Mapping[str, Any]) -> list[Event]:
    events: list[Event] = []
    for player in state.turn_order():
        for order in (orders.get(player) or {}).get("plunder") or []:
            events.append(pillage(state, board, player, order["town"], order.get("mills")))
    return events


def pillage(state: FiefState, board: Board, player: str, town: str, wanted: int | None) -> Event:
    here = state.towns[town]
    if controller(state, board, town, forces_by_town(state)) != player:
        why = f"you do not control {town}"
        return Event("plunder_failed", f"{player} cannot pillage {town}: {why} (7.10).",
                     data={"player": player, "town": town, "reason": why})
    count = here.mills if wanted is None else min(wanted, here.mills)
    here.mills -= count
    shillings = PER_MILL * count
    state.families[player].deniers += shillings
    on_map = Counter(p.kind for p in state.pawns.values() if p.family == player)
    taken: Counter = Counter()
    destroyed: Counter = Counter()
    for pawn in sorted((p for p in state.pawns.values() if p.location == town and p.family != player
                        and p.kind in ENGINES), key=lambda p: (len(p.id), p.id)):
        if on_map[pawn.kind] + taken[pawn.kind] < england_numbers().pools.get(pawn.kind, 0):
            taken[pawn.kind] += 1
            pawn.family = player
        else:
            destroyed[pawn.kind] += 1
            del state.pawns[pawn.id]
    parts = [f"destroys {count} mill{'s' if count != 1 else ''} for {shillings} shillings"]
    if taken:
        parts.append(f"exchanges {units_text(dict(taken))} for their own")
    if destroyed:
        parts.append(f"destroys {units_text(dict(destroyed))}")
    return Event("plundered", f"{player} pillages {town}: {', '.join(parts)} (7.10).",
                 data={"player": player, "town": town, "mills": count, "deniers": shillings,
                       "taken": dict(taken), "destroyed": dict(destroyed)})
