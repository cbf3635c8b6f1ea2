"""England's one election in the Hear Ye, Hear Ye! Phase (E 9.1): the Sovereign (a King, or a
Sovereign Queen when a woman is elected). The Fief core runs the two mails (candidates, then
sealed FOR and DECOY markers), reveals and tallies (pbem/games/fief/hear_ye/phase.py); these are
the rules it reaches through the edition's hooks (``ELECTIONS``, hooks.py).

- The ballot (id ``sovereign``) is open when no one holds the Sovereign title and at least 3
  titles are in play, one of them a Bishop or Archbishop (9.1, Ex 9-1; R20: the voting titles
  Duke, Count, Baron, Bishop, Archbishop, held by nobles on the map, captives included; a noble
  with two fiefdoms holds two titles).
- Any player names any non-Clergy Lord of any family (R20), one candidate a player; not a
  captive, nor a besieged one (checked again at the count, with the Abbesses: ``winner``).
- Each family's marker weighs its non-captive, non-besieged Lords and Bishops 1 each and its
  Archbishops 2, a noble counted once (9.1 and its example: Kirsten 3, Dave 1).
- The candidate with more votes than any other is elected; a tie (or no vote) elects no one this
  round (9.1 "Simple Majority"). DECOY markers count for nothing.
- An elected man is King (his wife becomes Queen, 9.0); an elected woman is Sovereign Queen and
  her husband, Prince Consort, holds no title (9.1).
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.hear_ye.elections import can_act
from pbem.games.fief.hooks import Elections
from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief_england.retainers import use_votes, vote_bonus
from pbem.games.fief_england.royal.succession import crown
from pbem.games.fief_england.titles import besieged, is_abbess, is_archbishop, sovereign
from pbem.rules.api import Event

BALLOT = "sovereign"
BALLOT_WORDS = ("sovereign", "king", "queen", "sovereign queen", "crown")
BALLOT_NAMES = "write `sovereign` (the King or Sovereign Queen, 9.1)"
TITLES_NEEDED = 3   # 9.1: "at least 3 Titles in play, one of which is a Bishop or Archbishop"


def ballot_named(view: dict[str, Any], word: str) -> str | None:
    return BALLOT if word in BALLOT_WORDS else None


def titles_in_play(state: FiefState) -> tuple[int, bool]:
    """R20: the voting titles held by nobles on the map (captives keep theirs), and whether one
    is a Bishop's or Archbishop's."""
    lords = [l for l in state.lords.values() if l.location is not None]
    church = any(l.bishopric for l in lords)
    return sum(len(l.fief_titles) + (1 if l.bishopric else 0) for l in lords), church


def possible(state: FiefState, board: Board) -> list[str]:
    """9.1: the Sovereign title available and at least 3 titles in play, one of the Church."""
    count, church = titles_in_play(state)
    return [BALLOT] if sovereign(state) is None and count >= TITLES_NEEDED and church else []


def eligible(lord: Lord, ballot: str) -> str | None:
    """9.1: a non-Clergy Lord (a fiefdom title holder), not captive. Besieged candidates and
    Abbesses are withdrawn at the count (``winner``), where the whole state is known."""
    if ballot != BALLOT:
        return f"there is no ballot {ballot!r}"
    if not can_act(lord):
        return "a captive noble (or one not on the board) cannot be a candidate (9.1)"
    if not lord.fief_titles:
        return "a candidate must be a Lord, holding a Duke, Count or Baron title (9.1)"
    if lord.bishopric:
        return "a Bishop or Archbishop is Clergy and cannot be a candidate (9.1)"
    return None


def also_stands(orders: Mapping[str, Any], player: str, lord: str, ballot: str) -> bool:
    return False


def not_held(state: FiefState, ballot: str) -> str | None:
    if sovereign(state) is not None:
        return "the Sovereign title is no longer available (9.1)"
    count, church = titles_in_play(state)
    if count < TITLES_NEEDED or not church:
        return "fewer than 3 titles are in play, or none of them a Bishop's or Archbishop's (9.1)"
    return None


def voters(state: FiefState) -> dict[str, list[Lord]]:
    """9.1: each family's non-captive, non-besieged Lords, Bishops and Archbishops."""
    out: dict[str, list[Lord]] = {}
    for lord in state.lords.values():
        if can_act(lord) and not besieged(state, lord) and (lord.fief_titles or lord.bishopric):
            out.setdefault(lord.family, []).append(lord)
    return out


def weights(state: FiefState, board: Board, ballot: str,
            elected_now: set[str], sitting: str = "election") -> tuple[dict[str, int], dict[str, list[Lord]]]:
    """9.1: a Lord or Bishop 1 vote, an Archbishop 2; a noble with several titles counted once.
    ``sitting``: the retainers' `votes` of an ``election`` or of ``parliament`` (9.2)."""
    lords_of = voters(state)
    # + what the family's retainers add (the vocabulary's `votes`, docs/fief-england.md "Retainers")
    return ({family: sum(2 if is_archbishop(state, l) else 1 for l in lords) + vote_bonus(state, family, sitting)
             for family, lords in lords_of.items()}, lords_of)


def winner(state: FiefState, ballot: str, tally: dict[str, int], markers: dict[str, dict],
           lords_of: dict[str, list[Lord]]) -> tuple[str | None, str]:
    """9.1: the candidate with more votes than any other; a tie elects no one. A candidate
    besieged or made an Abbess since the candidacies is withdrawn first."""
    standing = {c: v for c, v in tally.items()
                if c in state.lords and not besieged(state, state.lords[c]) and not is_abbess(state, state.lords[c])}
    if not any(standing.values()):
        return None, "no vote was cast for a candidate who may stand"
    best = max(standing.values())
    leaders = [c for c, v in standing.items() if v == best]
    if len(leaders) > 1:
        return None, f"a tie at {best} votes between {' and '.join(leaders)}"
    return leaders[0], f"{best} vote{'s' if best != 1 else ''}, more than any other candidate"


def elect(state: FiefState, ballot: str, lord: Lord, why: str) -> list[Event]:
    """9.1: an elected man is King and his wife Queen (9.0); an elected woman is Sovereign Queen,
    her husband Prince Consort without a title; the royal guard to both (13.1) and the Royal
    Stronghold to the new Sovereign (4.9): royal/succession.py ``crown``."""
    title = "Sovereign Queen" if lord.female else "King"
    event = Event("elected", f"{lord.name} ({lord.family}) is elected {title} ({why}) (9.1).",
                  data={"ballot": ballot, "lord": lord.name, "family": lord.family})
    return [event] + crown(state, lord.name, None)


def nothing_before(state: FiefState, orders: Mapping[str, Any]) -> list[Event]:
    """England has no act before its ballot (France's pope acts there)."""
    return []


def spend_retainers(state: FiefState, ballot: str, orders: Mapping[str, Any]) -> list[Event]:
    """2.12, R139: a retainer whose entered ability adds `votes` in an election is Spent once they were
    cast - by a family whose FOR marker named a candidate of this ballot (a DECOY casts no vote,
    9.1), as Parliament spends its own (parliament.py)."""
    events: list[Event] = []
    for family in state.turn_order():
        marker = ((orders.get(family) or {}).get("votes") or {}).get(ballot) or {}
        if marker.get("for"):
            events += use_votes(state, family, "election")
    return events


ELECTIONS = Elections(ballot_named=ballot_named, ballot_names=BALLOT_NAMES, before=nothing_before,
                      possible=possible, eligible=eligible, also_stands=also_stands, not_held=not_held,
                      weights=weights, winner=winner, elect=elect, after=spend_retainers, any_family=True)
