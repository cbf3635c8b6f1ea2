"""Pillage (E 7.10): when all battles are resolved, players in turn order may pillage the cities
they control: each Mill destroyed gives 2 shillings (the record's `income.plunder_per_mill`);
the opponents' trebuchets and bombards there are exchanged for the pillager's own markers while
its stockpile has some, or destroyed. The order's `abbey: NOBLE` pillages the Abbey there, led by
that noble (2.13, 7.10, R136: 10 shillings, its relics and the Heresy marker - the Church part's
``church.pillage.pillage_abbey``)."""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.control import controller, forces_by_town
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.battle.numbers import ENGINES, england_numbers
from pbem.games.fief_england.battle.sides import units_text
from pbem.games.fief_england.church.pillage import pillage_abbey
from pbem.rules.api import Event

PER_MILL = 2   # 7.10 (l.592): "Collect 2 Shillings per Mill"


def resolve_pillage(state: FiefState, board: Board, orders: Mapping[str, Any]) -> list[Event]:
    events: list[Event] = []
    for player in state.turn_order():
        for order in (orders.get(player) or {}).get("plunder") or []:
            done = pillage(state, board, player, order["town"], order.get("mills"))
            events.append(done)
            if order.get("abbey") and done.kind == "plundered":
                events += abbey(state, player, order["abbey"], order["town"])
    return events


def abbey(state: FiefState, player: str, noble: str, town: str) -> list[Event]:
    """2.13, 7.10 (R136): the Abbey of a city the player controls, led by a free noble of theirs there."""
    done = pillage_abbey(state, player, noble, town)
    if isinstance(done, str):   # the battles changed what the mail saw: told, never dropped
        return [Event("abbey_pillage_failed", f"{player} cannot pillage the Abbey of {town}: {done} (7.10).",
                      data={"player": player, "town": town, "noble": noble, "reason": done})]
    return done


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
    parts = [f"destroys {count} mill{'s' if count != 1 else ''} for {shillings} shillings"] if count else []
    if taken:
        parts.append(f"exchanges {units_text(dict(taken))} for their own")
    if destroyed:
        parts.append(f"destroys {units_text(dict(destroyed))}")
    return Event("plundered", f"{player} pillages {town}" + (f": {', '.join(parts)}" if parts else "") + " (7.10).",
                 data={"player": player, "town": town, "mills": count, "deniers": shillings,
                       "taken": dict(taken), "destroyed": dict(destroyed)})
