"""The Hear Ye, Hear Ye! Phase (1) by mail, in two mail rounds (DESIGN.md: candidates, then
sealed votes).

``round-N/hear-ye`` (every player): the edition's acts before the ballots (France: the pope
excommunicates and lifts, 1.1, D.2.3.1, and answers the annulment requests, D.2.3: its own Hear
Ye orders, pbem/games/fief_france/hear_ye.py); marriages happen when both families order the
same pair (1.1); every player names their candidates for the ballots of this phase (1.2 step 1).
``round-N/hear-ye-votes`` (only when a ballot has a candidate): the candidates are public;
each player places a `for` and a `decoy` marker per ballot. The orders are never in the
state, so no one sees a vote before this resolution reveals them all (1.2 step 3).

Which ballots, who stands and votes, who wins and what the title brings are the edition's
(``Elections`` in its hooks; France's: pbem/games/fief_france/elections.py, with the ruling on
candidacies that depend on an earlier ballot of the same phase). Candidates are checked again
when their ballot is counted; one no longer eligible then is withdrawn: the markers on him count
for nothing. Vote weights are counted at that moment too.
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.edition import edition_of
from pbem.games.fief.hear_ye.royal import marriages
from pbem.games.fief.state import FiefState
from pbem.rules.api import Event
from pbem.rules.rng import Rng


# -- first mail ----------------------------------------------------------------------------

def resolve_hear_ye(state: FiefState, board: Board, orders: Mapping[str, Any], rng: Rng) -> list[Event]:
    elections = edition_of(state).hooks.elections
    events = elections.before(state, orders)   # France: the pope's acts (1.1, D.2.3.1), annulments (D.2.3)
    events += marriages(state, orders)
    possible = elections.possible(state, board)
    ballots = []
    for ballot in possible:
        named = []
        for player in state.turn_order():   # 1.2: in turn order
            lord = ((orders.get(player) or {}).get("candidates") or {}).get(ballot)
            if not lord or lord not in state.lords or lord in named or \
                    (state.lords[lord].family != player and not elections.any_family):   # England 9.1
                continue
            why = elections.eligible(state.lords[lord], ballot)
            if why and not elections.also_stands(orders, player, lord, ballot):
                events.append(Event("candidacy_refused", f"{lord} cannot stand for {ballot}: {why}.",
                                    data={"ballot": ballot, "lord": lord, "family": player}))
                continue
            named.append(lord)
        if named:
            ballots.append({"id": ballot, "candidates": named})
    if not ballots:
        events.append(Event("no_election", "No ballot is held this phase: no election has both its "
                            f"conditions and a candidate ({edition_of(state).cite('1.3-1.5')}).", data={}))
        state.hear_ye = {}
        return events
    state.hear_ye = {"ballots": ballots}
    for b in ballots:
        events.append(Event("candidates", f"Ballot for {b['id']}: the candidates are "
                            f"{', '.join(f'{c} ({state.lords[c].family})' for c in b['candidates'])}.",
                            data={"ballot": b["id"], "candidates": list(b["candidates"])}))
    state.phase = "hear_ye_votes"
    return events


# -- second mail: the ballots --------------------------------------------------------------

def resolve_votes(state: FiefState, board: Board, orders: Mapping[str, Any], rng: Rng) -> list[Event]:
    events: list[Event] = []
    elected_now: set[str] = set()
    elections = edition_of(state).hooks.elections
    for ballot in (state.hear_ye or {}).get("ballots", []):
        markers = {p: ((orders.get(p) or {}).get("votes") or {}).get(ballot["id"]) or {}
                   for p in state.turn_order()}
        events += _ballot(state, board, ballot, markers, elected_now)
        events += elections.after(state, ballot["id"], orders)   # France: the new pope's act (1.4)
    state.hear_ye = {}
    return events


def _ballot(state: FiefState, board: Board, ballot: dict, markers: dict[str, dict],
            elected_now: set[str]) -> list[Event]:
    bid = ballot["id"]
    elections = edition_of(state).hooks.elections
    events = []
    standing = []
    for name in ballot["candidates"]:
        lord = state.lords.get(name)
        why = "no longer in play" if lord is None else elections.eligible(lord, bid)
        if why:
            events.append(Event("candidate_withdrawn", f"{name} is withdrawn from the ballot for {bid}: "
                                f"{why}.", data={"ballot": bid, "lord": name}))
        else:
            standing.append(name)
    not_held = elections.not_held(state, bid)
    if not_held:
        return events + [Event("ballot_not_held", f"The ballot for {bid} is not held: {not_held}.",
                               data={"ballot": bid})]
    weights, lords_of = elections.weights(state, board, bid, elected_now)
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
    winner, why = elections.winner(state, bid, tally, markers, lords_of)
    if winner is None:
        return events + [Event("ballot_deferred", f"No one is elected {bid}: {why}; the ballot is held "
                               "again next round if its conditions still hold (1.2).",
                               data={"ballot": bid, "tally": tally})]
    elected_now.add(winner)
    return events + elections.elect(state, bid, state.lords[winner], why)


def vote_deciders(state: FiefState, board: Board, active: list[str]) -> tuple[str, ...]:
    """1.2: the votes mail goes to the families that give votes in at least one ballot, and to
    those with a candidate (their lord, once elected bishop, may vote for the king later in the
    same phase, 1.5.2). The others have nothing to order (they may still send diplomacy)."""
    ballots = (state.hear_ye or {}).get("ballots", [])
    asked = {state.lords[c].family for b in ballots for c in b["candidates"] if c in state.lords}
    for ballot in ballots:
        weights, _ = edition_of(state).hooks.elections.weights(state, board, ballot["id"], set())
        asked |= {p for p, n in weights.items() if n}
    return tuple(p for p in active if p in asked)


def hear_ye_view(state: FiefState, board: Board) -> dict[str, Any]:
    """What every player sees of the elections: the ballots open to candidacies (in the first
    mail) and the ballots with their candidates (in the second). Public, like the table's."""
    possible = edition_of(state).hooks.elections.possible
    return {"possible": possible(state, board) if state.phase == "hear_ye" else [],
            "ballots": [{"id": b["id"], "candidates": list(b["candidates"])}
                        for b in (state.hear_ye or {}).get("ballots", [])]}
