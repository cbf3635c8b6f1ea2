"""The Hear Ye, Hear Ye! Phase (1) by mail, in two mail rounds (DESIGN.md: candidates, then
sealed votes).

``round-N/hear-ye`` (every player): the pope excommunicates and lifts (1.1, D.2.3.1) and
answers annulment requests (D.2.3); marriages happen when both families order the same pair
(1.1); every player names their candidates for the ballots of this phase (1.2 step 1).
``round-N/hear-ye-votes`` (only when a ballot has a candidate): the candidates are public;
each player places a `for` and a `decoy` marker per ballot. The orders are never in the
state, so no one sees a vote before this resolution reveals them all (1.2 step 3).

Ruling (candidacies that depend on an earlier ballot of the same phase): every candidacy is
named in the first mail. A lord standing for a bishopric may also stand for pope (1.4.1: "a
bishop newly elected may stand"); candidates are checked again when their ballot is counted, in
the order bishops (ascending) > pope > king, and one no longer eligible then (not elected
bishop, elected bishop elsewhere, now an ecclesiastic standing for king) is withdrawn: the
markers on him count for nothing. Vote weights are counted at that moment too.
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.control import controllers
from pbem.games.fief.hear_ye.elections import (KING_MIN_VOTES, bishop_votes, bishoprics_to_elect, count,
                                       eligible, king_backing, king_title_free, pope_ballot_possible,
                                       pope_lord, titled_lords, voters_of)
from pbem.games.fief.hear_ye.royal import annulments, crown_queen, lose_queen, marriages, royal_guard
from pbem.games.fief.state import FiefState, Lord
from pbem.rules.api import Event
from pbem.rules.rng import Rng


def ballots_possible(state: FiefState, board: Board) -> list[str]:
    """The ballots that may be held this phase, before candidacies (1.3, 1.4, 1.5); the pope's
    and king's conditions are checked again when counted."""
    out = [f"bishop {n}" for n in bishoprics_to_elect(state, board)]
    if pope_ballot_possible(state):
        out.append("pope")
    if king_title_free(state) and titled_lords(state) + sum(1 for b in out if b.startswith("bishop")) >= 3:
        out.append("king")
    return out


# -- first mail ----------------------------------------------------------------------------

def resolve_hear_ye(state: FiefState, board: Board, orders: Mapping[str, Any], rng: Rng) -> list[Event]:
    events = _pope_acts(state, orders)
    events += annulments(state, orders)
    events += marriages(state, orders)
    possible = ballots_possible(state, board)
    ballots = []
    for ballot in possible:
        named = []
        for player in state.turn_order():   # 1.2: in turn order
            lord = ((orders.get(player) or {}).get("candidates") or {}).get(ballot)
            if not lord or lord not in state.lords or state.lords[lord].family != player:
                continue
            why = eligible(state.lords[lord], ballot)
            if why and not (ballot == "pope" and _bishop_candidate(orders, player, lord)):
                events.append(Event("candidacy_refused", f"{lord} cannot stand for {ballot}: {why}.",
                                    data={"ballot": ballot, "lord": lord, "family": player}))
                continue
            named.append(lord)
        if named:
            ballots.append({"id": ballot, "candidates": named})
    if not ballots:
        events.append(Event("no_election", "No ballot is held this phase: no election has both its "
                            "conditions and a candidate (1.3-1.5).", data={}))
        state.hear_ye = {}
        return events
    state.hear_ye = {"ballots": ballots}
    for b in ballots:
        events.append(Event("candidates", f"Ballot for {b['id']}: the candidates are "
                            f"{', '.join(f'{c} ({state.lords[c].family})' for c in b['candidates'])}.",
                            data={"ballot": b["id"], "candidates": list(b["candidates"])}))
    state.phase = "hear_ye_votes"
    return events


def _bishop_candidate(orders: Mapping[str, Any], player: str, lord: str) -> bool:
    """1.4.1: a candidate for a bishopric this phase may stand for pope too (checked at the count)."""
    named = (orders.get(player) or {}).get("candidates") or {}
    return any(b.startswith("bishop") and l == lord for b, l in named.items())


def _pope_acts(state: FiefState, orders: Mapping[str, Any]) -> list[Event]:
    """1.1, D.2.3: the pope may lift an excommunication and excommunicate 1 lord (one marker)."""
    pope = pope_lord(state)
    if pope is None:
        return []
    acts = (orders.get(pope.family) or {}).get("pope") or {}
    events = []
    for lord in state.lords.values():
        if lord.excommunicated and acts.get("lift") == lord.name:
            lord.excommunicated = False
            events.append(Event("excommunication_lifted", f"Pope {pope.name} lifts the excommunication "
                                f"of {lord.name} ({lord.family}) (D.2.3.1).", data={"lord": lord.name}))
    target = state.lords.get(acts.get("excommunicate") or "")
    if target is not None and target is not pope and not any(l.excommunicated for l in state.lords.values()):
        events += excommunicate(state, pope, target)
    return events


def excommunicate(state: FiefState, pope: Lord, target: Lord) -> list[Event]:
    """D.2.3.1: the lord loses every ecclesiastical title and may neither vote nor stand."""
    lost = [t for t, on in (("bishop", target.bishopric), ("cardinal", target.cardinal),
                            ("pope", target.pope)) if on]
    target.bishopric, target.cardinal, target.pope = None, False, False
    target.excommunicated = True
    if state.frieze.get(target.name) == "cardinal":   # the card marked a cardinal who is no more (ruling 31)
        state.character_discard.append(state.frieze.pop(target.name))
    text = f"Pope {pope.name} excommunicates {target.name} ({target.family})"
    text += f", who loses the {' and '.join(lost)} title{'s' if len(lost) > 1 else ''}" if lost else ""
    return [Event("excommunicated", text + " (D.2.3.1).", data={"lord": target.name, "lost": lost})]



# -- second mail: the ballots --------------------------------------------------------------

def resolve_votes(state: FiefState, board: Board, orders: Mapping[str, Any], rng: Rng) -> list[Event]:
    events: list[Event] = []
    elected_now: set[str] = set()
    for ballot in (state.hear_ye or {}).get("ballots", []):
        markers = {p: ((orders.get(p) or {}).get("votes") or {}).get(ballot["id"]) or {}
                   for p in state.turn_order()}
        events += _ballot(state, board, ballot, markers, elected_now)
        if ballot["id"] == "pope":
            events += _new_pope_acts(state, orders)
    state.hear_ye = {}
    return events


def _ballot(state: FiefState, board: Board, ballot: dict, markers: dict[str, dict],
            elected_now: set[str]) -> list[Event]:
    bid = ballot["id"]
    events = []
    standing = []
    for name in ballot["candidates"]:
        lord = state.lords.get(name)
        why = "no longer in play" if lord is None else eligible(lord, bid)
        if why:
            events.append(Event("candidate_withdrawn", f"{name} is withdrawn from the ballot for {bid}: "
                                f"{why}.", data={"ballot": bid, "lord": name}))
        else:
            standing.append(name)
    if bid == "pope" and not pope_ballot_possible(state) or \
            bid == "king" and (not king_title_free(state) or titled_lords(state) < 3):
        return events + [Event("ballot_not_held", f"The ballot for {bid} is not held: its conditions are "
                               "no longer met (1.4, 1.5).", data={"ballot": bid})]
    weights, lords_of = _weights(state, board, bid, elected_now)
    tally = {c: 0 for c in standing}
    reveal = []
    for player, m in markers.items():
        if not m:
            continue
        shown = [f"for {m['for']}" if m.get("for") else "", f"decoy on {m['decoy']}" if m.get("decoy") else ""]
        reveal.append(f"{player} ({weights.get(player, 0)} vote{'s' if weights.get(player, 0) != 1 else ''}): "
                      + ", ".join(s for s in shown if s))
        if m.get("for") in tally:
            tally[m["for"]] += weights.get(player, 0)
    events.append(Event("ballot_revealed", f"Ballot for {bid}: " + ("; ".join(reveal) if reveal else "no marker placed")
                        + ". Tally: " + (", ".join(f"{c} {v}" for c, v in tally.items()) or "no candidate left") + ".",
                        data={"ballot": bid, "markers": markers, "weights": weights, "tally": tally}))
    winner, why = count({c: v for c, v in tally.items() if v})
    if winner and bid == "king":
        backers = [l for p, m in markers.items() if m.get("for") == winner for l in lords_of.get(p, [])]
        if tally[winner] < KING_MIN_VOTES or not king_backing(backers):
            why, winner = (f"{winner} has {tally[winner]} votes: a king needs a majority of at least 3 "
                           "votes including 2 bishops, 1 cardinal or the pope (1.5.3)"), None
    if winner is None:
        return events + [Event("ballot_deferred", f"No one is elected {bid}: {why}; the ballot is held "
                               "again next round if its conditions still hold (1.2).",
                               data={"ballot": bid, "tally": tally})]
    elected_now.add(winner)
    return events + _elect(state, bid, state.lords[winner], why)


def _new_pope_acts(state: FiefState, orders: Mapping[str, Any]) -> list[Event]:
    """1.4: the new pope may immediately excommunicate a lord (ordered in advance by his family,
    hear_ye_orders._check_new_pope); only while the excommunicated marker is free (1.1)."""
    pope = pope_lord(state)
    act = (orders.get(pope.family) or {}).get("new_pope_excommunicates") if pope else None
    if pope is None or not act or act.get("pope") != pope.name:
        return []
    target = state.lords.get(act.get("lord") or "")
    if target is None or target is pope:
        return []
    if any(l.excommunicated for l in state.lords.values()):
        return [Event("excommunication_not_done", f"Pope {pope.name} cannot excommunicate {target.name}: "
                      "the excommunicated marker is in play (1.1).", data={"lord": target.name})]
    return excommunicate(state, pope, target)


def vote_deciders(state: FiefState, board: Board, active: list[str]) -> tuple[str, ...]:
    """1.2: the votes mail goes to the families that give votes in at least one ballot, and to
    those with a candidate (their lord, once elected bishop, may vote for the king later in the
    same phase, 1.5.2). The others have nothing to order (they may still send diplomacy)."""
    ballots = (state.hear_ye or {}).get("ballots", [])
    asked = {state.lords[c].family for b in ballots for c in b["candidates"] if c in state.lords}
    for ballot in ballots:
        weights, _ = _weights(state, board, ballot["id"], set())
        asked |= {p for p, n in weights.items() if n}
    return tuple(p for p in active if p in asked)


def _weights(state: FiefState, board: Board, bid: str, elected_now: set[str]):
    if bid.startswith("bishop"):
        return bishop_votes(state, board, int(bid.split()[1]), controllers(state, board), elected_now), {}
    lords_of = voters_of(state, bid)
    if bid == "pope":   # 1.4.1: a bishop elected this phase cannot vote (he is no cardinal either)
        lords_of = {p: [l for l in ls if l.name not in elected_now] for p, ls in lords_of.items()}
    return {p: len(ls) for p, ls in lords_of.items() if ls}, lords_of


def _elect(state: FiefState, bid: str, lord: Lord, why: str) -> list[Event]:
    events = []
    if bid.startswith("bishop"):
        lord.bishopric = int(bid.split()[1])
        text = f"{lord.name} ({lord.family}) is elected bishop of bishopric {lord.bishopric} ({why}) (1.3)."
        if lord.political == "crown_prince":   # D.3.3
            lord.political = None
            text += " As a bishop he is no longer crown prince (D.3.3)."
        return [Event("elected", text, data={"ballot": bid, "lord": lord.name, "family": lord.family})]
    if bid == "pope":
        lord.pope = True
        return [Event("elected", f"{lord.name} ({lord.family}) is elected pope ({why}) (1.4).",
                      data={"ballot": bid, "lord": lord.name, "family": lord.family})]
    for other in state.lords.values():   # 1.5.3: the regent queen is not regent any more
        if other.political == "regent_queen":
            events += lose_queen(state, other)
    lord.political = "king"
    events.append(Event("elected", f"{lord.name} ({lord.family}) is elected king ({why}) (1.5).",
                        data={"ballot": bid, "lord": lord.name, "family": lord.family}))
    events += royal_guard(state, lord, "knight", "kings_knight")
    if lord.spouse and lord.spouse in state.lords:
        events += crown_queen(state, state.lords[lord.spouse])
    return events



def hear_ye_view(state: FiefState, board: Board) -> dict[str, Any]:
    """What every player sees of the elections: the ballots open to candidacies (in the first
    mail) and the ballots with their candidates (in the second). Public, like the table's."""
    return {"possible": ballots_possible(state, board) if state.phase == "hear_ye" else [],
            "ballots": [{"id": b["id"], "candidates": list(b["candidates"])}
                        for b in (state.hear_ye or {}).get("ballots", [])]}
