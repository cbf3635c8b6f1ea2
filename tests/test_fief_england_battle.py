"""Fief: England's battle (E 7.0-7.10): the pure round functions (projectiles then melee, 7.1-7.5)
and the battle in the engine (battle/steps.py). The rulebook's worked examples are scenario files
(tests/scenarios/fief_england/battle-*.yaml, run by tests/test_fief_scenarios.py)."""
from __future__ import annotations

import pytest
import yaml

from pbem.games.fief_england.battle.numbers import BattleNumbers, england_numbers, numbers_from_record
from pbem.games.fief_england.battle.rounds import (Force, Noble, Setup, archers, battle_round, bombards,
                                                   choose_losses, melee, trebuchets)
from pbem.paths import games_dir

N = BattleNumbers()


def fixed(*faces: int):
    left = list(faces)

    def dice(why: str) -> int:
        assert left, f"one battle die too many: {why}"
        return left.pop(0)
    dice.left = left   # type: ignore[attr-defined]
    return dice


def sides(attacker: Force, defender: Force) -> dict[str, Force]:
    return {"attacker": attacker, "defender": defender}


# -- the numbers come from the edition record ---------------------------------------------------

def test_the_record_gives_the_rulebook_numbers() -> None:
    assert england_numbers() == BattleNumbers()
    record = yaml.safe_load((games_dir() / "fief_england" / "edition.yaml").read_text(encoding="utf-8"))
    assert record["dice"]["battle_die"] == [0, 1, 1, 2, 2, 3]          # 7.1
    assert N.sp("crossbowman") == 2 and N.sp("invader_leader") == 3 and N.sp("invader_foot") == 2


def test_a_changed_record_changes_the_numbers() -> None:
    numbers = numbers_from_record({"dice": {"trebuchet_dice": 3, "archers_vs_fortified_city": 4},
                                   "units": {"knight": {"combat_points": 4}}})
    assert numbers.trebuchet_dice == 3 and numbers.archers_needed["city"] == 4 and numbers.sp("knight") == 4


@pytest.mark.parametrize("sp, dice", [(0, 0), (1, 1), (6, 1), (7, 2), (12, 2), (13, 3), (40, 3)])
def test_melee_dice_by_strength(sp: int, dice: int) -> None:
    assert N.melee_dice(sp) == dice   # 7.3


# -- projectiles (7.2) -----------------------------------------------------------------------------

def test_one_trebuchet_rolls_two_dice_and_a_second_adds_one() -> None:
    one = trebuchets(Force({"trebuchet": 1, "man_at_arms": 1}), N, fixed(2, 1), "a")
    assert one and one.faces == [2, 1] and one.hits == 3
    two = trebuchets(Force({"trebuchet": 2, "man_at_arms": 1}), N, fixed(2, 1), "a")
    assert two and two.hits == 4
    three = trebuchets(Force({"trebuchet": 3, "man_at_arms": 1}), N, fixed(0, 0), "a")
    assert three and three.dice == 2 and three.hits == 1   # R52: a third adds nothing; R53: +1f on blanks
    assert trebuchets(Force({"man_at_arms": 1}), N, fixed(), "a") is None


def test_siege_engines_need_a_man_at_arms_of_their_side() -> None:
    """R32: no man-at-arms, no fire; a royal man-at-arms does not serve them (R51)."""
    dice = fixed()
    for force in (Force({"trebuchet": 2, "knight": 3}), Force({"trebuchet": 1, "royal_man_at_arms": 2})):
        volley = trebuchets(force, N, dice, "a")
        assert volley and volley.silent and "R32" in volley.silent and volley.hits == 0
    volley = bombards(Force({"bombard": 2, "archer": 1}), N, dice, "a")
    assert volley and volley.silent and not volley.faces


def test_a_bombard_blank_explodes_it_with_a_man_at_arms() -> None:
    forces = sides(Force({"bombard": 2, "man_at_arms": 2, "knight": 1}, [Noble("Edward")]),
                   Force({"man_at_arms": 3}, [Noble("Henri")]))
    result = battle_round(forces, Setup(), N, fixed(0, 2, 0, 0))   # bombards blank, ff; melee blanks
    step = result.steps[0]
    assert step.name == "bombards" and step.volleys["attacker"].hits == 2
    assert step.losses["attacker"].exploded == 1 and step.losses["attacker"].crew == 1
    assert step.losses["defender"].units == {"man_at_arms": 2}
    assert result.forces["attacker"].units == {"bombard": 1, "man_at_arms": 1, "knight": 1}
    assert forces["attacker"].units["bombard"] == 2, "the forces given are not changed"


def test_archers_and_crossbowmen_fire_one_die_with_a_bonus_from_three() -> None:
    two = archers(Force({"archer": 2}), N, fixed(1), "a", None, None)
    assert two and two.dice == 1 and two.hits == 1
    three = archers(Force({"archer": 1, "crossbowman": 2}), N, fixed(1), "a", None, None)
    assert three and three.hits == 2
    blank = archers(Force({"archer": 3}), N, fixed(0), "a", None, None)
    assert blank and blank.hits == 1, "R53: the +1f adds to the die's result, a blank included"


@pytest.mark.parametrize("fortress, shooters, fires", [("stronghold", 1, False), ("stronghold", 2, True),
                                                       ("city", 2, False), ("city", 3, True)])
def test_archers_minimum_against_a_fortress_and_no_bonus(fortress: str, shooters: int, fires: bool) -> None:
    volley = archers(Force({"archer": shooters}), N, fixed(*([2] if fires else [])), "a", fortress, None)
    assert volley is not None
    if fires:
        assert volley.hits == 2, "no +1f bonus against a fortress (7.2)"
    else:
        assert volley.silent and "at least" in volley.silent and not volley.faces


@pytest.mark.parametrize("face, slain", [(3, True), (2, False), (0, False)])
def test_archers_aimed_at_a_noble_slay_on_fff_only(face: int, slain: bool) -> None:
    forces = sides(Force({"archer": 3, "knight": 1}, [Noble("Edward")]),
                   Force({"man_at_arms": 2}, [Noble("Henri"), Noble("Lucia", 0)]))
    result = battle_round(forces, Setup(aims={"attacker": "Lucia"}), N, fixed(face, 0, 0, 0))
    step = result.steps[0]
    assert step.name == "archers" and step.volleys["attacker"].target == "Lucia"
    assert step.losses["defender"].nobles == (["Lucia"] if slain else [])
    assert step.losses["defender"].units == {}, "an aimed volley makes no other loss"


def test_archers_aimed_at_an_invader_leader() -> None:
    forces = sides(Force({"archer": 2, "man_at_arms": 1}, [Noble("Edward")]),
                   Force({"invader_leader": 1, "invader_foot": 5}))
    result = battle_round(forces, Setup(aims={"attacker": "invader_leader"}), N, fixed(3, 0, 0, 0))
    assert result.steps[0].losses["defender"].units == {"invader_leader": 1}
    assert result.forces["defender"].units == {"invader_foot": 5}


def test_each_projectile_type_before_the_next_and_losses_simultaneous() -> None:
    """7.2: the archers a trebuchet kills do not shoot; both sides' bombards fire together."""
    forces = sides(Force({"trebuchet": 1, "man_at_arms": 2, "knight": 2}, [Noble("Edward")]),
                   Force({"archer": 2, "bombard": 1, "man_at_arms": 1, "knight": 2}, [Noble("Henri")]))
    setup = Setup(orders={"defender": ("archer", "man_at_arms")})
    dice = fixed(1, 1,         # trebuchet: 2 hits -> the defender's 2 archers
                 1,            # the defender's bombard: 1 hit (its man-at-arms still stands)
                 0, 0, 0, 0)   # melee: 8 SP against 8 SP, 2 dice each
    result = battle_round(forces, setup, N, dice)
    assert [s.name for s in result.steps] == ["trebuchets", "bombards", "melee"]
    assert result.steps[0].losses["defender"].units == {"archer": 2}
    assert result.steps[1].losses["attacker"].units == {"man_at_arms": 1}
    assert not dice.left


# -- melee (7.3-7.5) ---------------------------------------------------------------------------

@pytest.mark.parametrize("fortress, passage, sally, dice", [
    (None, False, False, 3), ("stronghold", False, False, 2), ("city", False, False, 1),
    ("city", True, False, 3), ("city", False, True, 3)])
def test_fortress_penalty_cancelled_only_by_passage(fortress, passage, sally, dice) -> None:
    """7.4: -1 Stronghold, -2 Fortified City; PASSAGE cancels it, and a sally has none (7.9)."""
    forces = sides(Force({"knight": 5}, [Noble("Edward")]), Force({"man_at_arms": 1}))
    step = melee(forces, Setup(fortress=fortress, passage=passage, sally=sally), N, fixed(*[0] * (dice + 1)))
    assert step.volleys["attacker"].dice == dice


def test_royal_guard_adds_a_hit_per_marker_and_excalibur_one() -> None:
    """13.1, R8: +1f per guard marker on each melee roll; 13.2: Excalibur +1f to the total."""
    forces = sides(Force({"royal_knight": 2, "royal_man_at_arms": 2, "man_at_arms": 5}, [Noble("King")]),
                   Force({"man_at_arms": 10}))
    step = melee(forces, Setup(excalibur={"attacker": True}), N, fixed(1, 0, 0, 0, 0))
    assert step.volleys["attacker"].dice == 3 and step.volleys["attacker"].hits == 1 + 4 + 1
    assert step.losses["defender"].units == {"man_at_arms": 6}


def test_bonuses_need_a_die_rolled() -> None:
    """R53: a side whose penalty leaves no die rolls nothing: its guard and Excalibur add nothing
    (a +1f adds to a roll, 7.3 "to the total Battle Dice result")."""
    forces = sides(Force({"royal_knight": 1}, [Noble("King")]), Force({"man_at_arms": 1}))
    step = melee(forces, Setup(fortress="stronghold", excalibur={"attacker": True}), N, fixed(0))
    assert step.volleys["attacker"].dice == 0 and step.volleys["attacker"].hits == 0


def test_cavalcade_defender_one_more_hit_per_die_and_no_projectiles() -> None:
    forces = sides(Force({"knight": 3}, [Noble("Lucia")]), Force({"man_at_arms": 1, "archer": 3}))
    result = battle_round(forces, Setup(cavalcade=True), N, fixed(0, 0, 0))
    assert [s.name for s in result.steps] == ["melee"]
    assert result.steps[0].volleys["defender"].hits == 1   # 5.3


@pytest.mark.parametrize("hits, units, nobles", [
    (1, {"man_at_arms": 1}, []), (2, {"man_at_arms": 1}, []), (3, {"knight": 1}, []),
    (4, {"man_at_arms": 1, "knight": 1}, []), (5, {"man_at_arms": 1, "knight": 1}, ["Anabel"]),
    (6, {"man_at_arms": 1, "knight": 1}, ["Anabel", "Herbert"])])
def test_ex_7_4_losses(hits: int, units: dict, nobles: list) -> None:
    """E 7.5 Ex 7-4 (l.539-544): 1 man-at-arms, 1 knight, Lady Anabel and Lord Herbert."""
    force = Force({"man_at_arms": 1, "knight": 1}, [Noble("Anabel", 0), Noble("Herbert")])
    losses = choose_losses(force, hits, N)
    assert losses.units == units and losses.nobles == nobles


def test_losses_use_as_many_hits_as_possible_then_the_plan_order() -> None:
    force = Force({"man_at_arms": 3, "knight": 1, "crossbowman": 1})
    assert choose_losses(force, 3, N).units == {"man_at_arms": 3}
    assert choose_losses(force, 3, N, ("knight",)).units == {"knight": 1}
    assert choose_losses(force, 2, N, ("crossbowman",)).units == {"crossbowman": 1}
    assert choose_losses(Force({"crossbowman": 1, "knight": 1}), 1, N).wasted == 1   # 2 hits for a crossbowman


def test_invader_leader_falls_after_his_foot_soldiers() -> None:
    """6.4: the Leader is removed last; foot 2 hits, leader 3 (7.5)."""
    force = Force({"invader_leader": 1, "invader_foot": 2})
    assert choose_losses(force, 3, N).units == {"invader_foot": 1}
    assert choose_losses(force, 6, N).units == {"invader_foot": 2}
    assert choose_losses(force, 7, N).units == {"invader_foot": 2, "invader_leader": 1}


def test_the_round_stops_when_a_side_has_no_troop_left() -> None:
    forces = sides(Force({"trebuchet": 1, "man_at_arms": 1}, [Noble("Edward")]),
                   Force({"man_at_arms": 2, "archer": 1}, [Noble("Henri")]))
    result = battle_round(forces, Setup(), N, fixed(2, 1))
    assert [s.name for s in result.steps] == ["trebuchets"]
    assert result.forces["defender"].units == {} and [n.name for n in result.forces["defender"].nobles] == ["Henri"]
