"""Kard és Korona's two maps: every fact the rulebook states is checked on load, and a map
that breaks one is refused with the fact named (pbem/games/kard_es_korona/board.py)."""
from __future__ import annotations

import copy

import pytest
import yaml

from pbem.games.kard_es_korona.board import BoardError, board_from_data, load_board
from pbem.paths import games_dir


def _raw(version: str) -> dict:
    return yaml.safe_load((games_dir() / "kard_es_korona" / f"{version}.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("version, counties, castles", [("basic", 7, 2), ("advanced", 10, 3)])
def test_each_province_has_the_counties_and_castles_of_its_map(version: str, counties: int, castles: int) -> None:
    board = load_board(version)   # VI: 7 counties and 2 castles (basic), 10 and 3 (advanced)
    assert len(board.provinces) == 7 and board.royal.name == "Királyi terület"
    for province in board.provinces:
        names = board.in_province(province.id)
        assert len(names) == counties
        assert sum(1 for n in names if board.counties[n].castle) == castles
        assert sum(1 for n in names if board.counties[n].obstacle) == 2    # l.152 (R3)
    assert all(c.guess for c in board.counties.values()), "a reconstruction stays marked"


def test_movement_costs_follow_the_obstacles_and_rivers() -> None:
    board = load_board("advanced")
    assert board.step_cost("Moson", "Sopron") == 1            # plain, no river
    assert board.step_cost("Győr", "Veszprém") == 2           # into the Bakony (mountain)
    assert board.step_cost("Moson", "Pozsony") == 2           # across the Duna
    assert board.step_cost("Pest", "Heves") == 2              # into a mountain
    assert board.step_cost("Zala", "Varasd") == 2             # across the Dráva into a plain county


def _broken(version: str, change) -> str:
    raw = _raw(version)
    change(raw)
    with pytest.raises(BoardError) as info:
        board_from_data(raw, "test.yaml")
    return str(info.value)


def _county(raw: dict, name: str) -> dict:
    return next(c for c in raw["counties"] if c["name"] == name)


def test_a_missing_castle_is_refused() -> None:
    assert "Pannónia has 7 counties, 1 castles" in _broken("basic", lambda r: _county(r, "Sopron").pop("castle"))


def test_a_castle_on_a_mountain_is_refused() -> None:
    assert "castle on a mountain" in _broken("basic", lambda r: _county(r, "Sopron").update(terrain="mountain"))


def test_the_royal_counties_of_the_rulebook_must_be_royal() -> None:
    assert "Bihar must be a county of the royal territory" in _broken(
        "advanced", lambda r: _county(r, "Bihar").update(province="ERD"))


def test_baranya_lies_beyond_the_drava() -> None:
    def dry(raw: dict) -> None:
        for border in raw["borders"]:
            if "Baranya" in border["between"] and "Verőce" in border["between"]:
                border.pop("river")
    assert "Baranya - Verőce must cross the Dráva" in _broken("advanced", dry)


def test_only_the_five_great_rivers_cross_borders() -> None:
    def nile(raw: dict) -> None:
        raw["borders"][0]["river"] = "Nile"
    assert "Nile, which is not one of the great rivers" in _broken("basic", nile)


def test_the_province_ring_must_hold() -> None:
    def cut(raw: dict) -> None:
        prov = {c["name"]: c["province"] for c in raw["counties"]}
        raw["borders"] = [b for b in raw["borders"]
                          if {prov[b["between"][0]], prov[b["between"][1]]} != {"ERD", "DEL"}]
    assert "ERD and DEL must border each other" in _broken("basic", cut)


def test_a_border_to_an_unknown_county_is_malformed() -> None:
    raw = copy.deepcopy(_raw("basic"))
    raw["borders"].append({"between": ["Sopron", "Atlantis"]})
    with pytest.raises(BoardError, match="no county Atlantis"):
        board_from_data(raw, "test.yaml")
