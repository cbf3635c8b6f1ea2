"""Kard és Korona: every worked example and number of the rulebook in this part of the game,
one test each, quoting the rulebook (../shared/rules/kard-es-korona.txt, line numbers)."""
from __future__ import annotations

import pytest

from kek_support import RULES, new_game, resolve_once, step
from pbem.games.kard_es_korona.board import load_board
from pbem.games.kard_es_korona.setup import PROVINCE_SETS
from pbem.games.kard_es_korona.state import half_rule, steps_allowed
from pbem.games.kard_es_korona.victory import CASTLES_TO_WIN


@pytest.mark.parametrize("castles, steps", [(0, 2), (2, 4), (4, 6), (5, 6)])
def test_steps_are_castles_plus_two_at_most_six(castles: int, steps: int) -> None:
    """l.205: "if he has two castles, he may take 4 steps ... at most 6 steps ... even if he has
    more than four castles"."""
    state, _ = step(new_game(["Anna", "Bela"]))
    board = load_board("basic")
    for county in list(state["owner"]):
        if state["owner"][county] == "Anna":
            state["owner"][county] = "royal"
    for castle in board.castles()[:castles]:
        state["owner"][castle] = "Anna"
    assert steps_allowed(state, "Anna") == steps


@pytest.mark.parametrize("units, fine", [
    ({"infantry": 4, "archers": 3}, True),                    # l.148: of seven, four of a kind
    ({"infantry": 5, "archers": 4}, True),                    # l.148: of nine, five
    ({"infantry": 6, "archers": 3}, False),
    ({"infantry": 4}, True),                                  # l.332: four may be all infantry
    ({"archers": 4}, True),                                   # ... or all archers
    ({"infantry": 4, "archers": 1}, False),                   # ... but a fifth must be of another kind: 3 of 5
    ({"infantry": 3, "archers": 2}, True),
])
def test_the_half_rule_of_the_advanced_castles(units: dict, fine: bool) -> None:
    assert (half_rule(units) is None) is fine


def test_a_river_into_a_mountain_or_marsh_costs_three() -> None:
    """l.214: "If one must cross a river to enter a mountain or a marsh, that costs 3 movement
    points in total, i.e. only cavalry may move in this way"."""
    board = load_board("basic")
    assert board.counties["Zala"].terrain == "marsh" and board.borders["Zágráb"]["Zala"] == "Dráva"
    assert board.step_cost("Zágráb", "Zala") == 3


def test_unit_costs_and_the_palatines_prices() -> None:
    """l.188: archers and infantry 5 garas, cavalry 9; l.302: the Palatine pays 7 and 4."""
    from pbem.games.kard_es_korona.units import COST, PALATINE_COST
    assert COST == {"cavalry": 9, "infantry": 5, "archers": 5}
    assert PALATINE_COST == {"cavalry": 7, "infantry": 4, "archers": 4}


def test_the_player_count_pairings_of_setup() -> None:
    """l.50-56: 5 players without Szlavónia; the two 4-player and two 3-player choices."""
    assert PROVINCE_SETS[5] == [("ERD", "DEL", "PAN", "FEL", "TIS")]
    assert {frozenset(s) for s in PROVINCE_SETS[4]} == {frozenset({"ERD", "DEL", "PAN", "FEL"}),
                                                       frozenset({"FEL", "TIS", "DEL", "SZL"})}
    assert {frozenset(s) for s in PROVINCE_SETS[3]} == {frozenset({"FEL", "ERD", "SZL"}),
                                                       frozenset({"TIS", "DEL", "PAN"})}
    assert len(PROVINCE_SETS[2]) == 15


def test_castles_needed_to_win() -> None:
    """l.322: basic 9, 7, 7, 6, 6; advanced 13, 11, 11, 9, 9 castles for 2 to 6 players."""
    assert [CASTLES_TO_WIN["basic"][n] for n in range(2, 7)] == [9, 7, 7, 6, 6]
    assert [CASTLES_TO_WIN["advanced"][n] for n in range(2, 7)] == [13, 11, 11, 9, 9]


def test_the_game_lasts_eight_or_twelve_years() -> None:
    """VI (l.328): the basic version lasts 8 years, the advanced 12."""
    assert new_game(["Anna", "Bela"])["last_year"] == 1308
    assert new_game(["Anna", "Bela"], version="advanced")["last_year"] == 1312


def test_an_advanced_siege_keeps_the_half_rule_when_it_begins() -> None:
    """l.334: the besiegers have no maximum "but they too must observe the half rule"."""
    state = new_game(["Anna", "Bela"], provinces="PAN+FEL", version="advanced")
    pan = next(p for p, h in state["home"].items() if h == "PAN")
    state, _ = step(state)
    state["armies"]["Győr"] = {"owner": pan, "units": {"cavalry": 4, "infantry": 1, "archers": 0}}
    state["owner"]["Győr"] = pan
    state["lords"][pan] = "Győr"
    assert RULES.phase(state).id == "1301/movement"
    state, events = resolve_once(state, {pan: "steps:\n  - to: Esztergom\n"
                                              "    from: {Győr: {cavalry: 4, infantry: 1}}\n    lord: yes\n"})
    failed = [e.text for e in events if e.kind == "step_failed" and e.audience.players == (pan,)]
    assert failed and "at most 3 of 5 units at a castle may be cavalry" in failed[0]
