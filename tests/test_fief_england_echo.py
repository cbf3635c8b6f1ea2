"""Fief: England's orders written back by the judge (docs/orders.md "The judge's answers"): every
England `play:` form of round-N/cards-play (the fortune cards 2.7-2.8, the Opportunity cards
10.0-10.5, the character cards 2.13-2.14, 11.1-11.2) is echoed in England's own keys, and the
echo read again gives the same orders. Issue 21: a TAX tithe and a REBELLION crashed the echo,
which wrote France's forms (`target`, `on`)."""
from __future__ import annotations

from typing import Any

import pytest

from pbem.games.fief.positions import scenario_state
from pbem.games.fief_england.rules import RULES
from pbem.orders.yamlsafe import load
from test_fief_scenarios import run_step

INVADERS = {"armies": {"1": {"city": "York", "leader": True, "foot": 5, "captives": [], "holds": False,
                             "follows": None},
                       "2": {"city": None, "leader": True, "foot": 0, "captives": [], "holds": False,
                             "follows": None}},
            "gone": [], "destroyed": [], "plague": {"round": 0, "armies": []}}


def cards_play_view(hand: list[str]) -> dict[str, Any]:
    """Kirsten's view in round-2/cards-play: Hugh Bishop of Canterbury, Godfrey the Duke of the
    South East, both in York with an Invader Leader; FAMINE on the South West (Bristol's Region);
    Dave's Henri in York, his Edward a captive of Kirsten's, his Estrid bearing the Heresy marker."""
    position = {"players": ["kirsten", "dave"], "round": 2, "phase": "cards", "hands": {"kirsten": hand},
                "lords": {"Hugh": {"family": "kirsten", "at": "York", "titles": ["bishop 4"]},
                          "Godfrey": {"family": "kirsten", "at": "York", "titles": ["south_east"]},
                          "Lucia": {"family": "kirsten", "at": "Oxford", "female": True},
                          "Herbert": {"family": "kirsten", "at": "York"},
                          "Henri": {"family": "dave", "at": "York"},
                          "Edward": {"family": "dave", "at": "York", "captive_of": "kirsten"},
                          "Estrid": {"family": "dave", "at": "Lincoln", "female": True}},
                "units": {"York": {"kirsten": {"knight": 1}, "dave": {"man_at_arms": 1}},
                          "Oxford": {"kirsten": {"man_at_arms": 1}}, "Lincoln": {"dave": {"man_at_arms": 1}}},
                "towns": {"York": {"controller": "kirsten"}},
                "effects": [{"card": "famine", "target": "I"}],
                "edition_state": {"heresy": "Estrid", "invaders": INVADERS}}
    state, _ = run_step(RULES, scenario_state(position, "fief_england"), {}, None)
    assert RULES.phase(state).id == "round-2/cards-play"
    return RULES.view(state, "kirsten")


def round_trip(view: dict[str, Any], text: str) -> str:
    """Check ``text`` as Kirsten's mail, echo the orders understood, check the echo: the same."""
    first = RULES.check_orders(view, "kirsten", load(text))
    assert first.ok, "\n".join(map(str, first.errors))
    echo = RULES.echo_orders(view, "kirsten", first.orders)
    again = RULES.check_orders(view, "kirsten", load(echo))
    assert again.ok, f"the echo is refused:\n{echo}\n" + "\n".join(map(str, again.errors))
    assert again.orders == first.orders, f"the echo\n{echo}\nreads as\n{again.orders}\nnot\n{first.orders}"
    return echo


PLAYS = [
    # the two crashes of issue 21
    (["tax"], "- play: tax\n  tithe: Canterbury\n", "tithe: Canterbury"),
    (["rebellion"], "- play: rebellion\n  in: Bristol\n", "in: Bristol"),
    # the fortune cards (2.7, 2.8)
    (["tax"], "- play: tax\n  tallage: South East\n  lord: Godfrey\n", "tallage: VI"),
    (["bountiful_harvest"], "- play: bountiful harvest\n  on: Marches\n", "on: III"),
    (["good_weather"], "- play: good_weather\n  on: 6\n", "on: VI"),
    # the Opportunity cards (10.1-10.5, 6.11, 6.12)
    (["rebellion", "rebellion", "passage"],
     "- play: rebellion\n  in: Bristol\n  cards: 2\n  burgher: yes\n  passage: card\n  invaders_first: yes\n",
     "cards: 2"),
    (["passage"], "- play: passage\n  free: Edward\n", "free: Edward"),
    (["passage"], "- play: passage\n  free: Edward\n  to: Lincoln\n", "to: Lincoln"),
    ([], "- play: passage\n  free: Edward\n  by: burgher\n", "by: burgher"),
    (["assassination"], "- play: assassination\n  on: Henri\n  sponsor: Hugh\n", "sponsor: Hugh"),
    (["assassination"], "- play: assassination\n  leader: 1\n", "leader: 1"),
    (["justice"], "- play: justice\n  on: Estrid\n", "on: Estrid"),
    (["ambush"], "- play: ambush\n  on: Henri\n  by: Herbert\n", "by: Herbert"),
    (["ambush"], "- play: ambush\n  leader: 1\n  by: Herbert\n", "leader: 1"),
    # the character cards (2.13, 2.14, 11.1, 11.2)
    (["bishop"], "- play: bishop\n  on: Herbert\n  district: Exeter\n", "district: Exeter"),
    (["archbishop"], "- play: archbishop\n  on: Herbert\n  district: York\n", "district: York"),
    (["archbishop"], "- play: archbishop\n  on: Hugh\n", "district: Canterbury"),
    (["abbess"], "- play: abbess\n  on: Lucia\n  in: Oxford\n", "in: Oxford"),
    (["abbess"], "- play: abbess\n  on: Lucia\n  in: Oxford\n  abbey: Autumn\n", "abbey: Abbey of the Autumn"),
    (["mercenary"], "- play: mercenary\n", "play: mercenary"),
    (["burgher"], "- play: burgher\n", "play: burgher"),
]


@pytest.mark.parametrize("hand, play, written", PLAYS, ids=[p.split("\n")[0] + " " + w for _, p, w in PLAYS])
def test_every_cards_play_form_is_echoed_in_englands_keys_and_read_back(hand, play, written) -> None:
    view = cards_play_view(hand)
    echo = round_trip(view, "orders:\n" + "".join("  " + line + "\n" for line in play.splitlines()))
    assert written in echo


def test_a_mail_of_several_plays_comes_back_in_the_order_written() -> None:
    view = cards_play_view(["tax", "rebellion", "mercenary"])
    echo = round_trip(view, "orders:\n  - play: mercenary\n  - play: tax\n    tithe: 4\n"
                            "  - play: rebellion\n    in: Bristol\n")
    assert echo.index("mercenary") < echo.index("tithe") < echo.index("rebellion")


def test_a_standing_trigger_playing_an_england_character_card_is_echoed() -> None:
    """A `surprise:` trigger playing the MERCENARY card at a phase's start: its echo has no `on:`."""
    view = cards_play_view(["mercenary"])
    echo = round_trip(view, "orders: []\npolicies:\n  surprise:\n    - at_phase_start: movement\n"
                            "      play: mercenary\n")
    assert "on:" not in echo


def test_every_england_scenario_order_set_comes_back_from_its_echo() -> None:
    """As France's (tests/test_fief_echo.py): each order set a scenario's mail gives and the judge
    accepts, echoed and read again against the same view, gives the same orders."""
    from pathlib import Path

    import yaml
    from test_fief_scenarios import starting_state
    checked = 0
    for path in sorted((Path(__file__).parent / "scenarios" / "fief_england").glob("*.yaml")):
        scenario = yaml.safe_load(path.read_text(encoding="utf-8"))
        if "position" not in scenario:
            continue   # a battle's rounds alone, no orders
        state = starting_state("fief_england", RULES, scenario["position"])
        steps = scenario.get("steps") or [{"orders": scenario.get("orders"), "expect": scenario.get("expect")}]
        for step in steps:
            for player, text in (step.get("orders") or {}).items():
                view = RULES.view(state, player)
                check = RULES.check_orders(view, player, load(text))
                if check.ok:
                    echo = RULES.echo_orders(view, player, check.orders)
                    again = RULES.check_orders(view, player, load(echo))
                    assert again.ok and again.orders == check.orders, f"{path.name}: {echo}\n{again.errors}"
                    checked += 1
            state, _ = run_step(RULES, state, step, step.get("dice", scenario.get("dice")))
    assert checked > 50, checked
