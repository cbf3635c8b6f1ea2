"""III. Collecting Tax Income and Recruitment; the ransom of a captive lord (II. Royal / Neutral
Units); the Treasurer's and the Palatine's powers (IV).

Recruitment orders, one mail per player (applied in turn order: the advanced cavalry quota goes
to the earlier players, VI. Limit on Cavalry Units):

    recruit:
      Sopron: {infantry: 2, cavalry: 1}
    ransom: yes          # pay 20 garas to free your captive province lord
"""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona.board import load_board
from pbem.games.kard_es_korona.events import effect
from pbem.games.kard_es_korona.reading import county_units
from pbem.games.kard_es_korona.state import (State, active_players, add_units, board_of, castle_problem, describe,
                                             regions_held, total)
from pbem.games.kard_es_korona.units import COST, PALATINE_COST, UNIT_KINDS
from pbem.orders.reading import Problems, check_keys, yes_no
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Event, OrderCheck

REGION_BONUS = 4          # II. Regions; III
COUNTY_INCOME = 1         # III
CASTLE_INCOME = 3         # II. Castles
TREASURER_BONUS = 2       # IV. Lord High Treasurer: a dénár (5 garas) for 3 garas
RANSOM = 20               # II. Royal / Neutral Units: 2 gold forints
CAVALRY_PER_CASTLE = {"basic": 2, "advanced": 3}   # III; VI
BASIC_CAVALRY_TOTAL = 4   # III (ruling K8: per player and year)


def castle_takes(view: dict[str, Any], here: dict[str, int], add: dict[str, int], kind: str) -> bool:
    """Whether a castle holding ``here``, ``add`` recruited there already, takes one more unit of
    ``kind`` this year: its castle limits (III; the half rule, VI) and, under the cavalry limit, its
    cavalry a castle a year (the check below refuses the rest). For the order writers."""
    after = {k: here[k] + add[k] + (k == kind) for k in here}
    if castle_problem(view["version"], after) is not None:
        return False
    return not (kind == "cavalry" and view["cavalry_limit"] and add["cavalry"] >= CAVALRY_PER_CASTLE[view["version"]])


def income_of(state: State, player: str) -> int:
    """What ``player``'s own territory yields this year: 1 garas a county where his units stand,
    3 a castle (5 for the Treasurer; more after the Guilds), 4 a whole region (III)."""
    board = board_of(state)
    castle = CASTLE_INCOME + effect(state, "castle_income")
    if state["offices"]["treasurer"] == player:
        castle += TREASURER_BONUS
    county = 0 if effect(state, "no_county_income") else COUNTY_INCOME
    garrisoned = [c for c, a in state["armies"].items() if a["owner"] == player]
    own = sum(castle if board.counties[c].castle else county for c in garrisoned)
    regions = [r for r in regions_held(state, player) if player not in state["vassal_of"]]
    return own + REGION_BONUS * len(regions)


def collect_income(state: State) -> list[Event]:
    """III: income at the start of every year but the first. K10: a vassal receives half his
    territory's income (rounded down) and his overlord the whole of it besides his own (V, l.276)."""
    events = []
    for player in active_players(state):
        amount = income_of(state, player)
        text = f"{player} collects {amount} garas"
        if player in state["vassal_of"]:
            amount //= 2
            text = f"{player}, a vassal, collects half his income: {amount} garas"
        vassal_part = sum(income_of(state, v) for v, o in state["vassal_of"].items()
                          if o == player and v not in state["eliminated"])
        if vassal_part:
            amount += vassal_part
            text += f" (with {vassal_part} from his vassals' territory)"
        state["treasury"][player] += amount
        events.append(Event("income", text + f"; treasury {state['treasury'][player]}.",
                            data={"player": player, "amount": amount}))
    return events


def recruit_places(view: dict[str, Any], player: str) -> list[str]:
    """The castles ``player`` holds with no one else's units in them (III: castles only)."""
    board = load_board(view["version"])
    return [c for c in board.castles() if view["owner"].get(c) == player
            and view["armies"].get(c, {"owner": player})["owner"] == player]


def price(view: dict[str, Any], player: str) -> dict[str, int]:
    return PALATINE_COST if view["offices"]["palatine"] == player else COST


def check(view: dict[str, Any], player: str, document: Any) -> OrderCheck:
    problems = Problems()
    doc = document if isinstance(document, dict) else {}
    check_keys(doc, ("recruit", "ransom"), "the recruitment orders", problems)
    ransom = bool(yes_no(doc, "ransom", problems)) if "ransom" in doc else False
    if ransom and player not in view["captive"]:
        problems.add(line_of(doc, "ransom"), "your province lord is not captive", "leave out `ransom:`")
    money = view["treasury"][player] - (RANSOM if ransom else 0)
    if ransom and money < 0:
        problems.add(line_of(doc, "ransom"), f"the ransom is {RANSOM} garas; you have {view['treasury'][player]}")
    places = recruit_places(view, player)
    recruits: dict[str, dict[str, int]] = {}
    for castle, units, line in county_units(doc.get("recruit"), places, line_of(doc, "recruit"), "recruit",
                                            f"{{{(places or load_board(view['version']).castles())[0]}: "
                                            "{infantry: 2}}", problems, "castle of yours"):
        recruits[castle] = units
        after = {k: view["armies"].get(castle, {"units": {}})["units"].get(k, 0) + units[k] for k in UNIT_KINDS}
        wrong = castle_problem(view["version"], after)
        if wrong:
            problems.add(line, f"{castle}: {wrong}", "recruit fewer units there (III)")
        if view["cavalry_limit"] and units["cavalry"] > CAVALRY_PER_CASTLE[view["version"]]:
            problems.add(line, f"{castle}: at most {CAVALRY_PER_CASTLE[view['version']]} cavalry a castle a year "
                         "(the cavalry limit, III)", "recruit fewer cavalry there")
    cavalry = sum(u["cavalry"] for u in recruits.values())
    if view["cavalry_limit"] and view["version"] == "basic" and cavalry > BASIC_CAVALRY_TOTAL:
        problems.add(line_of(doc, "recruit"), f"at most {BASIC_CAVALRY_TOTAL} cavalry a year, not {cavalry} (III)")
    cost = sum(price(view, player)[k] * n for u in recruits.values() for k, n in u.items())
    if cost > money:
        problems.add(line_of(doc, "recruit"), f"the units cost {cost} garas; you have {money}"
                     + (" after the ransom" if ransom else ""), "recruit fewer units")
    if problems:
        return OrderCheck(None, tuple(problems))
    return OrderCheck({"recruit": {c: u for c, u in recruits.items() if total(u)}, "ransom": ransom},
                      notes=() if recruits or ransom else ("you recruit nothing this year",))


def resolve(state: State, orders: dict[str, Any]) -> list[Event]:
    """Each player's recruits, in turn order (III), the advanced cavalry quota cut where used up."""
    events: list[Event] = []
    quota = state["year"] - 1300          # VI: as many new cavalry a year as years have passed
    quota_on = state["options"]["cavalry_limit"] and state["version"] == "advanced"
    for player in active_players(state):
        order = orders.get(player) or {"recruit": {}, "ransom": False}
        if order["ransom"]:
            events.extend(ransom(state, player))
        allowed = max(quota, 1) if quota_on else None    # VI: past the quota, one cavalry each
        cost_table = price({"offices": state["offices"]}, player)
        for castle, units in order["recruit"].items():
            units = dict(units)
            if allowed is not None and units["cavalry"] > allowed:
                events.append(Event("quota", f"The cavalry quota of {state['year']} is used up: {player} recruits "
                                    f"{allowed} of {units['cavalry']} cavalry in {castle} (VI).",
                                    data={"player": player, "castle": castle}))
                units["cavalry"] = allowed
            if allowed is not None:
                quota -= units["cavalry"]
                allowed = max(allowed - units["cavalry"], 0)
            cost = sum(cost_table[k] * n for k, n in units.items())
            if state["treasury"][player] < cost or total(units) == 0:
                continue
            state["treasury"][player] -= cost
            add_units(state, castle, player, units)
            events.append(Event("recruit", f"{player} recruits {describe(units)} in {castle} for {cost} garas.",
                                data={"player": player, "castle": castle, "units": units, "cost": cost}))
    return events


def ransom(state: State, player: str) -> list[Event]:
    """II: 20 garas free the captive lord; ruling K11: he returns to the first castle in board
    order that holds his units, else the first county that does."""
    if player not in state["captive"] or state["treasury"][player] < RANSOM:
        return [Event("ransom", f"{player} cannot pay the ransom.")]
    board = load_board(state["version"])
    mine = [c for c in board.counties if state["armies"].get(c, {}).get("owner") == player]
    if not mine:
        return [Event("ransom", f"{player} has no units for his lord to return to: no ransom is paid.")]
    where = next((c for c in mine if board.counties[c].castle), mine[0])
    state["treasury"][player] -= RANSOM
    del state["captive"][player]
    state["lords"][player] = where
    return [Event("ransom", f"{player} pays the ransom of {RANSOM} garas; the province lord returns to {where}.",
                  data={"player": player, "county": where})]


def template(view: dict[str, Any], player: str) -> str:
    places = recruit_places(view, player)
    cost = price(view, player)
    lines = [f"# Recruit in your castles ({', '.join(places) or 'you hold none'}); treasury "
             f"{view['treasury'][player]} garas.",
             f"# Cavalry {cost['cavalry']}, infantry {cost['infantry']}, archers {cost['archers']} garas a unit; "
             "at most 7 units a castle (III)."]
    if player in view["captive"]:
        lines.append(f"# Your lord is captive until {view['captive'][player]}: `ransom: yes` pays {RANSOM} garas.")
    lines.append("recruit:")
    lines.extend(f"#  {c}: {{infantry: 1}}" for c in places)
    return "\n".join(lines) + "\n"


def echo(orders: dict[str, Any]) -> str:
    out = ["recruit:" if orders["recruit"] else "recruit: {}"]
    for castle, units in orders["recruit"].items():
        out.append(f"  {castle}: {{{', '.join(f'{k}: {n}' for k, n in units.items() if n)}}}")
    if orders["ransom"]:
        out.append("ransom: yes")
    return "\n".join(out)
