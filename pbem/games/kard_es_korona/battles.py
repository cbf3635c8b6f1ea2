"""III. Battle, the step after movement: the battles due are fought in the rulebook's order and
their outcome applied (III. The Order of Battles; the fight itself is battle_adapter's).

Order: battles with a province lord first, in the order they were entered; then open battles,
then sieges, each in turn order from the starting player (an attacker's several battles in the
order he entered them: ruling K18).
"""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona import battle_adapter, victory_step
from pbem.games.kard_es_korona.battle_adapter import BattleInput, BattleOutcome, Side
from pbem.games.kard_es_korona.events import effect
from pbem.games.kard_es_korona.battle import BattleEntry, battle_choices, plan_data_for, retreat_choices
from pbem.games.kard_es_korona.battle import battle_order as order_of_battles
from pbem.games.kard_es_korona.movement_orders import plan_fields
from pbem.games.kard_es_korona.state import (State, active_players, add_units, battle_at, board_of, castle_problem,
                                             describe, is_neutral, no_units, side_name, total)
from pbem.games.kard_es_korona.units import UNIT_KINDS
from pbem.games.kard_es_korona.victory import castle_victory
from pbem.games.kard_es_korona.warlords import lord_defeated, reroll_allowed
from pbem.rules.api import Event
from pbem.rules.rng import Rng

RAIN_STOPS = (1, 2)   # Rainy Autumn (ruling K13): on a 1 or 2 the besiegers must retreat


def battle_order(state: State) -> list[dict[str, Any]]:
    """III. The Order of Battles (the battle package's battle_order, ruling B17): the battles
    with a province lord on either side first, in the order entered; then the open battles,
    then the sieges, the players taking turns from the starting player, each fighting one of
    his own battles when his turn comes (the first of his `order:` list, else the one he
    entered first: ruling K18)."""
    board = board_of(state)
    turn = active_players(state)
    turn += sorted({b["attacker"] for b in state["battles"]} - set(turn))
    entries = [BattleEntry(id=b["county"], attacker=b["attacker"], entered=b["entered"],
                           warlords=bool(b["lord"]) or state["lords"].get(b["defender"]) == b["county"],
                           siege=bool(board.counties[b["county"]].castle)) for b in state["battles"]]
    choices = {p: battle_choices(plan_fields(state["battle_orders"].get(p))) for p in turn}
    by_county = {b["county"]: b for b in state["battles"]}
    return [by_county[c] for c in order_of_battles(entries, turn, choices)]


def resolve(state: State, rng: Rng) -> list[Event]:
    events: list[Event] = []
    for battle in battle_order(state):
        if state["result"] is not None:
            break
        events.extend(_fight(state, battle, rng))
        battle["fought"] = True   # read by a break-out (l.254), which may not join a battle still due
    state["battles"] = []
    return events


def _side(state: State, owner: str, units: dict[str, int], lord: bool, county: str,
          retreat_to: tuple[str, ...] = ()) -> Side:
    """One side as the battle package needs it: the player's plan for this county, and of the
    counties the board lets it retreat to (``retreat_to``) the first the player chose
    (`retreat_to:`), else the first (VI. Retreat / Flight)."""
    plan = plan_fields(state["battle_orders"].get(owner))
    wished = [c for c in retreat_choices(plan, county) if c in retreat_to]
    to = next(iter(wished or retreat_to), None)
    return Side(owner=owner, units={k: units[k] for k in UNIT_KINDS}, neutral=is_neutral(owner), lord=lord,
                plan={} if is_neutral(owner) else plan_data_for(plan, county),
                judge_royal=state["offices"]["judge_royal"] == owner, retreat_to=to,
                retreat_obstacle=to is not None and board_of(state).step_cost(county, to) > 1)


def came_from(battle: dict[str, Any]) -> list[str]:
    """The counties the attackers came into the battle from: from rules version 2 those bordering
    it (``via``, III. Siege l.254: "one step from the castle"), in version 1 the counties they set
    out from, which may lie further off (a raid from a distance, l.248)."""
    return list(battle.get("via", battle["from"]))


def _way_back(state: State, battle: dict[str, Any]) -> tuple[str, ...]:
    """VI. Retreat / Flight (ruling K28): the attackers go back to a county bordering the battle
    that they came from, where no one else's units stand (III. Siege: so does a withdrawal)."""
    mine, near = battle["attacker"], board_of(state).borders[battle["county"]]
    return tuple(c for c in came_from(battle) if c in near and c not in state["closed"]
                 and state["armies"].get(c, {"owner": mine})["owner"] == mine)


def _refuges(state: State, battle: dict[str, Any]) -> tuple[str, ...]:
    """VI. Retreat / Flight: the defenders may flee to a bordering county of theirs or an empty
    one, but not to one an attacker came from."""
    board, defender = board_of(state), battle["defender"]
    return tuple(c for c in sorted(board.borders[battle["county"]]) if c not in came_from(battle)
                 and c not in state["closed"] and state["armies"].get(c, {"owner": defender})["owner"] == defender)


def _fight(state: State, battle: dict[str, Any], rng: Rng) -> list[Event]:
    board = board_of(state)
    county, attacker, defender = battle["county"], battle["attacker"], battle["defender"]
    castle = bool(board.counties[county].castle)
    here = state["armies"].get(county)
    if here is None or here["owner"] == attacker:
        # the defenders are gone, or became the attacker's (an elimination earlier in the step):
        # the attackers simply enter (ruling K25)
        return _return_or_enter(state, battle, battle["units"], True, rng)
    events: list[Event] = []   # the battle package's report opens with the armies (battle_lines)
    if castle and effect(state, "rain"):
        with_lord = ", with the province lord"
        events.append(Event("battle", f"Siege of {county}: {attacker} ({describe(battle['units'])}"
                            f"{with_lord if battle['lord'] else ''}) against {side_name(defender)} "
                            f"({describe(here['units'])}"
                            f"{with_lord if state['lords'].get(defender) == county else ''}).",
                            data={"county": county}))
        roll = rng.d6(f"Rainy Autumn at {county}")
        if roll in RAIN_STOPS and reroll_allowed(state, attacker):
            roll = rng.d6(f"Rainy Autumn at {county}, the Judge Royal's re-roll")
        if roll in RAIN_STOPS:
            events.append(Event("rain", f"Rainy Autumn: {attacker} rolls {roll}; the siege of {county} is "
                                "rained off and the besiegers withdraw."))
            return events + _return_or_enter(state, battle, battle["units"], False, rng)
    fight = BattleInput(county=county, terrain=board.counties[county].terrain, castle=castle,
                        attacker=_side(state, attacker, battle["units"], battle["lord"], county,
                                       _way_back(state, battle)),
                        defender=_side(state, defender, here["units"], state["lords"].get(defender) == county, county,
                                       () if is_neutral(defender) else _refuges(state, battle)),
                        advanced=state["version"] == "advanced",
                        lord_attack_bonus=int(effect(state, "lord_attack_bonus") or 0) if battle["lord"] else 0)
    outcome = battle_adapter.resolve_battle(fight, rng)
    events.extend(Event("battle_log", line, data={"county": county}) for line in outcome.log)
    return events + apply_outcome(state, battle, outcome, rng)


def apply_outcome(state: State, battle: dict[str, Any], outcome: BattleOutcome, rng: Rng) -> list[Event]:
    county, attacker, defender = battle["county"], battle["attacker"], battle["defender"]
    events: list[Event] = []
    del state["armies"][county]
    defenders_left = {k: outcome.defender_left.get(k, 0) for k in UNIT_KINDS}
    attackers_left = {k: outcome.attacker_left.get(k, 0) for k in UNIT_KINDS}
    fled = outcome.defender_fled_to
    if fled and state["armies"].get(fled, {"owner": defender})["owner"] != defender:
        events.append(Event("lost", f"{side_name(defender)}'s units cannot flee to {fled}, where others stand: "
                            "they are lost."))
        defenders_left, fled = {k: 0 for k in UNIT_KINDS}, None
    if total(defenders_left):
        add_units(state, fled or county, defender, defenders_left)
    if fled and state["lords"].get(defender) == county:
        state["lords"][defender] = fled
    won = outcome.winner == "attacker"   # not from the units left: a lord alone may win (B7, the duel)
    if total(attackers_left) == 0 and total(defenders_left) == 0 and not fled:
        if outcome.winner is None:
            state["owner"].pop(county, None)   # III: the county is left without a master
            events.append(Event("battle_over", f"Every fighter in {county} has fallen: the county has no master."))
        else:
            winner = attacker if won else defender
            state["owner"][county] = winner   # his lord stands on the field alone (rulings K24, B7)
            state["lords"][winner] = county
            duel = battle["lord"] and state["lords"].get(defender) == county
            how = "wins the duel" if outcome.killed else "is left standing alone and holds the field"
            events.append(Event("battle_over", f"Every unit in {county} has fallen: {winner}'s province lord {how}.",
                                data={"winner": winner, "county": county, "duel": bool(duel)}))
            if won and board_of(state).counties[county].castle:
                events.extend(castle_victory(state, attacker))
    elif won:
        events.append(Event("battle_over", f"{attacker} wins the battle of {county}.",
                            data={"winner": attacker, "county": county}))
    else:
        events.append(Event("battle_over", f"{side_name(defender)} holds {county}.",
                            data={"winner": defender, "county": county}))
    defender_lord = state["lords"].get(defender) == county and not is_neutral(defender)
    if battle["lord"] and outcome.attacker_lord_fell:
        events.extend(lord_defeated(state, attacker, defender, county, rng, killed="attacker" in outcome.killed))
    if defender_lord and outcome.defender_lord_fell:
        events.extend(lord_defeated(state, defender, attacker, county, rng, killed="defender" in outcome.killed))
    if total(attackers_left):
        events.extend(_return_or_enter(state, battle, attackers_left, won, rng, outcome.attacker_fled_to))
    if won and battle["lord"] and not outcome.attacker_lord_fell and state["result"] is None:
        events.extend(victory_step.take(state, attacker))      # III (l.262)
    elif not won and state["lords"].get(defender) == county and not is_neutral(defender) \
            and state["armies"].get(county, {}).get("owner") == defender and state["result"] is None:
        events.extend(victory_step.take(state, defender))
    return events


def _return_or_enter(state: State, battle: dict[str, Any], units: dict[str, int], won: bool, rng: Rng,
                     fled_to: str | None = None) -> list[Event]:
    """The attackers take the county (a castle keeps at most 7, the rest go back: III. Siege),
    or withdraw to the county they came from (its first, if several: ruling K18); with nowhere
    to go they break out (rules version 2, l.254: ruling K30)."""
    county, attacker = battle["county"], battle["attacker"]
    if attacker in state["eliminated"]:   # his lord fell here and he is out: his attackers with him
        return []
    board = board_of(state)
    events: list[Event] = []
    units = dict(units)
    if won:
        stay = dict(units)
        there = state["armies"].get(county, {"units": no_units()})["units"]
        if board.counties[county].castle:   # II: 7 at most with what stands there; VI: the half rule
            while total(stay) and castle_problem(state["version"], {k: there[k] + stay[k] for k in UNIT_KINDS}):
                kind = max(UNIT_KINDS, key=lambda k: (stay[k] > 0, there[k] + stay[k]))
                stay[kind] -= 1
        add_units(state, county, attacker, stay)
        units = {k: units[k] - stay[k] for k in UNIT_KINDS}
        events.extend(castle_victory(state, attacker) if board.counties[county].castle else [])
    if total(units):
        back = fled_to or _withdrawal(state, battle)
        if battle.get("break_out") and not won:   # l.254: "only if he wins may he place these units"
            back = None
        elif back is None and state["rules_version"] >= 2 and not battle.get("break_out"):
            lord = not won and battle["lord"] and state["lords"].get(attacker) == county
            out = _break_out(state, battle, units, lord, rng)
            if out is not None:
                return events + out
        if back is None:
            events.append(Event("lost", f"{attacker}'s {describe(units)} from {county} find no county to withdraw "
                                "to and are lost (ruling K18)."))
        else:
            add_units(state, back, attacker, units)
            if not won and battle["lord"] and state["lords"].get(attacker) == county:
                state["lords"][attacker] = back
            events.append(Event("withdraw", f"{attacker}'s {describe(units)} withdraw from {county} to {back}."))
    return events


def _withdrawal(state: State, battle: dict[str, Any]) -> str | None:
    """The county the attackers came from, if no one else's units stand there; else any bordering
    county of theirs or empty (III. Siege)."""
    board = board_of(state)
    mine = battle["attacker"]
    for county in came_from(battle) + sorted(board.borders[battle["county"]]):
        here = state["armies"].get(county)
        if county not in state["closed"] and (here is None or here["owner"] == mine):
            return county
    return None



def _break_out(state: State, battle: dict[str, Any], units: dict[str, int], lord: bool,
               rng: Rng) -> list[Event] | None:
    """III. Siege (l.254): units that must leave the castle (its surplus, or a siege rained off)
    when every bordering county is in enemy hands "must immediately start a battle with these
    units against one of them, and only if he wins may he place these units". Ruling K30: the
    judge picks the bordering county with the fewest enemy units (the first in board order at a
    tie), never his overlord's or his vassal's nor one where a battle is still due
    (III. Attack: no third party); the units fight there at once; if they do not
    win, what is left of them is lost. None when there is no such county (they are lost)."""
    county, attacker = battle["county"], battle["attacker"]
    bound = {state["vassal_of"].get(attacker)} | {v for v, o in state["vassal_of"].items() if o == attacker}
    foes = [c for c in sorted(board_of(state).borders[county]) if c not in state["closed"]
            and c in state["armies"] and state["armies"][c]["owner"] not in bound | {attacker}
            and (battle_at(state, c) or {"fought": True}).get("fought")]
    if not foes:
        return None
    target = min(foes, key=lambda c: total(state["armies"][c]["units"]))
    if lord:
        state["lords"][attacker] = target
    forced = {"county": target, "attacker": attacker, "defender": state["armies"][target]["owner"], "units": units,
              "lord": lord, "from": [], "via": [], "entered": battle["entered"], "free": 0, "break_out": True}
    events = [Event("break_out", f"{attacker}'s {describe(units)} must leave {county}, and every county around it "
                    f"is in enemy hands: they attack {target} at once (III. Siege).",
                    data={"player": attacker, "from": county, "county": target})]
    return events + _fight(state, forced, rng)
