"""The players and the Invaders, last pieces (issue 11, part EV): crossbowmen hired in the
Invaders' Phase 6 battles (11.1, R138), coalitions against the Invaders in Phase 7 (7.0, 13.3,
R137, R145) and PASSAGE lent to the Invaders (10.2, R146) - each through the engine, by mail."""
from __future__ import annotations

import copy

from pbem.games.fief_england.invaders.armies import new_army
from test_fief_england_game import play
from test_fief_england_invaders import Script
from test_fief_england_wiring_battle import RULES, check, errors, position, seen_by, texts

MERCENARY = {"family_card": {"ann": "mercenary_1"}, "mercenaries": {"mercenary_1": {"on_card": 3, "hired": []}}}


def invaders(armies: dict, **more) -> dict:
    """Invader armies (`{id: spec}`; the others in the supply) as the state's record."""
    rec = {a: new_army() for a in ("1", "2", "3", "4")}
    for army_id, spec in armies.items():
        rec[army_id] = {**new_army(spec.get("city")), **spec}
    return {"invaders": {"armies": rec, "gone": [], "destroyed": [], "sent_away": [],
                         "plague": {"round": 0, "armies": []}}, **more}


# -- 2. Crossbowmen hired in the Invaders' Phase 6 battles (11.1, R138) ---------------------------

def phase6(deniers: int = 6) -> dict:
    """Invader army 1's Leader stands in York (3 Foot Soldiers join him, 6.1: 4 units); ann's Henri
    and 1 knight are there, ann has a MERCENARY card and 6 shillings."""
    return position(phase="invaders", deniers={"ann": deniers, "bob": 5, "cat": 5},
                    lords={"Henri": {"family": "ann", "at": "York"}}, units={"York": {"ann": {"knight": 1}}},
                    edition_state=invaders({"1": {"city": "York", "foot": 0}}, **copy.deepcopy(MERCENARY)))


HIRE = "policies:\n  battle_plan:\n    hire_crossbowmen: {n}\n"


def test_attacked_by_the_invaders_a_family_hires_crossbowmen_by_its_battle_plan() -> None:
    """11.1: "They may be hired in middle of a Battle": the Invaders (4 units) attack ann's 1 knight
    (6.4); ann's plan hires her 3 crossbowmen as the battle begins (R138), and the Invaders, who no
    longer outnumber her 4 Troops, stop fighting (6.4: "If at any time during a Battle the Invaders
    have fewer Units ...", 6.8) and move on."""
    state, events = play(phase6(), {"ann": HIRE.format(n=3)}, Script(compass=["S", "S", "S", "S"]))
    told = seen_by(events, "bob")
    assert "Invader army 1 attacks ann's 1 Troops in York (6.4)" in told, texts(events)
    assert "ann hires 3 mercenary crossbowmen into York (11.1)" in told, texts(events)
    assert "The Invaders stop fighting ann in York: 4 Invader units do not outnumber ann's 4 Troops" in told
    assert "You pay 6 shillings for 3 crossbowmen" in seen_by(events, "ann")
    assert "6 shillings" not in told
    assert state["families"]["ann"]["deniers"] == 0
    assert not any(e.kind == "invaders_battle_round" for e in events)


def test_the_invaders_phase_crossbowmen_fall_short_as_the_purse_says() -> None:
    """The purse is read at the battle: 2 shillings pay one crossbowman; ann alone is told why not 3,
    and the Invaders, still outnumbering her 2 Troops, fight on."""
    state = phase6()
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in RULES.phase(state).deciders}
    orders["ann"] = check(state, "ann", HIRE.format(n=3)).orders
    state["families"]["ann"]["deniers"] = 2
    out = RULES.resolve(state, orders, Script(battle=[0] * 40, compass=["S", "S", "S", "S"]))
    events = list(out.events)
    assert "1 hired - you have 2 shillings: a crossbowman costs 2 (11.1)" in seen_by(events, "ann")
    assert "you have 2 shillings" not in seen_by(events, "bob")
    assert any(e.kind == "invaders_battle_round" for e in events)


# -- 1. Coalitions against the Invaders in Phase 7 (7.0, 13.3, R137, R145) -----------------------

def allies(ann: dict | None = None, bob: dict | None = None, foot: int = 3) -> dict:
    """Invader army 1 (its Leader and ``foot`` Foot Soldiers) stands in York; ann's Henri and bob's
    Godfrey are there with their troops."""
    state = position(phase="battle", lords={"Henri": {"family": "ann", "at": "York"},
                                            "Godfrey": {"family": "bob", "at": "York"}},
                     units={"York": {"ann": ann or {"knight": 1}, "bob": bob or {"knight": 2}}},
                     towns={"York": {"controller": "ann"}},
                     edition_state=invaders({"1": {"city": "York", "foot": foot}}))
    state["towns"]["York"]["controller"] = None   # R87: the Invaders took it
    return state


ATTACK = "orders:\n  - attack_invaders: York\n"
ACCEPT = "policies:\n  coalition: {accept: {bob: anywhere}}\n"
JOIN = "policies:\n  coalition: {join: {ann: [York]}}\n"


def test_families_join_an_attack_on_the_invaders_by_their_coalition_policies() -> None:
    """7.0 Ally Attacks: bob's `coalition.join` names ann in York and ann accepts him: their troops
    combine (1 + 2 knights, Henri and Godfrey). bob, with the most Strength Points, decides the
    losses (7.0): by his plan's default `own_losses_last` his confederate ann loses first. ann
    declared the attack: she heads the coalition (R145): the army destroyed is Henri's deed for the
    Order of the Garter (13.3 "alone or as the head of a coalition"), and York is hers (5.1)."""
    state = allies()
    state, events = play(state, {"ann": ATTACK + ACCEPT, "bob": JOIN}, Script(battle=[3] * 6))
    told = seen_by(events, "cat")
    assert "bob asks to join ann's attacking side in York: accepted" in told, told
    assert "ann and bob attack Invader army 1 in York (7.0, 6.8)" in told
    assert "ann: Henri, 1 knight; bob: Godfrey, 2 knights; the Invaders:" in told
    assert "ann loses 1 knight; bob loses 1 knight; the Invaders lose 3 Foot Soldiers" in told
    assert "ann, heading a coalition with bob, defeats Invader army 1 in York (Henri fighting)" in told
    assert state["edition_state"]["royal"]["garter_deeds"] == [
        {"round": 2, "army": "1", "lord": "Henri", "by": "defeat"}]
    assert state["towns"]["York"]["controller"] == "ann"


def test_the_coalitions_decider_may_take_its_own_losses_first() -> None:
    """7.0: the decider's plan says whose troops fall first: bob's `own_losses_last: no` - his own."""
    mail = JOIN + "  battle_plan: {own_losses_last: no}\n"
    state, events = play(allies(), {"ann": ATTACK + ACCEPT, "bob": mail}, Script(battle=[3] * 6))
    assert "bob loses 2 knights; the Invaders lose 3 Foot Soldiers" in texts(events), texts(events)


def test_a_family_not_accepted_does_not_join_and_its_troops_stay_out() -> None:
    """The cautious default (DESIGN.md): ann accepts no one - bob's asking is refused, told to all,
    and his knights take no part."""
    state, events = play(allies(), {"ann": ATTACK, "bob": JOIN}, Script(battle=[0] * 3))
    told = seen_by(events, "cat")
    assert "bob asks to join ann's attacking side in York: refused" in told
    assert "ann attacks Invader army 1 in York" in told
    assert sum(1 for p in state["pawns"].values() if p["family"] == "bob" and p["location"] == "York") == 2
    assert state["lords"]["Godfrey"]["captive_of"] is None
    assert "ann's melee roll blank; the Invaders' melee roll blank blank" in told


def test_a_beaten_coalition_leaves_every_familys_nobles_the_invaders_captives() -> None:
    """7.5, 7.6, 6.7: the coalition's last troop falls: Henri and Godfrey are the Invaders' captives."""
    state, events = play(allies(), {"ann": ATTACK + ACCEPT, "bob": JOIN}, Script(battle=[0, 0, 3, 3, 0, 3, 0]))
    assert state["lords"]["Henri"]["captive_of"] == "invaders", texts(events)
    assert state["lords"]["Godfrey"]["captive_of"] == "invaders"
    assert "garter_deeds" not in (state["edition_state"].get("royal") or {})


def test_each_confederate_hires_its_own_crossbowmen() -> None:
    """R138: each family of the side reads its own plan's `hire_crossbowmen` (its card, its shillings)."""
    state = allies()
    state["edition_state"].update(copy.deepcopy({**MERCENARY, "family_card": {"bob": "mercenary_1"}}))
    mail = JOIN + "  battle_plan: {hire_crossbowmen: 1}\n"
    state, events = play(state, {"ann": ATTACK + ACCEPT, "bob": mail}, Script(battle=[3] * 12))
    assert "bob hires 1 mercenary crossbowman into York (11.1)" in seen_by(events, "ann"), texts(events)
    assert "You pay 2 shillings for 1 crossbowman" in seen_by(events, "bob")
    assert "You pay 2 shillings" not in seen_by(events, "ann")


# -- 3. PASSAGE lent to the Invaders (10.2, 6.4, R146) ------------------------------------------

def lending(armies: dict, lords: dict | None = None, units: dict | None = None, towns: dict | None = None,
            extra: dict | None = None, **more) -> dict:
    """The Invaders phase of round 2; ann holds a PASSAGE, her Henri is in London (``extra``: more
    edition state)."""
    return position(phase="invaders", hands={"ann": ["passage"]},
                    lords={"Henri": {"family": "ann", "at": "London"}, **(lords or {})}, units=units or {},
                    towns=towns or {}, edition_state={**invaders(armies), **(extra or {})}, **more)


STORMS = [{"card": "storms", "target": "IV"}]
LEND_STORMS = "orders:\n  - passage: storms\n"


def test_a_passage_lent_leads_an_invader_army_out_of_the_storms() -> None:
    """10.2 "A Player may even help Invaders move": STORMS over the North hold Invader army 1 in York
    (2.5, R80); ann's PASSAGE, played before the compass draw, lets it take one Move out (to
    Nottingham), public; its second Move is held by STORMS again (the road back to York is closed)."""
    state, events = play(lending({"1": {"city": "York", "foot": 0}}, effects=STORMS), {"ann": LEND_STORMS},
                         Script(compass=["S", "N", "S"]))
    told = seen_by(events, "bob")
    assert "ann plays PASSAGE: storms (10.2)" in told, texts(events)
    assert "ann lends the Invaders a PASSAGE: Invader army 1 may take one Move from York through the STORMS" in told
    assert "Invader army 1 moves from York to Nottingham: the compass draws South (6.3)" in told
    assert "Invader army 1 moves from Nottingham to Coventry: the compass draws North (no road open), then South" \
        in told
    assert state["families"]["ann"]["hand"] == []


def test_without_a_passage_the_storms_hold_the_army() -> None:
    state, events = play(lending({"1": {"city": "York", "foot": 0}}, effects=STORMS), {}, Script())
    assert "Invader army 1 stays in York: STORMS close every road out of York (2.5)" in texts(events)


def fortified_york(mail: str, dice: list[int], owner: str = "bob", **more) -> tuple[dict, list]:
    """Invader army 1's Leader in York (3 Foot Soldiers join him, 6.1: 9 SP, 2 melee dice) and bob's
    Godfrey and 1 knight in York's Fortified City (-2 melee dice for its attacker, 7.4)."""
    state = lending({"1": {"city": "York", "foot": 0}}, lords={"Godfrey": {"family": owner, "at": "York"}},
                    units={"York": {owner: {"knight": 1}}}, towns={"York": {"controller": owner, "fortress": "city"}},
                    **more)
    return play(state, {"ann": mail} if mail else {}, Script(battle=dice, compass=["S", "S", "S", "S"]))


def test_a_passage_lent_takes_the_invaders_through_the_tunnels_into_a_fortified_city() -> None:
    """10.2 "Aid Invaders: A Player can help Invaders attacking other Players who are defending a
    Stronghold or Fortified City": without it the Invaders' 2 dice, -2 for the Fortified City, are
    none and they do not attack (R14); ann's PASSAGE cancels the penalty: they attack bob and roll 2
    dice ('fff' 'fff': the knight and Godfrey fall)."""
    state, events = fortified_york("orders:\n  - passage: tunnels\n    against: bob\n    army: 1\n", [3, 3, 0])
    told = seen_by(events, "cat")
    assert "ann plays PASSAGE: aid invaders (10.2)" in told, texts(events)
    assert ("ann lends the Invaders a PASSAGE: the Invaders attack bob's Fortified City in York through the "
            "tunnels: no melee penalty (10.2, 7.4, R146)") in told
    assert "Invader army 1 attacks bob's 1 Troops in York (6.4)" in told
    assert "the Invaders' melee roll 'fff' 'fff'" in told


def test_a_burghers_secret_routes_lead_the_invaders_through_the_tunnels_for_a_treasure() -> None:
    """11.2: "Take Secret Routes, just like a PASSAGE Card", a Treasure marker spent (11.3)."""
    state, events = fortified_york("orders:\n  - passage: tunnels\n    by: burgher\n", [3, 3, 0],
                                   extra={"family_card": {"ann": "burgher_1"}})
    assert "ann takes the Secret Routes of their BURGHER (a Treasure marker, 11.2): aid invaders" in texts(events)
    assert state["families"]["ann"]["hand"] == ["passage"]


def test_the_tunnels_are_never_lent_against_the_lenders_own_fortress() -> None:
    """10.2 "help Invaders attacking other Players": ann's own Fortified City holds (R14), her card kept."""
    state, events = fortified_york("orders:\n  - passage: tunnels\n", [], owner="ann")
    assert "the Invaders roll no melee die against ann's Fortified City (6.4, 7.4, R14)" in texts(events)
    assert state["families"]["ann"]["hand"] == ["passage"]


def test_without_the_tunnels_the_fortified_city_holds() -> None:
    state, events = fortified_york("", [])
    assert "the Invaders roll no melee die against bob's Fortified City (6.4, 7.4, R14)" in texts(events)


def test_an_unused_passage_lapses_told_to_its_lender_alone_and_the_card_stays() -> None:
    """R146: no STORMS hold any army: the order lapses, told to ann alone (her hand is hers)."""
    state, events = play(lending({"1": {"city": "York", "foot": 0}}), {"ann": LEND_STORMS}, Script(compass=["S", "S"]))
    assert "Your `passage: storms` order was not used: no Invader army's Move was held by STORMS" \
        in seen_by(events, "ann")
    assert "passage" not in seen_by(events, "bob").lower()
    assert state["families"]["ann"]["hand"] == ["passage"]


def test_the_lenders_order_is_echoed_and_offered_in_the_template() -> None:
    state = lending({"1": {"city": "York"}}, effects=STORMS)
    view = RULES.view(state, "ann")
    assert "- passage: storms" in RULES.order_template(view, "ann")
    assert "passage" not in RULES.order_template(RULES.view(state, "bob"), "bob")
    mail = "orders:\n  - passage: tunnels\n    army: 1\n    against: bob\n"
    result = check(state, "ann", mail)
    assert RULES.echo_orders(view, "ann", result.orders).strip().endswith(
        "- passage: tunnels\n    army: 1\n    against: bob")


def test_passage_lent_errors_name_the_problem() -> None:
    state = lending({"1": {"city": "York"}}, lords={"Godfrey": {"family": "bob", "at": "Lincoln"}})
    assert "you hold no PASSAGE card (10.2)" in errors(state, "bob", LEND_STORMS)
    assert "`passage: fly` is no use of a PASSAGE lent to the Invaders" in errors(state, "ann",
                                                                                   "orders:\n  - passage: fly\n")
    assert "you cannot aid the Invaders against yourself" in errors(
        state, "ann", "orders:\n  - passage: tunnels\n    against: ann\n")
    assert "`against:` goes with `passage: tunnels` only" in errors(
        state, "ann", "orders:\n  - passage: storms\n    against: bob\n")
    assert "there is no Invader army 7 in the game" in errors(state, "ann", LEND_STORMS + "    army: 7\n")
    assert "you have 1 PASSAGE play(s) from your hand: one order each" in errors(
        state, "ann", LEND_STORMS + "  - passage: tunnels\n")
    assert "you have no BURGHER card on your family board (11.2)" in errors(
        state, "ann", LEND_STORMS + "    by: burgher\n")
