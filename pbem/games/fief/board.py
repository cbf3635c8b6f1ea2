"""The Fief board: towns, fiefs, bishoprics, roads, harbors and the offshore area (A, 5.3).

Loaded from games/<variant>/board.yaml (or another board file of that folder, option
``board``) and checked against the facts the variant's rulebook states (facts.py). A file
that breaks a fact is refused with a ``BoardError`` naming the fact and the file, so a game
master correcting the data from the printed board sees at once what does not fit.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

import yaml

from pbem.games.fief.edition import load_edition
from pbem.games.fief.facts import RANK_SIZE, BoardFacts
from pbem.orders.reading import fold
from pbem.paths import games_dir

OFFSHORE = "offshore"   # 5.3.1: France's board file names its one sea area so (`offshore:` below)

DEFAULT_BOARD = "board"


class BoardError(Exception):
    """Board data that contradicts the rulebook or cannot be read."""


@dataclass(frozen=True)
class TownInfo:
    name: str
    fief: str
    bishopric: int
    chief: bool
    harbor: bool
    sourced: bool    # both its fief and its bishopric come from the rulebook (no guess)
    guesses: tuple[str, ...] = ()   # which of its facts are guesses ("exists", "fief", "bishopric")


@dataclass(frozen=True)
class FiefInfo:
    id: str
    name: str
    rank: str        # "duchy" | "county" | "barony"
    towns: tuple[str, ...]
    title_price: int   # 4.4: the edition's price per town (France: 2 deniers) times the towns


@dataclass(frozen=True)
class BishopricInfo:
    number: int
    name: str
    chief_town: str
    towns: tuple[str, ...]


class Board:
    def __init__(self, variant: str, source: str, towns: dict[str, TownInfo],
                 fiefs: dict[str, FiefInfo], bishoprics: dict[int, BishopricInfo],
                 roads: frozenset[frozenset[str]], road_marks: dict[frozenset[str], str],
                 seas: tuple[str, ...] = ()):
        self.variant = variant
        self.seas = seas   # the sea areas a naval step reaches (5.3.1; France: one, `offshore`)
        self.source = source
        self.towns = towns
        self.fiefs = fiefs
        self.bishoprics = bishoprics
        self.roads = roads
        self._road_marks = road_marks
        nbrs: dict[str, list[str]] = {t: [] for t in towns}
        for road in roads:
            a, b = sorted(road)
            nbrs[a].append(b)
            nbrs[b].append(a)
        self._neighbours = {t: tuple(sorted(v)) for t, v in nbrs.items()}
        order = load_edition(variant).hooks.board_facts.harbors   # 5.3.2 (France: north to south)
        self._harbors = tuple(sorted((t for t in towns if towns[t].harbor), key=order.index))
        self._folded = {fold(t): t for t in towns}
        self._fief_folded = {fold(f.id): f.id for f in fiefs.values()}
        self._fief_folded.update({fold(f.name): f.id for f in fiefs.values()})
        # "Bretagne" for "Barony of Bretagne"
        self._fief_folded.update({fold(f.name.split(" of ", 1)[-1]): f.id for f in fiefs.values()})

    # -- queries ---------------------------------------------------------------------------
    def adjacent(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.roads

    def neighbours(self, town: str) -> tuple[str, ...]:
        return self._neighbours.get(town, ())

    @property
    def harbors(self) -> tuple[str, ...]:
        """North to south, as 5.3.2 lists them."""
        return self._harbors

    def is_harbor(self, town: str) -> bool:
        info = self.towns.get(town)
        return bool(info and info.harbor)

    def is_sea(self, place: str) -> bool:
        return place in self.seas

    def find_sea(self, text: Any) -> str | None:
        """A sea of the board by its name as written (France: `offshore`, 5.3.1)."""
        return next((s for s in self.seas if fold(s) == fold(str(text))), None)

    def find_town(self, text: str) -> str | None:
        return self._folded.get(fold(str(text)))

    def find_fief(self, text: str) -> str | None:
        """A fief id from its id, full name or short name ("bretagne", "Barony of Bretagne")."""
        return self._fief_folded.get(fold(str(text)))

    def fief_example(self) -> str:
        """A fief of this board as an order names it ("Bretagne" for "Barony of Bretagne"), for the
        examples of order forms and errors: France's forms always showed Bretagne."""
        names = sorted(f.name.split(" of ", 1)[-1] for f in self.fiefs.values())
        return "Bretagne" if "Bretagne" in names else names[0]

    def distances(self, start: str) -> dict[str, int]:
        """Road steps from ``start`` to every town (breadth-first)."""
        dist = {start: 0}
        todo = deque([start])
        while todo:
            here = todo.popleft()
            for nxt in self._neighbours[here]:
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    todo.append(nxt)
        return dist

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "file": Path(self.source).name,
            **({"offshore": {"name": self.seas[0], "connects": list(self.harbors)}} if self.seas == (OFFSHORE,)
               else {"seas": list(self.seas)} if self.seas else {}),
            "towns": {t: {"fief": i.fief, "bishopric": i.bishopric, "chief": i.chief,
                          "harbor": i.harbor, "sourced": i.sourced, "guesses": list(i.guesses),
                          "neighbours": list(self._neighbours[t])} for t, i in self.towns.items()},
            "fiefs": {f.id: {"name": f.name, "rank": f.rank, "towns": list(f.towns),
                             "title_price": f.title_price} for f in self.fiefs.values()},
            "bishoprics": {str(b.number): {"name": b.name, "chief_town": b.chief_town,
                                           "towns": list(b.towns)} for b in self.bishoprics.values()},
            "roads": [{"between": sorted(r), "mark": self._road_marks[r]}
                      for r in sorted(self.roads, key=sorted)],
        }


# -- loading -------------------------------------------------------------------------------

def example_town(names: Iterable[str]) -> str:
    """A town of the game's own board for an order form's example: France's forms always showed
    Tours; another edition's show the first of its own towns."""
    towns = set(names)
    return "Tours" if "Tours" in towns else min(towns)


def board_names(variant: str) -> list[str]:
    """The board files a game master may pick with ``--option board=NAME``."""
    folder = games_dir() / variant
    return sorted(p.stem for p in folder.glob("board*.yaml"))


@lru_cache(maxsize=8)
def load_board(variant: str, name: str = DEFAULT_BOARD) -> Board:
    path = games_dir() / variant / f"{name}.yaml"
    if not path.exists():
        raise BoardError(f"{path}: no such board file (boards here: {', '.join(board_names(variant))})")
    return load_board_file(path, variant)


def load_board_file(path: Path, variant: str) -> Board:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise BoardError(f"{path}: cannot read the board data: {exc}") from None
    hooks = load_edition(variant).hooks
    build = hooks.board_loader or build_board   # an edition whose board file has its own shape (England)
    return build(data, str(path), hooks.board_facts, variant)


def check_board(board: Board, facts: BoardFacts) -> None:
    """A board built by an edition's own loader (``Hooks.board_loader``) held to the rulebook's
    facts as France's is: the fiefs and their ranks, the bishoprics and their chief towns, the
    towns the rulebook names, the harbors, the memberships and the roads it states."""
    def fail(message: str) -> BoardError:
        return BoardError(f"{board.source}: {message}")

    if set(board.fiefs) != set(facts.fiefs):
        raise fail(f"the fiefs must be exactly {', '.join(sorted(facts.fiefs))}, not {', '.join(sorted(board.fiefs))}")
    for fid, (name, rank) in facts.fiefs.items():
        if (board.fiefs[fid].name, board.fiefs[fid].rank) != (name, rank):
            raise fail(f"fief {fid} must be the {name} (a {rank}), not the {board.fiefs[fid].name} "
                       f"(a {board.fiefs[fid].rank}); a fief's rank follows its size")
    if set(board.bishoprics) != set(facts.bishoprics):
        raise fail("the bishoprics must be numbered exactly " + ", ".join(map(str, sorted(facts.bishoprics))))
    for number, (name, chief) in facts.bishoprics.items():
        if (board.bishoprics[number].name, board.bishoprics[number].chief_town) != (name, chief):
            raise fail(f"bishopric {number} must be {name} with its chief town {chief}")
    _check_towns(board.towns, facts, {n: b.chief_town for n, b in board.bishoprics.items()}, fail)
    _check_memberships(board.fiefs, board.bishoprics, facts, fail)
    _check_roads(board, facts, fail)


def build_board(data: Any, where: str, facts: BoardFacts, variant: str) -> Board:
    def fail(message: str) -> BoardError:
        return BoardError(f"{where}: {message}")

    if not isinstance(data, dict):
        raise fail("the board file must be a mapping with fiefs, bishoprics, towns and roads")
    for key in ("fiefs", "bishoprics", "towns", "roads"):
        if not isinstance(data.get(key), list):
            raise fail(f"the key `{key}` must be a list")
    fiefs_raw = _by_key(data["fiefs"], "id", fail)
    bish_raw = _by_key(data["bishoprics"], "number", fail)
    towns_raw = _by_key(data["towns"], "name", fail)
    _check_fiefs_and_bishoprics(fiefs_raw, bish_raw, facts, fail)

    towns: dict[str, TownInfo] = {}
    chiefs = {int(n): str(b["chief"]) for n, b in bish_raw.items()}
    for name, raw in towns_raw.items():
        fief, bish = raw.get("fief"), raw.get("bishopric")
        if fief not in fiefs_raw:
            raise fail(f"town {name}: its fief {fief!r} is not one of the fiefs "
                       f"({', '.join(fiefs_raw)}); each town lies in exactly 1 fief (A)")
        if not isinstance(bish, int) or bish not in chiefs:
            raise fail(f"town {name}: its bishopric {bish!r} is not one of the numbers 1-5; "
                       "each town lies in exactly 1 bishopric (A)")
        guesses = tuple(k for k in ("exists", "fief", "bishopric") if raw.get(f"{k}_guess"))
        towns[name] = TownInfo(name, fief, bish, chiefs[bish] == name, bool(raw.get("harbor")),
                               not ("fief" in guesses or "bishopric" in guesses), guesses)
    _check_towns(towns, facts, chiefs, fail)

    per_town = load_edition(variant).price("title_per_town")   # 4.4
    members = {fid: tuple(t for t in towns if towns[t].fief == fid) for fid in fiefs_raw}
    fiefs = {fid: FiefInfo(fid, str(f["name"]), str(f["rank"]), members[fid], per_town * len(members[fid]))
             for fid, f in fiefs_raw.items()}
    bishoprics = {int(n): BishopricInfo(int(n), str(b["name"]), str(b["chief"]),
                                        tuple(t for t in towns if towns[t].bishopric == int(n)))
                  for n, b in bish_raw.items()}
    _check_memberships(fiefs, bishoprics, facts, fail)
    roads, marks = _roads(data["roads"], towns, fail)
    board = Board(variant, where, towns, fiefs, bishoprics, roads, marks, _seas(data, fail))
    _check_roads(board, facts, fail)
    return board


def _by_key(items: list, key: str, fail) -> dict:
    out: dict = {}
    for item in items:
        if not isinstance(item, dict) or key not in item:
            raise fail(f"every entry needs a `{key}`: {item!r}")
        if item[key] in out:
            raise fail(f"{item[key]!r} is listed twice")
        out[item[key]] = item
    return out


def _check_fiefs_and_bishoprics(fiefs: dict, bish: dict, facts: BoardFacts, fail) -> None:
    if set(fiefs) != set(facts.fiefs):
        raise fail(f"the fiefs must be exactly {', '.join(sorted(facts.fiefs))} (D.1: the 8 fief "
                   f"titles), not {', '.join(sorted(map(str, fiefs)))}")
    for fid, (name, rank) in facts.fiefs.items():
        if fiefs[fid].get("name") != name or fiefs[fid].get("rank") != rank:
            raise fail(f"fief {fid} must be named {name!r} with rank {rank} (D.1)")
    if set(bish) != set(facts.bishoprics):
        raise fail("the bishoprics must be numbered exactly "
                   f"{', '.join(map(str, sorted(facts.bishoprics)))} (D.2.1)")
    for number, (name, chief) in facts.bishoprics.items():
        if bish[number].get("name") != name or bish[number].get("chief") != chief:
            raise fail(f"bishopric {number} must be the bishopric of {name} with chief town {chief} (D.2.1)")


def _check_towns(towns: dict[str, TownInfo], facts: BoardFacts, chiefs: dict, fail) -> None:
    if len(towns) != facts.town_count:
        raise fail(f"the board has {len(towns)} towns; the rulebook says {facts.town_count} (A)")
    missing = sorted(facts.named_towns - set(towns))
    if missing:
        raise fail(f"towns the rulebook names are missing: {', '.join(missing)}")
    for number, chief in chiefs.items():
        if chief not in towns or towns[chief].bishopric != number:
            raise fail(f"the chief town {chief} must be a town of bishopric {number} (A)")
    harbors = {t for t, i in towns.items() if i.harbor}
    if harbors != set(facts.harbors):
        raise fail(f"the harbor towns must be exactly {', '.join(sorted(facts.harbors))} (5.3.2), "
                   f"not {', '.join(sorted(harbors)) or 'none'}")


def _check_memberships(fiefs: dict[str, FiefInfo], bishoprics: dict[int, BishopricInfo],
                       facts: BoardFacts, fail) -> None:
    for fief in fiefs.values():
        want = RANK_SIZE[fief.rank]
        if len(fief.towns) != want:
            raise fail(f"the {fief.name} has {len(fief.towns)} towns; a {fief.rank} has {want} (4.4)")
    for fid, members, exact, where in facts.fief_members:
        have = set(fiefs[fid].towns)
        if (have != members) if exact else not members <= have:
            raise fail(f"the {fiefs[fid].name} must {'be exactly' if exact else 'contain'} "
                       f"{', '.join(sorted(members))} ({where}); it has {', '.join(sorted(have))}")
    for number, members, exact, where in facts.bishopric_members:
        have = set(bishoprics[number].towns)
        if (have != members) if exact else not members <= have:
            raise fail(f"the bishopric of {bishoprics[number].name} ({number}) must "
                       f"{'be exactly' if exact else 'contain'} {', '.join(sorted(members))} "
                       f"({where}); it has {', '.join(sorted(have))}")
    for number, (size, where) in facts.bishopric_sizes.items():
        if len(bishoprics[number].towns) != size:
            raise fail(f"the bishopric of {bishoprics[number].name} ({number}) must have {size} towns "
                       f"({where}); it has {len(bishoprics[number].towns)}")


def _roads(items: list, towns: dict, fail) -> tuple[frozenset, dict]:
    roads: set[frozenset[str]] = set()
    marks: dict[frozenset[str], str] = {}
    for item in items:
        pair = item.get("between") if isinstance(item, dict) else None
        if not isinstance(pair, list) or len(pair) != 2:
            raise fail(f"a road needs `between: [town, town]`: {item!r}")
        for town in pair:
            if town not in towns:
                raise fail(f"the road {pair[0]} - {pair[1]} names {town!r}, which is not a town of the board")
        if pair[0] == pair[1]:
            raise fail(f"the road {pair[0]} - {pair[1]} joins a town to itself")
        road = frozenset(pair)
        if road in roads:
            raise fail(f"the road {pair[0]} - {pair[1]} is listed twice")
        roads.add(road)
        marks[road] = "guess" if item.get("guess") else f"source: {item.get('source', '?')}"
    return frozenset(roads), marks


def _check_roads(board: Board, facts: BoardFacts, fail) -> None:
    for a, b, where in facts.roads:
        if not board.adjacent(a, b):
            raise fail(f"the road {a} - {b} is missing ({where} moves along it)")
    start = next(iter(board.towns))
    reached = board.distances(start)
    if len(reached) != len(board.towns):
        cut = sorted(set(board.towns) - set(reached))
        raise fail(f"the roads do not connect every town: {', '.join(cut)} cannot be reached from {start}")


def _seas(data: dict, fail: Callable[[str], BoardError]) -> tuple[str, ...]:
    """5.3.1: the board's sea areas. France's board has one, `offshore: {name: offshore}`, joined
    to every harbor; a board without the key has none (no naval step reaches a sea)."""
    if "offshore" not in data:
        return ()
    entry = data["offshore"]
    if not isinstance(entry, dict) or entry.get("name") != OFFSHORE:
        raise fail(f"`offshore` must be `{{name: {OFFSHORE}}}` (5.3.1: one single zone, named `{OFFSHORE}` in "
                   "the orders), not " + repr(entry))
    return (OFFSHORE,)
