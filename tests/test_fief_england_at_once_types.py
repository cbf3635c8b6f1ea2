"""Fief: England's at-once orders given a value of the wrong shape (issue 21): `garter: [Henri]`,
`garter: {x: 1}` and `draw_excalibur: [Henri]` raised TypeError while the mail was read. Every
at-once form the order page shows (docs/orders-fief-england.md), each of its keys given a list, a
mapping, a number or nothing, is answered with errors naming the line, never a crash."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.games.fief.positions import scenario_state
from pbem.games.fief_england.rules import RULES
from pbem.orders.yamlsafe import load
from test_fief_scenarios import run_step

DOC = Path(__file__).parent.parent / "docs" / "orders-fief-england.md"
WRONG = {"a list": ["Henri"], "a mapping": {"x": 1}, "a number": 7, "nothing": None, "an empty list": []}
HAND = ["rebellion", "passage", "assassination", "justice", "ambush", "good_weather", "mercenary", "tax",
        "bishop", "abbess", "bountiful_harvest"]
POSITION = {"players": ["ann", "bob"], "round": 2, "hands": {"ann": HAND},
            "lords": {"Hugh": {"family": "ann", "at": "York", "titles": ["king", "marches"]},
                      "Godfrey": {"family": "ann", "at": "York", "titles": ["bishop 4", "south_east"]},
                      "Lucia": {"family": "ann", "at": "Oxford", "female": True},
                      "Alienor": {"family": "ann", "at": "Durham", "female": True},
                      "William": {"family": "ann", "at": "York"},
                      "Henri": {"family": "bob", "at": "York"},
                      "Anabel": {"family": "bob", "at": "Berwick", "female": True},
                      "Estrid": {"family": "bob", "at": "York", "female": True, "captive_of": "ann"},
                      "Edward": {"family": "bob", "at": "York", "captive_of": "ann"}},
            "units": {"York": {"ann": {"knight": 1}, "bob": {"man_at_arms": 1}},
                      "Oxford": {"ann": {"man_at_arms": 1}}},
            "towns": {"York": {"controller": "ann"}},
            "effects": [{"card": "famine", "target": "VI"}, {"card": "storms", "target": "III"}]}


def plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def shown_forms() -> list[dict[str, Any]]:
    """Every `at_once:` item of the order page's YAML blocks, and the Garter's indented one."""
    forms = []
    for block in re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        if "at_once:" in block:
            forms += [plain(item) for item in load(block).get("at_once") or []]
    assert "- garter: Hugh" in DOC.read_text(encoding="utf-8")
    return forms + [{"garter": "Hugh"}, {"interdiction": "Henri", "by": "Edward"}]


FORMS = shown_forms()
CASES = [(form, key, shape) for form in FORMS for key in form for shape in WRONG]


def view_in(phase: str) -> dict[str, Any]:
    state = scenario_state({**POSITION, "phase": "cards" if phase == "cards_play" else phase}, "fief_england")
    if phase == "cards_play":
        state, _ = run_step(RULES, state, {}, None)
    return RULES.view(state, "ann")


VIEWS = {phase: view_in(phase) for phase in ("cards_play", "purchase", "movement")}


def mail(item: Any) -> Any:
    """The item as a mail's `at_once:` list; None written as nothing after its key."""
    return load(yaml.safe_dump({"at_once": [item]}, sort_keys=False).replace(": null\n", ":\n"))


def test_the_order_page_shows_every_at_once_verb() -> None:
    shown = {next(iter(form)) for form in FORMS}
    assert shown >= {"garter", "draw_excalibur", "pigeon", "interdiction", "kings_will", "hire", "skull", "play",
                     "lend_crossbowmen", "borrow_crossbowmen", "scorch"}, shown


@pytest.mark.parametrize("phase", list(VIEWS))
@pytest.mark.parametrize("form, key, shape", CASES,
                         ids=[f"{next(iter(f))}-{k}-{s.replace(' ', '_')}" for f, k, s in CASES])
def test_a_value_of_the_wrong_shape_is_an_error_naming_the_line(phase, form, key, shape) -> None:
    item = {**form, key: WRONG[shape]}
    check = RULES.check_at_once(VIEWS[phase], "ann", mail(item))
    assert all(error.line for error in check.errors), check.errors
    if "play" in form and phase == "cards_play":   # the same play in round-N/cards-play's orders
        text = yaml.safe_dump({"orders": [item]}, sort_keys=False).replace(": null\n", ":\n")
        check = RULES.check_orders(VIEWS[phase], "ann", load(text))
        assert all(error.line for error in check.errors), check.errors


@pytest.mark.parametrize("item, line, form", [
    ({"garter": ["Henri"]}, 2, "garter: Hugh"), ({"garter": {"x": 1}}, 2, "garter: Hugh"),
    ({"garter": None}, 2, "garter: Hugh"),
    ({"draw_excalibur": ["Henri"]}, 2, "draw_excalibur: Henri"),
    ({"draw_excalibur": {"x": 1}}, 2, "draw_excalibur: Henri"),
    ({"kings_will": "Marches", "to": ["Anabel"]}, 3, "to: "), ({"hand_title": "Marches", "to": {"x": 1}}, 3, "to: "),
])
def test_the_crashes_of_issue_21_name_the_form_to_write(item, line, form) -> None:
    check = RULES.check_at_once(VIEWS["purchase"], "ann", mail(item))
    assert not check.ok
    error = check.errors[0]
    assert error.line == line and "names one noble" in error.message and form in error.hint, error


def test_a_name_in_another_case_is_read() -> None:
    check = RULES.check_at_once(VIEWS["movement"], "ann", mail({"draw_excalibur": "hugh"}))
    assert "not a noble in play" not in " ".join(e.message for e in check.errors)
