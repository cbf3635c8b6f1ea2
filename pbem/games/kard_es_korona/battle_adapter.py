"""The one call the game makes to fight a battle (III. Battle; VI. Retreat / Flight).

The battle itself (open battles, sieges, the archers' rounds, hit numbers, terrain, the lord's
+1, the duel, retreat and pursuit) is the battle package's (``pbem/games/kard_es_korona/battle/``,
rulings B1-B17). The game hands it a ``BattleInput`` made from the board and the players'
standing `battle:` orders, and applies the ``BattleOutcome`` (battles.py): who won, who holds
the county, the units left, the fallen lords, where a side retreated.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from pbem.games.kard_es_korona.battle import (ATTACKER_SIDE, DEFENDER_SIDE, Battle, BattleResult, BattleSide,
                                              battle_lines, plan_from_data)
from pbem.games.kard_es_korona.battle import resolve_battle as fight
from pbem.rules.rng import Rng

FELL = ("defeated", "captured", "killed")   # a warlord's fates that take him off the field


@dataclass(frozen=True)
class Side:
    """One side of a battle. ``owner`` is a player or a neutral owner ("royal",
    "neutral-<province>"; ``neutral``: they defend to the death and never counter-attack, II).
    Units are {kind: count} with the kinds of units.py."""

    owner: str
    units: dict[str, int]
    neutral: bool
    lord: bool = False                      # the province lord fights with them
    plan: Mapping[str, Any] = field(default_factory=dict)   # the player's `battle:` plan for this
                                            # county (battle.plan_data_for): priorities, lord_leads, ...
    judge_royal: bool = False               # the Judge Royal's side: may re-roll (IV; ruling B14)
    retreat_to: str | None = None           # where it goes if it retreats or must withdraw (the game's
                                            # choice among the legal counties, the player's first)
    retreat_obstacle: bool = False          # the way there crosses a river or enters a mountain or marsh


@dataclass(frozen=True)
class BattleInput:
    county: str
    terrain: str                            # "plain" | "mountain" | "marsh"
    castle: bool                            # a siege when True
    attacker: Side
    defender: Side
    advanced: bool                          # retreat and pursuit (VI) allowed
    lord_attack_bonus: int = 0              # the Vintage card: +1 to the attacking lord's troops


@dataclass(frozen=True)
class BattleOutcome:
    attacker_left: dict[str, int]
    defender_left: dict[str, int]
    attacker_lord_fell: bool                # defeated, captured or killed (his side destroyed or lost the duel)
    defender_lord_fell: bool
    winner: str | None = None               # "attacker" | "defender" | None: the county has no master.
                                            # A duel or a lord alone (ruling B7) wins with no units left
    attacker_withdrew: bool = False         # a siege abandoned (no infantry) or a retreat
    defender_fled_to: str | None = None     # advanced: where the defenders fled
    attacker_fled_to: str | None = None     # advanced: where the attackers retreated
    killed: tuple[str, ...] = ()            # sides whose lord lost the duel: killed (ruling B9)
    log: tuple[str, ...] = field(default_factory=tuple)   # sentences for the report, in order


def battle_of(battle: BattleInput) -> Battle:
    """The battle package's Battle for the game's BattleInput."""
    judges = [s.owner for s in (battle.attacker, battle.defender) if s.judge_royal]
    return Battle(county=battle.county, attacker=_side(battle.attacker), defender=_side(battle.defender),
                  castle=battle.castle, terrain=battle.terrain, advanced=battle.advanced,
                  judge_royal=judges[0] if judges else None, lord_attack_bonus=battle.lord_attack_bonus)


def _side(side: Side) -> BattleSide:
    return BattleSide(owner=side.owner, units=dict(side.units), neutral=side.neutral,
                      warlord=side.owner if side.lord and not side.neutral else None,
                      plan=plan_from_data(side.plan), retreat_to=side.retreat_to,
                      retreat_obstacle=side.retreat_obstacle)


def outcome_of(battle: Battle, result: BattleResult) -> BattleOutcome:
    """The game's BattleOutcome of the battle package's result."""
    fate = {side: result.warlords.get(side, {}).get("fate") for side in (ATTACKER_SIDE, DEFENDER_SIDE)}
    retreat = result.retreat
    return BattleOutcome(
        attacker_left=dict(result.survivors[ATTACKER_SIDE]), defender_left=dict(result.survivors[DEFENDER_SIDE]),
        attacker_lord_fell=fate[ATTACKER_SIDE] in FELL, defender_lord_fell=fate[DEFENDER_SIDE] in FELL,
        winner=result.winner,
        attacker_withdrew=retreat is not None and retreat.side == ATTACKER_SIDE,
        defender_fled_to=retreat.to if retreat is not None and retreat.side == DEFENDER_SIDE else None,
        attacker_fled_to=retreat.to if retreat is not None and retreat.side == ATTACKER_SIDE else None,
        killed=tuple(side for side, f in fate.items() if f == "killed"),
        log=tuple(battle_lines(battle, result)))


def resolve_battle(battle: BattleInput, rng: Rng) -> BattleOutcome:
    """Fight ``battle`` with the dice of ``rng`` (the battle package, III; VI)."""
    fought = battle_of(battle)
    return outcome_of(fought, fight(fought, rng))
