"""Battles and sieges of Kard és Korona (III "Battle", VI "Retreat / Flight"): a pure,
self-contained package that the movement phase calls when units meet.

- ``resolve_battle(battle, rng) -> BattleResult`` (fight.py): one battle, every die, to its end.
- ``battle_order(entries, turn_order, choices) -> [id, ...]`` (order.py): the order of a round's battles.
- ``check_battle_plan(value, line, problems, counties)`` / ``plan_for(data, county)``
  (orders.py): a player's `battle:` orders, read and applied.
- ``battle_lines(battle, result)`` (text.py): the report.

The data in and out is in model.py; the combat values in rules.py; the rulings in
docs/kard-es-korona.md ("Battles", "Rulings").
"""
from pbem.games.kard_es_korona.battle.fight import resolve_battle
from pbem.games.kard_es_korona.battle.kinds import ARCHER, CAVALRY, INFANTRY, KINDS
from pbem.games.kard_es_korona.battle.model import ATTACKER as ATTACKER_SIDE
from pbem.games.kard_es_korona.battle.model import DEFENDER as DEFENDER_SIDE
from pbem.games.kard_es_korona.battle.model import (
    Battle, BattlePlan, BattleResult, BattleSide, Clash, Condition, Duel, Retreat, Roll, battle_from_data,
    plan_from_data,
)
from pbem.games.kard_es_korona.battle.order import BattleEntry, battle_order
from pbem.games.kard_es_korona.battle.orders import (
    battle_choices, check_battle_plan, plan_data_for, plan_for, retreat_choices,
)
from pbem.games.kard_es_korona.battle.text import battle_lines

__all__ = [
    "ARCHER", "ATTACKER_SIDE", "CAVALRY", "DEFENDER_SIDE",
    "INFANTRY", "KINDS", "Battle", "BattleEntry", "BattlePlan", "BattleResult", "BattleSide",
    "Clash", "Condition", "Duel", "Retreat", "Roll", "battle_choices", "battle_from_data", "battle_lines",
    "battle_order", "check_battle_plan", "plan_data_for", "plan_for", "plan_from_data", "resolve_battle",
    "retreat_choices",
]
