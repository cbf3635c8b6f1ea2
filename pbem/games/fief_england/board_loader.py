"""Fief: England's board file (games/fief_england/board.yaml) read into the Fief core's ``Board``
(the edition's ``board_loader`` hook): the six Regions are the fiefs (E Game Setup, l.25; rank by
size, 4.3), the Cities the towns, the four Ecclesiastic Districts the bishoprics (whole regions,
the Cathedral City as chief town, 2.14), the ports the harbors (5.4), the six Seas the board's
seas. What the core has no place for — the region numbers, each region's sea and the seas'
links, the compass point each road leaves a city by (6.3), the Sherwood paths (13.4), where the
relics and Excalibur start — is kept on ``EnglandBoard`` for England's own modules.

Every fact the rulebook states is checked on load (facts.py; board.py ``check_board``): a file
that breaks one is refused with a ``BoardError`` naming the file and the fact.
"""
from __future__ import annotations

from collections import deque
from typing import Any

from pbem.games.fief.board import Board, BoardError, BishopricInfo, FiefInfo, TownInfo, check_board
from pbem.games.fief.edition import load_edition
from pbem.games.fief.facts import BoardFacts
from pbem.games.fief_england.facts import EnglandFacts

RANKS = {2: "barony", 3: "county", 4: "duchy"}   # 4.3 (l.308-310)
COMPASS = ("N", "E", "S", "W")                   # 6.3 (l.407)
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def sea_name(number: str) -> str:
    """A sea as a location and as the orders write it: "Sea III" (2.4, l.122)."""
    return f"Sea {number}"


class EnglandBoard(Board):
    """The core's Board with what England's own rules read besides."""

    def __init__(self, *args: Any, regions: dict[str, str], sea_of: dict[str, str],
                 sea_links: frozenset[frozenset[str]], directions: dict[str, dict[str, str]],
                 bandit_cities: tuple[str, ...], forest: str, relic_cities: tuple[str, ...],
                 excalibur: str | None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.regions = regions            # region number (I-VI) -> fief id
        self.sea_of = sea_of              # fief id -> its sea ("Sea I"), 2.4
        self.sea_links = sea_links        # pairs of contiguous seas, 5.4
        self.directions = directions      # city -> compass point -> the city that road reaches, 6.3
        self.bandit_cities = bandit_cities   # 13.4: joined by the Bandit Paths through the forest
        self.forest = forest
        self.relic_cities = relic_cities  # 12.0: the cathedral cities, one relic each
        self.excalibur = excalibur        # 13.2: where Excalibur starts

    @staticmethod
    def of(board: Board) -> "EnglandBoard":
        """England's board as loaded by its own loader (a game of another edition has none)."""
        if not isinstance(board, EnglandBoard):
            raise TypeError(f"{board.source} is not a Fief: England board")
        return board

    def region_number(self, fief: str) -> str:
        return next(n for n, f in self.regions.items() if f == fief)

    def road_towards(self, city: str, point: str) -> str | None:
        """6.3: the city the road leaving ``city`` by compass ``point`` reaches, or None."""
        return self.directions.get(city, {}).get(point)

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        out["regions"] = dict(self.regions)
        out["seas"] = {sea: {"region": fief, "touches": sorted(s for pair in self.sea_links if sea in pair
                                                                for s in pair if s != sea)}
                       for fief, sea in self.sea_of.items()}
        out["bandit_paths"] = {"forest": self.forest, "cities": list(self.bandit_cities)}
        return out


def load_england_board(data: Any, where: str, facts: BoardFacts, variant: str) -> Board:
    """The ``board_loader`` hook: England's board file as a Board, checked against its facts."""
    def fail(message: str) -> BoardError:
        return BoardError(f"{where}: {message}")

    if not isinstance(data, dict):
        raise fail("the board file must be a mapping with regions, cities, seas, ecclesiastic_districts and roads")
    for key in ("regions", "cities", "seas", "sea_adjacency", "ecclesiastic_districts", "roads"):
        if not isinstance(data.get(key), list):
            raise fail(f"`{key}` must be a list (docs/fief-england.md, \"The data files\")")
    regions = {str(r.get("number")): r for r in _entries(data["regions"], "regions", "number", fail)}
    fief_of = {number: _fief_id(str(r.get("name", "")), fail) for number, r in regions.items()}
    cities = _entries(data["cities"], "cities", "name", fail)
    towns_region: dict[str, str] = {}
    for city in cities:
        if str(city.get("region")) not in regions:
            raise fail(f"city {city['name']}: its region {city.get('region')!r} is not one of "
                       f"{', '.join(regions)} (Game Setup, l.25: every City lies in one Region)")
        towns_region[str(city["name"])] = str(city["region"])
    districts = _entries(data["ecclesiastic_districts"], "ecclesiastic_districts", "id", fail)
    district_of: dict[str, int] = {}
    chiefs: dict[int, str] = {}
    for number, district in enumerate(districts, 1):
        chiefs[number] = str(district.get("cathedral_city"))
        for region in district.get("regions") or []:
            if str(region) not in regions or str(region) in district_of:
                raise fail(f"district {district['id']}: region {region!r} is unknown or in two districts "
                           "(2.14: the districts are made of whole regions, each in one)")
            district_of[str(region)] = number
    missing = sorted(set(regions) - set(district_of))
    if missing:
        raise fail(f"regions {', '.join(missing)} lie in no Ecclesiastic District (2.14, l.237-241)")

    towns = {name: TownInfo(name, fief_of[region], district_of[region], chiefs[district_of[region]] == name,
                            bool(c.get("port")), not c.get("reconstructed"),
                            ("fief",) if c.get("reconstructed") else ())
             for c in cities for name, region in [(str(c["name"]), towns_region[str(c["name"])])]}
    per_town = load_edition(variant).price("title_per_town")   # 4.3 (l.307)
    fiefs = {}
    for numeral, region in regions.items():
        members = tuple(t for t in towns if towns[t].fief == fief_of[numeral])
        if len(members) not in RANKS or region.get("size") != len(members):
            raise fail(f"region {numeral} ({region.get('name')}) has {len(members)} cities and says size "
                       f"{region.get('size')!r}: a region holds 2 to 4 cities and states how many (l.25, 4.3)")
        fiefs[fief_of[numeral]] = FiefInfo(fief_of[numeral], str(region.get("title")), RANKS[len(members)], members,
                                          per_town * len(members))
    bishoprics = {n: BishopricInfo(n, chiefs[n], chiefs[n], tuple(t for t in towns if towns[t].bishopric == n))
                  for n in chiefs}
    roads, marks, directions = _roads(data["roads"], towns, fail)
    sea_of = {fief_of[number]: sea_name(number) for number in regions}
    seas = tuple(sea_name(str(s.get("number"))) for s in _entries(data["seas"], "seas", "number", fail))
    if set(seas) != set(sea_of.values()):
        raise fail("`seas` must list one sea per region, numbered like it (2.4, l.122)")
    links = frozenset(_sea_link(item, seas, fail) for item in data["sea_adjacency"])
    paths = data.get("bandit_paths") or {}
    relics = tuple(t for t in towns if any(c["name"] == t and c.get("cathedral") for c in cities))
    excalibur = (data.get("excalibur_start") or {}).get("city")
    if excalibur is not None and excalibur not in towns:
        raise fail(f"`excalibur_start.city` {excalibur!r} is not a city of the board (13.2)")
    board = EnglandBoard(variant, where, towns, fiefs, bishoprics, roads, marks, seas,
                         regions=fief_of, sea_of=sea_of, sea_links=links, directions=directions,
                         bandit_cities=tuple(paths.get("cities") or ()), forest=str(paths.get("forest", "")),
                         relic_cities=relics, excalibur=excalibur)
    check_board(board, facts)
    if isinstance(facts, EnglandFacts):
        _check_england(board, facts, fail)
    return board


def _entries(items: list, key: str, name: str, fail) -> list[dict]:
    seen = set()
    for item in items:
        if not isinstance(item, dict) or name not in item:
            raise fail(f"every entry of `{key}` needs a `{name}`: {item!r}")
        if item[name] in seen:
            raise fail(f"`{key}`: {item[name]!r} is listed twice")
        seen.add(item[name])
    return items


def _fief_id(name: str, fail) -> str:
    """A region's fief id from its name ("South East" -> "south_east")."""
    if not name.strip():
        raise fail("every region needs a `name` (Game Setup, l.25)")
    return "_".join(name.lower().split())


def _roads(items: list, towns: dict[str, TownInfo], fail) -> tuple[frozenset, dict, dict[str, dict[str, str]]]:
    roads: set[frozenset[str]] = set()
    marks: dict[frozenset[str], str] = {}
    directions: dict[str, dict[str, str]] = {t: {} for t in towns}
    for item in items:
        pair = item.get("between") if isinstance(item, dict) else None
        if not isinstance(pair, list) or len(pair) != 2 or pair[0] == pair[1]:
            raise fail(f"a road needs `between: [city, city]`, two cities: {item!r}")
        for city in pair:
            if city not in towns:
                raise fail(f"the road {pair[0]} - {pair[1]} names {city!r}, which is not a city of the board")
        road = frozenset(pair)
        if road in roads:
            raise fail(f"the road {pair[0]} - {pair[1]} is listed twice")
        roads.add(road)
        marks[road] = "reconstructed" if item.get("reconstructed") else f"source: {item.get('source', '?')}"
        points = item.get("directions") or {}
        a, b = pair
        if points.get(a) not in COMPASS or points.get(b) != OPPOSITE[points[a]]:
            raise fail(f"the road {a} - {b} needs `directions: {{{a}: N, {b}: S}}`, opposite compass points "
                       "(6.3: the Invaders follow the road a compass draw names)")
        for city, other in ((a, b), (b, a)):
            if points[city] in directions[city]:
                raise fail(f"{city} has two roads leaving by {points[city]} (6.3: a compass draw names one road)")
            directions[city][points[city]] = other
    return frozenset(roads), marks, directions


def _sea_link(item: Any, seas: tuple[str, ...], fail) -> frozenset[str]:
    pair = item.get("between") if isinstance(item, dict) else None
    if not isinstance(pair, list) or len(pair) != 2 or any(sea_name(str(s)) not in seas for s in pair):
        raise fail(f"a sea link needs `between: [I, II]`, two seas of the board: {item!r}")
    return frozenset(sea_name(str(s)) for s in pair)


def _check_england(board: EnglandBoard, facts: EnglandFacts, fail) -> None:
    """England's own facts: region numbers, compass points, distances, seas, Sherwood."""
    if dict(facts.regions) != board.regions:
        raise fail(f"the regions must be numbered {dict(facts.regions)} (l.25), not {board.regions}")
    for city, point, other, where in facts.road_directions:
        if board.road_towards(city, point) != other:
            raise fail(f"the road leaving {city} by {point} must reach {other} ({where})")
    for city, point, where in facts.no_roads:
        if board.road_towards(city, point) is not None:
            raise fail(f"no road may leave {city} by {point} ({where})")
    for a, b, moves, where in facts.road_distances:
        if board.distances(a).get(b) != moves:
            raise fail(f"{a} to {b} must be {moves} Moves by road ({where}), not {board.distances(a).get(b)}")
    for a, b, where in facts.sea_links:
        if frozenset((sea_name(a), sea_name(b))) not in board.sea_links:
            raise fail(f"Sea {a} and Sea {b} must touch ({where})")
    for a, b, moves, where in facts.naval_moves:
        have = _sea_moves(board, a, b)
        if have != moves:
            raise fail(f"{a} to {b} must be {moves} sea Move(s) ({where}), not {have}")
    if facts.bandit_cities and set(board.bandit_cities) != facts.bandit_cities:
        raise fail(f"the Bandit Paths must join {', '.join(sorted(facts.bandit_cities))} (13.4, l.824)")


def _sea_moves(board: EnglandBoard, a: str, b: str) -> int | None:
    """5.4: the fewest seas entered sailing from port ``a`` to port ``b`` (each new sea a Move)."""
    start, goal = board.sea_of[board.towns[a].fief], board.sea_of[board.towns[b].fief]
    seen = {start: 0}
    todo = deque([start])
    while todo:
        sea = todo.popleft()
        for pair in board.sea_links:
            if sea in pair:
                nxt = next(s for s in pair if s != sea)
                if nxt not in seen:
                    seen[nxt] = seen[sea] + 1
                    todo.append(nxt)
    return seen.get(goal)
