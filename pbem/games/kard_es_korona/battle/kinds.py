"""The three weapon types of Kard és Korona (II "Weapon Types") as the battle package names
them: the game's own (pbem/games/kard_es_korona/units.py), so units move between the game's
state and a battle as they are.
"""
from __future__ import annotations

from pbem.games.kard_es_korona.units import ARCHERS as ARCHER
from pbem.games.kard_es_korona.units import CAVALRY, INFANTRY, kind_of
from pbem.games.kard_es_korona.units import UNIT_KINDS as KINDS

__all__ = ["ARCHER", "CAVALRY", "INFANTRY", "KINDS", "kind_of"]
