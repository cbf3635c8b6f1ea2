"""VI. Traditional Movement Method, an option of the advanced version (`movement=traditional`;
rulings K35, K36):

- every year from 1302 the starting player is drawn by dice: each player rolls two, the highest
  total starts (the tied roll again; the Judge Royal may re-roll his once, IV), not the first
  to pass (l.358, l.364);
- the starting player chooses to move first or last (`move: last` in his movement orders;
  first by default); moving last, the player to his left begins and he moves and fights last
  (l.360);
- each player in turn takes all his steps and then fights all his battles, and only then does
  the next player move (l.362): the movement and the battles of the year are one resolution.
  Units that fought do not move again that year, and a county whose units fought cannot be
  attacked again that year (a unit takes part in one battle a year, III).
"""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona import battles, movement
from pbem.games.kard_es_korona.state import State, active_players, no_units
from pbem.games.kard_es_korona.units import UNIT_KINDS
from pbem.games.kard_es_korona.warlords import reroll_allowed
from pbem.rules.api import Event
from pbem.rules.rng import Rng

OPTION = "movement"
METHODS = ("interleaved", "traditional")
MOVE_CHOICES = ("first", "last")


def enabled(state: State) -> bool:
    return state["options"].get(OPTION, METHODS[0]) == "traditional"


def draw_starting_player(state: State, rng: Rng) -> tuple[str, list[Event]]:
    """l.358: "It is worth rolling two dice, the player who rolls the higher total starts".
    Ruling K35: the players tied for the highest roll again, alone; the Judge Royal re-rolls his
    two dice once (IV, l.295) when they would not start."""
    contenders, events, rerolled = active_players(state), [], False
    while True:
        totals = {p: rng.d6(f"{p}'s first die for the starting player") + rng.d6(f"{p}'s second die")
                  for p in contenders}
        judge = next((p for p in contenders if reroll_allowed(state, p)), None)
        if judge is not None and not rerolled and totals[judge] < max(totals.values()):
            rerolled = True
            first = totals[judge]
            totals[judge] = rng.d6(f"{judge}'s re-roll, first die") + rng.d6(f"{judge}'s re-roll, second die")
            events.append(Event("starting_dice", f"{judge}, the Judge Royal, re-rolls his {first}."))
        best = max(totals.values())
        top = [p for p in contenders if totals[p] == best]
        rolled = ", ".join(f"{p} {n}" for p, n in totals.items())
        events.append(Event("starting_dice", f"Dice for the starting player (VI. Traditional Movement Method): "
                            f"{rolled}" + (f"; {' and '.join(top)} roll again." if len(top) > 1 else "."),
                            data={"totals": totals}))
        if len(top) == 1:
            return top[0], events
        contenders = top


def resolve(state: State, orders: dict[str, Any], rng: Rng) -> list[Event]:
    """The year's movement and battles, a player's whole turn at a time (l.360-362)."""
    movement.begin(state, orders)
    state["fought"] = []
    turn_order = active_players(state)
    starting = turn_order[0]
    events: list[Event] = []
    if orders.get(starting, {}).get("move") == "last":
        turn_order = turn_order[1:] + turn_order[:1]
        events.append(Event("move_last", f"{starting}, the starting player, moves last this year; "
                            f"{turn_order[0]} begins (VI. Traditional Movement Method).",
                            data={"player": starting}))
    entered = 0
    for player in turn_order:
        if player not in orders or state["result"] is not None or player in state["eliminated"]:
            continue
        if player in state["tied"]:   # VI. Tie-Down: his lord was attacked, control is lost
            events.append(Event("tie_down", f"{player}'s province lord was attacked: {player} may not move "
                                "this year (VI. Tie-Down).", data={"player": player}))
            continue
        for step in orders[player]["steps"]:
            events.extend(movement.try_step(state, player, step, entered))
            entered += 1
            if state["result"] is not None:
                return events
        events.extend(_fight(state, rng))
    return events


def _fight(state: State, rng: Rng) -> list[Event]:
    """The battles the player just entered, in the rulebook's order (III. The Order of Battles,
    among his own); what fought then stays put for the year (ruling K36)."""
    if not state["battles"]:
        return []
    fought = [b["county"] for b in state["battles"]]
    before = {c: {"owner": a["owner"], "units": dict(a["units"])} for c, a in state["armies"].items()}
    events = battles.resolve(state, rng)
    state["fought"].extend(fought)
    for county, army in state["armies"].items():
        was = before.get(county)
        same = was is not None and was["owner"] == army["owner"]
        moved = state["moved"].setdefault(county, no_units())
        for kind in UNIT_KINDS:
            arrived = army["units"][kind] - (was["units"][kind] if same and was else 0)
            stays = army["units"][kind] if county in fought else moved.get(kind, 0) + max(arrived, 0)
            moved[kind] = min(stays, army["units"][kind])
    return events
