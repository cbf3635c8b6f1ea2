"""Hand-built England positions for the cards' tests (tests/test_fief_england_fortune.py): the
board of games/fief_england/board.yaml as a core ``Board`` (the six Regions as fiefs I-VI in
order, the four Ecclesiastic Districts as bishoprics 1-4), a ``FiefState`` and fixed dice."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import yaml

from pbem.games.fief.board import BishopricInfo, Board, FiefInfo, TownInfo
from pbem.games.fief.state import Family, FiefState, Lord, Pawn, Town
from pbem.paths import games_dir
from pbem.rules.rng import Rng

VARIANT = "fief_france"   # the edition whose hooks the core calls on a noble's death in these tests


@lru_cache(maxsize=1)
def england_board() -> Board:
    data = yaml.safe_load((games_dir() / "fief_england" / "board.yaml").read_text(encoding="utf-8"))
    region_ids = {r["number"]: r["name"].lower().replace(" ", "_") for r in data["regions"]}
    districts = {}
    for n, d in enumerate(data["ecclesiastic_districts"], 1):
        for region in d["regions"]:
            districts[region] = (n, d)
    towns = {c["name"]: TownInfo(c["name"], region_ids[c["region"]], districts[c["region"]][0], False, False, True)
             for c in data["cities"]}
    fiefs = {region_ids[r["number"]]: FiefInfo(region_ids[r["number"]], r["title"], "county",
                                              tuple(t for t, i in towns.items() if i.fief == region_ids[r["number"]]),
                                              2 * r["size"]) for r in data["regions"]}
    bishoprics = {n: BishopricInfo(n, d["name"], d["cathedral_city"],
                                   tuple(t for t, i in towns.items() if i.bishopric == n))
                  for n, d in {v[0]: v[1] for v in districts.values()}.items()}
    roads = frozenset(frozenset(r["between"]) for r in data["roads"])
    return Board(VARIANT, "england test board", towns, fiefs, bishoprics, roads, {})


class Dice(Rng):
    """d6 results and battle-die faces (hits) in order; a die never listed fails the test."""

    def __init__(self, d6: list[int] | None = None, battle: list[int] | None = None):
        super().__init__("england cards test")
        self.d6s, self.faces = list(d6 or []), list(battle or [])

    def d6(self, why: str = "d6") -> int:
        assert self.d6s, f"an unexpected d6: {why}"
        value = self.d6s.pop(0)
        self.rolls.append((why, value))
        return value

    def die(self, faces, why: str = "die"):
        assert self.faces, f"an unexpected battle die: {why}"
        value = self.faces.pop(0)
        assert value in faces
        self.rolls.append((why, value))
        return value


def position(players: list[str], *, round: int = 2, lords: dict[str, dict[str, Any]] | None = None,
             units: dict[str, dict[str, dict[str, int]]] | None = None,
             towns: dict[str, dict[str, Any]] | None = None, hands: dict[str, list[str]] | None = None,
             deniers: int = 10, edition_state: dict | None = None) -> FiefState:
    board = england_board()
    state = FiefState(variant=VARIANT, options={"rules_version": 2}, players=list(players), round=round,
                      phase="cards_play")
    state.families = {p: Family(p, deniers=deniers, hand=list((hands or {}).get(p, []))) for p in players}
    state.towns = {t: Town(t) for t in board.towns}
    for name, spec in (towns or {}).items():
        for key, value in spec.items():
            setattr(state.towns[name], key, value)
    state.fief_titles = {f: None for f in board.fiefs}
    state.governed = {f: False for f in board.fiefs}
    for name, spec in (lords or {}).items():
        spec = dict(spec)
        titles = spec.pop("titles", [])
        state.lords[name] = Lord(name, spec.pop("family"), spec.pop("female", False), spec.pop("at"), **spec)
        for fief in titles:
            state.lords[name].fief_titles.append(fief)
            state.fief_titles[fief] = name
            state.governed[fief] = True
    for town, by_family in (units or {}).items():
        for family, kinds in by_family.items():
            for kind, n in kinds.items():
                for _ in range(n):
                    pid = state.new_pawn_id()
                    state.pawns[pid] = Pawn(pid, kind, family, town)
    state.edition_state = dict(edition_state or {})
    return state


def units_in(state: FiefState, town: str, family: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for p in state.pawns.values():
        if p.location == town and p.family == family:
            out[p.kind] = out.get(p.kind, 0) + 1
    return out
