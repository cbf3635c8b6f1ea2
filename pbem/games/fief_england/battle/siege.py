"""Sieges with trebuchets (E 7.9): declared by the attacker of a defended Stronghold or
Fortified City after a battle roll (or with no battle die to roll), with a Trebuchet from the
stockpile placed 'Under Construction'; paid 5 shillings in the next round's Purchase (a second
Trebuchet 5 more) or removed and the siege lifted; lifted too when no besieging noble is left,
or at the besieger's will (removing all its trebuchets).

The core marks the besieged city (``Town.besiegers[family] = 1``), which already gives 7.9's
"Besieged" rules through the core's phases: no City or Mill revenue (3.0), no purchased troops
placed there (4.0), no leaving without leave or PASSAGE (5.0), the sally without the fortress
(battle/steps.py). England's own state: ``edition_state["sieges"] = {city: {family:
{"building": N, "declared": round}}}`` - the trebuchets still under construction (public: the
marker lies on the board, 'Under Construction' side up).
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.control import controller, forces_by_town
from pbem.games.fief.battle.siege import has_free_lord
from pbem.games.fief.state import FiefState, Pawn
from pbem.games.fief_england.battle.numbers import england_numbers
from pbem.rules.api import Event

KEY = "sieges"
PRICE = 5          # 7.9 (l.577): "pay 5 Shilling to construct the Trebuchet" (record: prices.trebuchet_construction)
MOST = 2           # 7.9: a first Trebuchet, and "a second 'Active' Trebuchet by paying an additional 5"


def sieges(state: FiefState) -> dict[str, dict[str, dict[str, Any]]]:
    """The sieges' state, made when first needed (a game without sieges has no key)."""
    return state.edition_state.setdefault(KEY, {})


def building(state: FiefState, family: str) -> int:
    """Trebuchets of the family under construction (taken from its stockpile)."""
    return sum(s.get(family, {}).get("building", 0) for s in state.edition_state.get(KEY, {}).values())


def stockpile(state: FiefState, family: str) -> int:
    """Trebuchets left in the family's stockpile (l.30: 2): neither on the map nor under construction."""
    on_map = sum(1 for p in state.pawns.values() if p.family == family and p.kind == "trebuchet")
    return england_numbers().pools["trebuchet"] - on_map - building(state, family)


def resolve_sieges(state: FiefState, board: Board, orders: Mapping[str, Any],
                   besiege: Mapping[str, list[str]]) -> list[Event]:
    """After the battles, in turn order: lifts, sieges in progress kept or lifted, new sieges.
    First, a trebuchet still under construction since an earlier round was not paid in this
    round's Purchase: its siege lifts (7.9; `lift_unpaid`, which the Purchase phase's end calls
    already, construction.py - here it finds one only in a position built past that phase)."""
    events: list[Event] = lift_unpaid(state)
    for player in state.turn_order():
        mine = orders.get(player) or {}
        for town in mine.get("lifts") or []:
            if player in state.towns[town].besiegers:
                events += lift(state, town, player, f"{player} ends the siege of {town}, removing their trebuchets",
                               remove_trebuchets=True)
        for town in sorted(t for t, v in state.towns.items() if player in v.besiegers):
            events += _holds(state, board, player, town)
        for town in list(mine.get("sieges") or []) + list(besiege.get(player) or []):
            if player not in state.towns[town].besiegers:
                events.append(declare(state, board, player, town))
    return events


def _holds(state: FiefState, board: Board, player: str, town: str) -> list[Event]:
    if not has_free_lord(state, player, town):
        return no_besieger_left(state, town, player)
    ctrl = controller(state, board, town, forces_by_town(state))
    if not state.towns[town].fortress or ctrl in (None, player):
        return lift(state, town, player, f"{town} is no longer a fortress held by another family")
    return []


def no_besieger_left(state: FiefState, town: str, family: str) -> list[Event]:
    """7.9 (l.588): "If no besieging Noble is present, the Siege is automatically lifted and all
    Trebuchets are returned to the Stockpile" - the active ones too (R152; a game of version 2
    left them standing)."""
    return lift(state, town, family, f"no noble of {family} is left besieging {town}",
                remove_trebuchets=state.rules_version >= 3, removed_to="returned to the stockpile")


def besiegers_gone(state: FiefState) -> tuple[list[Event], list[str]]:
    """The sieges whose besieger the core has already unmarked (``Town.besiegers``: its last
    noble there moved away, 5.0, the core telling the siege's end): England's record of them is
    cleared and their trebuchets return to the stockpile (7.9 l.588, R152). Version 3 on.
    Returns the events and the trebuchets' pawn ids taken off the map."""
    if state.rules_version < 3:
        return [], []
    events: list[Event] = []
    gone: list[str] = []
    standing = state.edition_state.get(KEY) or {}
    for town, held in sorted(standing.items()):
        for family in sorted(f for f in held if f not in state.towns[town].besiegers):
            held.pop(family)
            ids = _remove_trebuchets(state, town, family)
            gone += ids
            removed = len(ids)
            if removed:
                events.append(Event("trebuchets_returned", f"No noble of {family} is left besieging {town}: "
                                    f"their {removed} trebuchet{'s' if removed > 1 else ''} there return to the "
                                    "stockpile (7.9).", data={"town": town, "family": family, "trebuchets": removed}))
        if not held:
            standing.pop(town)
    return events, gone


def _remove_trebuchets(state: FiefState, town: str, family: str) -> list[str]:
    """The family's trebuchets in ``town`` taken off the map, back to its stockpile; their ids."""
    ids = [p.id for p in state.pawns.values() if p.location == town and p.family == family and p.kind == "trebuchet"]
    for pid in ids:
        del state.pawns[pid]
    return ids


def declare(state: FiefState, board: Board, player: str, town: str) -> Event:
    """7.9 Begin a Siege: against a defended Stronghold or Fortified City another family holds,
    with a free noble there; a Trebuchet from the stockpile, or else one of the family's on the
    map destroyed to be placed here."""
    here = state.towns[town]
    ctrl = controller(state, board, town, forces_by_town(state))
    defended = any(p.location == town and p.family == ctrl and p.kind != "trebuchet" and p.kind != "bombard"
                   for p in state.pawns.values())
    why = None
    if not here.fortress:
        why = f"{town} has no Stronghold or Fortified City"
    elif ctrl in (None, player):
        why = f"{town} is not held by another family"
    elif not defended:
        why = f"{town}'s fortress has no troop to defend it: attack it instead (7.5)"
    elif not has_free_lord(state, player, town):
        why = f"you have no free noble in {town}"
    recycled = None
    if why is None and stockpile(state, player) <= 0:
        mine = sorted((p for p in state.pawns.values() if p.family == player and p.kind == "trebuchet"),
                      key=lambda p: (len(p.id), p.id))
        if not mine:
            why = "you have no trebuchet left, in your stockpile or on the map"
        else:
            recycled = mine[0]
    if why:
        return Event("siege_failed", f"{player} cannot besiege {town}: {why} (7.9).",
                     data={"town": town, "family": player, "reason": why})
    moved = ""
    if recycled is not None:
        del state.pawns[recycled.id]
        moved = f" (their trebuchet in {recycled.location} is destroyed to be placed here)"
    here.besiegers[player] = 1
    sieges(state).setdefault(town, {})[player] = {"building": 1, "declared": state.round}
    return Event("siege_declared", f"{player} besieges {town}, held by {ctrl}: a trebuchet is placed 'Under "
                 f"Construction'{moved}; it must be paid {PRICE} shillings in the next Purchase phase or the "
                 "siege lifts (7.9).", data={"town": town, "family": player, "besieged": ctrl})


def lift(state: FiefState, town: str, family: str, why: str, remove_trebuchets: bool = False,
         removed_to: str = "removed") -> list[Event]:
    """The siege is lifted: the trebuchet under construction goes back to the stockpile (7.9);
    the besieger ending it at will removes its trebuchets there too, as does a siege left with
    no besieging noble (``no_besieger_left``). ``removed_to``: how the report says it."""
    here = state.towns[town]
    here.besiegers.pop(family, None)
    standing = state.edition_state.get(KEY) or {}
    held = standing.get(town, {})
    held.pop(family, None)
    if not held:
        standing.pop(town, None)
    removed = len(_remove_trebuchets(state, town, family)) if remove_trebuchets else 0
    extra = f"; {removed} trebuchet{'s' if removed > 1 else ''} {removed_to}" if removed else ""
    events = [Event("siege_marker_removed", f"{why}: the siege of {town} by {family} ends{extra} (7.9).",
                    data={"town": town, "family": family})]
    if not here.besiegers:
        events.append(Event("siege_lifted", f"The siege of {town} is lifted (7.9).", data={"town": town}))
    return events


def construction_problem(state: FiefState, family: str, town: str, count: int) -> str | None:
    """Why ``family`` cannot pay for ``count`` trebuchets at its siege of ``town`` now (7.9)."""
    held = (state.edition_state.get(KEY) or {}).get(town, {}).get(family)
    if held is None or not held.get("building"):
        return f"you have no trebuchet under construction at {town}"
    if held["declared"] >= state.round:
        return f"your siege of {town} was declared this round: you pay in the next round's Purchase phase"
    if count not in (1, MOST):
        return f"you pay for 1 or {MOST} trebuchets, not {count}"
    if count > 1 and stockpile(state, family) < count - 1:
        return "your stockpile has no second trebuchet"
    if state.families[family].deniers < PRICE * count:
        return f"{PRICE * count} shillings are needed, you have {state.families[family].deniers}"
    return None


def construct(state: FiefState, family: str, town: str, count: int) -> list[Event]:
    """7.9 Construct Trebuchets: pay 5 a trebuchet; they stand 'Active' with the besieging army.
    The caller checked ``construction_problem`` first."""
    problem = construction_problem(state, family, town, count)
    if problem:
        raise ValueError(problem)
    state.families[family].deniers -= PRICE * count
    return activate(state, family, town, count)


def activate(state: FiefState, family: str, town: str, count: int) -> list[Event]:
    """7.9: the trebuchet under construction turned 'Active' side up (and a second placed) with the
    besieging army; paid by the caller (the Purchase phase's `construct:` order, construction.py)."""
    sieges(state)[town][family]["building"] = 0
    for _ in range(count):
        pid = state.new_pawn_id()
        state.pawns[pid] = Pawn(pid, "trebuchet", family, town)
    return [Event("trebuchets_built", f"{family} builds {count} trebuchet{'s' if count > 1 else ''} at the siege "
                  f"of {town} (7.9).", data={"town": town, "family": family, "trebuchets": count})]


def lift_unpaid(state: FiefState) -> list[Event]:
    """At the end of the Purchase phase: a trebuchet under construction since an earlier round
    was not paid - "it is removed from the Map and the Siege is lifted" (7.9)."""
    events: list[Event] = []
    standing = state.edition_state.get(KEY) or {}   # read only: a game without sieges keeps no key
    for town in sorted(standing):
        for family, held in sorted(standing.get(town, {}).items()):
            if held.get("building") and held["declared"] < state.round:
                events += lift(state, town, family, f"{family} did not pay for the trebuchet at {town}")
    return events
