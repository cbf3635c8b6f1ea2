"""Kard és Korona: the battle step around the battle module (III. Battle, The Order of Battles,
Elimination or Vassal Oath; II. captured lords and ransom). The fight itself is the battle
package's (``battle/``, tested in test_kek_battle.py); the first tests fight through it, the
others replace ``resolve_battle`` with one that returns a chosen outcome, so what the game does
with each kind of outcome is tested on its own."""
from __future__ import annotations


from kek_support import RULES, resolve_once, step, texts_of
from pbem.games.kard_es_korona import battle_adapter, battles, economy, warlords
from pbem.games.kard_es_korona.battle import BattlePlan, BattleResult, Condition, Retreat
from pbem.games.kard_es_korona.battle_adapter import BattleInput, BattleOutcome, Side
from test_kek_movement import _game

NONE = {"cavalry": 0, "infantry": 0, "archers": 0}
CAVALRY = {**NONE, "cavalry": 1}


class Dice:
    """A stand-in for Rng with the rolls a test chooses."""

    def __init__(self, *rolls: int):
        self.rolls = list(rolls)

    def d6(self, why: str = "") -> int:
        return self.rolls.pop(0)

    def choice(self, items, why: str = ""):
        return items[0]


def _outcomes(monkeypatch, *outcomes):
    seen: list[BattleInput] = []
    queue = list(outcomes)

    def fake(battle: BattleInput, rng) -> BattleOutcome:
        seen.append(battle)
        return queue.pop(0)
    monkeypatch.setattr(battle_adapter, "resolve_battle", fake)
    return seen


def test_the_game_fights_with_the_battle_package() -> None:
    """No stand-in: the battle step calls the battle package, whose report lines are the battle's
    events and whose outcome the game applies (the winner holds Nyitra, the loser does not)."""
    state, pan, fel = _game(starting="pan")
    state["armies"]["Győr"]["units"]["cavalry"] = 4
    state, events = step(state, {pan: "steps:\n  - to: Nyitra\n    from: {Győr: {cavalry: 4}}\n"})
    lines = [e.text for e in events if e.kind == "battle_log"]
    assert lines and lines[0].startswith("The battle of Nyitra: Anna with 4 cavalry"), lines
    over = next(e for e in events if e.kind == "battle_over")
    holder = state["owner"].get("Nyitra")
    assert over.data.get("winner") == holder and holder in (pan, fel)
    assert state["armies"]["Nyitra"]["owner"] == holder


def test_the_adapter_hands_the_sides_over_and_reads_the_result_back() -> None:
    plan = {"priorities": ["archers"], "lord_leads": ["infantry"], "retreat": {"units_at_most": 1}}
    given = BattleInput("Nyitra", "mountain", False, Side("Anna", {**NONE, "infantry": 3}, False, lord=True, plan=plan,
                                                          retreat_to="Győr", retreat_obstacle=True),
                        Side("Bela", {**NONE, "archers": 2}, False, judge_royal=True), advanced=True,
                        lord_attack_bonus=1)
    fight = battle_adapter.battle_of(given)
    assert (fight.terrain, fight.judge_royal, fight.lord_attack_bonus, fight.advanced) == ("mountain", "Bela", 1, True)
    assert fight.attacker.warlord == "Anna" and fight.defender.warlord is None
    assert fight.attacker.plan == BattlePlan(priorities=("archers",), lord_leads=("infantry",),
                                             retreat=Condition(units_at_most=1))
    assert fight.defender.plan == BattlePlan()                  # none given: the package's defaults (B2, B4)
    assert (fight.attacker.retreat_to, fight.attacker.retreat_obstacle) == ("Győr", True)
    result = BattleResult("Nyitra", False, "attacker", "duel", 3, [], {}, {"attacker": dict(NONE),
                          "defender": dict(NONE)}, {"attacker": {"name": "Anna", "fate": "won"},
                                                    "defender": {"name": "Bela", "fate": "killed"}})
    outcome = battle_adapter.outcome_of(fight, result)
    assert (outcome.winner, outcome.attacker_lord_fell, outcome.defender_lord_fell, outcome.killed) == \
        ("attacker", False, True, ("defender",))
    fled = BattleResult("Nyitra", False, "defender", "retreat", 2, [], {}, {"attacker": {**NONE, "infantry": 1},
                        "defender": dict(NONE, archers=2)}, {"attacker": {"name": "Anna", "fate": "retreated"}},
                        retreat=Retreat("attacker", "Győr", compulsory=False))
    outcome = battle_adapter.outcome_of(fight, fled)
    assert (outcome.attacker_withdrew, outcome.attacker_fled_to, outcome.defender_fled_to) == (True, "Győr", None)
    assert not outcome.attacker_lord_fell and outcome.attacker_left["infantry"] == 1


def test_a_lord_left_alone_holds_the_field(monkeypatch) -> None:
    """Ruling B7: both armies fall in one clash, only the attacker's lord is there: he wins and
    holds the county, though no unit of his is left (the winner is read, not the units)."""
    state, pan, fel = _game(starting="pan")
    _outcomes(monkeypatch, BattleOutcome(dict(NONE), dict(NONE), False, False, "attacker"))
    state, _ = resolve_once(state, {pan: "steps:\n  - to: Nyitra\n    from: {Győr: {cavalry: 1}}\n    lord: yes\n"})
    events = battles.resolve(state, Dice())
    assert state["owner"]["Nyitra"] == pan and state["lords"][pan] == "Nyitra" and "Nyitra" not in state["armies"]
    assert any("holds the field" in e.text for e in events)


def test_battles_with_lords_first_then_open_battles_then_sieges() -> None:
    state, pan, fel = _game(starting="pan")
    state["lords"][fel] = "Trencsén"     # else the siege of Pozsony is a battle with a lord too
    due = [("Pozsony", pan, fel, False), ("Nyitra", pan, fel, False), ("Bars", fel, pan, False),
           ("Győr", fel, pan, True)]
    state["battles"] = [{"county": c, "attacker": a, "defender": d, "units": {**NONE, "infantry": 1}, "lord": lord,
                         "from": [], "entered": i, "free": 0} for i, (c, a, d, lord) in enumerate(due)]
    order = [b["county"] for b in battles.battle_order(state)]
    assert order == ["Győr", "Nyitra", "Bars", "Pozsony"]   # III. The Order of Battles


def test_a_won_open_battle_takes_the_county_and_inputs_carry_the_orders(monkeypatch) -> None:
    state, pan, fel = _game(starting="pan")
    seen = _outcomes(monkeypatch, BattleOutcome(dict(CAVALRY), dict(NONE), False, False, "attacker"))
    state, events = step(state, {pan: "steps:\n  - to: Nyitra\n    from: {Győr: {cavalry: 1}}\n"
                                      "battle: {priorities: [cavalry, archers, infantry]}\n"})
    fight = seen[0]
    assert (fight.county, fight.castle, fight.terrain) == ("Nyitra", False, "plain")
    assert fight.attacker.retreat_to == "Győr" and fight.defender.retreat_to == "Bars"   # VI. Retreat: the first
    assert fight.attacker.plan == {"priorities": ["cavalry", "archers", "infantry"]}
    assert fight.defender.plan == {} and fight.defender.units["cavalry"] == 2          # no plan: rulings B2, B4
    assert state["owner"]["Nyitra"] == pan and state["armies"]["Nyitra"]["units"]["cavalry"] == 1
    assert f"{pan} wins the battle of Nyitra." in texts_of(events)


def test_a_taken_castle_keeps_seven_and_the_rest_withdraw(monkeypatch) -> None:
    state, pan, fel = _game(starting="pan")
    state["armies"]["Sopron"]["units"] = {"cavalry": 4, "infantry": 5, "archers": 2}
    _outcomes(monkeypatch, BattleOutcome({**NONE, "cavalry": 3, "infantry": 5}, dict(NONE), False, False, "attacker"))
    state, _ = resolve_once(state, {pan: "steps:\n  - to: Pozsony\n    from: {Sopron: {cavalry: 3, infantry: 5}}\n"})
    events = battles.resolve(state, Dice())
    assert sum(state["armies"]["Pozsony"]["units"].values()) == 7                   # II. Castles
    assert any("withdraw from Pozsony to Sopron" in t for t in texts_of(events))    # III. Siege


def test_a_lord_beaten_by_neutrals_is_captive_until_ransomed(monkeypatch) -> None:
    state, pan, fel = _game(starting="pan")
    state["offices"]["palatine"] = pan
    _outcomes(monkeypatch, BattleOutcome(dict(NONE), {**NONE, "infantry": 1}, True, False, "defender"))
    state, events = step(state, {pan: "steps:\n  - to: Esztergom\n    from: {Győr: {cavalry: 1}}\n    lord: yes\n"})
    assert state["captive"][pan] == 1304 and state["lords"][pan] is None           # II: three years on
    assert state["offices"]["palatine"] is None
    assert RULES.phase(state).id == "1302/recruitment"
    state["treasury"][pan] = 25
    state, events = step(state, {pan: "ransom: yes\n"})
    assert pan not in state["captive"] and state["lords"][pan] == "Sopron" and state["treasury"][pan] == 5


def test_an_unransomed_lord_dies_and_his_units_turn_neutral() -> None:
    state, pan, fel = _game(starting="pan")
    state["captive"][pan] = 1302
    state["lords"][pan] = None
    state["year"] = 1302
    events = warlords.ransom_deadlines(state)
    assert pan in state["eliminated"] and state["armies"]["Sopron"]["owner"] == "neutral-PAN"
    assert "dies" in events[0].text


def test_the_vassal_oath(monkeypatch) -> None:
    state, pan, fel = _game(starting="pan")
    state["treasury"] = {pan: 12, fel: 3}
    _outcomes(monkeypatch, BattleOutcome(dict(CAVALRY), dict(NONE), False, True, "attacker"))
    state["armies"]["Nyitra"]["units"]["infantry"] = 1
    state["lords"][fel] = "Nyitra"
    state["armies"]["Pozsony"]["units"]["infantry"] = 3
    state, events = step(state, {pan: "steps:\n  - to: Nyitra\n    from: {Győr: {cavalry: 1}}\n"})
    assert state["vassal_of"] == {fel: pan} and state["treasury"][pan] == 15     # war booty (III)
    assert RULES.result(state).winners == (pan,)       # V.I: the other lord is a vassal
    assert economy.income_of(state, fel) > 0


def test_a_failed_escape_eliminates(monkeypatch) -> None:
    state, pan, fel = _game(starting="pan")
    state["lords"][fel] = "Nyitra"
    state["battle_orders"] = {}
    _outcomes(monkeypatch, BattleOutcome(dict(CAVALRY), dict(NONE), False, True, "attacker"))
    state, _ = resolve_once(state, {pan: "steps:\n  - to: Nyitra\n    from: {Győr: {cavalry: 1}}\n",
                                    fel: "battle: {if_defeated: escape}\n"})
    events = battles.resolve(state, Dice(3))
    assert fel in state["eliminated"] and state["armies"]["Pozsony"]["owner"] == pan
    assert any("rolls 3: he is caught" in e.text for e in events)


def test_a_six_escapes(monkeypatch) -> None:
    state, pan, fel = _game(starting="pan")
    state["lords"][fel] = "Nyitra"
    _outcomes(monkeypatch, BattleOutcome(dict(CAVALRY), dict(NONE), False, True, "attacker"))
    state, _ = resolve_once(state, {pan: "steps:\n  - to: Nyitra\n    from: {Győr: {cavalry: 1}}\n",
                                    fel: "battle: {if_defeated: escape}\n"})
    battles.resolve(state, Dice(6))
    assert fel not in state["eliminated"] and state["lords"][fel] in ("Pozsony", "Trencsén")


def test_rainy_autumn_rains_off_a_siege(monkeypatch) -> None:
    state, pan, fel = _game(starting="pan")
    state["event"] = "rainy_autumn"
    _outcomes(monkeypatch)
    state, _ = resolve_once(state, {pan: "steps:\n  - to: Pozsony\n    from: {Sopron: {infantry: 3}}\n"})
    events = battles.resolve(state, Dice(2))
    assert any("rained off" in e.text for e in events) and state["armies"]["Sopron"]["units"]["infantry"] == 3


def test_the_duel_winner_holds_the_field(monkeypatch) -> None:
    state, pan, fel = _game(starting="pan")
    state["lords"][fel] = "Nyitra"
    _outcomes(monkeypatch, BattleOutcome(dict(NONE), dict(NONE), False, True, "attacker",
                                         killed=("defender",)))     # Bela's lord loses the duel
    state, _ = resolve_once(state, {pan: "steps:\n  - to: Nyitra\n    from: {Győr: {cavalry: 1}}\n    lord: yes\n"})
    events = battles.resolve(state, Dice(1))
    assert state["owner"]["Nyitra"] == pan and state["lords"][pan] == "Nyitra"      # ruling K24
    assert fel in state["eliminated"] and fel not in state["vassal_of"]             # ruling B9: killed, no oath
    assert any("wins the duel" in e.text for e in events) and any(e.kind == "killed" for e in events)


def test_both_armies_fall_and_the_county_has_no_master(monkeypatch) -> None:
    state, pan, fel = _game(starting="pan")
    _outcomes(monkeypatch, BattleOutcome(dict(NONE), dict(NONE), False, False, None))
    state, _ = resolve_once(state, {pan: "steps:\n  - to: Nyitra\n    from: {Győr: {cavalry: 1}}\n"})
    battles.resolve(state, Dice())
    assert "Nyitra" not in state["owner"] and "Nyitra" not in state["armies"]       # III. Melee


def test_a_battle_against_units_that_became_the_attackers_is_a_march_in(monkeypatch) -> None:
    state, pan, fel = _game(starting="pan")
    state["lords"][fel] = "Nyitra"
    state["battle_orders"] = {fel: {"priorities": ["archers", "infantry", "cavalry"], "lord_leads": "cavalry",
                                    "if_defeated": "escape"}}
    _outcomes(monkeypatch, BattleOutcome(dict(CAVALRY), dict(NONE), False, True, "attacker"))
    state, _ = resolve_once(state, {pan: "steps:\n  - to: Nyitra\n    from: {Győr: {cavalry: 1}}\n    lord: yes\n"
                                         "  - to: Pozsony\n    from: {Sopron: {infantry: 3}}\n",
                                    fel: "battle: {if_defeated: escape}\n"})
    battles.resolve(state, Dice(2))           # the lord's battle first: Bela fails to escape, is out
    assert fel in state["eliminated"]
    pozsony = state["armies"]["Pozsony"]
    assert pozsony["owner"] == pan and sum(pozsony["units"].values()) == 7        # 6 turned + 1: the castle's 7
    assert state["armies"]["Sopron"]["units"]["infantry"] == 2                      # the other two withdraw


def test_the_judge_royal_re_rolls_the_rain(monkeypatch) -> None:
    state, pan, fel = _game(starting="pan")
    state["event"] = "rainy_autumn"
    state["offices"]["judge_royal"] = pan
    seen = _outcomes(monkeypatch, BattleOutcome({**NONE, "infantry": 3}, dict(NONE), False, False, "attacker"))
    state, _ = resolve_once(state, {pan: "steps:\n  - to: Pozsony\n    from: {Sopron: {infantry: 3}}\n"})
    events = battles.resolve(state, Dice(1, 5))                                     # IV: he re-rolls the 1
    assert not any("rained off" in e.text for e in events) and seen[0].attacker.judge_royal
    assert state["owner"]["Pozsony"] == pan


def test_a_lord_who_swears_the_oath_keeps_his_surviving_attackers(monkeypatch) -> None:
    state, pan, fel = _game(starting="pan")
    _outcomes(monkeypatch, BattleOutcome({"cavalry": 0, "infantry": 1, "archers": 0}, {**NONE, "infantry": 2},
                                         True, False, "defender", attacker_withdrew=True))
    state, _ = resolve_once(state, {fel: "steps:\n  - to: Győr\n    from: {Pozsony: {infantry: 2, cavalry: 1}}\n"
                                         "    lord: yes\n"})
    battles.resolve(state, Dice())
    assert state["vassal_of"] == {fel: pan}                                     # oath: the default
    assert state["armies"]["Pozsony"]["units"]["infantry"] == 2                  # 1 stayed + 1 withdrew


def test_the_victorious_lord_takes_an_extra_step(monkeypatch) -> None:
    """III (l.262): after his victory, units from other counties join the lord (ruling K26)."""
    state, pan, fel = _game(starting="pan")
    win = BattleOutcome(dict(CAVALRY), dict(NONE), False, False, "attacker")
    _outcomes(monkeypatch, win, win, win)
    won = "steps:\n  - to: Nyitra\n    from: {Győr: {cavalry: 1}}\n    lord: yes\n"
    state1, _ = resolve_once(state, {pan: won + "battle: {after_victory: {join: {Sopron: {cavalry: 2}}}}\n"})
    events = battles.resolve(state1, Dice())                 # Sopron, Győr, across the Duna: 3 points
    assert state1["armies"]["Nyitra"]["units"]["cavalry"] == 3 and state1["armies"]["Sopron"]["units"]["cavalry"] == 0
    assert any("join the province lord in Nyitra" in e.text for e in events)
    state2, _ = resolve_once(state, {pan: won + "battle: {after_victory: {join: {Vas: {archers: 2}}}}\n"})
    events = battles.resolve(state2, Dice())                 # Vas to Nyitra: 4 points, archers have 2
    told = [e for e in events if e.kind == "extra_step"]
    assert told and "cannot reach Nyitra" in told[0].text and told[0].audience.players == (pan,)
    assert state2["armies"]["Vas"]["units"]["archers"] == 2
    lord_to = "battle: {after_victory: {lord_to: Sopron}}\n"
    state3, _ = resolve_once(state, {pan: won + lord_to})
    battles.resolve(state3, Dice())
    assert state3["lords"][pan] == "Sopron"


def test_after_victory_orders_read_back() -> None:
    from kek_support import check
    state, pan, fel = _game(starting="pan")
    text = "steps: []\nbattle: {after_victory: {join: {Vas: {infantry: 2}, Sopron: {knights: 1}}}}\n"
    orders = check(state, pan, text)
    assert orders.ok and orders.orders["battle"]["after_victory"] == {
        "join": {"Vas": {"cavalry": 0, "infantry": 2, "archers": 0}, "Sopron": {"cavalry": 1, "infantry": 0,
                                                                                "archers": 0}}}
    again = check(state, pan, RULES.echo_orders(RULES.view(state, pan), pan, orders.orders))
    assert again.ok and again.orders == orders.orders
    wrong = check(state, pan, "battle: {after_victory: {lord_to: Atlantis}}\n")
    assert "no county 'Atlantis'" in str(wrong.errors[0])
