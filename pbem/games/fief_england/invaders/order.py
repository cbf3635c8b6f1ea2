"""The order the Invaders act in (E 1.0 Phase 6: "Play each Action in Region Number order";
6.3; ruling R40): the armies by the Region Number of the city each stands in, armies of one
Region (or one city) one at a time in their fixed order 1-4."""
from __future__ import annotations

from typing import Any

from pbem.games.fief.state import FiefState
from pbem.games.fief_england.compass import Compass
from pbem.games.fief_england.invaders.armies import on_map


def by_region(state: FiefState, compass: Compass) -> list[tuple[str, dict[str, Any]]]:
    armies = on_map(state)
    return sorted(armies.items(), key=lambda kv: (compass.region[kv[1]["city"]], int(kv[0])))
