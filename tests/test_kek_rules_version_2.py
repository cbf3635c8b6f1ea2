"""Kard és Korona, rules version 2: the fixes against the rulebook (docs/kard-es-korona.md,
"Rules versions"), each a scenario citing its line, and where it matters a version-1 game that
keeps the old behaviour (a stored game replays exactly)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from click.testing import CliRunner

from judge_support import Judge
from kek_support import RULES, check, new_game, resolve_once, step, texts_of
from pbem.cli import main
from pbem.judge import archive, engine
from pbem.orders.yamlsafe import load
from pbem.games.kard_es_korona import battles, placement
from pbem.games.kard_es_korona.battle import Battle, resolve_battle
from pbem.games.kard_es_korona.battle.model import plan_from_data
from pbem.games.kard_es_korona.battle_adapter import BattleOutcome
from pbem.games.kard_es_korona.movement_orders import battle_echo
from pbem.games.kard_es_korona.state import is_neutral
from pbem.rules.rng import Rng
from test_kek_battle import FixedDice, read, side
from test_kek_battle_step import NONE, Dice, _outcomes
from test_kek_long_games import orders_for
from test_kek_movement import FEL, PAN, _advanced

PLAYERS4 = ["Anna", "Bela", "Csilla", "Dani"]
RAID = "steps:\n  - to: Esztergom\n    from: {Pozsony: {cavalry: 2}}\n"


def _game(rules_version: int = 2) -> tuple[dict, str, str]:
    """test_kek_movement's two neighbours (Pannónia, Felvidék; the royal castle Esztergom between
    them), Felvidék with 2 cavalry in Pozsony, under the given rules version."""
    state = new_game(["Anna", "Bela"], provinces="PAN+FEL", rules_version=rules_version)
    pan = next(p for p, h in state["home"].items() if h == "PAN")
    fel = next(p for p, h in state["home"].items() if h == "FEL")
    state, _ = step(state, {pan: PAN, fel: FEL.replace("Pozsony: {cavalry: 1", "Pozsony: {cavalry: 2")
                                    .replace("Nyitra: {cavalry: 2}", "Nyitra: {cavalry: 1}")})
    state["starting"] = fel
    return state, pan, fel


# -- III. Siege (l.248, l.254): an attack from a county that does not border the target ---------

def test_a_raid_from_a_distance_is_fought_and_withdraws_one_step_from_the_castle() -> None:
    """l.248: knights strike at a castle "from a distance"; the judge finds the way Pozsony -
    Nyitra - Bars - Esztergom (3 movement points). The resolution raised KeyError 'Pozsony'.
    Knights alone cannot besiege (l.246, ruling B10): they withdraw at once, one step from the
    castle (l.254), to Bars, not to Pozsony."""
    state, pan, fel = _game()
    state, events = step(state, {fel: RAID})
    assert "Bela's 2 cavalry withdraw from Esztergom to Bars." in texts_of(events)
    assert state["armies"]["Bars"] == {"owner": fel, "units": {**NONE, "cavalry": 2}}
    assert state["armies"]["Pozsony"]["units"]["cavalry"] == 0


def test_a_lords_raid_from_a_distance_is_fought_to_its_end() -> None:
    """l.248: the warlord leading knights strikes at a castle from a distance (he counts as
    infantry): the battle is fought by the battle package, and whatever is left of the raid
    stands in Esztergom or one step from it, never back in Pozsony."""
    state, pan, fel = _game()
    state, events = step(state, {fel: RAID + "    lord: yes\n"})
    assert any(e.kind == "battle_log" for e in events)
    assert state["armies"]["Pozsony"]["units"]["cavalry"] == 0
    raid = {c for c in ("Esztergom", "Bars", "Győr", "Fejér", "Pest") if state["armies"].get(c, {}).get("owner") == fel}
    assert raid or state["lords"][fel] is None


def test_the_surplus_of_a_taken_castle_withdraws_one_step_from_it(monkeypatch) -> None:
    """l.254: at most 7 stay in the taken castle; the others "retreat to the neighbouring
    territory from which the army or part of it came directly into the battle, i.e. one step
    from the castle": 8 infantry from Nyitra came in through Bars."""
    state, pan, fel = _game()
    state["armies"]["Nyitra"]["units"] = {**NONE, "infantry": 8}
    _outcomes(monkeypatch, BattleOutcome({**NONE, "infantry": 8}, dict(NONE), False, False, "attacker"))
    state, _ = resolve_once(state, {fel: "steps:\n  - to: Esztergom\n    from: {Nyitra: {infantry: 8}}\n"})
    assert state["battles"][0]["via"] == ["Bars"]
    events = battles.resolve(state, Dice())
    assert state["armies"]["Esztergom"] == {"owner": fel, "units": {**NONE, "infantry": 7}}
    assert "Bela's 1 infantry withdraw from Esztergom to Bars." in texts_of(events)


def test_a_retreat_from_a_distant_attack_goes_one_step_back(monkeypatch) -> None:
    """VI. Retreat / Flight: the attackers retreat to "a neighbouring county from which the
    attackers arrived": for infantry from Nyitra into Esztergom (advanced map), Bars."""
    state, pan, fel = _advanced({"Nyitra": {"infantry": 4, "archers": 2}}, {"Pozsony": {"infantry": 2}}, "Pozsony")
    state["lords"][pan] = "Nyitra"
    seen = _outcomes(monkeypatch, BattleOutcome(dict(NONE), {**NONE, "infantry": 1}, False, False, "defender"))
    state, events = step(state, {pan: "steps:\n  - to: Esztergom\n    from: {Nyitra: {infantry: 3, archers: 2}}\n"
                                      "battle: {retreat: {units_at_most: 1}}\n"})
    assert seen[0].attacker.retreat_to == "Bars" and not seen[0].attacker.retreat_obstacle


def test_an_attack_past_tied_down_defenders_comes_in_through_their_county() -> None:
    """VI. Tie-Down (l.338): units pass through a county whose defenders are tied down and
    attack beyond it; they came into that battle from the tied-down county, and the battles
    resolve."""
    armies = {"Komárom": {"infantry": 2, "cavalry": 2, "archers": 1}}
    state, pan, fel = _advanced(armies, {"Nyitra": {"infantry": 1}, "Trencsén": {"infantry": 1},
                                         "Pozsony": {"infantry": 2}}, "Pozsony")
    plan = {pan: "steps:\n  - to: Nyitra\n    from: {Komárom: {infantry: 2}}\n"
                 "  - to: Trencsén\n    from: {Komárom: {cavalry: 2}}\n"}
    due, _ = resolve_once(state, plan)
    assert [(b["county"], b["via"]) for b in due["battles"]] == [("Nyitra", ["Komárom"]), ("Trencsén", ["Nyitra"])]
    state, events = step(state, plan)
    assert RULES.phase(state).id != "1301/battles" and not state["battles"]


def test_version_1_keeps_withdrawing_to_the_county_the_raid_set_out_from() -> None:
    """A game of rules version 1 replays as it was played: the withdrawal goes back to the
    county the units set out from (and the battle no longer raises)."""
    state, pan, fel = _game(rules_version=1)
    state, events = step(state, {fel: RAID})
    assert "Bela's 2 cavalry withdraw from Esztergom to Pozsony." in texts_of(events)


# -- III. Melee (l.226): a county with no master may be passed -----------------------------------

def _through_a_county_without_master(rules_version: int) -> tuple[dict, list, str]:
    """Fejér has no master (both sides fell there, l.226); Anna's knight in Győr goes through it
    into Somogy (Győr - Fejér - Somogy, the only way within 4 movement points)."""
    state, pan, fel = _game(rules_version)
    state["starting"] = pan
    del state["owner"]["Fejér"]
    state, events = resolve_once(state, {pan: "steps:\n  - to: Somogy\n    from: {Győr: {cavalry: 1}}\n"})
    return state, events, pan


def test_a_county_without_master_may_be_passed() -> None:
    """Ruling K3: units pass through empty counties, whoever holds them; only an overlord's or a
    vassal's territory is barred (V, l.276). A county nobody holds is nobody's territory: it
    barred everyone but a vassal (the missing holder was taken for the overlord)."""
    state, events, pan = _through_a_county_without_master(2)
    assert state["armies"]["Somogy"] == {"owner": pan, "units": {**NONE, "cavalry": 1}}
    assert "Fejér" not in state["owner"]                        # passing through takes nothing


def test_an_advanced_home_county_nobody_chose_may_be_passed() -> None:
    """Advanced setup (l.164): each player holds only the 6 counties he chose; the others of his
    province have no holder and may be passed like any empty county: Anna's knight in Fejér
    attacks the neutral Kőrös through Somogy, which nobody chose (Fejér - Somogy - Kőrös)."""
    state = new_game(["Anna", "Bela"], provinces="PAN+FEL", version="advanced")
    pan = next(p for p, h in state["home"].items() if h == "PAN")
    state, _ = step(state)
    state["starting"] = pan
    assert "Somogy" not in state["owner"] and state["armies"]["Fejér"]["owner"] == pan
    state, events = resolve_once(state, {pan: "steps:\n  - to: Kőrös\n    from: {Fejér: {cavalry: 1}}\n"})
    assert not [e.text for e in events if e.kind == "step_failed"]
    assert [b["county"] for b in state["battles"]] == ["Kőrös"]


def test_version_1_keeps_a_county_without_master_closed() -> None:
    state, events, pan = _through_a_county_without_master(1)
    assert "Somogy" not in state["armies"] and [e.kind for e in events if e.kind == "step_failed"] == ["step_failed"]


# -- III. Siege (l.254): the surplus of a taken castle with every neighbour in enemy hands -------

def _surrounded_castle(monkeypatch, rules_version: int, *outcomes: BattleOutcome) -> tuple[dict, list, list, str]:
    """Anna takes Bela's castle Pozsony with 9 infantry from Sopron; meanwhile every county
    around it is in Bela's hands: Sopron (3 infantry), Győr (2 infantry), Nyitra (1 cavalry)."""
    state, pan, fel = _game(rules_version)
    state["starting"] = pan
    state["lords"].update({pan: "Vas", fel: "Trencsén"})
    state["armies"]["Sopron"]["units"] = {**NONE, "infantry": 9}
    seen = _outcomes(monkeypatch, *outcomes)
    state, _ = resolve_once(state, {pan: "steps:\n  - to: Pozsony\n    from: {Sopron: {infantry: 9}}\n"})
    state["armies"]["Sopron"] = {"owner": fel, "units": {**NONE, "infantry": 3}}
    state["armies"]["Győr"] = {"owner": fel, "units": {**NONE, "infantry": 2}}
    state["owner"].update({"Sopron": fel, "Győr": fel})
    events = battles.resolve(state, Dice())
    return state, events, seen, pan


def test_the_surplus_of_a_surrounded_castle_attacks_at_once_and_wins(monkeypatch) -> None:
    """l.254: "If all the territories adjacent to the castles are in enemy hands, then this
    player must immediately start a battle with these units against one of them, and only if
    he wins may he place these units" (ruling K18 lost them; ruling K30: the weakest)."""
    state, events, seen, pan = _surrounded_castle(
        monkeypatch, 2, BattleOutcome({**NONE, "infantry": 9}, dict(NONE), False, False, "attacker"),
        BattleOutcome({**NONE, "infantry": 1}, dict(NONE), False, False, "attacker"))
    assert [(b.county, b.attacker.units["infantry"]) for b in seen] == [("Pozsony", 9), ("Nyitra", 2)]
    assert any(e.kind == "break_out" and "they attack Nyitra at once" in e.text for e in events)
    assert state["armies"]["Pozsony"] == {"owner": pan, "units": {**NONE, "infantry": 7}}
    assert state["armies"]["Nyitra"] == {"owner": pan, "units": {**NONE, "infantry": 1}}
    assert state["owner"]["Nyitra"] == pan


def test_the_surplus_that_loses_its_break_out_is_not_placed(monkeypatch) -> None:
    """l.254: only if he wins may he place these units: a break-out that fails loses them, and
    never comes back into the full castle."""
    state, events, seen, pan = _surrounded_castle(
        monkeypatch, 2, BattleOutcome({**NONE, "infantry": 9}, dict(NONE), False, False, "attacker"),
        BattleOutcome({**NONE, "infantry": 1}, {**NONE, "cavalry": 1}, False, False, "defender",
                      attacker_withdrew=True))
    assert state["armies"]["Pozsony"] == {"owner": pan, "units": {**NONE, "infantry": 7}}
    assert state["armies"]["Nyitra"]["owner"] != pan
    assert any(e.kind == "lost" for e in events)


def test_version_1_loses_the_surplus_of_a_surrounded_castle(monkeypatch) -> None:
    """Version 1 (ruling K18 as first written): the surplus with nowhere to go is lost."""
    state, events, seen, pan = _surrounded_castle(
        monkeypatch, 1, BattleOutcome({**NONE, "infantry": 9}, dict(NONE), False, False, "attacker"))
    assert len(seen) == 1 and any("find no county to withdraw to and are lost" in t for t in texts_of(events))
    assert state["armies"]["Nyitra"]["owner"] != pan


def test_a_siege_rained_off_with_every_neighbour_in_enemy_hands_breaks_out(monkeypatch) -> None:
    """l.254: "This situation may also arise because of the Rainy Autumn event card": the
    besiegers rained off must attack a bordering county at once."""
    state, pan, fel = _game()
    state["starting"], state["event"] = pan, "rainy_autumn"
    state["lords"].update({pan: "Vas", fel: "Trencsén"})
    seen = _outcomes(monkeypatch, BattleOutcome({**NONE, "infantry": 3}, dict(NONE), False, False, "attacker"))
    state, _ = resolve_once(state, {pan: "steps:\n  - to: Pozsony\n    from: {Sopron: {infantry: 3}}\n"})
    state["armies"]["Sopron"] = {"owner": fel, "units": {**NONE, "infantry": 3}}
    state["armies"]["Győr"] = {"owner": fel, "units": {**NONE, "infantry": 2}}
    events = battles.resolve(state, Dice(2))
    assert any("rained off" in t for t in texts_of(events)) and [b.county for b in seen] == ["Nyitra"]
    assert state["armies"]["Nyitra"] == {"owner": pan, "units": {**NONE, "infantry": 3}}


# -- IV. Judge Royal (l.294): the re-roll of a roll that hit ---------------------------------------

def test_the_judge_royal_may_re_roll_a_roll_that_hit() -> None:
    """l.294: "he may re-roll the result of one clash for one weapon type; in such a case all
    the dice must be rolled again, not only those that did not hit". Ordered in advance:
    `reroll: {dice: 3, hits_at_most: 1}` re-rolls his first roll of 3 or more dice that hit at
    most once, the hit included (ruling K31)."""
    battle = Battle("Pest", side("marie", infantry=3), side("olivier", infantry=3), judge_royal="olivier")
    battle = replace(battle, defender=replace(battle.defender,
                                              plan=plan_from_data({"reroll": {"dice": 3, "hits_at_most": 1}})))
    # marie 1, 1, 1; olivier 5, 1, 1 (one hit): re-rolled all three, 6, 6, 2
    result = resolve_battle(battle, FixedDice([1, 1, 1, 5, 1, 1, 6, 6, 2] + [5, 5, 5] * 4))
    roll = result.clashes[0].rolls[1]
    assert (roll.rerolled, roll.faces, roll.hits) == ([5, 1, 1], [6, 6, 2], 2)
    plain = replace(battle, defender=replace(battle.defender, plan=plan_from_data({"reroll": 2})))
    result = resolve_battle(plain, FixedDice([1, 1, 1, 5, 1, 1] + [5, 5, 5] * 4))
    assert result.clashes[0].rolls[1].rerolled is None        # `reroll: 2`: only a roll with no hit


def test_the_re_roll_of_a_roll_that_hit_is_ordered_echoed_and_refused_when_wrong() -> None:
    data, errors = read("battle:\n  reroll: {dice: 3, hits_at_most: 1}\n")
    assert not errors and data["reroll"] == {"dice": 3, "hits_at_most": 1}
    assert "  reroll: {dice: 3, hits_at_most: 1}" in battle_echo(data)
    data, errors = read("battle:\n  reroll: {dice: 3, hit: 1}\n")
    assert "`hit`" in errors or "'hit'" in errors, errors
    data, errors = read("battle:\n  reroll: {hits_at_most: 1}\n")
    assert "dice" in errors, errors


# -- II. Royal / Neutral Units (l.120): a player who stops playing --------------------------------

def test_a_player_who_stops_playing_leaves_his_units_neutral() -> None:
    """l.120: "If one of the players for some reason stops playing, but the others would
    continue without him, his existing units become neutral units". The judge gives such a
    position its left orders (ruling K32)."""
    state = new_game(["Anna", "Bela", "Csilla"])
    state, _ = step(state)
    state["offices"]["palatine"] = "Csilla"
    home = state["home"]["Csilla"]
    theirs = sorted(c for c, a in state["armies"].items() if a["owner"] == "Csilla")
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in RULES.phase(state).deciders}
    orders["Csilla"] = RULES.left_orders(RULES.view(state, "Csilla"), "Csilla")
    after = RULES.resolve(state, orders, Rng("kek/left"))
    state, events = after.state, list(after.events)
    assert theirs and all(state["armies"][c]["owner"] == f"neutral-{home}" for c in theirs)
    assert "Csilla" in state["eliminated"] and state["lords"]["Csilla"] is None
    assert state["offices"]["palatine"] is None and any(e.kind == "left" for e in events)
    assert "Csilla" not in RULES.phase(state).deciders


def test_version_1_plays_a_left_position_by_its_default_orders() -> None:
    state = new_game(["Anna", "Bela", "Csilla"], rules_version=1)
    state, _ = step(state)
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in RULES.phase(state).deciders}
    orders["Csilla"] = RULES.left_orders(RULES.view(state, "Csilla"), "Csilla")
    state = RULES.resolve(state, orders, Rng("kek/left")).state
    assert "Csilla" not in state["eliminated"]


def test_by_mail_a_position_in_civil_disorder_turns_neutral_and_the_game_replays(tmp_path) -> None:
    """The game's `civil_disorder_after` says when the judge counts a player as gone: carol
    misses the placement's deadline (civil_disorder_after=1), so 1301's movement does not wait
    for her, and when it resolves her units become neutral (l.120)."""
    judge = Judge(tmp_path / "home")
    judge.new_game("korona", players=("anna", "bela", "carol"), game_type="kard_es_korona", seed="kek-left")
    assert CliRunner().invoke(main, ["game", "settings", "korona", "civil_disorder_after=1",
                                     "--home", str(judge.home.path)]).exit_code == 0
    store = judge.store()
    try:
        game = engine.load_game(store, "korona")
        for player in ("anna", "bela"):
            judge.orders("korona", player, "setup/placement",
                         placement.echo(placement.default(game.rules.view(game.state, player), player)) + "\n")
        judge.tick(advance_hours=49)                                  # carol misses the deadline
        game = engine.load_game(store, "korona")
        assert RULES.phase(game.state).id == "1301/movement" and "carol" not in game.state["eliminated"]
        for player in ("anna", "bela"):
            judge.orders("korona", player, "1301/movement", "steps: []\n")
        judge.tick(advance_hours=1)                                   # carol is not waited for
        game = engine.load_game(store, "korona")
        assert "carol" in game.state["eliminated"]
        assert not [a for a in game.state["armies"].values() if a["owner"] == "carol"]
        assert any(a["owner"] == "neutral-" + game.state["home"]["carol"] for a in game.state["armies"].values())
        assert archive.replay(store, game).ok
    finally:
        store.close()


# -- II. Event Cards (l.140): no event concerning tax income in the first year -------------------

def _first_year_card(card: str, rules_version: int = 2) -> tuple[dict, list]:
    """The placement done, ``card`` turned over at the very beginning of 1301."""
    state = new_game(["Anna", "Bela"], provinces="ERD+PAN", rules_version=rules_version)
    state["deck"] = [card] + [f"card_{i}" for i in range(8, 17)]
    return step(state)


def _neutral_infantry(state: dict) -> int:
    return sum(a["units"]["infantry"] for a in state["armies"].values() if is_neutral(a["owner"]))


def test_a_peasant_revolt_in_the_first_year_costs_the_neutrals_nothing() -> None:
    """l.140: "some events cannot be carried out ... any event concerning tax income in the first
    year, since there is no income yet": the Peasant Revolt (no tax from counties) drawn in 1301
    is not carried out, its neutral garrisons' infantry loss included (ruling K33)."""
    state, events = _first_year_card("peasant_revolt")
    blank, _ = _first_year_card("card_8")
    assert state["event"] == "peasant_revolt" and _neutral_infantry(state) == _neutral_infantry(blank)
    assert any("concerns tax income" in t and "has no effect" in t for t in texts_of(events))


def test_the_guilds_in_the_first_year_are_not_carried_out() -> None:
    """l.140: the Strengthening of the Guilds (a castle's tax, for the rest of the game) concerns
    tax income too: drawn in 1301 it has no effect, lasting or not (ruling K33)."""
    state, events = _first_year_card("guilds")
    assert state["lasting"] == []


def test_version_1_carries_out_the_first_years_income_cards_but_their_income() -> None:
    state, _ = _first_year_card("peasant_revolt", rules_version=1)
    blank, _ = _first_year_card("card_8", rules_version=1)
    assert _neutral_infantry(state) < _neutral_infantry(blank)        # every neutral castle garrison lost one
    assert _first_year_card("guilds", rules_version=1)[0]["lasting"] == ["guilds"]


# -- III. Elimination or Vassal Oath (l.264): plain elimination, by the player's choice ----------

def test_a_defeated_lords_player_may_choose_plain_elimination(monkeypatch) -> None:
    """l.264: "A player is eliminated at once if his province lord's battle ends unfavourably for
    him. The defeated player may, at his option, ... swear a vassal oath ... or ... try to
    escape": `if_defeated: elimination` takes neither option (ruling K34). His units, counties
    and money go to the victor (l.268)."""
    state, pan, fel = _game()
    state["starting"], state["treasury"] = pan, {pan: 2, fel: 5}
    state["lords"][fel] = "Nyitra"
    _outcomes(monkeypatch, BattleOutcome({**NONE, "cavalry": 1}, dict(NONE), False, True, "attacker"))
    state, events = step(state, {pan: "steps:\n  - to: Nyitra\n    from: {Győr: {cavalry: 1}}\n",
                                 fel: "steps: []\nbattle: {if_defeated: elimination}\n"})
    assert fel in state["eliminated"] and fel not in state["vassal_of"]
    assert state["armies"]["Pozsony"]["owner"] == pan and state["treasury"][pan] == 7
    assert not any(e.kind in ("oath", "escape") for e in events)
    assert RULES.result(state).winners == (pan,)


def test_plain_elimination_is_read_echoed_and_a_wrong_word_refused() -> None:
    state, pan, fel = _game()
    result = check(state, fel, "steps: []\nbattle: {if_defeated: eliminated}\n")
    assert result.ok and result.orders["battle"]["if_defeated"] == "elimination"
    echoed = RULES.echo_orders(RULES.view(state, fel), fel, result.orders)
    assert "if_defeated: elimination" in echoed and check(state, fel, echoed).orders == result.orders
    wrong = check(state, fel, "steps: []\nbattle:\n  if_defeated: surrender\n")
    assert not wrong.ok and "line 3" in str(wrong.errors[0]) and "elimination" in str(wrong.errors[0])


# -- VI. Traditional Movement Method (l.356-364), an option of the advanced version --------------

def test_the_traditional_method_is_an_option_of_the_advanced_version_only() -> None:
    try:
        new_game(["Anna", "Bela"], movement="traditional")
    except ValueError as refused:
        assert "option of the advanced version" in str(refused) and "version=advanced" in str(refused)
    else:
        raise AssertionError("the basic game took the traditional movement method")
    state = new_game(["Anna", "Bela"], version="advanced", movement="traditional")
    assert state["options"]["movement"] == "traditional"
    assert "movement" not in new_game(["Anna", "Bela"], version="advanced")["options"]   # as stored games were
    assert any(o.name == "movement" and o.choices == ("interleaved", "traditional") for o in RULES.options())


def _traditional(pan_armies: dict, fel_armies: dict, fel_lord: str, starting: str = "pan") -> tuple[dict, str, str]:
    """test_kek_movement's advanced Pannónia and Felvidék, by the traditional method."""
    state = new_game(["Anna", "Bela"], provinces="PAN+FEL", version="advanced", movement="traditional")
    pan = next(p for p, h in state["home"].items() if h == "PAN")
    fel = next(p for p, h in state["home"].items() if h == "FEL")
    state, _ = step(state)
    state["armies"] = {c: a for c, a in state["armies"].items() if a["owner"] not in (pan, fel)}
    for owner, armies in ((pan, pan_armies), (fel, fel_armies)):
        for county, units in armies.items():
            state["armies"][county] = {"owner": owner, "units": {**NONE, **units}}
            state["owner"][county] = owner
    state["lords"] = {pan: "Komárom", fel: fel_lord}
    state["starting"] = pan if starting == "pan" else fel
    assert RULES.phase(state).id == "1301/movement"
    return state, pan, fel


def test_each_player_moves_and_fights_his_whole_turn_before_the_next() -> None:
    """l.362: "When a player has finished all his battles, the whole round has ended for him ...
    and the player next in clockwise order begins his own move": Anna's attack on Nyitra is
    fought before Bela moves, and Bela's units that fought in Nyitra do not move again that year
    (ruling K36), while his others do."""
    state, pan, fel = _traditional({"Komárom": {"infantry": 3, "cavalry": 3}},
                                   {"Nyitra": {"infantry": 4}, "Turóc": {"infantry": 2}}, "Turóc")
    state, events = resolve_once(state, {pan: "steps:\n  - to: Nyitra\n    from: {Komárom: {infantry: 1}}\n",
                                         fel: "steps:\n  - to: Bars\n    from: {Nyitra: {infantry: 1}}\n"
                                              "  - to: Árva\n    from: {Turóc: {infantry: 1}}\n"})
    kinds = [e.kind for e in events]
    assert kinds.index("attack") < kinds.index("battle_log") < kinds.index("battle_over") < kinds.index("move")
    assert RULES.phase(state).id != "1301/battles" and not state["battles"]        # fought in the movement
    assert state["armies"]["Nyitra"]["owner"] == fel                                # 4 against 1: he held it
    failed = [e.text for e in events if e.kind == "step_failed"]
    assert failed and "Bars" in failed[0] and "Bars" not in state["armies"]        # they fought: they stay
    assert state["armies"]["Árva"] == {"owner": fel, "units": {**NONE, "infantry": 1}}   # his others move


def test_the_starting_player_may_move_last() -> None:
    """l.360: "If he decides to be last, then the movement phase will be started by the player
    seated to the left of the starting player": Bela steps into Bars before Anna may."""
    state, pan, fel = _traditional({"Komárom": {"infantry": 3}}, {"Nyitra": {"infantry": 2}}, "Nyitra")
    plans = {pan: "move: last\nsteps:\n  - to: Esztergom\n    from: {Komárom: {infantry: 1}}\n",
             fel: "steps:\n  - to: Bars\n    from: {Nyitra: {infantry: 1}}\n"}
    state, events = resolve_once(state, plans)
    moves = [e for e in events if e.kind in ("move", "attack", "move_last")]
    assert moves[0].kind == "move_last" and moves[1].data["player"] == fel and moves[2].data["player"] == pan


def test_a_county_whose_units_fought_cannot_be_attacked_again_that_year() -> None:
    """III: a unit takes part in one battle a year: once Anna's battle in Nyitra is fought, Bela
    cannot attack whoever holds it (ruling K36)."""
    state, pan, fel = _traditional({"Komárom": {"infantry": 4, "cavalry": 3}},
                                   {"Nyitra": {"archers": 1}, "Bars": {"cavalry": 3}}, "Bars")
    state, events = resolve_once(state, {
        pan: "steps:\n  - to: Nyitra\n    from: {Komárom: {infantry: 3, cavalry: 3}}\n",
        fel: "steps:\n  - to: Nyitra\n    from: {Bars: {cavalry: 2}}\n"})
    assert state["armies"]["Nyitra"]["owner"] == pan                    # 6 against 1 archer
    assert any("fought a battle this year" in e.text for e in events if e.kind == "step_failed")
    assert state["armies"]["Bars"]["units"]["cavalry"] == 3


def test_the_next_starting_player_is_drawn_by_dice() -> None:
    """l.364: "The starting player for the next round is again drawn by dice in the same way",
    not the first to pass; the tied roll again (ruling K35)."""
    state, pan, fel = _traditional({"Komárom": {"infantry": 3}}, {"Nyitra": {"infantry": 2}}, "Nyitra")
    state["deck"] = [f"card_{i}" for i in range(8, 17)]
    state, events = step(state, {pan: "steps: []\n", fel: "steps: []\n"})
    dice = [e for e in events if e.kind == "starting_dice"]
    assert dice and state["year"] == 1302
    totals = dice[-1].data["totals"]
    assert state["starting"] == max(totals, key=lambda p: totals[p])
    assert sorted(totals.values())[-1] > sorted(totals.values())[-2]       # the last roll has one highest


def test_move_is_read_only_from_the_starting_player_of_a_traditional_game() -> None:
    state, pan, fel = _traditional({"Komárom": {"infantry": 3}}, {"Nyitra": {"infantry": 2}}, "Nyitra")
    mine = check(state, pan, "move: last\nsteps: []\n")
    assert mine.ok and mine.orders["move"] == "last"
    assert "move: last" in RULES.echo_orders(RULES.view(state, pan), pan, mine.orders)
    assert check(state, pan, RULES.echo_orders(RULES.view(state, pan), pan, mine.orders)).orders == mine.orders
    assert "#move: last" in RULES.order_template(RULES.view(state, pan), pan)
    theirs = check(state, fel, "move: last\nsteps: []\n")
    assert not theirs.ok and "only the starting player" in str(theirs.errors[0])
    wrong = check(state, pan, "steps: []\nmove: never\n")
    assert not wrong.ok and "line 2" in str(wrong.errors[0])
    plain, p2, _ = _game()
    refused = check(plain, p2, "move: last\nsteps: []\n")
    assert not refused.ok and "traditional movement method" in str(refused.errors[0])


def _whole_game(seed: str, last_in_even_years: bool = False, **options: Any) -> tuple[dict, list[str]]:
    """test_kek_long_games' scripted players through a whole game of four; by the traditional
    method the starting player moves last in even years when asked."""
    state = new_game(PLAYERS4, seed=seed, **options)
    log: list[str] = []
    for _ in range(400):
        if RULES.result(state) is not None:
            break
        phase = RULES.phase(state)
        orders = {}
        for player in phase.deciders:
            view = RULES.view(state, player)
            given = orders_for(view, player)
            if last_in_even_years and view["step"] == "movement" and player == view["starting"] \
                    and view["year"] % 2 == 0:
                given = {**given, "move": "last"}
            if view["step"] != "placement":
                again = RULES.check_orders(view, player, load(RULES.echo_orders(view, player, given)))
                assert again.ok, (phase.id, player, [str(e) for e in again.errors])
                given = again.orders
            orders[player] = given
        resolution = RULES.resolve(state, orders, Rng(f"{seed}/{phase.id}"))
        state, log = resolution.state, log + [e.text for e in resolution.events]
    return state, log


def test_a_whole_traditional_game_to_its_end_replays_exactly() -> None:
    """A whole advanced game by the traditional method, the starting player moving last in even
    years; twice, the same."""
    state, log = _whole_game("trad", True, version="advanced", movement="traditional")
    assert RULES.result(state) is not None, log[-10:]
    assert any(t.startswith("Dice for the starting player") for t in log)
    assert any("moves last this year" in t for t in log)
    assert any(t.startswith(("The battle of", "The siege of")) for t in log)
    assert _whole_game("trad", True, version="advanced", movement="traditional") == (state, log)


@pytest.mark.parametrize("version", ["basic", "advanced"])
def test_a_whole_version_1_game_still_plays_to_its_end_and_replays(version: str) -> None:
    """A stored game of rules version 1 goes on under today's code: a whole one, twice the same."""
    state, log = _whole_game(f"v1-{version}", rules_version=1, version=version)
    assert RULES.result(state) is not None and state["rules_version"] == 1
    assert _whole_game(f"v1-{version}", rules_version=1, version=version) == (state, log)


def test_the_judge_refuses_the_traditional_method_in_a_basic_game(tmp_path) -> None:
    judge = Judge(tmp_path / "home")
    try:
        judge.new_game("korona", players=("anna", "bela"), game_type="kard_es_korona",
                       options={"movement": "traditional"})
    except engine.JudgeError as refused:
        assert "option of the advanced version" in str(refused)
    else:
        raise AssertionError("the judge created a basic game by the traditional method")
    judge.new_game("korona", players=("anna", "bela"), game_type="kard_es_korona",
                   options={"movement": "traditional", "version": "advanced"})
    store = judge.store()
    try:
        game = engine.load_game(store, "korona")
        assert game.state["options"]["movement"] == "traditional"
        assert "movement_method" in game.rules.view(game.state, "anna")
    finally:
        store.close()
