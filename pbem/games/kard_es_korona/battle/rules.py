"""The combat values of Kard és Korona (II "Weapon Types", "Natural Obstacles", III "Battle"):
what a die needs to remove which enemy unit, the modifiers, and who falls when a side hits.

A die's modified result (face + modifiers) removes an enemy unit when it reaches the number
that the die's weapon type needs against the unit's weapon type:

| rolling \\ removed | cavalry | infantry | archers |
| --- | --- | --- | --- |
| cavalry            | 6       | 4        | 4       |
| infantry, archers  | 6       | 5        | 5       |

Where knights dismount (a siege, a mountain, a marsh) they are infantry on both sides of this
table. Defending archers shooting from a castle's walls need 4 against anyone; the castle gives
its other defenders nothing more (ruling B1). The warlord gives +1 to the weapon type he leads;
defenders on a mountain or in a marsh get +1; the two add up (ruling B16).
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable, Mapping, Sequence

from pbem.games.kard_es_korona.battle.kinds import ARCHER, CAVALRY, INFANTRY, KINDS
from pbem.games.kard_es_korona.battle.model import ATTACKER, DEFENDER, Battle

DEFAULT_LOSSES = (ARCHER, INFANTRY, CAVALRY)   # own losses a player chooses: ruling, see default_priorities


def mounted(battle: Battle) -> bool:
    """Cavalry fight mounted only in an open battle on open ground: "when besieging a castle, or
    when standing on a mountain or in a marsh, even knights act as simple infantry" (II
    "Weapon Types"; "Cavalry"; "Siege": both sides' cavalry dismount)."""
    return not battle.castle and battle.terrain is None


def fights_as(kind: str, battle: Battle) -> str:
    return INFANTRY if kind == CAVALRY and not mounted(battle) else kind


def need(rolling: str, removed: str) -> int:
    """The number a die of weapon type ``rolling`` needs to remove a unit of ``removed`` (both as
    they fight: fights_as). II "Cavalry": they kill with 4, 5 or 6, but enemy cavalry only with
    a 6; "Infantry": 5 or 6, cavalry only with 6; "Archers": 5 or 6, removed by cavalry with 4."""
    if removed == CAVALRY:
        return 6
    return 4 if rolling == CAVALRY else 5


def modifier(battle: Battle, side: str, kind: str, leads: str | None) -> int:
    """+1 for the weapon type the side's warlord leads (II "Royal / Neutral Units": "his
    presence gives +1 to every roll of the chosen weapon type"); +1 for every defending unit on
    a mountain or in a marsh (II "Natural Obstacles"); an event's bonus to an attacking warlord's
    army (Battle.lord_attack_bonus)."""
    event = battle.lord_attack_bonus if side == ATTACKER and battle.attacker.warlord else 0
    return (1 if leads == kind else 0) + (1 if side == DEFENDER and battle.terrain else 0) + event


def can_remove(value: int, rolling: str, battle: Battle, *, open_volley: bool = False,
               castle_volley: bool = False) -> frozenset[str]:
    """The enemy weapon types a die of modified ``value`` may remove.

    ``open_volley``: the archers' first round of an open battle, in which "archers may target
    only the enemy's infantry and archers, since cavalry are protected by their armour from
    that distance" (III "Open Battle"). ``castle_volley``: defending archers on the walls "hit
    with a 4, 5 or 6" (III "Siege"; II "Archers")."""
    out = set()
    for kind in KINDS:
        target = fights_as(kind, battle)
        if open_volley and target == CAVALRY:
            continue
        if value >= (4 if castle_volley else need(fights_as(rolling, battle), target)):
            out.add(kind)
    return frozenset(out)


def default_priorities(battle: Battle, side: str) -> tuple[str, ...]:
    """The order in which a side's hits remove enemy units when its player gave none (ruling
    K-B2): in the field, knights first (only a 6 removes them, so a hit that can is not spent
    on a lesser unit), then archers, then infantry; a besieger silences the defending archers
    first (III "Siege": "it is very worthwhile for attackers to silence the defending archers
    first"); a castle's defenders strike the attacking infantry first, without which the
    siege fails (III "Siege")."""
    if battle.castle:
        return (ARCHER, CAVALRY, INFANTRY) if side == ATTACKER else (INFANTRY, CAVALRY, ARCHER)
    return (CAVALRY, ARCHER, INFANTRY)


def in_order(first: Sequence[str], rest: Sequence[str]) -> list[str]:
    """``first``, then the kinds of ``rest`` it left out, in rest's order."""
    return list(first) + [k for k in rest if k not in first]


def allocate(dice: Iterable[frozenset[str]], enemy: Mapping[str, int], priority: Sequence[str]) -> Counter:
    """The enemy units a side's successful dice remove (III "Melee": "the loss may always be
    taken by the side that achieved the hit, subject to the relevant rules").

    Ruling K-B3: the hitting side's priority is served kind by kind: each unit of the first
    kind is removed by the weakest die that can remove it (so a 6 is kept for a knight while a
    5 can take an infantry unit), then the next kind, and so on. A die that can remove some
    enemy unit still standing always removes one: hits are never wasted (kinds the priority
    leaves out come after it)."""
    left = sorted(dice, key=len)
    standing = Counter({k: n for k, n in enemy.items() if n > 0})
    removed: Counter = Counter()
    for kind in in_order(priority, KINDS):
        for die in list(left):
            if standing[kind] <= removed[kind]:
                break
            if kind in die:
                left.remove(die)
                removed[kind] += 1
    return removed


def choose_own_losses(units: Mapping[str, int], count: int, priority: Sequence[str]) -> Counter:
    """``count`` of a side's own units, lost in the side's own order."""
    lost: Counter = Counter()
    for kind in in_order(priority, DEFAULT_LOSSES):
        take = min(count - sum(lost.values()), units.get(kind, 0))
        if take > 0:
            lost[kind] = take
    return lost


def choose_lord_leads(wanted: Sequence[str], units: Mapping[str, int]) -> str | None:
    """The weapon type a warlord leads (II "Royal / Neutral Units": chosen "at the start of the
    fight – before the first die roll"): the first wanted type the army has; otherwise
    (ruling B4) the type with the most units, ties in the order cavalry, infantry, archers."""
    for kind in wanted:
        if units.get(kind, 0) > 0:
            return kind
    present = [k for k in KINDS if units.get(k, 0) > 0]
    return max(present, key=lambda k: (units[k], -KINDS.index(k))) if present else None
