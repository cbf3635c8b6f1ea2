"""6.3 Moves: an Invader army has two Moves, by road only (R16), its Leader taking all its Foot
Soldiers (and the Foot Soldiers that follow him, 6.4) and its captives (6.7). If more than one
road leaves its city, one of the four Compass Markers is drawn blindly; a point with no road is
put aside and another drawn (Ex 6-2), without replacement (R39); a city with exactly one road
needs no draw (R39: "If there is more than one Road"). The draws are made from the seeded
generator as the move is made: nothing about them exists before (no secret to keep).

STORMS (2.5: no movement within, into or out of the Region): a road into or out of a Region
with STORMS counts as no road for the draw, and an army in such a Region does not move
(ruling R80)."""
from __future__ import annotations

from dataclasses import dataclass, field

from pbem.games.fief_england.compass import POINT_NAMES, POINTS, Compass
from pbem.rules.rng import Rng


@dataclass
class Draw:
    """The outcome of one Move's compass draw."""

    point: str | None                 # the point taken; None: the army cannot move
    to: str | None
    drawn: list[str] = field(default_factory=list)   # every marker drawn, the rejected ones first
    why: str = ""                     # why no move, or how the road was chosen

    def told(self) -> str:
        if self.point is None:
            return self.why
        if not self.drawn:
            return self.why
        rejected = [POINT_NAMES[p] for p in self.drawn[:-1]]
        return ((f"the compass draws {', then '.join(rejected)} (no road open), then " if rejected else
                 "the compass draws ") + f"{POINT_NAMES[self.point]}")


def open_roads(compass: Compass, city: str, storms: set[int]) -> dict[str, str]:
    """The roads out of ``city`` an army may take: none from a Region with STORMS, none into one."""
    if compass.region[city] in storms:
        return {}
    return {p: to for p, to in compass.roads_out(city).items() if compass.region[to] not in storms}


def draw_move(compass: Compass, city: str, storms: set[int], rng: Rng, who: str) -> Draw:
    roads = compass.roads_out(city)
    usable = open_roads(compass, city, storms)
    if not roads:
        return Draw(None, None, why=f"no road leaves {city}")
    if not usable:
        return Draw(None, None, why=f"STORMS close every road out of {city} (2.5)")
    if len(roads) == 1:              # R39: one road out, no draw
        point, to = next(iter(usable.items()))
        return Draw(point, to, why=f"the only road out of {city} leads {POINT_NAMES[point]}")
    markers = list(POINTS)           # 6.3: the four markers, drawn without replacement (R39)
    drawn: list[str] = []
    while True:
        point = rng.choice(markers, f"compass: {who} in {city}")
        markers.remove(point)
        drawn.append(point)
        if point in usable:
            return Draw(point, usable[point], drawn)
