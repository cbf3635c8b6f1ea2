"""What the computer player reads in its view (never the state): the board, whose units stand
where, the counties it may pass (II: never through others' units), what enemy units could reach
a county this year (II. Cavalry 4 points, infantry and archers 2), and a rough strength of units
standing in a county (II. Weapon Types; III. Siege: the castle's archers hit first)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.games.kard_es_korona.board import Board, load_board
from pbem.games.kard_es_korona.routes import cheapest
from pbem.games.kard_es_korona.state import is_neutral, no_units, total
from pbem.games.kard_es_korona.units import MOVEMENT_POINTS, UNIT_KINDS

WORTH = {"cavalry": 2.0, "infantry": 1.0, "archers": 1.1}   # II: cavalry hit on 4 and fall only to a 6
CASTLE_FACTOR = 1.8                                          # III. Siege: the walls and the archers' volleys
OBSTACLE_FACTOR = 1.3                                        # II. Natural Obstacles: the defender's +1


@dataclass
class Sight:
    view: dict[str, Any]
    player: str
    board: Board = field(init=False)
    _costs: dict[tuple[str, str, str], int | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.board = load_board(self.view["version"])

    # -- who stands where ----------------------------------------------------------------
    def army_owner(self, county: str) -> str | None:
        here = self.view["armies"].get(county)
        return here["owner"] if here and total(here["units"]) else None

    def units(self, county: str) -> dict[str, int]:
        here = self.view["armies"].get(county)
        return dict(here["units"]) if here else no_units()

    def mine(self) -> list[str]:
        """My counties with units, in board order."""
        return [c for c in self.board.counties if self.army_owner(c) == self.player]

    def open_counties(self) -> list[str]:
        return [c for c in self.board.counties if c not in self.view["closed"]]

    def friends(self) -> set[str]:
        """My overlord and my vassals: neither may be attacked (V)."""
        me = self.player
        return {p for p, o in self.view["vassal_of"].items() if o == me} | \
            ({self.view["vassal_of"][me]} if me in self.view["vassal_of"] else set())

    def enemies(self) -> list[str]:
        return [p for p in self.view["players"] if p != self.player and p not in self.view["eliminated"]
                and p not in self.friends()]

    def hostile(self, county: str) -> bool:
        """Units I may attack there: an enemy player's or neutral ones."""
        owner = self.army_owner(county)
        return owner is not None and (is_neutral(owner) or owner in self.enemies())

    def lord_at(self, county: str) -> str | None:
        return next((p for p, c in self.view["lords"].items() if c == county), None)

    # -- ways and reach --------------------------------------------------------------------
    def cost(self, src: str, to: str, mover: str | None = None) -> int | None:
        """Movement points from ``src`` into ``to`` for ``mover``'s units (mine by default),
        passing only counties holding none of others' units."""
        mover = mover or self.player
        key = (mover, src, to)
        if key not in self._costs:
            if src == to or to in self.view["closed"]:
                self._costs[key] = None
            else:
                closed = self.view["closed"]
                self._costs[key] = cheapest(self.board, src, to, lambda c: c not in closed
                                            and self.army_owner(c) in (None, mover))
        return self._costs[key]

    def movable(self, units: dict[str, int], cost: int | None) -> dict[str, int]:
        """The part of ``units`` with movement points enough for ``cost``."""
        if cost is None:
            return no_units()
        return {k: (units[k] if MOVEMENT_POINTS[k] >= cost else 0) for k in UNIT_KINDS}

    def threat(self, county: str) -> float:
        """The strength of the enemy units that could step into ``county`` this year: the
        strongest enemy's (the others do not fight on his side: III, no third party joins)."""
        per_enemy: dict[str, float] = {}
        enemies = self.enemies()
        for src in self.board.counties:
            owner = self.army_owner(src)
            if owner is None or owner not in enemies or owner in self.view["captive"]:
                continue
            reach = self.movable(self.units(src), self.cost(src, county, owner))
            per_enemy[owner] = per_enemy.get(owner, 0.0) + strength(reach)
        return max(per_enemy.values(), default=0.0)

    def defence(self, county: str, units: dict[str, int] | None = None) -> float:
        units = self.units(county) if units is None else units
        spot = self.board.counties[county]
        factor = CASTLE_FACTOR if spot.castle else (OBSTACLE_FACTOR if spot.obstacle else 1.0)
        return strength(units) * factor + (1.5 if self.lord_at(county) else 0.0)

    def hops(self, src: str, targets: set[str]) -> int:
        """Borders crossed from ``src`` to the nearest of ``targets`` (99 if none)."""
        seen, frontier, depth = {src}, [src], 0
        while frontier:
            if any(c in targets for c in frontier):
                return depth
            depth += 1
            nearer = []
            for here in frontier:
                for near in self.board.borders[here]:
                    if near not in seen and near not in self.view["closed"]:
                        seen.add(near)
                        nearer.append(near)
            frontier = nearer
        return 99


def strength(units: dict[str, int]) -> float:
    return sum(WORTH[k] * units.get(k, 0) for k in UNIT_KINDS)
