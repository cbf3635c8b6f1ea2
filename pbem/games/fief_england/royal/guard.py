"""The royal guard (E 13.1; 9.0, 9.1; rulings R8, R70, R76, R128-R130).

"When a Lord becomes the Sovereign King or Queen, they immediately receive 2 Royal Knight
Markers" (3 SP, 3 hits); "The King's Queen wife or the Sovereign Queen's husband receives 2
Royal Men-at-Arms Markers" (1 SP, 1 hit). They are given in addition to the noble's troops, as
pawns of the noble's family in the noble's City; they "can neither be bought nor leave the side
of their Lord" (the core's movement keeps them with their noble through England's
`guard_serves` hook); each adds +1f to each melee roll of its side (R8: the battle counts the
pawns by kind, battle/rounds.py); "When their Lord is Slain or taken captive, the Royal Guards
are removed and returned to supply"; "Defeated Royal Guard Markers return only when a new King
or Sovereign Queen is elected". The game has 2 markers of each (Components, l.48, l.56: the
record's `royal_guard.KIND.count`).

State: ``edition_state["royal"]["guard"]`` = {noble: {"kind": KIND, "pawns": [pawn ids]}}, the
markers each noble received (a pawn id gone from the board was defeated, or lost to a PLAGUE or
a REBELLION); ``["defeated"]`` = {KIND: n} the markers defeated since the last new Sovereign
that do not come back before the next one.
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.hooks import Guard
from pbem.games.fief.state import FiefState, Pawn
from pbem.games.fief_england.regions import record as numbers
from pbem.rules.api import Event

KEY = "royal"                        # FiefState.edition_state[KEY]: this package's
KNIGHTS = "royal_knight"             # 13.1: the Sovereign's
MEN_AT_ARMS = "royal_man_at_arms"    # 13.1: the Queen's or the Prince Consort's
WORDS = {KNIGHTS: ("Royal Knight", "Royal Knights"), MEN_AT_ARMS: ("Royal Man-at-Arms", "Royal Men-at-Arms")}

# The core's `royal_guard` hook: the words of the pawns, their Strength Points (13.1, as the record's
# `royal_guard`) and the most given. No `titles`: a marker serves the one noble it was given to
# (``serves``), never a title, so the core never gives or replaces them (France's 1.5.5 does).
GUARDS = {KNIGHTS: Guard(titles=(), unit="knight", combat_points=3, size=2, word=WORDS[KNIGHTS][0],
                         plural=WORDS[KNIGHTS][1]),
          MEN_AT_ARMS: Guard(titles=(), unit="man_at_arms", combat_points=1, size=2, word=WORDS[MEN_AT_ARMS][0],
                             plural=WORDS[MEN_AT_ARMS][1])}


def record(state: FiefState) -> dict[str, Any]:
    return state.edition_state.setdefault(KEY, {})


def guards(state: FiefState) -> dict[str, dict[str, Any]]:
    return (state.edition_state.get(KEY) or {}).get("guard") or {}


def serves(state: FiefState, pawn: Pawn, noble: str) -> bool:
    """The core's `guard_serves` hook: the marker was given to ``noble`` (13.1)."""
    given = guards(state).get(noble)
    return given is not None and pawn.id in given["pawns"]


def guard_of(state: FiefState, noble: str) -> list[str]:
    """The pawn ids of ``noble``'s royal guard still on the board."""
    return [p for p in (guards(state).get(noble) or {}).get("pawns", []) if p in state.pawns]


def words(kind: str, count: int) -> str:
    return f"{count} {WORDS[kind][count != 1]}"


def supply(state: FiefState, kind: str) -> int:
    """The markers of ``kind`` that may be given now: the game's (2) less those on the board and
    those defeated since the last new Sovereign (13.1)."""
    given = [p for g in guards(state).values() if g["kind"] == kind for p in g["pawns"]]
    defeated = (state.edition_state.get(KEY) or {}).get("defeated", {}).get(kind, 0)
    return max(0, int(numbers(state, "royal_guard")[kind]["count"]) - len(given) - defeated)


def give(state: FiefState, noble: str, kind: str) -> list[Event]:
    """13.1: ``noble`` receives the guard markers of ``kind`` the supply has (at most 2), in their
    City; a captive (or a noble off the board) receives none (R129: they would be removed at once)."""
    lord = state.lords[noble]
    if lord.captive_of or lord.location is None:
        return [Event("royal_guard_none", f"{noble} ({lord.family}) is a captive and receives no "
                      f"{WORDS[kind][1]} (13.1, R129).", data={"lord": noble, "kind": kind})]
    count = min(int(numbers(state, "royal_guard")[kind]["count"]), supply(state, kind))
    if not count:
        return [Event("royal_guard_none", f"No {WORDS[kind][1]} are left in the supply for {noble} ({lord.family}): "
                      "defeated markers return only with a new King or Sovereign Queen (13.1).",
                      data={"lord": noble, "kind": kind})]
    ids = []
    for _ in range(count):
        pawn = Pawn(state.new_pawn_id(), kind, lord.family, lord.location, steps=lord.steps)
        state.pawns[pawn.id] = pawn
        ids.append(pawn.id)
    entry = record(state).setdefault("guard", {}).setdefault(noble, {"kind": kind, "pawns": []})
    entry["pawns"] += ids
    return [Event("royal_guard", f"{noble} ({lord.family}) receives {words(kind, count)} in {lord.location} (13.1).",
                  data={"lord": noble, "family": lord.family, "kind": kind, "count": count, "city": lord.location})]


def remove(state: FiefState, noble: str, why: str) -> list[Event]:
    """13.1: ``noble``'s guard markers still on the board return to the supply (``why``: "slain",
    "taken captive", ...); those gone from it were defeated and stay out until a new Sovereign."""
    given = guards(state).get(noble)
    if given is None:
        return []
    del record(state)["guard"][noble]
    kind, left = given["kind"], [p for p in given["pawns"] if p in state.pawns]
    lost = len(given["pawns"]) - len(left)
    if lost:
        defeated = record(state).setdefault("defeated", {})
        defeated[kind] = defeated.get(kind, 0) + lost
    family = state.pawns[left[0]].family if left else None
    for pid in left:
        del state.pawns[pid]
    if not left:
        return []
    return [Event("royal_guard_removed", f"{noble}'s {words(kind, len(left))} return to the supply: {why} (13.1).",
                  data={"lord": noble, "family": family, "kind": kind, "count": len(left), "why": why})]


def new_reign(state: FiefState) -> None:
    """13.1: "Defeated Royal Guard Markers return only when a new King or Sovereign Queen is
    elected" - and with every new Sovereign (R21): the defeated markers are back in the supply."""
    rec = record(state)
    rec.pop("defeated", None)
    for given in (rec.get("guard") or {}).values():
        given["pawns"] = [p for p in given["pawns"] if p in state.pawns]
