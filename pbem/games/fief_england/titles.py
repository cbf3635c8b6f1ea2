"""Fief: England's titles as the rules read them (E 2.13-2.14, 8.1, 9.0-9.1, 13.3): where each is
kept, so every England module reads them the same way.

- a fiefdom title (Duke, Count, Baron: a "Lord", Definitions) is the core's ``Lord.fief_titles``;
- a Bishop or Archbishop of a district is the core's ``Lord.bishopric`` (the district number);
  which of them are Archbishops (2 votes, 9.1) is ``edition_state["church"]["archbishops"]``
  (lord names); an Abbess is ``edition_state["church"]["abbesses"]`` (lord name -> abbey): the
  Church's cards (2.13, 2.14) fill them;
- the Sovereign is ``Lord.political`` "king" (a man elected, 9.1) or "sovereign_queen" (a woman
  elected); the King's wife is "queen" (9.0); the Prince Consort holds no title (9.1);
- the Order of the Garter is ``edition_state["garter"]`` (lord names, 13.3) and the Relic VP
  marker ``edition_state["relics"]["vp_marker"]`` (the family holding it, 12.0).
"""
from __future__ import annotations

from pbem.games.fief.state import FiefState, Lord

SOVEREIGN = ("king", "sovereign_queen")   # 9.1: "King or Sovereign Queen"


def church(state: FiefState) -> dict:
    return state.edition_state.get("church") or {}


def is_archbishop(state: FiefState, lord: Lord) -> bool:
    return bool(lord.bishopric) and lord.name in church(state).get("archbishops", [])


def is_abbess(state: FiefState, lord: Lord) -> bool:
    return lord.name in church(state).get("abbesses", {})


def is_clergy(state: FiefState, lord: Lord) -> bool:
    """Bishop, Archbishop or Abbess (Definitions; 9.1 "non-Clergy")."""
    return bool(lord.bishopric) or is_abbess(state, lord)


def sovereign(state: FiefState) -> Lord | None:
    return next((l for l in state.lords.values() if l.political in SOVEREIGN), None)


def has_garter(state: FiefState, lord: Lord) -> bool:
    return lord.name in (state.edition_state.get("garter") or [])


def besieged(state: FiefState, lord: Lord) -> bool:
    """7.9: a noble inside a city another family besieges."""
    town = state.towns.get(lord.location or "")
    return bool(town and town.besiegers and lord.family not in town.besiegers)
