"""The board of Kard és Korona: counties, provinces (regions), castles, obstacles and rivers.

The printed maps are not available: games/kard_es_korona/{basic,advanced}.yaml are a
reconstruction (every county marked ``guess``; the files' ``reconstruction:`` says why). What
the rulebook does state is checked here on load, so a corrected map that breaks a stated fact
is refused with the fact named.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Mapping

import yaml

from pbem.paths import games_dir

VERSIONS = ("basic", "advanced")
TERRAINS = ("plain", "mountain", "marsh")
OBSTACLES = ("mountain", "marsh")
GREAT_RIVERS = ("Duna", "Tisza", "Dráva", "Száva", "Maros")   # II. Natural Obstacles

# VI: 7 counties with 2 castles per province (basic), 10 with 3 (advanced); III (l.152): 3 or 5
# plain counties outside the castles, hence the rest are mountains or marshes (an inference, R3).
SHAPE = {"basic": {"counties": 7, "castles": 2, "plain": 3},
         "advanced": {"counties": 10, "castles": 3, "plain": 5}}
# III (l.154): where the royal troops of a 2-4 player game stand; II. Regions: the royal territory.
ROYAL_COUNTIES = ("Bihar", "Kunság", "Nógrád")
# I (l.50): with 5 players Szlavónia drops out but for Baranya, north of the Dráva.
SLAVONIA, BARANYA = "SZL", "Baranya"


class BoardError(ValueError):
    """The board data breaks a fact of the rulebook or is malformed; the message names it."""


@dataclass(frozen=True)
class Province:
    id: str
    name: str
    english: str
    lord: str | None      # the province lord's name (None for the royal territory)
    royal: bool


@dataclass(frozen=True)
class County:
    name: str
    province: str
    terrain: str
    castle: str | None    # the castle's name, or None
    guess: bool

    @property
    def obstacle(self) -> bool:
        return self.terrain in OBSTACLES


@dataclass(frozen=True)
class Board:
    version: str
    provinces: tuple[Province, ...]
    counties: Mapping[str, County]
    # county -> {neighbour: river on the border or None}
    borders: Mapping[str, Mapping[str, str | None]]

    @property
    def royal(self) -> Province:
        return next(p for p in self.provinces if p.royal)

    @property
    def home_provinces(self) -> tuple[Province, ...]:
        """The six provinces a lord can play, in the ring order of the data (R1)."""
        return tuple(p for p in self.provinces if not p.royal)

    def province(self, pid: str) -> Province:
        return next(p for p in self.provinces if p.id == pid)

    def in_province(self, pid: str) -> list[str]:
        return [c.name for c in self.counties.values() if c.province == pid]

    def castles(self) -> list[str]:
        return [c.name for c in self.counties.values() if c.castle]

    def step_cost(self, src: str, dst: str) -> int:
        """Movement points to go from ``src`` into its neighbour ``dst`` (II. Natural Obstacles,
        III. Movement into an Empty County): 1, 2 into a mountain or marsh, +1 across a river."""
        return 1 + (1 if self.counties[dst].obstacle else 0) + (1 if self.borders[src][dst] else 0)

    def listing(self) -> dict[str, Any]:
        """The board as the text report lists it (II. Regions, Counties, Natural Obstacles): the
        provinces in ring order with their counties, and each county's terrain, castle,
        neighbours and the great river on the border with each (``rivers``)."""
        return {"provinces": [{"id": p.id, "name": p.name, "english": p.english, "royal": p.royal,
                               "counties": self.in_province(p.id)} for p in self.provinces],
                "counties": {name: {"terrain": c.terrain, "castle": c.castle, "borders": list(self.borders[name]),
                                    "rivers": {n: r for n, r in self.borders[name].items() if r}}
                             for name, c in self.counties.items()}}

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version,
                "provinces": [vars(p) for p in self.provinces],
                "counties": [vars(c) for c in self.counties.values()],
                "borders": [{"between": list(pair), "river": river} for pair, river in sorted(
                    {tuple(sorted((a, b))): r for a, ns in self.borders.items() for b, r in ns.items()}.items())]}


def connected(names: Iterable[str], borders: Mapping[str, Mapping[str, Any]]) -> bool:
    """Whether ``names`` form one piece through borders among themselves."""
    names = set(names)
    if not names:
        return True
    seen, todo = set(), [next(iter(names))]
    while todo:
        here = todo.pop()
        if here in seen:
            continue
        seen.add(here)
        todo.extend(n for n in borders.get(here, {}) if n in names and n not in seen)
    return seen == names


@lru_cache(maxsize=None)
def load_board(version: str) -> Board:
    if version not in VERSIONS:
        raise BoardError(f"no {version!r} map: the versions are {', '.join(VERSIONS)}")
    path = games_dir() / "kard_es_korona" / f"{version}.yaml"
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise BoardError(f"{path}: cannot read the map ({exc})") from exc
    return board_from_data(raw, str(path))


def board_from_data(raw: Any, where: str) -> Board:
    """The board of ``raw`` (the YAML's data), or BoardError listing every broken fact."""
    problems: list[str] = []
    try:
        board = _parse(raw)
    except (KeyError, TypeError, ValueError) as exc:
        raise BoardError(f"{where}: malformed map data ({exc!r}); see games/kard_es_korona/basic.yaml") from exc
    _check(board, raw, problems)
    if problems:
        raise BoardError(f"{where}: the map breaks the rulebook: " + "; ".join(problems))
    return board


def _parse(raw: Mapping[str, Any]) -> Board:
    provinces = tuple(Province(p["id"], p["name"], p["english"], p.get("lord"), bool(p.get("royal")))
                      for p in raw["provinces"])
    counties: dict[str, County] = {}
    for c in raw["counties"]:
        if c["name"] in counties:
            raise ValueError(f"county {c['name']} is listed twice")
        counties[c["name"]] = County(c["name"], c["province"], c["terrain"], c.get("castle"), bool(c.get("guess")))
    borders: dict[str, dict[str, str | None]] = {name: {} for name in counties}
    for b in raw["borders"]:
        one, two = b["between"]
        for a, z in ((one, two), (two, one)):
            if a not in counties:
                raise ValueError(f"border {one} - {two}: no county {a}")
            if z in borders[a]:
                raise ValueError(f"border {one} - {two} is listed twice")
            borders[a][z] = b.get("river")
    return Board(raw["version"], provinces, counties, borders)


def _check(board: Board, raw: Mapping[str, Any], problems: list[str]) -> None:
    shape = SHAPE.get(board.version)
    if shape is None:
        problems.append(f"version {board.version!r} is not one of {', '.join(VERSIONS)}")
        return
    ids = [p.id for p in board.provinces]
    if len([p for p in board.provinces if p.royal]) != 1 or len(board.provinces) != 7:
        problems.append("there must be 6 provinces and 1 royal territory (I; II. Regions)")
    for county in board.counties.values():
        if county.province not in ids:
            problems.append(f"{county.name} is in no known province ({county.province})")
        if county.terrain not in TERRAINS:
            problems.append(f"{county.name}: terrain {county.terrain!r} is not one of {', '.join(TERRAINS)}")
        if county.castle and county.obstacle:
            problems.append(f"{county.name}: a castle on a {county.terrain} (castles stand on plain counties, l.152)")
        if county.name in board.borders.get(county.name, {}):
            problems.append(f"{county.name} borders itself")
    for province in board.provinces:
        names = board.in_province(province.id)
        castles = [n for n in names if board.counties[n].castle]
        plain = [n for n in names if board.counties[n].terrain == "plain" and not board.counties[n].castle]
        # VI: counties and castles per province; l.152: the plain counties outside the castles.
        if (len(names), len(castles), len(plain)) != (shape["counties"], shape["castles"], shape["plain"]):
            problems.append(f"{province.name} has {len(names)} counties, {len(castles)} castles and {len(plain)} "
                            f"plain counties without a castle; the {board.version} map has {shape['counties']}, "
                            f"{shape['castles']} and {shape['plain']} (VI; l.152)")
        if not connected(names, board.borders):
            problems.append(f"{province.name}'s counties are not all connected")
    rivers = {r["name"]: bool(r.get("board_edge")) for r in raw.get("rivers", [])}
    if sorted(rivers) != sorted(GREAT_RIVERS):
        problems.append(f"the rivers must be the five great rivers {', '.join(GREAT_RIVERS)} (II. Natural Obstacles)")
    used = {r for ns in board.borders.values() for r in ns.values() if r}
    for river in used - set(rivers):
        problems.append(f"a border carries {river}, which is not one of the great rivers")
    for river, edge in rivers.items():
        if not edge and river not in used:
            problems.append(f"no border crosses the {river} (mark it `board_edge: true` if it runs along the edge)")
        if edge and river in used:
            problems.append(f"the {river} is marked as the board's edge but a border crosses it")
    royal = next((p.id for p in board.provinces if p.royal), None)
    for name in ROYAL_COUNTIES:   # l.154, R4
        if name not in board.counties or board.counties[name].province != royal:
            problems.append(f"{name} must be a county of the royal territory (l.154)")
    if BARANYA not in board.counties or board.counties[BARANYA].province != SLAVONIA:
        problems.append("Baranya must be a county of Szlavónia (l.50)")
    else:   # l.50: Szlavónia but Baranya is bounded by the Dráva
        for other, crossing in board.borders[BARANYA].items():
            if board.counties[other].province == SLAVONIA and crossing != "Dráva":
                problems.append(f"the border Baranya - {other} must cross the Dráva (l.50)")
    home = [p.id for p in board.provinces if not p.royal]
    for a, b in zip(home, home[1:] + home[:1], strict=True):   # R1: the ring of l.52-54
        if not any(board.counties[n].province == b for x in board.in_province(a) for n in board.borders[x]):
            problems.append(f"provinces {a} and {b} must border each other (the ring of l.52-54)")
    if not connected(board.counties, board.borders):
        problems.append("the counties are not all connected")
