"""Fief: England's battle and purchase functions wired into the game (issue 11, part EW), each
through the engine - the Purchase or Battle mail, or the Invaders' step: trebuchets under
construction paid in the next Purchase (7.9), mercenary crossbowmen hired in the middle of a
battle (11.1, R41), an Abbey pillaged after the battles (2.13, 7.10), players attacking Invaders in
the Battle phase (6.x, 7.0) and the Royal Stronghold destroyed by the Invaders or a REBELLION
(4.9, 6.5, 10.1)."""
from __future__ import annotations

import copy

from pbem.games import rules_for
from pbem.games.fief.board import load_board
from pbem.games.fief.positions import build_position
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.invaders.armies import new_army, record
from pbem.orders.yamlsafe import load
from pbem.rules.rng import Rng
from test_fief_england_game import play
from test_fief_england_invaders import COMPASS, Script

RULES = rules_for("fief_england")
BOARD = load_board("fief_england")
THREE = ["ann", "bob", "cat"]


def position(**data) -> dict:
    data.setdefault("players", THREE)
    data.setdefault("round", 2)
    return build_position(data, "fief_england").to_json()


def check(state: dict, player: str, text: str):
    return RULES.check_orders(RULES.view(state, player), player, load(text))


def errors(state: dict, player: str, text: str) -> str:
    result = check(state, player, text)
    assert not result.ok, "the mail was accepted"
    return "\n".join(str(e) for e in result.errors)


def at_once(state: dict, player: str, text: str, rng: Rng | None = None) -> tuple[dict, list]:
    result = RULES.check_at_once(RULES.view(state, player), player, load(text))
    assert result.ok, result.errors
    out = RULES.act(state, player, result.orders, rng or Rng("t"))
    return out.state, list(out.events)


def seen_by(events: list, player: str) -> str:
    return "\n".join(e.text for e in events if e.audience.sees(player))


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


# -- 5. The Royal Stronghold destroyed (4.9, 6.5, 10.1, R10, R29, R135) -----------------------------

ROYAL = {"royal_stronghold": {"city": "Lincoln", "family": "ann"}}


def test_the_invaders_taking_its_city_destroy_the_royal_stronghold() -> None:
    """4.9: "The Royal Stronghold can be destroyed by ... Invaders (6.5)"; R135: its marker goes back
    to the supply and the City is part of its Region again."""
    state = FiefState.from_json(position(
        phase="invaders", lords={"Henri": {"family": "ann", "at": "London", "political": "king"}},
        towns={"Lincoln": {"controller": "ann", "fortress": "stronghold"}}, edition_state=dict(ROYAL)))
    record(state)["armies"]["1"] = new_army("King's Lynn")
    from pbem.games.fief_england.invaders.phase import resolve_invaders
    events = resolve_invaders(state, BOARD, {}, Script(compass=["N", "S", "E", "W", "N"]), COMPASS)
    assert "royal_stronghold_destroyed" in kinds(events)
    assert state.towns["Lincoln"].fortress is None and "royal_stronghold" not in state.edition_state
    view = RULES.view(state.to_json(), "bob")
    assert view["royal_stronghold"]["city"] is None, "every player sees it gone"


def test_a_rebellion_that_defeats_every_troop_destroys_the_royal_stronghold() -> None:
    """4.9, 10.1, R29: the rebels destroy a Stronghold - the Royal Stronghold too; the City rejoins its
    Region, whose title then needs it again (R19 no longer applies)."""
    state = position(phase="movement", hands={"bob": ["rebellion", "rebellion"]},
                     effects=[{"card": "famine", "target": "IV"}],
                     lords={"Henri": {"family": "ann", "at": "London", "political": "king"}},
                     units={"Lincoln": {"ann": {"man_at_arms": 1}}},
                     towns={"Lincoln": {"controller": "ann", "fortress": "stronghold"}},
                     edition_state=dict(ROYAL))
    # two REBELLIONs, one cancelled by the Stronghold (10.1): 1 die (a blank) +1 hit
    state, events = at_once(state, "bob", "at_once:\n  - play: rebellion\n    in: Lincoln\n    cards: 2\n",
                            Script(battle=[0]))
    assert "royal_stronghold_destroyed" in kinds(events), seen_by(events, "bob")
    assert state["towns"]["Lincoln"]["fortress"] is None
    assert "royal_stronghold" not in state.get("edition_state", {})


# -- 1. Trebuchets under construction paid in the next Purchase (7.9) -------------------------------

def besieging(phase: str = "purchase", deniers: int = 12, **more) -> dict:
    """Round 3: ann besieges bob's Stronghold of York since round 2's Battle Phase, a trebuchet
    'Under Construction' (7.9)."""
    more.setdefault("edition_state", {"sieges": {"York": {"ann": {"building": 1, "declared": 2}}}})
    return position(phase=phase, round=3, deniers={"ann": deniers, "bob": 5, "cat": 5},
                    lords={"Henri": {"family": "ann", "at": "York"}, "Anabel": {"family": "bob", "at": "York"}},
                    units={"York": {"ann": {"knight": 2, "man_at_arms": 2}, "bob": {"man_at_arms": 3}},
                           "London": {"ann": {"man_at_arms": 1}}},
                    towns={"York": {"controller": "bob", "fortress": "stronghold", "besieged_by": {"ann": 1}},
                           "London": {"controller": "ann"}}, **more)


def trebuchets(state: dict, family: str, city: str) -> int:
    return sum(1 for p in state["pawns"].values()
               if p["kind"] == "trebuchet" and p["family"] == family and p["location"] == city)


def test_the_besieger_pays_for_its_trebuchets_in_the_purchase_mail_and_the_siege_goes_on() -> None:
    """7.9: "In the next Round during Phase 4 - Purchasing, the Besieger must pay 5 Shilling to construct
    the Trebuchet ... a second 'Active' Trebuchet by paying an additional 5 Shillings"."""
    state = besieging()
    assert "construct: York" in RULES.order_template(RULES.view(state, "ann"), "ann")
    result = check(state, "ann", "orders:\n  - construct: York\n    count: 2\n")
    assert result.ok and "2 shillings left" in " ".join(result.notes).replace("deniers", "shillings")
    assert "construct: York" in RULES.echo_orders(RULES.view(state, "ann"), "ann", result.orders)
    state, events = play(state, {"ann": "orders:\n  - construct: York\n    count: 2\n"})
    assert "trebuchets_built" in kinds(events) and "siege_lifted" not in kinds(events)
    assert state["families"]["ann"]["deniers"] == 2 and trebuchets(state, "ann", "York") == 2
    assert state["towns"]["York"]["besiegers"] == {"ann": 1}
    assert state["edition_state"]["sieges"] == {"York": {"ann": {"building": 0, "declared": 2}}}
    while RULES.phase(state).id != "round-3/battle":
        state, events = play(state)
    state, events = play(state)
    assert state["towns"]["York"]["besiegers"] == {"ann": 1}, "paid: the siege holds through the Battle Phase"


def test_unpaid_the_trebuchet_is_removed_and_the_siege_lifts_at_the_end_of_the_purchase() -> None:
    """7.9: "If the Besieger does not pay for any Trebuchet, it is removed from the Map and the Siege is
    lifted" - at the end of the Purchase phase, not later."""
    state, events = play(besieging())
    assert kinds(events)[-2:] == ["siege_marker_removed", "siege_lifted"]
    assert state["towns"]["York"]["besiegers"] == {} and state["edition_state"]["sieges"] == {}


def test_construct_errors_name_the_problem() -> None:
    state = besieging(deniers=7)
    assert "2 trebuchets at York costs 10" in errors(state, "ann", "orders:\n  - construct: York\n    count: 2\n")
    assert "1 or 2 trebuchets" in errors(state, "ann", "orders:\n  - construct: York\n    count: 3\n")
    assert "no trebuchet under construction at London" in errors(state, "ann", "orders:\n  - construct: London\n")
    assert "names the City you besiege" in errors(state, "ann", "orders:\n  - construct: Yrok\n")
    assert "no trebuchet under construction" in errors(state, "ann",
                                                        "orders:\n  - construct: York\n  - construct: York\n")
    early = besieging(edition_state={"sieges": {"York": {"ann": {"building": 1, "declared": 3}}}})
    assert "declared this round" in errors(early, "ann", "orders:\n  - construct: York\n")


def test_what_the_besieger_pays_is_its_own_and_the_trebuchets_public() -> None:
    """FAQ l.857: shillings are secret; the trebuchets built are public (the marker is turned on the
    board, 7.9). A mail spending more than the family holds is refused with the count."""
    state = besieging(deniers=7)
    assert "you have 2 left" in errors(state, "ann", "orders:\n  - construct: York\n  - buy: knight\n    in: London\n")
    state, events = play(state, {"ann": "orders:\n  - construct: York\n"})
    assert "ann builds 1 trebuchet at the siege of York (7.9)" in seen_by(events, "bob")
    assert RULES.view(state, "bob")["families"]["ann"].get("deniers") is None
    assert RULES.view(state, "bob")["sieges"] == {"York": {"ann": {"building": 0, "declared": 2}}}


# -- 3. An Abbey pillaged after the battles (2.13, 7.10, 12.0, R31, R136) ---------------------------

def abbey_position(**more) -> dict:
    """ann's Henri holds Norwich, where cat's Abbess Lucia has her Abbey and a relic lies face down."""
    data = dict(phase="battle", deniers={"ann": 1, "bob": 5, "cat": 5},
                lords={"Henri": {"family": "ann", "at": "Norwich"},
                       "Lucia": {"family": "cat", "at": "York", "female": True}},
                units={"Norwich": {"ann": {"knight": 1}}},
                towns={"Norwich": {"controller": "ann", "mills": 1}},
                edition_state={"abbeys": {"Norwich": {"abbey": "Abbey of the Autumn", "abbess": "Lucia",
                                                      "royal": False}},
                               "church": {"archbishops": [], "abbesses": {"Lucia": ["Abbey of the Autumn"]},
                                          "destroyed": {}},
                               "relics": {"relics": {"chasuble": {"city": "Norwich", "holder": None,
                                                                  "face_up": False}},
                                          "vp_marker": None, "skull_used": False, "chasuble_round": {}}})
    return position(**{**data, **more})


PILLAGE = "orders:\n  - plunder: Norwich\n    mills: 0\n    abbey: Henri\n"


def test_the_battle_mail_pillages_an_abbey_10_shillings_its_relics_and_the_heresy_marker() -> None:
    """7.10: "Abbeys can be destroyed. Collect 10 Shillings per Abbey destroyed, take any Relics located
    in the Abbey (12.0), and mark the pillaging Noble with a Heresy Marker"; 2.13: the Abbess may rebuild."""
    state = abbey_position()
    assert "abbey: Henri" in RULES.echo_orders(RULES.view(state, "ann"), "ann", check(state, "ann", PILLAGE).orders)
    state, events = play(state, {"ann": PILLAGE})
    assert state["families"]["ann"]["deniers"] == 11 and state["towns"]["Norwich"]["mills"] == 1, "mills: 0 spares it"
    assert "Norwich" not in state["edition_state"]["abbeys"]
    assert state["edition_state"]["relics"]["relics"]["chasuble"] == {"city": None, "holder": "Henri", "face_up": True}
    assert state["edition_state"]["heresy"] == "Henri"
    assert "You collect 10 shillings" in seen_by(events, "ann") and "10 shillings" not in seen_by(events, "bob")
    assert "Henri (ann) pillages Abbey of the Autumn in Norwich (7.10)" in seen_by(events, "bob")
    assert "bears the Heresy marker" in seen_by(events, "cat")


def test_pillage_errors_name_the_problem() -> None:
    state = abbey_position()
    assert "names the noble of your family who leads the pillage, not 'Lucia'" in errors(
        state, "ann", "orders:\n  - plunder: Norwich\n    abbey: Lucia\n")
    assert "not a free noble of yours in Norwich" in errors(
        abbey_position(lords={"Henri": {"family": "ann", "at": "York"}}), "ann", PILLAGE)
    no_abbey = abbey_position(edition_state={})
    assert "no Abbey stands in Norwich" in errors(no_abbey, "ann", PILLAGE)
    assert "has no mill to plunder" in errors(abbey_position(towns={"Norwich": {"controller": "ann"}}), "ann",
                                              "orders:\n  - plunder: Norwich\n")


def test_an_abbey_pillage_the_battles_made_impossible_is_told() -> None:
    """The Pillage comes after every battle (7.10): a pillage led by a noble no longer there fails with
    an event naming why, never silently."""
    state = abbey_position()
    result = check(state, "ann", PILLAGE)
    state["lords"]["Henri"]["location"] = "York"   # as if a battle had moved him (R76's withdrawal)
    out = RULES.resolve(state, {"ann": result.orders, "bob": {}, "cat": {}}, Rng("t"))
    assert "Henri is not in Norwich" in seen_by(list(out.events), "ann")
    assert "Norwich" in out.state["edition_state"]["abbeys"]


# -- 2. Mercenary crossbowmen hired in the middle of a battle (11.1, R41) ---------------------------

MERCENARY = {"family_card": {"bob": "mercenary_1"}, "mercenaries": {"mercenary_1": {"on_card": 3, "hired": []}}}


def crossbow_position(deniers: int = 5, **more) -> dict:
    """ann's Henri and a man-at-arms attack bob's lone Anabel in York; bob has a MERCENARY card."""
    data = dict(phase="battle", deniers={"ann": 5, "bob": deniers, "cat": 5},
                lords={"Henri": {"family": "ann", "at": "York"},
                       "Anabel": {"family": "bob", "at": "York", "female": True}},
                units={"York": {"ann": {"man_at_arms": 1}}}, towns={"York": {"controller": "bob"}},
                edition_state=copy.deepcopy(MERCENARY))
    return position(**{**data, **more})


ATTACK = "orders:\n  - attack: bob\n    in: York\n"
HIRE = "policies:\n  battle_plan:\n    hire_crossbowmen: {n}\n"


def test_a_battle_plan_hires_crossbowmen_as_the_battle_begins_and_pays_at_once() -> None:
    """11.1: "They may be hired in middle of a Battle" (R41: a standing battle-plan order): bob's 2
    crossbowmen, 2 shillings each, join his side before his lone Anabel would be captured (7.5), and
    their volley fells ann's man-at-arms: Henri is taken."""
    state = crossbow_position()
    state, events = play(state, {"ann": ATTACK, "bob": HIRE.format(n=2)}, Script(battle=[1]))
    assert "bob hires 2 mercenary crossbowmen into York (11.1)" in seen_by(events, "ann")
    assert "You pay 4 shillings for 2 crossbowmen" in seen_by(events, "bob")
    assert "4 shillings" not in seen_by(events, "ann")
    assert state["families"]["bob"]["deniers"] == 1
    assert state["edition_state"]["mercenaries"]["mercenary_1"]["on_card"] == 1
    assert state["lords"]["Henri"]["captive_of"] == "bob", texts(events)
    assert sum(1 for p in state["pawns"].values() if p["kind"] == "crossbowman" and p["location"] == "York") == 2


def test_fewer_crossbowmen_than_the_plan_says_are_told_to_their_family_alone() -> None:
    """At the battle the card or the purse may hold less than when the mail was read: as many as they
    allow are hired, and the family alone is told why not all."""
    state = crossbow_position()
    result = check(state, "bob", HIRE.format(n=2))
    state["families"]["bob"]["deniers"] = 3
    orders = {"ann": check(state, "ann", ATTACK).orders, "bob": result.orders, "cat": {}}
    out = RULES.resolve(state, orders, Script(battle=[1]))
    told = seen_by(list(out.events), "bob")
    assert "1 hired - you have 3 shillings: a crossbowman costs 2 (11.1)" in told
    assert "you have 3 shillings" not in seen_by(list(out.events), "ann")


def test_hire_crossbowmen_errors_name_the_problem() -> None:
    state = crossbow_position()
    assert "only 3 crossbowmen lie on your MERCENARY card" in errors(state, "bob", HIRE.format(n=4))
    assert "3 crossbowmen cost 6 shillings (11.1: 2 each); you have 5" in errors(state, "bob", HIRE.format(n=3))
    assert "you have no MERCENARY card on your family board" in errors(state, "ann", HIRE.format(n=1))
    assert "must be a whole number" in errors(state, "bob", HIRE.format(n="many"))
    assert check(state, "bob", HIRE.format(n=0)).ok, "0: hire none"


def texts(events: list) -> str:
    return "\n".join(e.text for e in events)


# -- 4. Players attacking the Invaders in the Battle phase (7.0, 6.8, 13.3, R137) ------------------

def invaded(**more) -> dict:
    """Invader army 1 (a Leader and 1 Foot Soldier) stands in York, which it took; ann's Henri and 3
    knights are there with it (6.8: "could be attacked by Players in Phase 7 - Battles")."""
    data = dict(phase="battle", lords={"Henri": {"family": "ann", "at": "York"}},
                units={"York": {"ann": {"knight": 3}}},
                edition_state={"invaders": {"armies": {"1": {**new_army("York"), "foot": 1},
                                                       **{a: new_army() for a in ("2", "3", "4")}},
                                            "gone": [], "destroyed": [], "sent_away": [],
                                            "plague": {"round": 0, "armies": []}}})
    return position(**{**data, **more})


ATTACK_INVADERS = "orders:\n  - attack_invaders: York\n"


def test_until_now_a_player_could_not_attack_an_invader_army() -> None:
    """The core's `attack:` names another player: the Invaders are none (checked, the reason a verb of
    England's own is needed)."""
    assert "no other player 'invaders'" in errors(invaded(), "ann", "orders:\n  - attack: invaders\n    in: York\n")


def test_a_player_attacks_the_invaders_and_destroys_the_army_for_the_garter() -> None:
    """7.0, 7.3: ann's 10 SP roll 2 dice ('fff', 'ff': 5 hits: the Foot Soldier's 2, then the Leader's 3,
    6.4), the Invaders' 5 SP one (a blank). The army is destroyed; ann takes York back (5.1); the defeat
    is recorded for the Order of the Garter (13.3, R28)."""
    state = invaded()
    view = RULES.view(state, "ann")
    assert "attack_invaders: York" in RULES.order_template(view, "ann")
    result = check(state, "ann", ATTACK_INVADERS)
    assert RULES.echo_orders(view, "ann", result.orders).strip().endswith("- attack_invaders: York")
    state, events = play(state, {"ann": ATTACK_INVADERS}, Script(battle=[3, 2, 0]))
    told = seen_by(events, "cat")
    assert "ann attacks Invader army 1 in York (7.0, 6.8)" in told
    assert "ann defeats Invader army 1 in York (Henri fighting) (7.8, 13.3)" in told, told
    # 13.3, R28: the deed the Sovereign may reward with the Garter, one record for both phases
    assert state["edition_state"]["royal"]["garter_deeds"] == [
        {"round": 2, "army": "1", "lord": "Henri", "by": "defeat"}]
    assert state["towns"]["York"]["controller"] == "ann"


def test_beaten_by_the_invaders_the_nobles_are_their_captives() -> None:
    """7.5, 7.6, 6.7: ann's last troop falls; Henri is the Invaders' captive, with his ransom."""
    state = invaded(units={"York": {"ann": {"man_at_arms": 1}}})
    state, events = play(state, {"ann": ATTACK_INVADERS}, Script(battle=[0, 1]))
    assert state["lords"]["Henri"]["captive_of"] == "invaders", seen_by(events, "ann")
    assert "defeated" not in state["edition_state"]["invaders"]


def test_attack_invaders_errors_name_the_problem() -> None:
    assert "no Invader army is in London" in errors(invaded(), "ann", "orders:\n  - attack_invaders: London\n")
    assert "you have no troop in York" in errors(invaded(units={}), "ann", ATTACK_INVADERS)
    assert "you have no free noble in York" in errors(invaded(), "bob", ATTACK_INVADERS)
    storms = invaded(effects=[{"card": "storms", "target": "IV"}])
    assert "STORMS" in errors(storms, "ann", ATTACK_INVADERS)


def test_a_family_destroying_the_invaders_who_attack_it_in_phase_6_is_recorded_for_the_garter() -> None:
    """13.3, R28: "Defeated an Invader Army": a Leader with his 3 new Foot Soldiers (6.1) attacks ann's
    knight and man-at-arms in Lincoln (6.4); her 2 trebuchets ('fff' 'fff' +1: 7 hits) fell the three
    Foot Soldiers, then her melee die's 'fff' the Leader (the Invaders' die a blank)."""
    state = FiefState.from_json(position(
        phase="invaders", lords={"Henri": {"family": "ann", "at": "Lincoln"}},
        units={"Lincoln": {"ann": {"knight": 1, "man_at_arms": 1, "trebuchet": 2}}},
        towns={"Lincoln": {"controller": "ann"}}))
    record(state)["armies"]["1"] = {**new_army("Lincoln"), "foot": 0}
    from pbem.games.fief_england.invaders.phase import resolve_invaders
    events = resolve_invaders(state, BOARD, {}, Script(battle=[3, 3, 0, 3]), COMPASS)
    assert "ann defeats Invader army 1 in Lincoln (Henri fighting)" in "\n".join(e.text for e in events)
    assert state.edition_state["royal"]["garter_deeds"] == [
        {"round": state.round, "army": "1", "lord": "Henri", "by": "defeat"}]


def test_against_the_invaders_the_plan_hires_crossbowmen_and_may_stop_alone() -> None:
    """R137, R138: ann's plan hires a crossbowman into the battle (11.1) and ends it after the first
    roll (7.8; the Invaders cannot move in Phase 7): both stay in York."""
    state = invaded(units={"York": {"ann": {"knight": 1}}},
                    edition_state={**invaded()["edition_state"],
                                   "family_card": {"ann": "mercenary_1"},
                                   "mercenaries": {"mercenary_1": {"on_card": 3, "hired": []}}})
    mail = ATTACK_INVADERS + "policies:\n  battle_plan:\n    hire_crossbowmen: 1\n    stop: {when: {after_round: 1}}\n"
    state, events = play(state, {"ann": mail}, Script(battle=[0, 0, 0]))   # a blank for each volley
    told = seen_by(events, "bob")
    assert "ann hires 1 mercenary crossbowman into York (11.1)" in told
    assert "ann ends the battle against the Invaders in York after round 1" in told
    assert state["edition_state"]["invaders"]["armies"]["1"]["city"] == "York"
