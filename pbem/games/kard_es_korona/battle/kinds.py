"""The three weapon types of Kard és Korona (II "Weapon Types"), with the names the rulebook
gives them: cavalry (also called knights), infantry, archers.

Defined here because the game's own unit module (pbem/games/kard_es_korona/units.py, branch
kek-game) was not on main when the battle package was written; the values are the same as its
UNIT_KINDS (tests/test_kek_battle.py checks it once both are merged), so units move between the
game's state and a battle as they are.
"""
from __future__ import annotations

from pbem.orders.reading import fold

CAVALRY = "cavalry"
INFANTRY = "infantry"
ARCHER = "archers"
KINDS = (CAVALRY, INFANTRY, ARCHER)

# The words a player may write for a kind (folded: any case, no accents, singular or plural).
_ALIASES = {
    "cavalry": CAVALRY, "knight": CAVALRY, "knights": CAVALRY, "cavalries": CAVALRY,
    "infantry": INFANTRY, "infantries": INFANTRY, "foot": INFANTRY,
    "archer": ARCHER, "archers": ARCHER, "bowmen": ARCHER,
}


def kind_of(word: object) -> str | None:
    """The weapon type a player's word names, or None."""
    return _ALIASES.get(fold(str(word))) if isinstance(word, str) else None
