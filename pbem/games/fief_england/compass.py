"""England's board as the Invaders read it (E 6.2, 6.3): each city's Region, the Region's port,
and the road that leaves a city by each compass point (N, E, S, W). Read from
games/fief_england/board.yaml (`regions:`, `cities:`, `roads:` with `directions:`), which
tests/test_fief_england_data.py holds to the rulebook's facts (at most one road per compass
point, opposite points at a road's two ends, Ex 6-2's King's Lynn).

The core's ``Board`` (towns, fiefs, roads) knows no compass point: this reader adds them, once per
process. A file that cannot serve the compass draw is refused with a ``CompassError`` naming the
file, the entry and the fix.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from pbem.paths import games_dir

POINTS = ("N", "E", "S", "W")            # 6.3: the four Compass Markers
POINT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
NUMERALS = ("I", "II", "III", "IV", "V", "VI")   # Game Setup (l.25): I=1 ... VI=6


class CompassError(Exception):
    """Board data the Invaders cannot move by, with the file, the entry and the fix."""


@dataclass(frozen=True)
class Compass:
    region: dict[str, int]                  # city -> Region number 1-6
    region_names: dict[int, str]            # 1 -> "South West"
    ports: dict[int, str]                   # Region number -> its Port City (5.4, l.380)
    exits: dict[str, dict[str, str]]        # city -> compass point -> the city its road leads to

    def is_port(self, city: str) -> bool:
        return self.ports.get(self.region[city]) == city

    def roads_out(self, city: str) -> dict[str, str]:
        return self.exits.get(city, {})

    def region_label(self, number: int) -> str:
        return f"{NUMERALS[number - 1]} {self.region_names[number]}"


@lru_cache(maxsize=4)
def load_compass(name: str = "board") -> Compass:
    path = games_dir() / "fief_england" / f"{name}.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise CompassError(f"{path}: cannot read the board data: {exc}") from None
    return build_compass(data, path)


def build_compass(data: Any, path: Path | str) -> Compass:
    def fail(message: str, fix: str) -> CompassError:
        return CompassError(f"{path}: {message}; {fix}")

    if not isinstance(data, dict):
        raise fail("the board is not a mapping", "give `regions:`, `cities:` and `roads:`")
    number = {n: i + 1 for i, n in enumerate(NUMERALS)}
    names: dict[int, str] = {}
    ports: dict[int, str] = {}
    for entry in data.get("regions") or []:
        if entry.get("number") not in number:
            raise fail(f"region {entry.get('name')!r} has number {entry.get('number')!r}",
                       "number the regions I to VI (Game Setup, l.25)")
        names[number[entry["number"]]] = str(entry.get("name"))
        ports[number[entry["number"]]] = str(entry.get("port"))
    region: dict[str, int] = {}
    for city in data.get("cities") or []:
        if city.get("region") not in number:
            raise fail(f"city {city.get('name')!r} lies in region {city.get('region')!r}",
                       "give each city `region:` I to VI")
        region[str(city["name"])] = number[city["region"]]
    for n, port in ports.items():
        if region.get(port) != n:
            raise fail(f"the port {port!r} of region {NUMERALS[n - 1]} is not one of its cities",
                       "name one of the region's cities as its `port:` (5.4, l.380)")
    exits: dict[str, dict[str, str]] = {c: {} for c in region}
    for road in data.get("roads") or []:
        between, directions = road.get("between"), road.get("directions") or {}
        for city in between or []:
            point = directions.get(city)
            other = next((c for c in between if c != city), None)
            if city not in region or other not in region:
                raise fail(f"the road {between!r} names a city that is not on the board", "correct its `between:`")
            if point not in POINTS:
                raise fail(f"the road {' - '.join(between)} leaves {city} by {point!r}",
                           "give `directions: {CITY: N|E|S|W}` for both its cities (6.3)")
            if point in exits[city]:
                raise fail(f"{city} has two roads leaving by {point} ({exits[city][point]} and {other})",
                           "a compass draw must pick one road (6.3): move one road to a free point")
            exits[city][point] = str(other)
    return Compass(region, names, ports, exits)
