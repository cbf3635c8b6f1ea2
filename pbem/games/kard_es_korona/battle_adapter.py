"""The one call the game makes to fight a battle (III. Battle; VI. Retreat / Flight).

The battle itself (open battles, sieges, the archers' rounds, hit numbers, terrain, the lord's
+1, the duel, retreat and pursuit) is the battle module's (task KB,
``pbem/games/kard_es_korona/battle/``). The game hands it a ``BattleInput`` and applies the
``BattleOutcome`` (battles.py): who holds the county, the units left, the fallen lords.
Until that module is merged here, ``resolve_battle`` raises NotImplementedError.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pbem.rules.rng import Rng


@dataclass(frozen=True)
class Side:
    """One side of a battle. ``owner`` is a player or a neutral owner ("royal",
    "neutral-<province>"; ``neutral``: they defend to the death and never counter-attack, II).
    Units are {kind: count} with the kinds of units.py."""

    owner: str
    units: dict[str, int]
    neutral: bool
    lord: bool = False                      # the province lord fights with them
    lord_leads: str | None = None      # the kind his +1 goes to (II), chosen in advance
    priorities: tuple[str, ...] = ("archers", "infantry", "cavalry")   # enemy units removed first
    judge_royal: bool = False               # may re-roll one clash of one kind once (IV)
    came_from: tuple[str, ...] = ()         # attacker: the counties it came from (retreat targets)
    retreat_to: tuple[str, ...] = ()        # where it may flee (VI. Retreat; advanced only)
    retreat_at: int = 0                     # advanced: retreat after a complete round that leaves this
                                            # many units or fewer (0: fight on); the player's order


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
    attacker_lord_fell: bool                # killed or defeated (his side destroyed or lost the duel)
    defender_lord_fell: bool
    attacker_withdrew: bool = False         # a siege abandoned (no infantry) or a retreat
    defender_fled_to: str | None = None     # advanced: where the defenders fled
    attacker_fled_to: str | None = None     # advanced: where the attackers retreated
    log: tuple[str, ...] = field(default_factory=tuple)   # sentences for the report, in order


def resolve_battle(battle: BattleInput, rng: Rng) -> BattleOutcome:
    """Fight ``battle`` with the dice of ``rng``. The battle module (task KB) answers this."""
    raise NotImplementedError("battles: task KB")
