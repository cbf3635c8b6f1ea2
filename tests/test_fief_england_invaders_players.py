"""The players and the Invaders, last pieces (issue 11, part EV): crossbowmen hired in the
Invaders' Phase 6 battles (11.1, R138), coalitions against the Invaders in Phase 7 (7.0, 13.3,
R137, R140) and PASSAGE lent to the Invaders (10.2, R141) - each through the engine, by mail."""
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
