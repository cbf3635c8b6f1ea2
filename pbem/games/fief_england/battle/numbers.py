"""England's battle numbers, read from the edition record (games/fief_england/edition.yaml):
the battle die (E 7.1), strength points and hits per unit kind (E 7.3, 7.5, 11.1, 13.1, invaders
6.0), dice by strength (7.3), fortress penalties (7.4), projectile figures (7.2) and the
deadlock count (7.8). The pure round functions (battle/rounds.py) take a ``BattleNumbers``; the
rulebook's values are its defaults, and a test checks the record says the same."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping

import yaml

from pbem.paths import games_dir

# The engines (7.2): they roll projectile dice, have no Strength Points and take no Hit; they
# are taken or destroyed only at the end of a battle (7.5, ruling R7).
ENGINES = ("trebuchet", "bombard")
# 7.2: "Archers/Crossbowmen" fire together as one projectile type.
SHOOTERS = ("archer", "crossbowman")
# 7.2, R32: the unit that must stand beside a siege engine for it to fire, and that a bombard's
# blank removes (ruling R51: not the royal guard's men-at-arms).
ENGINE_CREW = "man_at_arms"
# 6.4, 7.5: "the Invader Leader is removed last, when there are no more Invader Foot Soldiers".
LAST_UNITS = ("invader_leader",)
# 13.1: the royal guard markers, each +1 hit to each melee roll of its side (R8).
GUARD = ("royal_knight", "royal_man_at_arms")

_STRENGTH = {   # 7.3 Strength Points, equal to the Hits that defeat one (7.5)
    "man_at_arms": 1, "archer": 1, "knight": 3, "crossbowman": 2,
    "royal_knight": 3, "royal_man_at_arms": 1,
    "invader_foot": 2, "invader_leader": 3,
    "bombard": 0, "trebuchet": 0,
}


@dataclass(frozen=True)
class BattleNumbers:
    faces: tuple[int, ...] = (0, 1, 1, 2, 2, 3)          # 7.1: blank, f, f, ff, ff, fff
    dice_from: tuple[tuple[int, int], ...] = ((1, 1), (7, 2), (13, 3))   # 7.3: SP from -> dice
    penalty: Mapping[str, int] = field(default_factory=lambda: {"stronghold": 1, "city": 2})   # 7.4
    archer_bonus_from: int = 3                            # 7.2: +1f with 3 or more
    archers_needed: Mapping[str, int] = field(default_factory=lambda: {"stronghold": 2, "city": 3})  # 7.2
    trebuchet_dice: int = 2                               # 7.2: "Roll 2 Battle Dice"
    second_trebuchet_bonus: int = 1                       # 7.2: "the second adds +1f"
    cavalcade_bonus: int = 1                              # 5.3: +1f per die of the defender
    deadlock_rounds: int = 3                              # 7.8: 3 rolls in a row without losses
    strength: Mapping[str, int] = field(default_factory=lambda: dict(_STRENGTH))
    guard_hits: Mapping[str, int] = field(default_factory=lambda: {k: 1 for k in GUARD})   # 13.1, R8
    # l.30: a family's engines (its stockpile of markers)
    pools: Mapping[str, int] = field(default_factory=lambda: {"trebuchet": 2, "bombard": 3})

    def sp(self, kind: str) -> int:
        return self.strength.get(kind, 0)

    def melee_dice(self, sp: int) -> int:
        """7.3: 1-6 SP: 1 die, 7-12: 2, 13 or more: 3; none without SP."""
        dice = 0
        for least, n in self.dice_from:
            if sp >= least:
                dice = n
        return dice


def numbers_from_record(record: Mapping[str, Any]) -> BattleNumbers:
    """The battle numbers of an England edition record (its `dice`, `units`, `hired_units`,
    `royal_guard` and `invaders` keys); a key the record lacks keeps the rulebook's value."""
    dice = record.get("dice") or {}
    strength = dict(_STRENGTH)
    for key in ("units", "hired_units", "royal_guard"):
        for kind, spec in (record.get(key) or {}).items():
            if isinstance(spec, Mapping) and "combat_points" in spec:
                strength[kind] = int(spec["combat_points"])
    invaders = record.get("invaders") or {}
    if "leader_combat_points" in invaders:
        strength["invader_leader"] = int(invaders["leader_combat_points"])
    if "foot_combat_points" in invaders:
        strength["invader_foot"] = int(invaders["foot_combat_points"])
    guard = {kind: int(spec.get("melee_hits", 1)) for kind, spec in (record.get("royal_guard") or {}).items()}
    base = BattleNumbers()
    by_strength = dice.get("battle_dice_by_strength")
    return BattleNumbers(
        faces=tuple(int(f) for f in dice.get("battle_die", base.faces)),
        dice_from=tuple(sorted((int(k), int(v)) for k, v in by_strength.items())) if by_strength else base.dice_from,
        penalty={"stronghold": int(dice.get("stronghold_penalty", 1)),
                 "city": int(dice.get("fortified_city_penalty", 2))},
        archer_bonus_from=int(dice.get("archer_volley_bonus_from", base.archer_bonus_from)),
        archers_needed={"stronghold": int(dice.get("archers_vs_stronghold", 2)),
                        "city": int(dice.get("archers_vs_fortified_city", 3))},
        trebuchet_dice=int(dice.get("trebuchet_dice", base.trebuchet_dice)),
        second_trebuchet_bonus=int(dice.get("second_trebuchet_bonus", base.second_trebuchet_bonus)),
        cavalcade_bonus=int(dice.get("cavalcade_defence_bonus", base.cavalcade_bonus)),
        deadlock_rounds=int(dice.get("deadlock_rounds", base.deadlock_rounds)),
        strength=strength,
        guard_hits=guard or dict(base.guard_hits),
        pools={kind: int((record.get("units") or {}).get(kind, {}).get("pool", base.pools[kind])) for kind in ENGINES})


@lru_cache(maxsize=1)
def england_numbers() -> BattleNumbers:
    """The numbers of games/fief_england/edition.yaml, read once."""
    path = games_dir() / "fief_england" / "edition.yaml"
    return numbers_from_record(yaml.safe_load(path.read_text(encoding="utf-8")) or {})
