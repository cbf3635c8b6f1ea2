"""The units of Kard és Korona, named as the rulebook names them (II. Weapon Types).

Three weapon types: cavalry (also called knights in the rulebook), infantry and archers.
The province lord (warlord) is a figure of his own, not a weapon type (II. Royal /
Neutral Units). The battle package (battle/) and every other part of the game use these
names; a unit on the board is one of ``UNIT_KINDS`` belonging to an owner.
"""

from __future__ import annotations

from typing import Final, Literal

from pbem.orders.reading import fold

# A unit kind is one of these words (the keys of every units mapping: {kind: count}).
UnitKind = Literal["cavalry", "infantry", "archers"]

CAVALRY: Final = "cavalry"
INFANTRY: Final = "infantry"
ARCHERS: Final = "archers"

# Order used everywhere a position lists units (reports, views, YAML).
UNIT_KINDS: Final[tuple[str, ...]] = ("cavalry", "infantry", "archers")

# Words a player may write for a kind (folded: any case, no accents, singular or plural, the
# rulebook's "knights"); placement, recruitment, movement and battle orders all read them.
KIND_WORDS: Final[dict[str, str]] = {
    "cavalry": "cavalry", "knight": "cavalry", "knights": "cavalry", "cavalries": "cavalry",
    "infantry": "infantry", "infantries": "infantry", "foot": "infantry",
    "archer": "archers", "archers": "archers", "bowmen": "archers",
}

# II. Cavalry / Infantry / Archers: movement points of each kind; the warlord moves as
# cavalry (II. Royal / Neutral Units).
MOVEMENT_POINTS: Final[dict[str, int]] = {"cavalry": 4, "infantry": 2, "archers": 2}
WARLORD_MOVEMENT_POINTS: Final = 4

# III. Collecting Tax Income and Recruitment; IV. Palatine: the cost of a unit in garas.
COST: Final[dict[str, int]] = {"cavalry": 9, "infantry": 5, "archers": 5}
PALATINE_COST: Final[dict[str, int]] = {"cavalry": 7, "infantry": 4, "archers": 4}

# Owner name of the royal (neutral, white) units (II. Royal / Neutral Units).
ROYAL: Final = "royal"

# III. Placing Units at the Start of the Game: the starting armies (besides the lord).
STARTING_ARMY: Final[dict[str, dict[str, int]]] = {
    "basic": {"cavalry": 3, "infantry": 5, "archers": 4},
    "advanced": {"cavalry": 4, "infantry": 6, "archers": 5},
}

# II. Royal / Neutral Units, III. Gameplay: the squad that holds every empty castle.
NEUTRAL_SQUAD: Final[dict[str, int]] = {"cavalry": 1, "infantry": 1, "archers": 1}


def kind_of(word: object) -> str | None:
    """The kind a player's word names (see KIND_WORDS), or None."""
    return KIND_WORDS.get(fold(word)) if isinstance(word, str) else None
