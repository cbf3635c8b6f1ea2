"""Kard és Korona's battle package beyond the rulebook's examples (those are the scenarios of
tests/test_kek_battle_scenarios.py): the input checks, the `battle:` orders, the rulings'
edge cases, and properties of many seeded battles."""
from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import asdict, replace

import pytest

from pbem.games.kard_es_korona.battle import (
    Battle, BattleEntry, BattlePlan, BattleSide, Condition, battle_choices, battle_from_data, battle_lines,
    battle_order, check_battle_plan, plan_for, plan_from_data, resolve_battle, retreat_choices,
)
from pbem.games.kard_es_korona.battle.rules import allocate, can_remove, choose_own_losses, choose_lord_leads
from pbem.orders.reading import Problems
from pbem.orders.yamlsafe import line_of, load
from pbem.rules.rng import Rng
from test_kek_battle_scenarios import FixedDice

COUNTIES = ["Bihar", "Zaránd", "Pest", "Nógrád"]


def side(owner: str, **units: int) -> BattleSide:
    return BattleSide(owner=owner, units=units)


def read(text: str) -> tuple[dict | None, str]:
    document = load(text)
    problems = Problems()
    data = check_battle_plan(document.get("battle"), line_of(document, "battle"), problems, COUNTIES)
    return data, " | ".join(map(str, problems))


# ---- the input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("data, fragment", [
    ({"county": "Pest", "attacker": {"owner": "royal", "neutral": True, "units": {"infantry": 1}},
      "defender": {"owner": "marie", "units": {"infantry": 1}}}, "neutral units never attack"),
    ({"county": "Pest", "attacker": {"owner": "marie", "units": {"infantry": 1}},
      "defender": {"owner": "olivier", "units": {}}}, "moving into an empty county is no battle"),
    ({"county": "Pest", "attacker": {"owner": "marie", "units": {"infantry": 0}},
      "defender": {"owner": "olivier", "units": {"infantry": 1}}}, "the attacker (marie) has no units"),
    ({"county": "Pest", "attacker": {"owner": "marie", "units": {"pikemen": 1}},
      "defender": {"owner": "olivier", "units": {"infantry": 1}}}, "'pikemen' is not a weapon type"),
    ({"county": "Pest", "attacker": {"owner": "marie", "units": {"infantry": -1}},
      "defender": {"owner": "olivier", "units": {"infantry": 1}}}, "must be a whole number >= 0"),
    ({"county": "Pest", "terrain": "forest", "attacker": {"owner": "marie", "units": {"infantry": 1}},
      "defender": {"owner": "olivier", "units": {"infantry": 1}}}, "terrain must be mountain, marsh, plain or none"),
    ({"county": "Pest", "attacker": {"owner": "marie", "units": {"infantry": 1}},
      "defender": {"owner": "marie", "units": {"infantry": 1}}}, "cannot fight a battle against itself"),
    ({"county": "Pest", "attacker": {"owner": "marie", "units": {"infantry": 1}, "plan": {"priorities": ["cow"]}},
      "defender": {"owner": "olivier", "units": {"infantry": 1}}}, "battle plan priorities must list distinct"),
    ({"county": "Pest", "attacker": {"owner": "marie", "units": {"infantry": 1}, "banner": "red"},
      "defender": {"owner": "olivier", "units": {"infantry": 1}}}, "unknown battle side field(s) banner"),
    ({"county": "Pest", "attacker": {"owner": "marie", "units": {"infantry": 1}},
      "defender": {"owner": "olivier", "units": {"infantry": 1}, "plan": {"retreat": {"after_round": 0}}}},
     "retreat condition after_round must be a whole number >= 1"),
    ({"attacker": {"owner": "marie", "units": {"infantry": 1}}}, "a battle needs `county`"),
])
def test_bad_battle_data_is_refused_with_the_reason(data: dict, fragment: str) -> None:
    with pytest.raises(ValueError) as caught:
        battle_from_data(data)
    assert fragment in str(caught.value)


def test_battle_data_round_trips_through_json() -> None:
    battle = Battle("Bihar", BattleSide("marie", {"cavalry": 2, "infantry": 1}, warlord="Csák Máté",
                                        plan=BattlePlan(priorities=("archers",), retreat=Condition(outnumbered=2)),
                                        retreat_to="Zaránd", retreat_obstacle=True),
                    BattleSide("royal", {"archers": 1, "infantry": 1, "cavalry": 1}, neutral=True),
                    castle=True, advanced=True, judge_royal="marie")
    again = battle_from_data(json.loads(json.dumps(asdict(battle))))
    assert again == battle
    result = resolve_battle(battle, Rng("round trip"))
    assert json.loads(json.dumps(result.to_data())) == result.to_data()


# ---- the rules' pieces -------------------------------------------------------------------------

def test_allocation_keeps_the_six_for_the_knight() -> None:
    """Ruling B3: with a 6 and a 5 against a knight and an infantry unit, knights first: the 6 takes
    the knight and the 5 the infantry, whatever order the dice came in."""
    battle = Battle("Pest", side("a", infantry=2), side("b", cavalry=1, infantry=1))
    dice = [can_remove(v, "infantry", battle) for v in (6, 5)]
    assert allocate(dice, {"cavalry": 1, "infantry": 1}, ["cavalry", "infantry", "archers"]) == \
        Counter(cavalry=1, infantry=1)
    assert allocate(dice[::-1], {"cavalry": 1, "infantry": 1}, ["cavalry", "infantry", "archers"]) == \
        Counter(cavalry=1, infantry=1)
    # infantry first: the 5 takes the infantry unit, and the 6 still takes the knight
    assert allocate(dice, {"cavalry": 1, "infantry": 1}, ["infantry", "cavalry", "archers"]) == \
        Counter(cavalry=1, infantry=1)
    # a hit is never wasted: two 6s and one enemy knight, infantry first
    assert allocate([can_remove(6, "infantry", battle)] * 2, {"cavalry": 1}, ["infantry"]) == Counter(cavalry=1)


def test_hit_numbers_of_the_table() -> None:
    field = Battle("Pest", side("a", infantry=1), side("b", infantry=1))
    castle = replace(field, castle=True)
    assert can_remove(4, "cavalry", field) == {"infantry", "archers"}
    assert can_remove(5, "cavalry", field) == {"infantry", "archers"}
    assert can_remove(6, "archers", field) == {"cavalry", "infantry", "archers"}
    assert can_remove(4, "infantry", field) == frozenset()
    assert can_remove(6, "archers", field, open_volley=True) == {"infantry", "archers"}
    assert can_remove(4, "cavalry", castle) == frozenset()          # knights dismount in a siege
    assert can_remove(5, "infantry", castle) == {"cavalry", "infantry", "archers"}
    assert can_remove(4, "archers", castle, castle_volley=True) == {"cavalry", "infantry", "archers"}
    assert can_remove(3, "archers", castle, castle_volley=True) == frozenset()


def test_lord_leads_by_default_the_largest_weapon_type() -> None:
    """Ruling B4."""
    assert choose_lord_leads((), {"infantry": 3, "cavalry": 2}) == "infantry"
    assert choose_lord_leads((), {"infantry": 2, "cavalry": 2, "archers": 2}) == "cavalry"
    assert choose_lord_leads(("archers", "cavalry"), {"infantry": 3, "cavalry": 1}) == "cavalry"
    assert choose_lord_leads(("archers",), {}) is None


def test_own_losses_follow_the_players_order_then_the_default() -> None:
    assert choose_own_losses({"cavalry": 2, "infantry": 1, "archers": 1}, 3, ["cavalry"]) == \
        Counter(cavalry=2, archers=1)
    assert choose_own_losses({"cavalry": 2, "infantry": 1, "archers": 1}, 2, []) == Counter(archers=1, infantry=1)


# ---- rulings on the battle's course ------------------------------------------------------------

def advanced_battle(attacker_plan: BattlePlan, defender_plan: BattlePlan, *, neutral: bool = False) -> Battle:
    return Battle("Pest", BattleSide("marie", {"infantry": 3}, plan=attacker_plan, retreat_to="Zaránd"),
                  BattleSide("royal" if neutral else "olivier", {"infantry": 3}, neutral=neutral,
                             plan=defender_plan, retreat_to="Bihar"), advanced=True)


def test_both_want_to_retreat_the_attacker_goes_first() -> None:
    """Ruling B12: the attacker's decision comes first; the defender holds the county."""
    always = BattlePlan(retreat=Condition(always=True), pursue=False)
    battle = advanced_battle(always, always)
    result = resolve_battle(battle, FixedDice([1, 1, 1, 1, 1, 1]))
    assert (result.end, result.winner, result.retreat.side) == ("retreat", "defender", "attacker")


def test_neutral_units_never_retreat() -> None:
    """II 'Royal / Neutral Units': they defend their post until death, whatever plan is passed."""
    battle = advanced_battle(BattlePlan(), BattlePlan(retreat=Condition(always=True)), neutral=True)
    result = resolve_battle(battle, FixedDice([1, 1, 1, 1, 1, 1, 6, 6, 6, 1, 1, 1]))
    assert result.end == "destroyed" and result.winner == "attacker" and result.retreat is None


def test_retreat_is_advanced_only() -> None:
    always = BattlePlan(retreat=Condition(always=True))
    basic = replace(advanced_battle(always, BattlePlan()), advanced=False)
    result = resolve_battle(basic, FixedDice([1, 1, 1, 1, 1, 1, 6, 6, 6, 1, 1, 1]))
    assert result.end == "destroyed" and result.rounds == 2


def test_no_retreat_without_a_place_to_go() -> None:
    battle = advanced_battle(BattlePlan(retreat=Condition(always=True)), BattlePlan())
    battle = replace(battle, attacker=replace(battle.attacker, retreat_to=None))
    result = resolve_battle(battle, FixedDice([1, 1, 1, 1, 1, 1, 6, 6, 6, 1, 1, 1]))
    assert result.end == "destroyed"


def test_an_army_destroyed_in_the_pursuit_loses_its_warlord() -> None:
    """Ruling B12: a retreat that ends in a massacre: the warlord is defeated with it."""
    battle = advanced_battle(BattlePlan(retreat=Condition(always=True)), BattlePlan())
    battle = replace(battle, attacker=replace(battle.attacker, units={"infantry": 1}, warlord="Csák Máté"))
    # round 1: marie's infantry 1 (+1), olivier 1, 1, 1; pursuit: olivier 5, 1, 1
    result = resolve_battle(battle, FixedDice([1, 1, 1, 1, 5, 1, 1]))
    assert result.end == "retreat" and result.survivors["attacker"] == {}
    assert result.warlords["attacker"] == {"name": "Csák Máté", "fate": "defeated"}
    assert "Warlord Csák Máté is defeated." in battle_lines(battle, result)[-1]


def test_judge_royal_rerolls_only_his_own_dice_and_not_when_he_said_never() -> None:
    battle = Battle("Pest", side("marie", infantry=3), side("olivier", infantry=3), judge_royal="olivier")
    # olivier is the Judge Royal: marie's no-hit roll is not re-rolled, olivier's is
    result = resolve_battle(battle, FixedDice([1, 1, 1, 1, 2, 3, 6, 6, 6, 5, 5, 5]))
    assert result.clashes[0].rolls[0].rerolled is None
    assert result.clashes[0].rolls[1].rerolled == [1, 2, 3]
    never = replace(battle, defender=replace(battle.defender, plan=plan_from_data({"reroll": None})))
    result = resolve_battle(never, FixedDice([1, 1, 1, 1, 2, 3, 5, 5, 5, 1, 1, 1]))
    assert result.clashes[0].rolls[1].rerolled is None


# ---- the `battle:` orders ----------------------------------------------------------------------

def test_a_full_battle_plan_reads_to_canonical_data() -> None:
    data, errors = read("""battle:
  priorities: [Archers, KNIGHT]
  lord_leads: infantry
  retreat: {after_round: 2, outnumbered: 3}
  retreat_to: [zarand, Bihar]
  pursue: no
  losses: [archer]
  reroll: never
  order: [pest, Nograd]
  counties:
    bihar: {retreat: never, priorities: [infantry]}
""")
    assert errors == ""
    assert data == {"priorities": ["archers", "cavalry"], "lord_leads": ["infantry"],
                    "retreat": {"after_round": 2, "outnumbered": 3}, "retreat_to": ["Zaránd", "Bihar"],
                    "pursue": False, "losses": ["archers"], "reroll": None, "order": ["Pest", "Nógrád"],
                    "counties": {"Bihar": {"retreat": "never", "priorities": ["infantry"]}}}
    assert plan_for(data, "Pest") == BattlePlan(priorities=("archers", "cavalry"), losses=("archers",),
                                                lord_leads=("infantry",),
                                                retreat=Condition(after_round=2, outnumbered=3),
                                                pursue=False, reroll=None)
    assert plan_for(data, "Bihar").retreat == Condition() and plan_for(data, "Bihar").priorities == ("infantry",)
    assert retreat_choices(data, "Pest") == ["Zaránd", "Bihar"]
    assert battle_choices(data) == ["Pest", "Nógrád"]


def test_no_plan_is_the_default_plan() -> None:
    assert plan_for(None, "Pest") == BattlePlan()
    assert plan_for({}, "Pest") == BattlePlan(reroll=2, pursue=True)
    assert retreat_choices(None, "Pest") == [] and battle_choices(None) == []


@pytest.mark.parametrize("text, fragment", [
    ("battle: [archer]", "line 1: `battle` must be a mapping of battle plan fields"),
    ("battle:\n  priorities:", "line 2: `priorities` is a list of weapon types"),
    ("battle:\n  priorities: [archer, archers]", "`priorities`: archers is listed twice"),
    ("battle:\n  retreat: sometimes", "`retreat` is never, always, or a mapping of conditions"),
    ("battle:\n  retreat: {when: 2}", "unknown key `when` in `retreat`"),
    ("battle:\n  retreat: {units_at_most: -1}", "units_at_most must be a whole number"),
    ("battle:\n  reroll: 0", "reroll must be at least 1"),
    ("battle:\n  retreat_to: Atlantis", "`retreat_to`: there is no county called 'Atlantis'"),
    ("battle:\n  counties: Bihar", "`counties` maps a county to the plan fields that change there"),
    ("battle:\n  counties:\n    Bihar: {order: [Pest]}", "line 3: unknown key `order` in `counties: Bihar`"),
    ("battle:\n  counties:\n    Bihar: {priorities: [horse]}", "line 3: `priorities`: 'horse' is not a weapon type"),
])
def test_bad_battle_orders_are_refused_with_line_and_fix(text: str, fragment: str) -> None:
    data, errors = read(text)
    assert data is None and fragment in errors, errors


# ---- battle order ------------------------------------------------------------------------------

def test_battle_order_refuses_unknown_attackers_and_repeated_ids() -> None:
    with pytest.raises(ValueError, match="attacker.s. eve not in the turn order"):
        battle_order([BattleEntry("Pest", "eve", False, False, 1)], ["marie"])
    with pytest.raises(ValueError, match="battle ids must be distinct"):
        battle_order([BattleEntry("Pest", "marie", False, False, 1)] * 2, ["marie"])


def test_battle_order_without_choices_takes_entry_order() -> None:
    entries = [BattleEntry("B", "marie", False, False, 9), BattleEntry("A", "marie", False, False, 2),
               BattleEntry("C", "olivier", False, False, 5)]
    assert battle_order(entries, ["marie", "olivier"]) == ["A", "C", "B"]


# ---- properties of many battles ----------------------------------------------------------------

def random_battle(r: random.Random) -> Battle:
    def army(owner: str, neutral: bool = False) -> BattleSide:
        units = {k: r.randint(0, 4) for k in ("cavalry", "infantry", "archers")}
        if not sum(units.values()):
            units["infantry"] = 1
        warlord = None if neutral or r.random() < 0.5 else f"lord of {owner}"
        plan = BattlePlan(priorities=tuple(r.sample(("cavalry", "infantry", "archers"), r.randint(0, 3))),
                          retreat=Condition(after_round=r.randint(1, 4)) if r.random() < 0.3 else Condition(),
                          pursue=r.random() < 0.7)
        return BattleSide(owner, units, neutral=neutral, warlord=warlord, plan=plan,
                          retreat_to=r.choice([None, "Zaránd"]), retreat_obstacle=r.random() < 0.3)
    return Battle("Pest", army("marie"), army("olivier", neutral=r.random() < 0.3), castle=r.random() < 0.4,
                  terrain=r.choice([None, None, "mountain", "marsh"]), advanced=r.random() < 0.5,
                  judge_royal=r.choice([None, "marie", "olivier"]))


@pytest.mark.parametrize("seed", range(400))
def test_every_battle_ends_and_accounts_for_every_unit(seed: int) -> None:
    battle = random_battle(random.Random(seed))
    before = asdict(battle)
    result = resolve_battle(battle, Rng(f"battle {seed}"))
    assert asdict(battle) == before, "the battle changed its input"
    for s in ("attacker", "defender"):
        start = Counter({k: n for k, n in battle.side(s).units.items() if n})
        assert Counter(result.losses[s]) + Counter(result.survivors[s]) == start
    total = {s: sum(result.survivors[s].values()) for s in ("attacker", "defender")}
    if result.end == "destroyed":
        assert total[result.winner] and not total["defender" if result.winner == "attacker" else "attacker"]
    if result.end in ("both_destroyed", "warlord_alone", "duel"):
        assert total == {"attacker": 0, "defender": 0}
    if result.end == "withdrawn":
        assert battle.castle and not result.survivors["attacker"].get("infantry") and not battle.attacker.warlord
    if result.end == "retreat":
        assert battle.advanced and result.retreat is not None and not battle.side(result.retreat.side).neutral
    assert result.castle_taken == (battle.castle and result.winner == "attacker")
    for clash in result.clashes:
        for roll in clash.rolls:
            assert roll.hits <= len(roll.faces) and all(1 <= f <= 6 for f in roll.faces)
    assert battle_lines(battle, result)


def test_the_report_tells_no_plan() -> None:
    """A battle plan is a player's private order: the report shows the dice and what happened,
    never a condition that was not used, a target order or where a side would have fled."""
    plan = BattlePlan(priorities=("archers",), retreat=Condition(units_at_most=1), lord_leads=("infantry",))
    battle = Battle("Pest", BattleSide("marie", {"infantry": 3}, plan=plan, retreat_to="Zaránd"),
                    BattleSide("olivier", {"infantry": 1}, plan=plan, retreat_to="Bihar"), advanced=True)
    text = "\n".join(battle_lines(battle, resolve_battle(battle, FixedDice([5, 1, 1, 1]))))
    for secret in ("Zaránd", "Bihar", "retreat", "units_at_most", "target", "priorit"):
        assert secret not in text, text


def test_the_games_own_keys_of_the_battle_part_pass_through() -> None:
    """`also`: the game reads `if_defeated:` (the vassal oath or escape) from the same mapping."""
    document = load("battle:\n  priorities: [archers]\n  if_defeated: oath\n  shield: up\n")
    problems = Problems()
    data = check_battle_plan(document["battle"], line_of(document, "battle"), problems, COUNTIES,
                             also=("if_defeated",))
    assert data is None and len(problems) == 1 and "line 4: unknown key `shield`" in str(problems[0])
    document = load("battle:\n  priorities: [archers]\n  if_defeated: oath\n")
    problems = Problems()
    assert check_battle_plan(document["battle"], 1, problems, COUNTIES, also=("if_defeated",)) == \
        {"priorities": ["archers"]}
    assert not problems


def test_the_event_bonus_needs_the_attacking_warlord() -> None:
    battle = Battle("Pest", side("marie", infantry=1), side("olivier", infantry=1), terrain="plain",
                    lord_attack_bonus=1)
    assert battle.terrain is None
    result = resolve_battle(battle, FixedDice([4, 1, 5, 1]))
    assert result.clashes[0].rolls[0].modifier == 0 and result.rounds == 2


def test_the_battles_weapon_types_are_the_games() -> None:
    from pbem.games.kard_es_korona import units
    from pbem.games.kard_es_korona.battle import KINDS
    assert KINDS == tuple(units.UNIT_KINDS)


@pytest.mark.parametrize("word, kind", [("foot", "infantry"), ("Bowmen", "archers"), (" Knights ", "cavalry")])
def test_every_order_reads_the_same_kind_words(word: str, kind: str) -> None:
    # Battle orders and the game's own orders (place, recruit, move) read one table of words.
    from pbem.games.kard_es_korona.battle.kinds import kind_of as battle_kind_of
    from pbem.games.kard_es_korona.reading import unit_counts
    problems = Problems()
    assert unit_counts({word: 2}, 1, "recruit", problems) == {"cavalry": 0, "infantry": 0, "archers": 0, kind: 2}
    assert not problems and battle_kind_of(word) == kind


@pytest.mark.parametrize("data, fragment", [
    ({"county": "Pest", "castle": "no", "attacker": {"owner": "marie", "units": {"infantry": 1}},
      "defender": {"owner": "olivier", "units": {"infantry": 1}}}, "`castle` must be true or false, not 'no'"),
    ({"county": "Pest", "attacker": {"owner": "marie", "units": [1]},
      "defender": {"owner": "olivier", "units": {"infantry": 1}}}, "units map weapon types to counts"),
    ({"county": "Pest", "attacker": {"owner": "marie", "units": {"infantry": 1}},
      "defender": {"owner": "royal", "neutral": True, "warlord": "X", "units": {"infantry": 1}}},
     "neutral units (royal) have no warlord"),
])
def test_more_bad_battle_data(data: dict, fragment: str) -> None:
    with pytest.raises(ValueError) as caught:
        battle_from_data(data)
    assert fragment in str(caught.value)


def test_a_battle_ended_by_the_volley_counts_its_round() -> None:
    battle = Battle("Pest", side("marie", archers=1), side("olivier", infantry=1))
    result = resolve_battle(battle, FixedDice([6]))
    assert (result.rounds, result.end, len(result.clashes)) == (1, "destroyed", 1)
