"""Fief: England's standing `surprise:` triggers (2.6, 10.0-10.5, 11.0; rulings R41, R157).

The core's standing triggers are France's (G.4): an underground card or an ambush at a battle's
start, the uprising triggers. England's Opportunity cards are played "at any time" (2.6, l.158):
by mail at once, or held for the start of a phase (`at_phase_start:`) with the keys of their
at-once form, checked and carried out by England's own rules (R157). France's other triggers
are refused in England from rules version 3, naming the line and what England offers."""
from __future__ import annotations

from typing import Any

import pytest

from pbem.games.fief.battle.template import battle_template
from pbem.games.fief.positions import scenario_state
from pbem.games.fief_england.rules import RULES
from pbem.orders.yamlsafe import load
from test_fief_scenarios import FixedRng, run_step


def position(hand: list[str], version: int = 3) -> dict[str, Any]:
    """Kirsten (Hugh Bishop of Canterbury, Godfrey Duke of the South East, both in York) and Dave
    (Henri in York, Estrid in Lincoln bearing the Heresy marker), in round-2/cards-play."""
    return {"players": ["kirsten", "dave"], "round": 2, "phase": "cards", "hands": {"kirsten": hand},
            "options": {"rules_version": version},
            "lords": {"Hugh": {"family": "kirsten", "at": "York", "titles": ["bishop 4"]},
                      "Godfrey": {"family": "kirsten", "at": "York", "titles": ["south_east"]},
                      "Henri": {"family": "dave", "at": "York"},
                      "Estrid": {"family": "dave", "at": "Lincoln", "female": True}},
            "units": {"York": {"kirsten": {"knight": 1}, "dave": {"man_at_arms": 1}},
                      "Lincoln": {"dave": {"man_at_arms": 1}}},
            "towns": {"York": {"controller": "kirsten"}, "Lincoln": {"controller": "dave"}},
            "edition_state": {"heresy": "Estrid"}}


def cards_play_state(hand: list[str], version: int = 3) -> Any:
    state, _ = run_step(RULES, scenario_state(position(hand, version), "fief_england"), {}, None)
    assert RULES.phase(state).id == "round-2/cards-play"
    return state


def resolve(state: Any, kirsten: str) -> tuple[Any, list]:
    """Round-2/cards-play resolved with Kirsten's mail and Dave's default orders: the state, the events."""
    view = RULES.view(state, "kirsten")
    mail = RULES.check_orders(view, "kirsten", load(kirsten))
    assert mail.ok, mail.errors
    orders = {"kirsten": mail.orders, "dave": RULES.default_orders(RULES.view(state, "dave"), "dave")}
    done = RULES.resolve(state, orders, FixedRng(None))
    return done.state, list(done.events)


def check(hand: list[str], triggers: str, version: int = 3):
    """Kirsten's cards-play mail giving ``triggers`` (the lines under `surprise:`, from line 4)."""
    view = RULES.view(cards_play_state(hand, version), "kirsten")
    return RULES.check_orders(view, "kirsten", load("orders: []\npolicies:\n  surprise:\n" + triggers))


FRANCE_ONLY = [
    ("at_battle_start", ["passage"], "    - at_battle_start: York\n      card: underground\n"),
    ("ambush", ["ambush"], "    - ambush: Henri\n      in: York\n"),
    ("uprising_when_taxed", ["rebellion"], "    - uprising_when_taxed: York\n"),
    ("uprising_on_famine", ["rebellion"], "    - uprising_on_famine: York\n"),
    ("uprising_before_move", ["rebellion"], "    - uprising_before_move: York\n"),
    ("uprising_at_battle_start", ["rebellion"], "    - uprising_at_battle_start: York\n"),
    ("underground_in_uprising", ["passage"], "    - underground_in_uprising: York\n"),
]


@pytest.mark.parametrize("kind, hand, text", FRANCE_ONLY, ids=[k for k, _, _ in FRANCE_ONLY])
def test_each_france_only_trigger_is_refused_in_england_naming_the_line_r157(kind: str, hand: list[str],
                                                                             text: str) -> None:
    result = check(hand, text)
    assert not result.ok
    [error] = result.errors
    assert error.line == 4, error
    assert f"`{kind}:`" in error.message and "Fief: England" in error.message, error
    assert "at_phase_start" in error.hint and "at_once" in error.hint, error


def test_a_standing_justice_strikes_englands_heresy_bearer_r157() -> None:
    """10.4: JUSTICE eliminates the bearer of the Heresy marker (France's G.4.2.4 looked for an
    assassin marker, which England has not, and refused Estrid). The marker may move before the
    phase starts (10.3), so the bearer is checked when the trigger fires, as an at-once play is
    checked again when carried out."""
    state = cards_play_state(["justice"])
    text = "orders: []\npolicies:\n  surprise:\n    - at_phase_start: income\n      play: justice\n      on: Estrid\n"
    after, _ = run_step(RULES, state, {"orders": {"kirsten": text, "dave": "orders: []\n"}}, None)
    assert "Estrid" not in after["lords"] and "heresy" not in after["edition_state"]
    assert "justice" not in after["families"]["kirsten"]["hand"]


def test_a_standing_justice_on_a_lord_without_the_marker_is_told_when_it_fires_r157() -> None:
    state = cards_play_state(["justice"])
    text = "orders: []\npolicies:\n  surprise:\n    - at_phase_start: income\n      play: justice\n      on: Henri\n"
    after, events = resolve(state, text)
    assert "Henri" in after["lords"]
    told = " ".join(e.text for e in events)
    assert "does not bear the Heresy marker" in told and "assassin" not in told


@pytest.mark.parametrize("card, key", [("underground", "free: Henri"), ("uprising", "in: York")])
def test_a_standing_france_card_is_refused_naming_englands_cards_r157(card: str, key: str) -> None:
    """France's underground and uprising cards are not England's (PASSAGE, REBELLION: 10.1, 10.2)."""
    result = check(["passage", "rebellion"], f"    - at_phase_start: movement\n      play: {card}\n      {key}\n")
    assert not result.ok
    [error] = result.errors
    assert error.line == 5 and "not an Opportunity card" in error.message, error
    assert "passage" in error.hint and "rebellion" in error.hint, error


def test_a_standing_rebellion_takes_englands_keys_r157() -> None:
    """10.1's at-once form (`in:`, `cards:`), not France's uprising (which is refused at once)."""
    result = check(["rebellion"], "    - at_phase_start: movement\n      play: rebellion\n      in: York\n")
    assert not result.errors or "uprising" not in str(result.errors[0])


def test_a_standing_assassination_fires_with_englands_effects_r157() -> None:
    """10.3: the sponsor takes the Heresy marker (R31) and the victim's troops scatter (R92); the
    trigger fires as Income starts, once round-2/cards-play is resolved."""
    state = cards_play_state(["assassination"])
    text = ("orders: []\npolicies:\n  surprise:\n    - at_phase_start: income\n      play: assassination\n"
            "      on: Henri\n      sponsor: Godfrey\n")
    after, _ = run_step(RULES, state, {"orders": {"kirsten": text, "dave": "orders: []\n"}}, None)
    assert "Henri" not in after["lords"]
    assert after["edition_state"]["heresy"] == "Godfrey"
    assert "assassination" not in after["families"]["kirsten"]["hand"]
    dave_in_york = [p for p in after["pawns"].values() if p["family"] == "dave" and p["location"] == "York"]
    assert not dave_in_york, "Henri's troops scatter (10.3)"
    assert not after["families"]["kirsten"]["policies"]["surprise"], "the trigger is spent"


def test_the_standing_opportunity_trigger_comes_back_from_its_echo_r157() -> None:
    view = RULES.view(cards_play_state(["assassination"]), "kirsten")
    text = ("orders: []\npolicies:\n  surprise:\n    - at_phase_start: movement\n      round: 3\n"
            "      play: assassination\n      on: Henri\n      sponsor: Godfrey\n")
    first = RULES.check_orders(view, "kirsten", load(text))
    assert first.ok, first.errors
    echo = RULES.echo_orders(view, "kirsten", first.orders)
    again = RULES.check_orders(view, "kirsten", load(echo))
    assert again.ok and again.orders == first.orders, echo


def test_a_version_2_game_keeps_the_core_triggers() -> None:
    """A game created before R157 reads the triggers as it did: an ambush trigger is accepted."""
    assert check(["ambush"], "    - ambush: Henri\n      in: York\n", version=2).ok


@pytest.mark.parametrize("version, offered", [(3, False), (2, True)])
def test_the_battle_template_offers_an_ambush_trigger_only_where_it_is_read_r157(version: int,
                                                                                 offered: bool) -> None:
    """The Battle Phase's template showed France's `ambush:` trigger to a holder of England's
    AMBUSH card; from version 3 it is refused, so it is not shown."""
    view = RULES.view(cards_play_state(["ambush"], version), "kirsten")
    text = battle_template({**view, "phase": "battle"}, "kirsten")
    assert ("- ambush:" in text) is offered, text


def test_the_report_describes_a_standing_opportunity_trigger_in_englands_keys_r157() -> None:
    """The view's policies text (the report) says which card waits for which phase, with its keys."""
    state = cards_play_state(["ambush", "assassination"])
    text = ("orders: []\npolicies:\n  surprise:\n    - at_phase_start: battle\n      play: assassination\n"
            "      on: Henri\n      sponsor: Godfrey\n")
    after, _ = resolve(state, text)
    lines = RULES.view(after, "kirsten")["policies_text"]
    assert "surprise: assassination (on Henri, sponsor Godfrey) at the start of battle" in lines, lines


def test_a_standing_rebellion_fires_with_the_resolutions_dice_r157() -> None:
    """10.1: a REBELLION held for Income's start, on Bristol under FAMINE (2.5): 1 Battle Die (a 0
    here) +1 hit, rolled with the resolution's dice, kills Dave's man-at-arms; with no troop left
    there his noble is slain too ("No Captives")."""
    spec = position(["rebellion"])
    spec["lords"]["Henri"]["at"] = "Bristol"
    spec["units"] = {"York": {"kirsten": {"knight": 1}}, "Bristol": {"dave": {"man_at_arms": 1}},
                     "Lincoln": {"dave": {"man_at_arms": 1}}}
    spec["effects"] = [{"card": "famine", "target": "I"}]
    state, _ = run_step(RULES, scenario_state(spec, "fief_england"), {}, None)
    text = ("orders: []\npolicies:\n  surprise:\n    - at_phase_start: income\n      play: rebellion\n"
            "      in: Bristol\n")
    view = RULES.view(state, "kirsten")
    mail = RULES.check_orders(view, "kirsten", load(text))
    assert mail.ok, mail.errors
    orders = {"kirsten": mail.orders, "dave": RULES.default_orders(RULES.view(state, "dave"), "dave")}
    rng = FixedRng({"battle": [0]})
    after = RULES.resolve(state, orders, rng).state
    assert rng.used["battle"] == 1
    assert not [p for p in after["pawns"].values() if p["location"] == "Bristol"]
    assert "Henri" not in after["lords"] and "rebellion" not in after["families"]["kirsten"]["hand"]
