"""III. Movement, resolved from every player's list of steps: one step a player in turn order
(the starting player first), a step the earlier steps made impossible fails with its reason,
a player whose list is done passes (ruling K22: he cannot resume), and the first to pass starts
the next year (III).

Stepping into enemy or neutral units stops there: the battle is recorded for the battle step
(``state["battles"]``) and fought after movement (III. Battle). The advanced game's tie-down
and reverse tie-down (VI) and the lord's escort rule (II) are applied step by step.
"""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona.board import Board
from pbem.games.kard_es_korona.routes import cheapest, entry, points
from pbem.games.kard_es_korona.state import (State, active_players, add_units, battle_at, board_of, castle_problem,
                                             describe, half_rule, is_neutral, no_units, remove_units, total,
                                             side_name, units_at)
from pbem.games.kard_es_korona.units import UNIT_KINDS, WARLORD_MOVEMENT_POINTS
from pbem.games.kard_es_korona.victory import castle_victory
from pbem.rules.api import Audience, Event


class StepFails(Exception):
    """A step cannot be made; the message says why (told to its player)."""


def begin(state: State, orders: dict[str, Any]) -> None:
    """The movement's bookkeeping for the year: nothing moved, no battle due, the players'
    standing battle decisions and vetoes."""
    state["moved"], state["battles"], state["first_pass"] = {}, [], None
    state["tied"] = []          # players whose control is lost this year (VI. Tie-Down)
    state["battle_orders"] = {p: o["battle"] for p, o in orders.items()}
    state["vetoes"] = {p: o["veto"] for p, o in orders.items() if o["veto"]}


def try_step(state: State, player: str, step: dict[str, Any], turn: int) -> list[Event]:
    """One step, or its failure told to its player only (a plan not carried out stays his)."""
    try:
        return _step(state, player, step, turn)
    except StepFails as fail:
        return [Event("step_failed", f"{player}'s step into {step['to']} fails: {fail}",
                      Audience.only(player), data={"player": player, "to": step["to"]})]


def resolve(state: State, orders: dict[str, Any]) -> list[Event]:
    events: list[Event] = []
    begin(state, orders)
    players = [p for p in active_players(state) if p in orders]
    plans = {p: list(orders[p]["steps"]) for p in players}
    passed: list[str] = []
    turn = 0
    while len(passed) < len(players) and state["result"] is None:
        for player in players:
            if player in passed:
                continue
            if not plans[player] or player in state["tied"]:   # rulings K22, K21
                passed.append(player)
                if state["first_pass"] is None:
                    state["first_pass"] = player
                    events.append(Event("first_pass", f"{player} is the first to pass and will start the next "
                                        "year (III. Movement).", data={"player": player}))
                continue
            events.extend(try_step(state, player, plans[player].pop(0), turn))
            turn += 1
            if state["result"] is not None:
                break
    return events


def _step(state: State, player: str, step: dict[str, Any], turn: int) -> list[Event]:
    board = board_of(state)
    to = step["to"]
    battle_here = battle_at(state, to)
    lord_from = state["lords"].get(player) if step["lord"] else None
    if step["lord"] and lord_from is None:
        raise StepFails("your province lord is not on the board")
    if step["lord"] and _lord_in_battle(state, player, lord_from):
        raise StepFails("your province lord is held in a battle where he stands")
    for src, units in step["from"].items():
        _can_leave(state, board, player, src, units, to)
    if lord_from is not None and lord_from != to:
        cost = cheapest(board, lord_from, to, _passable(state, player))
        if cost is None or cost > WARLORD_MOVEMENT_POINTS:
            raise StepFails(f"the province lord cannot reach {to} from {lord_from} this year")
    for src in set(step["from"]) | ({lord_from} if lord_from else set()):
        _escort_left(state, player, src, step)
    moving = no_units()
    for units in step["from"].values():
        for kind in UNIT_KINDS:
            moving[kind] += units[kind]
    here = state["armies"].get(to)
    if battle_here is not None:
        raise StepFails("a battle is already due there: no reinforcements and no third party may join it "
                        "(III. Battle, ruling K16)")
    if to in state.get("fought", ()) and here is not None and here["owner"] != player:
        raise StepFails("its units fought a battle this year, and a unit takes part in one battle a year "
                        "(III. Stepping into Battle; VI. Traditional Movement Method, ruling K36)")
    if here is None or here["owner"] == player:
        return _enter(state, board, player, step, moving, lord_from)
    return _attack(state, board, player, step, moving, lord_from, turn)


def _passable(state: State, player: str):
    """Counties a player's units may pass through (ruling K3): no one else's units stand there,
    not closed, not his overlord's or vassal's; in the advanced game also a county where his
    attackers tie down at least half as many defenders (VI. Tie-Down, ruling K21)."""
    bound = {state["vassal_of"].get(player)} | {v for v, o in state["vassal_of"].items() if o == player}
    if state["rules_version"] >= 2:
        bound.discard(None)   # a county nobody holds (l.226; advanced setup) is nobody's territory

    def passable(county: str) -> bool:
        if county in state["closed"] or state["owner"].get(county) in bound:
            return False
        here = state["armies"].get(county)
        if here is None or here["owner"] == player:
            return True
        battle = battle_at(state, county)
        return bool(state["version"] == "advanced" and battle and battle["attacker"] == player
                    and total(battle["units"]) >= 2 * total(here["units"]))
    return passable


def _can_leave(state: State, board: Board, player: str, src: str, units: dict[str, int], to: str) -> None:
    mine = units_at(state, src, player)
    moved = state["moved"].get(src, no_units())
    free = {k: max(mine[k] - moved.get(k, 0), 0) for k in UNIT_KINDS}
    battle = battle_at(state, src)
    if battle is not None:   # III: attacked units may not move away; VI: the reverse tie-down's excess may
        spare = battle.get("free", 0)
        if total(units) > spare:
            raise StepFails(f"your units in {src} are attacked and may not move away"
                            + (f" (only {spare} are free of the tie-down)" if spare else ""))
    if any(units[k] > free[k] for k in UNIT_KINDS):
        raise StepFails(f"{src} has {describe(free)} of yours that may still move, not {describe(units)}")
    left = {k: mine[k] - units[k] for k in UNIT_KINDS}
    wrong = castle_problem(state["version"], left) if board.counties[src].castle and total(left) else None
    if wrong:   # ruling K5: what a step leaves in a castle keeps the half rule
        raise StepFails(f"the garrison left in {src} would break the half rule: {wrong}")
    cost = cheapest(board, src, to, _passable(state, player))
    if cost is None or cost > points(units, False):
        raise StepFails(f"{describe(units)} from {src} cannot reach {to}: the way is blocked or too long")


def _escort_left(state: State, player: str, src: str, step: dict[str, Any]) -> None:
    """II: the lord may not be left alone: units leaving his county must leave some behind."""
    if state["lords"].get(player) != src or step["lord"]:
        return
    here = state["armies"].get(src)
    left = total(here["units"]) - total(step["from"].get(src, {})) if here and here["owner"] == player else 0
    if left <= 0:
        raise StepFails(f"your province lord would be left alone in {src} (II: he needs an escort)")


def _entries(state: State, board: Board, player: str, step: dict[str, Any]) -> list[str]:
    """The counties bordering the target from which the step's units come into the battle (III.
    Siege, l.254: "one step from the castle"): a county further off, reached by a raid from a
    distance (l.248) or past tied-down defenders (VI. Tie-Down), comes in through the last county
    of its way (rules version 2)."""
    passable = _passable(state, player)
    return sorted({entry(board, src, step["to"], passable) or src for src in step["from"]})


def _lord_in_battle(state: State, player: str, county: str | None) -> bool:
    return any(b["county"] == county and b["defender"] == player and b.get("free", 0) == 0
               for b in state["battles"])


def _take_from_sources(state: State, step: dict[str, Any]) -> None:
    for src, units in step["from"].items():
        for battle in state["battles"]:
            if battle["county"] == src:   # VI. Reverse Tie-Down: the free excess is used up
                battle["free"] -= total(units)
        remove_units(state, src, units)
        moved = state["moved"].get(src)
        if moved:   # the units that leave are the unmoved ones (III. Suggestion)
            state["moved"][src] = {k: min(moved[k], state["armies"].get(src, {"units": no_units()})["units"][k])
                                   for k in UNIT_KINDS}


def _enter(state: State, board: Board, player: str, step: dict[str, Any], moving: dict[str, int],
           lord_from: str | None) -> list[Event]:
    to = step["to"]
    if board.counties[to].castle:
        after = {k: state["armies"].get(to, {"units": no_units()})["units"][k] + moving[k] for k in UNIT_KINDS}
        wrong = castle_problem(state["version"], after)
        if wrong:
            raise StepFails(wrong)
    if total(moving) == 0 and state["armies"].get(to, {}).get("owner") != player:
        raise StepFails(f"the province lord may not arrive alone in {to} (II: he needs an escort)")
    _take_from_sources(state, step)
    taken = state["owner"].get(to) != player
    if total(moving):
        add_units(state, to, player, moving)
        marked = state["moved"].setdefault(to, no_units())
        for kind in UNIT_KINDS:
            marked[kind] += moving[kind]
    if lord_from is not None:
        state["lords"][player] = to
    state["owner"][to] = player
    what = describe(moving) + (" with the province lord" if lord_from else "")
    events = [Event("move", f"{player} moves {what} into {to}" + (", taking it." if taken else "."),
                    data={"player": player, "to": to, "from": sorted(step["from"]), "units": moving})]
    if taken and board.counties[to].castle:
        events.extend(castle_victory(state, player))
    return events


def _attack(state: State, board: Board, player: str, step: dict[str, Any], moving: dict[str, int],
            lord_from: str | None, turn: int) -> list[Event]:
    to = step["to"]
    defender = state["armies"][to]["owner"]
    overlord = state["vassal_of"].get(player)
    if defender == overlord:
        raise StepFails("a vassal may not attack his overlord (V)")
    if overlord and player in state["vetoes"].get(overlord, []):
        raise StepFails(f"your overlord {overlord} vetoes your battles this year (V)")
    if state["vassal_of"].get(defender) == player:
        raise StepFails("you may not attack your own vassal (ruling K17)")
    if total(moving) == 0:
        raise StepFails("the province lord may not attack alone (II: he needs an escort)")
    if state["version"] == "advanced" and board.counties[to].castle:
        wrong = half_rule(moving)
        if wrong:   # VI: besiegers keep the half rule too (ruling K5: when the siege begins)
            raise StepFails(wrong)
    via = _entries(state, board, player, step) if state["rules_version"] >= 2 else None
    _take_from_sources(state, step)
    if lord_from is not None:
        state["lords"][player] = to
    defenders = total(state["armies"][to]["units"])
    battle = {"county": to, "attacker": player, "defender": defender, "units": moving, "lord": lord_from is not None,
              "from": sorted(step["from"]), "entered": turn, "free": 0}
    if via is not None:
        battle["via"] = via
    foe = side_name(defender)
    events = [Event("attack", f"{player} attacks {to} ({describe(state['armies'][to]['units'])} of {foe}) "
                    f"with {describe(moving)}" + (" and the province lord." if lord_from else "."),
                    data={"player": player, "county": to, "defender": defender, "units": moving})]
    if state["version"] == "advanced" and not is_neutral(defender):
        if defenders > 2 * total(moving):   # VI. Reverse Tie-Down: each unit ties at most twice its number
            battle["free"] = defenders - 2 * total(moving)
            events.append(Event("tie_down", f"{battle['free']} of {defender}'s units in {to} are free of the "
                                "tie-down and may still move (VI. Reverse Tie-Down)."))
        elif state["lords"].get(defender) == to and defender not in state["tied"]:
            state["tied"].append(defender)   # VI. Tie-Down: an attacked lord's player may not move any more
            events.append(Event("tie_down", f"{defender}'s province lord is attacked: {defender} may not move any "
                                "more this year (VI. Tie-Down).", data={"player": defender}))
    state["battles"].append(battle)
    return events
