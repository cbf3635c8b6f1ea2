"""What the Fief: England rulebook states about its board, checked whenever board data is loaded
(board_loader.py, through the edition's hooks): the core's ``BoardFacts`` (regions as fiefs,
Ecclesiastic Districts as bishoprics, ports as harbors, roads) and England's own (road compass
points, sea links, naval and road distances, the Sherwood paths). Line numbers are lines of
shared/rules/fief-england.txt; a fact the rulebook does not state but the board's data
reconstructs (docs/fief-england.md, X1-X3) says so.

These live in code on purpose: a game master who corrects games/fief_england/board.yaml from the
printed board is still held to what the rulebook says (the file's own `facts:` list is checked
by tests/test_fief_england_data.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from pbem.games.fief.facts import BoardFacts


@dataclass(frozen=True)
class EnglandFacts(BoardFacts):
    # region number (I-VI) -> fief id: E Game Setup (l.25), the regions are the fiefdoms
    regions: tuple[tuple[str, str], ...] = ()
    # (city, compass point, city): the road leaving the first city by that point (6.3)
    road_directions: tuple[tuple[str, str, str, str], ...] = ()
    # (city, compass point): no road leaves the city that way (6.3)
    no_roads: tuple[tuple[str, str, str], ...] = ()
    # (from, to, fewest Moves by road)
    road_distances: tuple[tuple[str, str, int, str], ...] = ()
    # (sea, sea): contiguous seas (5.4)
    sea_links: tuple[tuple[str, str, str], ...] = ()
    # (port, port, fewest sea Moves, 5.4: each new sea is one Move)
    naval_moves: tuple[tuple[str, str, int, str], ...] = ()
    bandit_cities: frozenset[str] = frozenset()   # 13.4 (l.824)


ENGLAND = EnglandFacts(
    town_count=18,   # the 18 city names of the rulebook (docs/fief-england.md, X3)
    fiefs={   # Game Setup (l.25); titles by size, 4.3 (l.307-310)
        "south_west": ("County of the South West", "county"),   # reconstructed X1, X3
        "wales": ("Barony of Wales", "barony"),                 # 9.1 example (l.656): "Baroness of Wales"
        "marches": ("Barony of the Marches", "barony"),         # 4.3 example (l.311)
        "north": ("County of the North", "county"),             # Ex 9-2 (l.669): "Countess of the North"
        "midlands": ("Duchy of the Midlands", "duchy"),         # 4.6 example (l.319): "Duke of the Midlands"
        "south_east": ("Duchy of the South East", "duchy"),     # 2.8 example (l.180): 4 cities
    },
    bishoprics={   # the Ecclesiastic Districts and their Cathedral Cities, 2.14 (l.237-241)
        1: ("Exeter", "Exeter"), 2: ("York", "York"), 3: ("Norwich", "Norwich"), 4: ("Canterbury", "Canterbury")},
    harbors=("Plymouth", "Cardiff", "Berwick", "Whitby", "King's Lynn", "London"),   # 5.4 (l.380), region order
    named_towns=frozenset({
        "Plymouth", "Exeter", "Bristol", "Cardiff", "Harlech", "Berwick", "Durham", "Whitby", "York",
        "Lincoln", "King's Lynn", "Norwich", "Coventry", "Nottingham", "London", "Canterbury", "Oxford",
        "Winchester"}),
    fief_members=(
        ("marches", frozenset({"Berwick", "Durham"}), True, "4.3 example, l.311"),
        ("south_east", frozenset({"London", "Canterbury", "Oxford"}), False, "5.1 (l.360), 2.14 (l.241)"),
        ("midlands", frozenset({"Norwich", "King's Lynn"}), False, "Ex 11-1 (l.768), Ex 5-3 (l.385)"),
        ("north", frozenset({"York", "Whitby"}), False, "2.14 (l.239), Ex 5-3 (l.385)"),
    ),
    bishopric_members=(
        (1, frozenset({"Exeter", "Cardiff"}), False, "2.14, l.238: the South West and Wales"),
        (2, frozenset({"York", "Berwick", "Durham"}), False, "2.14, l.239: the Marches and the North"),
        (4, frozenset({"Canterbury", "London", "Oxford"}), False, "2.14, l.241: the South East"),
    ),
    roads=(
        ("Oxford", "London", "Ex 5-1, l.343"), ("London", "Canterbury", "Ex 5-1, l.343"),
        ("Winchester", "Canterbury", "Ex 5-2, l.354"), ("Durham", "Berwick", "Ex 5-6, l.388"),
        ("Cardiff", "Harlech", "Ex 5-5, l.387"), ("King's Lynn", "Coventry", "Ex 5-3, l.385"),
        ("York", "Whitby", "Ex 13-1, l.826"), ("Whitby", "Lincoln", "Ex 13-1, l.826"),
    ),
    regions=(("I", "south_west"), ("II", "wales"), ("III", "marches"), ("IV", "north"), ("V", "midlands"),
             ("VI", "south_east")),
    road_directions=(
        ("King's Lynn", "N", "Lincoln", "Ex 6-2, l.410"), ("King's Lynn", "W", "Coventry", "Ex 6-2, l.410"),
        ("King's Lynn", "E", "Norwich", "Ex 6-2, l.410"),
    ),
    no_roads=(("King's Lynn", "S", "Ex 6-2, l.410"),),
    road_distances=(("York", "King's Lynn", 3, "Ex 13-1, l.826"),),
    sea_links=(("II", "III", "Ex 5-5, l.387"), ("III", "IV", "12.2 example, l.792"), ("IV", "V", "Ex 5-3, l.385"),
               ("V", "VI", "Ex 5-4, l.386")),
    naval_moves=(("Whitby", "King's Lynn", 1, "Ex 5-3, l.385"), ("Whitby", "London", 2, "Ex 5-4, l.386"),
                 ("Berwick", "Cardiff", 1, "Ex 5-5, l.387")),
    bandit_cities=frozenset({"York", "Lincoln", "King's Lynn", "Nottingham"}),
)
