"""III (l.262): after a battle, the victorious province lord takes one extra step: units from
other counties join him, or he goes to other units of his, within 4 movement points, never
through enemy territory. By mail it is ordered in advance, under `battle:` in the movement
orders:

    battle:
      after_victory: {join: {Pest: {infantry: 2}}}     # these units come to the lord
      # or: after_victory: {lord_to: Pest}              # the lord goes to his units there

Ruling K26: the units must not have moved this year nor wait in a battle; enemy territory is a
county held by, or holding units of, anyone else; the castle limits hold; what cannot be done
is told to the player only.
"""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona.board import load_board
from pbem.games.kard_es_korona.routes import cheapest, points
from pbem.games.kard_es_korona.reading import county_name, county_units
from pbem.games.kard_es_korona.state import (State, add_units, battle_at, board_of, castle_problem, describe, no_units,
                                             remove_units, total, units_at)
from pbem.games.kard_es_korona.units import UNIT_KINDS, WARLORD_MOVEMENT_POINTS
from pbem.orders.reading import Problems, check_keys
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Audience, Event


def parse(raw: Any, line: int | None, view: dict[str, Any], problems: Problems) -> dict[str, Any] | None:
    """The canonical extra step ({"lord_to": county} or {"join": {county: units}}), or None."""
    if raw is None:
        return None
    counties = [c for c in load_board(view["version"]).counties if c not in view["closed"]]
    mine = [c for c, a in view["armies"].items() if a["owner"] == view.get("me")] or counties   # for examples
    if not isinstance(raw, dict) or len(raw) != 1:
        problems.add(line, "after_victory is a mapping of one key",
                     f"e.g. `{{join: {{{mine[0]}: {{infantry: 1}}}}}}` or `{{lord_to: {mine[0]}}}`")
        return None
    check_keys(raw, ("join", "lord_to"), "after_victory", problems)
    if "lord_to" in raw:
        county = county_name(raw["lord_to"], counties, line_of(raw, "lord_to") or line, problems)
        return {"lord_to": county} if county else None
    value = raw.get("join")
    if not isinstance(value, dict) or not value:
        problems.add(line_of(raw, "join") or line, "join lists counties, each with the units that come",
                     f"e.g. `join: {{{mine[0]}: {{infantry: 2}}}}`")
        return None
    join = {county: units for county, units, _ in county_units(value, counties, line_of(raw, "join") or line, "join",
                                                               f"{{{mine[0]}: {{infantry: 2}}}}", problems)
            if total(units)}
    return {"join": join} if join else None


def echo(order: dict[str, Any]) -> str:
    if "lord_to" in order:
        return f"{{lord_to: {order['lord_to']}}}"
    parts = ", ".join(f"{c}: {{{', '.join(f'{k}: {n}' for k, n in u.items() if n)}}}" for c, u in order["join"].items())
    return f"{{join: {{{parts}}}}}"


def take(state: State, player: str) -> list[Event]:
    """The extra step of ``player``, whose lord has just won where he stands."""
    order = state["battle_orders"].get(player, {}).get("after_victory")
    here = state["lords"].get(player)
    if not order or here is None:
        return []
    board = board_of(state)
    foes = {c for c, a in state["armies"].items() if a["owner"] != player} | {
        c for c, o in state["owner"].items() if o != player}

    def passable(county: str) -> bool:
        return county not in foes and county not in state["closed"]

    def refuse(why: str) -> list[Event]:
        return [Event("extra_step", f"{player}'s extra step after the victory cannot be taken: {why}",
                      Audience.only(player), data={"player": player})]
    if "lord_to" in order:
        to = order["lord_to"]
        if state["armies"].get(to, {}).get("owner") != player:
            return refuse(f"no units of yours stand in {to}")
        if to != here and (cheapest(board, here, to, passable) or 99) > WARLORD_MOVEMENT_POINTS:
            return refuse(f"{to} is beyond 4 movement points of {here} through your own or empty counties")
        state["lords"][player] = to
        return [Event("extra_step", f"{player}'s province lord goes from {here} to {to} after his victory (III).",
                      data={"player": player, "to": to})]
    arriving = no_units()
    for src, units in order["join"].items():
        mine, moved = units_at(state, src, player), state["moved"].get(src, no_units())
        free = {k: mine[k] - moved.get(k, 0) for k in UNIT_KINDS}
        if battle_at(state, src) is not None or any(units[k] > free[k] for k in UNIT_KINDS):
            return refuse(f"{src} has {describe(free)} of yours free to move, not {describe(units)}")
        if (cheapest(board, src, here, passable) or 99) > points(units, False):
            return refuse(f"{describe(units)} from {src} cannot reach {here}")
        for kind in UNIT_KINDS:
            arriving[kind] += units[kind]
    if board.counties[here].castle:
        after = {k: state["armies"].get(here, {"units": no_units()})["units"][k] + arriving[k] for k in UNIT_KINDS}
        if castle_problem(state["version"], after):
            return refuse(castle_problem(state["version"], after) or "")
    for src, units in order["join"].items():
        remove_units(state, src, units)
    add_units(state, here, player, arriving)
    return [Event("extra_step", f"{describe(arriving)} of {player} join the province lord in {here} after his "
                  "victory (III).", data={"player": player, "to": here, "units": arriving})]
