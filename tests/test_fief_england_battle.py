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
    assert three and three.dice == 2 and three.hits == 1   # R71: a third adds nothing; R72: +1f on blanks
    assert trebuchets(Force({"man_at_arms": 1}), N, fixed(), "a") is None


def test_siege_engines_need_a_man_at_arms_of_their_side() -> None:
    """R32: no man-at-arms, no fire; a royal man-at-arms does not serve them (R70)."""
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
    assert blank and blank.hits == 1, "R72: the +1f adds to the die's result, a blank included"


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
    """R72: a side whose penalty leaves no die rolls nothing: its guard and Excalibur add nothing
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


# -- the battle in the engine (battle/steps.py), on hand-built positions --------------------------
# Positions on England's board: the game's edition brings England's battle (its `battle` hook).

from pbem.games.fief.battle.engine import resolve_battle                      # noqa: E402
from pbem.games.fief.battle.plan import BattleSetup                           # noqa: E402
from pbem.games.fief.board import load_board                                  # noqa: E402
from pbem.games.fief.positions import build_position                          # noqa: E402
from pbem.games.fief.state import Pawn                                        # noqa: E402
from pbem.games.fief.battle.plan_orders import plan_for                        # noqa: E402
from pbem.games.fief_england.battle.plan import PLAN_WORDS                    # noqa: E402
from pbem.games.fief_england.battle.rules import BATTLE, declarable           # noqa: E402
from pbem.rules.rng import Rng                                                # noqa: E402

BOARD = load_board("fief_england")


class Dice(Rng):
    """Battle dice from a list (the hits each die shows); a die too many or one left fails."""

    def __init__(self, *faces: int):
        super().__init__("england battle test")
        self.faces = list(faces)

    def die(self, faces, why: str = "die"):
        assert tuple(faces) == N.faces, f"not the battle die: {faces}"
        assert self.faces, f"one battle die too many: {why}"
        return self.faces.pop(0)


def position(lords: dict, units: dict, towns: dict | None = None, policies: dict | None = None):
    """A battle position in London: `units` maps family -> kind -> count (England's kinds too,
    hired and given ones among them, put on the board as pawns)."""
    players = sorted({lo["family"] for lo in lords.values()} | set(units))
    state = build_position({"players": players, "phase": "battle",
                            "lords": {n: {"at": "London", **lo} for n, lo in lords.items()},
                            "towns": towns or {"London": {"controller": players[0]}},
                            "policies": policies or {}}, "fief_england")
    for family, kinds in units.items():
        for kind, n in kinds.items():
            for _ in range(n):
                pid = state.new_pawn_id()
                state.pawns[pid] = Pawn(pid, kind, family, "London")
    return state


def fight(state, attacker: str, defender: str, dice: Dice, plans: dict | None = None, **setup):
    battle = BattleSetup(town="London", attacker=attacker, defender=defender, attacker_side=(attacker,),
                         defender_side=(defender,), **setup)
    for family, plan in (plans or {}).items():   # standing plans, England's words among them
        state.families[family].policies["battle_plan"] = plan
    outcome = resolve_battle(state, BOARD, battle, plans_of(state, [attacker, defender]), dice)
    assert not dice.faces, f"battle dice left: {dice.faces}"
    return outcome


def plans_of(state, families: list[str]) -> dict:
    """The families' standing plans for London, England's own words left to England (as the
    core's plans_for does for a game whose edition has the `battle` hook)."""
    return {f: plan_for(state.families[f].policies, "London", PLAN_WORDS) for f in families}


def kinds(state, family: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for p in state.pawns.values():
        if p.family == family and p.location == "London":
            out[p.kind] = out.get(p.kind, 0) + 1
    return out


def told(outcome, kind: str) -> list[str]:
    return [e.text for e in outcome.events if e.kind == kind]


def test_ex_7_2_in_the_engine_the_noble_taken_and_the_bombard_taken_over() -> None:
    """Ex 7-2 (l.490-494): after the bombards George has only a bombard and a noble: the noble
    is taken captive, the bombard taken over with Dave's marker (R6)."""
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"trebuchet": 2, "bombard": 1, "archer": 2, "man_at_arms": 1},
                      "george": {"bombard": 2, "archer": 3, "man_at_arms": 2}},
                     {"London": {"controller": "george", "fortress": "city"}})
    plans = {"dave": {"losses": ["archer", "man_at_arms"]}, "george": {"losses": ["archer", "man_at_arms"]}}
    outcome = fight(state, "dave", "george", Dice(2, 1, 1, 1, 0), plans)
    assert outcome.winner == "attacker" and outcome.end == "victory" and outcome.rounds == 1
    assert outcome.captives == [("Henri", "dave")]
    assert state.lords["Henri"].captive_of == "dave"
    assert kinds(state, "dave") == {"trebuchet": 2, "bombard": 2, "archer": 1, "man_at_arms": 1}
    assert kinds(state, "george") == {}
    assert state.towns["London"].controller == "dave"
    assert any("4 hits" in t for t in told(outcome, "battle_projectiles"))
    assert any("1 bombard exploded" in t for t in told(outcome, "battle_losses"))
    assert any("dave takes over 1 bombard" in t for t in told(outcome, "engines_taken"))


def test_spoils_destroyed_by_plan_or_when_the_stockpile_is_empty() -> None:
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"knight": 2, "bombard": 3}, "george": {"bombard": 1}})
    outcome = fight(state, "dave", "george", Dice())   # nobles and engines alone: captured at once
    assert outcome.end == "alone" and outcome.rounds == 0
    assert kinds(state, "dave") == {"knight": 2, "bombard": 3}, "Dave's 3 bombards fill his stockpile of 3"
    assert "destroyed" in told(outcome, "engines_taken")[0]
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"knight": 2}, "george": {"trebuchet": 1}},
                     policies={"dave": {"battle_plan": {"spoils": "destroy"}}})
    fight(state, "dave", "george", Dice())
    assert kinds(state, "dave") == {"knight": 2} and kinds(state, "george") == {}


def test_solo_nobles_are_captured_at_once() -> None:
    """7.0: "Solo Nobles are captured (7.6)"; FAQ (l.882): no battle die for a lone Lord."""
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}, "Alice": {"family": "george",
                                                                                               "female": True}},
                     {"dave": {"man_at_arms": 1}})
    outcome = fight(state, "dave", "george", Dice())
    assert outcome.end == "alone" and sorted(outcome.captives) == [("Alice", "dave"), ("Henri", "dave")]


def test_troops_without_a_noble_slay_the_nobles_they_defeat() -> None:
    """7.6: "Troops ... without a Noble ... do not take Captives; instead they immediately slay them"."""
    state = position({"Edward": {"family": "dave"}},
                     {"dave": {"man_at_arms": 1}, "george": {"knight": 3}},
                     {"London": {"controller": "george"}})
    outcome = fight(state, "dave", "george", Dice(0, 1, 0))   # melee: dave 2 SP 1 die; george 9 SP 2 dice: 1 hit
    assert outcome.winner == "defender" and outcome.captives == []
    assert "Edward" not in state.lords
    assert any("troops without a noble take no captives (7.6)" in t for t in told(outcome, "lord_slain"))


def test_a_safe_captive_is_not_hit_and_is_freed_when_its_captor_falls() -> None:
    """7.6: a captive cannot be slain by its captors' battle; released when all of its captor's
    troops are defeated."""
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"},
                      "Lucia": {"family": "dave", "captive_of": "george"}},
                     {"dave": {"knight": 2}, "george": {"man_at_arms": 1}},
                     {"London": {"controller": "george"}})
    outcome = fight(state, "dave", "george", Dice(1, 0, 0))   # dave 7 SP = 2 dice: f, blank; george 1 die
    assert state.lords["Lucia"].captive_of is None, "released: George's troops are gone"
    assert outcome.captives == [("Henri", "dave")]
    assert any("Lucia is released" in t and "(7.6)" in t for t in told(outcome, "captive_released"))


def test_the_royal_stronghold_conquered_by_another_family_is_a_normal_stronghold() -> None:
    """4.9: "becomes a normal Stronghold if conquered by another Family": dave takes London from
    george's Royal Family; the Stronghold stays, dave's, and London is part of its Region again."""
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"knight": 4}, "george": {"man_at_arms": 1}},
                     {"London": {"controller": "george", "fortress": "stronghold"}})
    state.edition_state["royal_stronghold"] = {"city": "London", "family": "george"}
    outcome = fight(state, "dave", "george", Dice(1, 0, 0))
    assert outcome.winner == "attacker" and state.towns["London"].controller == "dave"
    assert state.towns["London"].fortress == "stronghold" and "royal_stronghold" not in state.edition_state
    assert any("a normal Stronghold now, dave's" in t and "(4.9)" in t
               for t in told(outcome, "royal_stronghold_conquered"))


def test_the_royal_family_keeps_its_royal_stronghold_when_it_holds_the_field() -> None:
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"knight": 2}, "george": {"man_at_arms": 6}},
                     {"London": {"controller": "george", "fortress": "stronghold"}})
    state.edition_state["royal_stronghold"] = {"city": "London", "family": "george"}
    plans = {"dave": {"stop": {"when": {"after_round": 1}}}, "george": {"stop": {"accept": "never"}}}
    outcome = fight(state, "dave", "george", Dice(0, 0, 0), plans)
    assert outcome.end == "attacker_stops"
    assert state.edition_state["royal_stronghold"] == {"city": "London", "family": "george"}


def test_surrender_takes_the_troops_off_and_the_nobles_captive() -> None:
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"knight": 4}, "george": {"man_at_arms": 2, "bombard": 1}},
                     {"London": {"controller": "george"}})
    plans = {"george": {"surrender": {"outnumbered": 3}}}
    # george's bombard (f: no knight falls to 1 hit); dave 13 SP: 3 dice; george 3 SP: 1
    outcome = fight(state, "dave", "george", Dice(1, 0, 0, 0, 0), plans)
    assert outcome.end == "surrender" and outcome.captives == [("Henri", "dave")]
    assert kinds(state, "george") == {} and kinds(state, "dave") == {"knight": 4, "bombard": 1}


def test_the_attacker_of_a_fortress_stops_alone() -> None:
    """7.8 Note: the attacker of a Stronghold or Fortified City alone decides to end the battle."""
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"knight": 3}, "george": {"man_at_arms": 6}},
                     {"London": {"controller": "george", "fortress": "stronghold"}})
    plans = {"dave": {"stop": {"when": {"after_round": 1}}}, "george": {"stop": {"accept": "never"}}}
    outcome = fight(state, "dave", "george", Dice(0, 0, 0), plans)   # dave 10 SP 2 dice - 1; george 7 SP 2 dice
    assert outcome.end == "attacker_stops" and outcome.stopped_by == "dave" and outcome.winner is None
    assert state.towns["London"].controller == "george"


def test_truce_needs_both_and_deadlock_after_three_quiet_rolls() -> None:
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"knight": 1}, "george": {"knight": 1}}, {"London": {"controller": "george"}})
    plans = {"dave": {"stop": {"when": {"after_round": 1}}}, "george": {"stop": {"accept": "always"}}}
    assert fight(state, "dave", "george", Dice(1, 1), plans).end == "truce"
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"knight": 1}, "george": {"knight": 1}}, {"London": {"controller": "george"}})
    outcome = fight(state, "dave", "george", Dice(*[2, 2] * 3))
    assert outcome.end == "deadlock" and outcome.rounds == 3 and outcome.winner is None


def test_the_strongest_player_of_a_coalition_decides_the_losses() -> None:
    """7.0: "the Player with the most Strength Points decides which Troops take Hits"."""
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}, "Ann": {"family": "kirsten"}},
                     {"dave": {"knight": 4}, "george": {"man_at_arms": 1, "knight": 1},
                      "kirsten": {"man_at_arms": 2, "knight": 2}},
                     {"London": {"controller": "george"}},
                     policies={"kirsten": {"battle_plan": {"losses": ["knight", "man_at_arms"],
                                                           "stop": {"accept": "always"}}},
                               "dave": {"battle_plan": {"stop": {"when": "always"}}},
                               "george": {"battle_plan": {"stop": {"accept": "always"}}}})
    battle = BattleSetup(town="London", attacker="dave", defender="george", attacker_side=("dave",),
                         defender_side=("george", "kirsten"))
    plans = plans_of(state, ["dave", "george", "kirsten"])
    dice = Dice(3, 0, 0, 0, 0, 0)   # dave 13 SP: 3 dice (fff); the defenders 13 SP: 3 dice
    resolve_battle(state, BOARD, battle, plans, dice)
    assert kinds(state, "george") == {"man_at_arms": 1}, "Kirsten (8 SP) chose knights: George's went first"
    assert kinds(state, "kirsten") == {"man_at_arms": 2, "knight": 2}


def test_aim_at_a_noble_by_plan() -> None:
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}, "Alice": {"family": "george",
                                                                                               "female": True}},
                     {"dave": {"archer": 3, "knight": 2}, "george": {"man_at_arms": 3}},
                     {"London": {"controller": "george"}},
                     policies={"dave": {"battle_plan": {"aim_at": ["Alice"], "stop": {"when": "always"}}},
                               "george": {"battle_plan": {"stop": {"accept": "always"}}}})
    plans = plans_of(state, ["dave", "george"])
    battle = BattleSetup(town="London", attacker="dave", defender="george", attacker_side=("dave",),
                         defender_side=("george",))
    outcome = resolve_battle(state, BOARD, battle, plans, Dice(3, 0, 0, 0))
    assert "Alice" not in state.lords and any("aimed at Alice" in t for t in told(outcome, "battle_projectiles"))


def test_a_sally_is_melee_only_without_the_fortress() -> None:
    """7.9 Sally: the besieged attack out: no projectiles, no fortress, no engines."""
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"knight": 1, "trebuchet": 1, "man_at_arms": 1},
                      "george": {"man_at_arms": 2, "archer": 3, "bombard": 1}},
                     {"London": {"controller": "george", "fortress": "city", "besieged_by": {"dave": 1}}},
                     policies={"george": {"battle_plan": {"stop": {"when": "always"}}},
                               "dave": {"battle_plan": {"stop": {"accept": "always"}}}})
    plans = plans_of(state, ["dave", "george"])
    battle = BattleSetup(town="London", attacker="george", defender="dave", attacker_side=("george",),
                         defender_side=("dave",), leaving_fortress=True)
    outcome = resolve_battle(state, BOARD, battle, plans, Dice(1, 1))
    assert told(outcome, "battle_projectiles") == [] and len(told(outcome, "battle_melee")) == 1


def test_no_die_and_no_projectile_means_besiege() -> None:
    """7.9 (R75): 5 SP against a Stronghold: no die, no projectile: not fought; PASSAGE or
    archers enough to fire make it a battle."""
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"man_at_arms": 4}, "george": {"man_at_arms": 1}},
                     {"London": {"controller": "george", "fortress": "stronghold"}})
    setup = BattleSetup(town="London", attacker="dave", defender="george", attacker_side=("dave",),
                        defender_side=("george",))
    assert "besiege" in (declarable(state, BOARD, setup) or "")
    from dataclasses import replace
    assert declarable(state, BOARD, replace(setup, underground=True)) is None
    for pid in [p for p, pawn in state.pawns.items() if pawn.family == "dave"][:2]:
        state.pawns[pid].kind = "archer"
    assert declarable(state, BOARD, setup) is None


# -- sieges with trebuchets (7.9) -------------------------------------------------------------------

from pbem.games.fief.control import is_besieged                                        # noqa: E402
from pbem.games.fief_england.battle import siege                                      # noqa: E402
from pbem.games.fief_england.battle.pillage import resolve_pillage                    # noqa: E402


def besieged_position(**extra_units):
    units = {"dave": {"knight": 2, "man_at_arms": 1}, "george": {"man_at_arms": 2}}
    for fam, more in extra_units.items():
        units[fam] = {**units.get(fam, {}), **more}
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}}, units,
                     {"London": {"controller": "george", "fortress": "city"}})
    state.round = 2
    return state


def test_a_stopped_attack_becomes_a_siege_with_a_trebuchet_under_construction() -> None:
    state = besieged_position()
    events = siege.resolve_sieges(state, BOARD, {}, {"dave": ["London"]})
    assert [e.kind for e in events] == ["siege_declared"] and "'Under Construction'" in events[0].text
    assert is_besieged(state, "London"), "the core's besieged rules apply: no income, no purchase, no leaving"
    assert state.edition_state["sieges"] == {"London": {"dave": {"building": 1, "declared": 2}}}
    assert siege.stockpile(state, "dave") == 1 and kinds(state, "dave") == {"knight": 2, "man_at_arms": 1}


@pytest.mark.parametrize("towns, units, why", [
    ({"London": {"controller": "george"}}, {"george": {"man_at_arms": 1}}, "no Stronghold or Fortified City"),
    ({"London": {"controller": "george", "fortress": "stronghold"}}, {"george": {"bombard": 1}}, "no troop"),
    ({"London": {"controller": "dave", "fortress": "stronghold"}}, {"george": {"man_at_arms": 1}},
     "not held by another family")])
def test_a_siege_needs_a_defended_fortress_of_another_family(towns, units, why) -> None:
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"knight": 1}, **units}, towns)
    event = siege.declare(state, BOARD, "dave", "London")
    assert event.kind == "siege_failed" and why in event.text and not state.towns["London"].besiegers


def test_with_no_trebuchet_in_the_stockpile_one_on_the_map_is_destroyed() -> None:
    state = besieged_position()
    for town in ("Tours", "Poitiers"):
        pid = state.new_pawn_id()
        state.pawns[pid] = Pawn(pid, "trebuchet", "dave", town)
    event = siege.declare(state, BOARD, "dave", "London")
    assert event.kind == "siege_declared" and "Tours is destroyed" in event.text
    assert sorted(p.location for p in state.pawns.values() if p.kind == "trebuchet") == ["Poitiers"]


def test_trebuchets_paid_in_the_next_purchase_one_or_two() -> None:
    state = besieged_position()
    state.families["dave"].deniers = 12
    siege.declare(state, BOARD, "dave", "London")
    assert "next round" in siege.construction_problem(state, "dave", "London", 1)
    state.round = 3
    assert "1 or 2" in siege.construction_problem(state, "dave", "London", 3)
    state.families["dave"].deniers = 9
    assert "10 shillings are needed" in siege.construction_problem(state, "dave", "London", 2)
    state.families["dave"].deniers = 12
    events = siege.construct(state, "dave", "London", 2)
    assert events[0].kind == "trebuchets_built" and state.families["dave"].deniers == 2
    assert kinds(state, "dave")["trebuchet"] == 2 and siege.stockpile(state, "dave") == 0
    assert siege.lift_unpaid(state) == [], "paid: the siege goes on"
    assert "no trebuchet under construction" in siege.construction_problem(state, "dave", "London", 1)


def test_an_unpaid_trebuchet_lifts_the_siege() -> None:
    state = besieged_position()
    siege.declare(state, BOARD, "dave", "London")
    assert siege.lift_unpaid(state) == [], "declared this round: paid in the next"
    state.round = 3
    events = siege.lift_unpaid(state)
    assert [e.kind for e in events] == ["siege_marker_removed", "siege_lifted"]
    assert not is_besieged(state, "London") and state.edition_state["sieges"] == {}
    assert siege.stockpile(state, "dave") == 2


def test_a_siege_lifts_without_a_besieging_noble_or_at_the_besiegers_will() -> None:
    state = besieged_position()
    siege.declare(state, BOARD, "dave", "London")
    state.lords["Edward"].location = "Tours"
    events = siege.resolve_sieges(state, BOARD, {}, {})
    assert "no noble of dave" in events[0].text and not is_besieged(state, "London")
    state = besieged_position(dave={"trebuchet": 1})
    siege.declare(state, BOARD, "dave", "London")
    events = siege.resolve_sieges(state, BOARD, {"dave": {"lifts": ["London"]}}, {})
    assert "1 trebuchet removed" in events[0].text and "trebuchet" not in kinds(state, "dave")


# -- pillage (7.10) -------------------------------------------------------------------------------

def test_pillage_mills_and_the_opponents_engines() -> None:
    state = position({"Edward": {"family": "dave"}},
                     {"dave": {"knight": 1, "bombard": 3}, "george": {"bombard": 1, "trebuchet": 1}},
                     {"London": {"controller": "dave", "mills": 1}})
    before = state.families["dave"].deniers
    events = resolve_pillage(state, BOARD, {"dave": {"plunder": [{"town": "London", "mills": None}]}})
    assert events[0].kind == "plundered" and state.families["dave"].deniers == before + 2
    assert state.towns["London"].mills == 0
    assert kinds(state, "dave") == {"knight": 1, "bombard": 3, "trebuchet": 1}, "the bombard destroyed: stockpile empty"
    assert "destroys 1 bombard" in events[0].text and "exchanges 1 trebuchet" in events[0].text
    events = resolve_pillage(state, BOARD, {"george": {"plunder": [{"town": "London", "mills": None}]}})
    assert events[0].kind == "plunder_failed" and "do not control" in events[0].text


# -- by mail: England's battle-plan words, and the hook -------------------------------------------

from pbem.games.fief.battle.plan_orders import check_plan                 # noqa: E402
from pbem.orders.reading import Problems                                  # noqa: E402

VIEW = {"turn_order": ["dave", "george"], "towns": {"London": {}},
        "lords": {"Edward": {"family": "dave"}, "Henri": {"family": "george"}}}


def test_plan_words_aim_at_and_spoils() -> None:
    problems = Problems()
    plan = check_plan(VIEW, "dave", {"aim_at": ["henri", "Invader Leader"], "spoils": "Destroy",
                                     "towns": {"London": {"aim_at": "Henri"}}}, 1, problems, extra=PLAN_WORDS)
    assert not problems and plan == {"aim_at": ["Henri", "invader_leader"], "spoils": "destroy",
                                     "towns": {"London": {"aim_at": ["Henri"]}}}
    for value, fragment in ((["Edward"], "neither another family's noble"), (["Henr"], "Henri")):
        problems = Problems()
        assert check_plan(VIEW, "dave", {"aim_at": value}, 1, problems, extra=PLAN_WORDS) is None
        assert fragment in " ".join(str(p) for p in problems)
    problems = Problems()
    assert check_plan(VIEW, "dave", {"spoils": "keep"}, 1, problems, extra=PLAN_WORDS) is None
    problems = Problems()
    assert check_plan(VIEW, "dave", {"aim_at": ["Henri"]}, 1, problems) is None, "France has no aim_at"


def test_the_hook_runs_englands_battle_and_phase() -> None:
    """England's edition names its battle (the `battle` hook); France's has none and fights
    France's. The core's Battle Phase then runs England's battles in turn order (R1), its
    sieges and its pillage."""
    from pbem.games.fief.battle import phase
    from pbem.games.fief.edition import load_edition
    own = load_edition("fief_england").hooks.battle   # BATTLE, with the Invaders' `attack_invaders:` (hooks.py)
    assert own is not None and own.steps is BATTLE.steps and set(own.verbs) == {"attack_invaders"}
    assert load_edition("fief_france").hooks.battle is None
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"knight": 2, "man_at_arms": 1, "trebuchet": 1}, "george": {"man_at_arms": 1}},
                     {"London": {"controller": "george", "mills": 1}})
    orders = {"dave": {"battles": [{"target": "george", "town": "London"}],
                       "plunder": [{"town": "London", "mills": None}]}}
    events = phase.resolve_battle_phase(state, BOARD, orders, Dice(1, 0))   # the trebuchet: 1 hit
    kinds_told = [e.kind for e in events]
    assert "battle_projectiles" in kinds_told and "plundered" in kinds_told
    assert state.lords["Henri"].captive_of == "dave" and state.towns["London"].mills == 0


# -- PASSAGE in battle (10.2, 7.4, 7.8) -----------------------------------------------------------

def test_passage_from_the_tunnels_cancels_the_fortress_penalty() -> None:
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"man_at_arms": 4}, "george": {"man_at_arms": 1}},
                     {"London": {"controller": "george", "fortress": "stronghold"}},
                     policies={"dave": {"battle_plan": {"tunnels": "yes"}}})
    state.families["dave"].hand = ["passage"]
    outcome = resolve_battle(state, BOARD, BattleSetup(town="London", attacker="dave", defender="george",
                                                       attacker_side=("dave",), defender_side=("george",)),
                             plans_of(state, ["dave", "george"]), Dice(1, 0))
    assert told(outcome, "passage_played") and state.families["dave"].hand == []
    assert "passage" in state.events_discard and outcome.winner == "attacker"


def test_withdraw_by_passage_each_noble_takes_one_troop() -> None:
    """7.8 Withdraw: the defender's nobles leave to an adjacent city, one troop each; the rest stay."""
    near = BOARD.neighbours("London")[0]
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}, "Alice": {"family": "george",
                                                                                               "female": True}},
                     {"dave": {"knight": 4}, "george": {"man_at_arms": 2, "knight": 1}},
                     {"London": {"controller": "george"}},
                     policies={"george": {"battle_plan": {"withdraw": {"when": {"after_round": 1}, "to": near}}}})
    state.families["george"].hand = ["passage"]
    outcome = resolve_battle(state, BOARD, BattleSetup(town="London", attacker="dave", defender="george",
                                                       attacker_side=("dave",), defender_side=("george",)),
                             plans_of(state, ["dave", "george"]), dice := Dice(0, 0, 0, 0, 0, 3, 0, 0))
    assert not dice.faces
    # round 1: nothing falls; George withdraws Henri (the knight) and Alice (a man-at-arms);
    # round 2: the man-at-arms left falls to 3 hits (the rest wasted): victory, no captive.
    assert state.lords["Henri"].location == near and state.lords["Alice"].location == near
    assert sorted(p.kind for p in state.pawns.values() if p.family == "george") == ["knight", "man_at_arms"]
    assert all(p.location == near for p in state.pawns.values() if p.family == "george")
    assert outcome.winner == "attacker" and outcome.captives == []
    assert any("withdraw" in t and near in t for t in told(outcome, "battle_withdraw"))


def test_tactical_destruction_of_ones_own_engines() -> None:
    """7.2: at the end of a round, with troops remaining, a family may destroy its own engines."""
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"knight": 4}, "george": {"man_at_arms": 1, "knight": 1, "bombard": 1}},
                     {"London": {"controller": "george"}},
                     policies={"george": {"battle_plan": {"destroy_engines": {"outnumbered": 2},
                                                          "surrender": {"after_round": 1}}}})
    outcome = resolve_battle(state, BOARD, BattleSetup(town="London", attacker="dave", defender="george",
                                                       attacker_side=("dave",), defender_side=("george",)),
                             plans_of(state, ["dave", "george"]), dice := Dice(1, 0, 0, 0, 0))
    assert not dice.faces
    assert told(outcome, "engines_destroyed") and not told(outcome, "engines_taken")
    assert kinds(state, "dave") == {"knight": 4}, "nothing left to take"


def test_an_ally_switches_sides_mid_battle() -> None:
    """7.0: "Allies may betray each other anytime during the Battle, even switching sides"."""
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}, "Ann": {"family": "kirsten"}},
                     {"dave": {"knight": 1}, "george": {"knight": 3}, "kirsten": {"man_at_arms": 1}},
                     {"London": {"controller": "george"}},
                     policies={"kirsten": {"battle_plan": {"switch": {"when": "always"}}},
                               "george": {"battle_plan": {"switch": {"accept": ["kirsten"]}}}})
    battle = BattleSetup(town="London", attacker="dave", defender="george", attacker_side=("dave", "kirsten"),
                         defender_side=("george",))
    outcome = resolve_battle(state, BOARD, battle, plans_of(state, ["dave", "george", "kirsten"]),
                             dice := Dice(0, 0, 0, 0, 3, 0))
    # round 1: dave + kirsten 5 SP, 1 die; george 10 SP, 2 dice: nothing falls; Kirsten switches.
    # round 2: dave 4 SP, 1 die (blank); george + kirsten 11 SP, 2 dice: fff + blank: Dave's knight.
    assert not dice.faces and outcome.switched == ["kirsten"]
    assert outcome.winner == "defender" and outcome.captives == [("Edward", "george")]


def test_the_holy_grail_voids_the_attackers_ff() -> None:
    """12.1: with the Grail's bearer on the defending side, attacker dice showing 'ff' have no
    effect - projectiles and melee alike; the defenders' own dice are not touched."""
    forces = sides(Force({"trebuchet": 2, "man_at_arms": 4}, [Noble("Edward")]),
                   Force({"man_at_arms": 6}, [Noble("Henri")]))
    result = battle_round(forces, Setup(grail=True), N, fixed(2, 3, 2, 2))
    trebs, fight = result.steps
    assert trebs.volleys["attacker"].hits == 0 + 3 + 1
    assert fight.volleys["attacker"].hits == 0 and fight.volleys["defender"].hits == 2


def test_an_unpaid_siege_lifts_at_the_latest_in_the_next_battle_phase() -> None:
    state = besieged_position()
    siege.declare(state, BOARD, "dave", "London")
    state.round = 3
    events = siege.resolve_sieges(state, BOARD, {}, {})
    assert "did not pay for the trebuchet" in events[0].text and not is_besieged(state, "London")


def test_a_battle_tells_no_secret() -> None:
    """Battles are public (7.0: both sides reveal their troops), shillings and hands are not
    (FAQ l.857): playing PASSAGE from a hand shows that card only, and no event tells a treasury."""
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"man_at_arms": 4, "trebuchet": 1}, "george": {"man_at_arms": 1}},
                     {"London": {"controller": "george", "fortress": "stronghold"}},
                     policies={"dave": {"battle_plan": {"tunnels": "yes"}}})
    state.families["dave"].hand = ["assassination", "passage", "justice"]
    state.families["dave"].deniers, state.families["george"].deniers = 17, 23
    state.families["george"].hand = ["ambush"]
    outcome = resolve_battle(state, BOARD, BattleSetup(town="London", attacker="dave", defender="george",
                                                       attacker_side=("dave",), defender_side=("george",)),
                             plans_of(state, ["dave", "george"]), dice := Dice(1, 0))   # the trebuchet
    assert not dice.faces and outcome.captives == [("Henri", "dave")] and told(outcome, "passage_played")
    text = " ".join(e.text + repr(e.data) for e in outcome.events)
    for secret in ("assassination", "justice", "ambush", "17", "23"):
        assert secret not in text, secret
    assert state.families["dave"].hand == ["assassination", "justice"]


def test_losses_name_englands_kinds() -> None:
    """7.5: a side may put its crossbowmen or royal guard first among equal choices; France's
    plan fields England has no use for are refused by name."""
    problems = Problems()
    plan = check_plan(VIEW, "dave", {"losses": ["Crossbowmen", "royal knights", "men-at-arms"]}, 1, problems,
                      extra=PLAN_WORDS)
    assert not problems and plan == {"losses": ["crossbowman", "royal_knight", "man_at_arms"]}
    problems = Problems()
    assert check_plan(VIEW, "dave", {"losses": ["trebuchet"], "scorched_earth": "yes"}, 1, problems,
                      extra=PLAN_WORDS) is None
    text = " ".join(str(p) for p in problems)
    assert "not a kind a side chooses to lose (7.5)" in text and "`scorched_earth` is France's" in text
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"knight": 3}, "george": {"crossbowman": 1, "man_at_arms": 2}},
                     {"London": {"controller": "george"}})
    # George's crossbowman shoots (blank); melee: dave 10 SP, f + f; george 5 SP, a blank
    fight(state, "dave", "george", Dice(0, 1, 1, 0),
          {"george": {"losses": ["crossbowman"]}, "dave": {"stop": {"when": "always"}}})
    assert kinds(state, "george") == {"man_at_arms": 2}


def test_r1_a_players_battles_in_region_number_order() -> None:
    """R1: battles in turn order; within one player's turn in Region Number order (I-VI), then
    the board's order of cities - whatever order the mail wrote them in."""
    from pbem.games.fief.battle import phase
    state = build_position({"players": ["dave", "george"], "phase": "battle",
                            "lords": {"Edward": {"family": "dave", "at": "London"},
                                      "Hugh": {"family": "dave", "at": "Plymouth"},
                                      "Henri": {"family": "george", "at": "London"}},
                            "units": {"London": {"dave": {"knight": 1}}, "Plymouth": {"dave": {"knight": 1}}},
                            "towns": {"London": {"controller": "george"}, "Plymouth": {"controller": "george"}}},
                           "fief_england")
    state.lords["Henri"].location = "Plymouth"   # Henri stands alone in Plymouth; London holds no one of george
    orders = {"dave": {"battles": [{"target": "george", "town": "London"}, {"target": "george", "town": "Plymouth"}]}}
    events = phase.resolve_battle_phase(state, BOARD, orders, Dice())
    first = [e for e in events if e.kind in ("battle_start", "battle_not_fought")]
    assert [e.data.get("town") for e in first] == ["Plymouth", "London"], [e.text for e in first]


def test_an_aimed_leader_already_fallen_to_the_hits_is_not_counted_twice() -> None:
    forces = sides(Force({"archer": 3, "trebuchet": 1, "man_at_arms": 1}, [Noble("Edward")]),
                   Force({"invader_leader": 1, "invader_foot": 1}))
    # the trebuchet: fff + ff = 5 hits: the foot soldier (2) and the leader (3); the aimed volley
    # finds no leader left and is fired at troops - none are left: the round stops first.
    result = battle_round(forces, Setup(aims={"attacker": "invader_leader"}), N, fixed(3, 2))
    assert result.steps[0].losses["defender"].units == {"invader_foot": 1, "invader_leader": 1}
    step = melee(sides(Force({"knight": 3}, [Noble("Edward")]), Force({"invader_leader": 1})), Setup(), N,
                 fixed(3, 0, 0))
    assert step.losses["defender"].units == {"invader_leader": 1}
    forces = sides(Force({"archer": 3, "knight": 1}, [Noble("Edward")]), Force({"invader_leader": 1}))
    from pbem.games.fief_england.battle.rounds import simultaneous
    losses = simultaneous(forces, {"defender": 3}, Setup(), N, slain={"defender": "invader_leader"})
    assert losses["defender"].units == {"invader_leader": 1}


def test_no_battle_under_storms() -> None:
    """2.5 STORMS: "No battles are allowed in the Region"."""
    from pbem.games.fief.state import BoardEffect
    state = position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                     {"dave": {"knight": 2}, "george": {"man_at_arms": 1}}, {"London": {"controller": "george"}})
    setup = BattleSetup(town="London", attacker="dave", defender="george", attacker_side=("dave",),
                        defender_side=("george",))
    assert declarable(state, BOARD, setup) is None
    state.board_effects.append(BoardEffect("storms", "VI"))   # the South East, as the disasters step lays it
    assert "STORMS lie on the Duchy of the South East" in (declarable(state, BOARD, setup) or "")
