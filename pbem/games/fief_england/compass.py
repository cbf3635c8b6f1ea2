"""England's board as the Invaders read it (E 6.2, 6.3): each city's Region number, the Region's
port, and the road that leaves a city by each compass point (N, E, S, W). Taken from England's
``Board`` (board_loader.py ``EnglandBoard``: the regions by number and each road's compass
points, checked against the rulebook's facts when the board is loaded, Ex 6-2's King's Lynn
among them)."""
from __future__ import annotations

from dataclasses import dataclass

from pbem.games.fief.board import Board
from pbem.games.fief_england.board_loader import COMPASS as POINTS, EnglandBoard
from pbem.games.fief_england.regions import NUMERALS   # Game Setup (l.25): I=1 ... VI=6

POINT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


@dataclass(frozen=True)
class Compass:
    region: dict[str, int]                  # city -> Region number 1-6
    region_names: dict[int, str]            # 1 -> "County of the South West"
    ports: dict[int, str]                   # Region number -> its Port City (5.4, l.380)
    exits: dict[str, dict[str, str]]        # city -> compass point -> the city its road leads to

    def is_port(self, city: str) -> bool:
        return self.ports.get(self.region[city]) == city

    def roads_out(self, city: str) -> dict[str, str]:
        return self.exits.get(city, {})

    def region_label(self, number: int) -> str:
        return f"{NUMERALS[number - 1]} ({self.region_names[number]})"


def compass_of(board: Board) -> Compass:
    england = EnglandBoard.of(board)
    number = {england.regions[n]: NUMERALS.index(n) + 1 for n in england.regions}   # fief id -> 1-6
    region = {city: number[info.fief] for city, info in england.towns.items()}
    ports = {region[city]: city for city in england.harbors}
    names = {n: england.fiefs[f].name for f, n in number.items()}
    exits = {city: {p: to for p, to in england.directions.get(city, {}).items() if p in POINTS} for city in region}
    return Compass(region, names, ports, exits)
