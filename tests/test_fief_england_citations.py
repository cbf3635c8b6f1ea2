"""Fief: England's reports cite England's rulebook, never France's (the core's texts cite France's
sections; England's record maps them, `sections:`, and the core routes each through
`Edition.cite` / `cite_in`).

- The detector: a section cited in parentheses that England's rulebook does not have (its table
  of contents below) is France's.
- Every England scenario (tests/scenarios/fief_england/: movement, cavalcades, coalitions,
  battles, cards, captives) played again: no event text cites a France section.
- The core's order forms for an England player (movement, cards, battle) cite England's.
- England's golden games' mails: tests/test_fief_england_examples.py (`france_sections`).
"""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path


import test_fief_scenarios as scenarios
from pbem.games.fief.edition import load_edition

SCENARIOS = Path(__file__).parent / "scenarios" / "fief_england"

# England's rulebook's sections (its headings, /work/shared/rules/fief-england.txt), and its phases.
ENGLAND_SECTIONS = frozenset(
    "1.0 2.0 2.1 2.2 2.3 2.4 2.5 2.6 2.7 2.8 2.9 2.10 2.11 2.12 2.13 2.14 2.15 3.0 3.1 3.2 3.3 3.4 4.0 4.1 "
    "4.2 4.3 4.4 4.5 4.6 4.7 4.8 4.9 5.0 5.1 5.2 5.3 5.4 5.5 6.0 6.1 6.2 6.3 6.4 6.5 6.6 6.7 6.8 6.9 6.10 "
    "6.11 6.12 6.13 7.0 7.1 7.2 7.3 7.4 7.5 7.6 7.7 7.8 7.9 7.10 8.0 8.1 8.2 8.3 8.5 9.0 9.1 9.2 9.3 10.0 "
    "10.1 10.2 10.3 10.4 10.5 11.0 11.1 11.2 11.3 12.0 12.1 12.2 12.3 12.4 13.1 13.2 13.3 13.4 13.5 13.6 "
    "13.7 13.8".split()) | {str(phase) for phase in range(1, 9)}
_SECTION = re.compile(r"(?:[A-J]\.\d+|\d+\.\d+)(?:\.\d+)*")
_RANGE = re.compile(rf"({_SECTION.pattern})-({_SECTION.pattern})")
# France's sections whose number England's rulebook also has, for another rule: as the core words them
FRANCE_SAME_NUMBER = re.compile(r"reshuffled to form a new one \(2\.4\)|draws nothing more \(2\.4\)|"
                                r"marries .*\(1\.1\)|a captive of .* cannot move \(5\)|"
                                r"(?:harbor|at sea|naval step|enters [^()]*)[^()]*\(5\.3\)|captives? [^()]*\(6\.3\)|"
                                r"\(5\.1: lords|\(5\.1, 5\.2\.4\)")


def france_sections(text: str) -> list[str]:
    """The sections ``text`` cites in parentheses (a list, a range, before a colon) that are no
    section of England's rulebook, and France's phrases citing a number England uses otherwise."""
    found = []
    for inside in re.findall(r"\(([^()]*)\)", text):
        for part in re.split(r",\s*|;\s*| and ", inside.split(": ")[0]):
            part = part.strip()
            ends = _RANGE.fullmatch(part)
            cited = ends.groups() if ends else (part,) if _SECTION.fullmatch(part) else ()
            found += [section for section in cited if section not in ENGLAND_SECTIONS]
    return found + FRANCE_SAME_NUMBER.findall(text)


def test_the_detector_knows_englands_sections_from_frances() -> None:
    assert france_sections("refused (standing policy, 5.2.3.1); back (G.4.2.2: underground)") == ["5.2.3.1",
                                                                                                "G.4.2.2"]
    assert france_sections("Melee (7.3-7.5), (10.3-10.5), (5.2, 5.3), (13.7), Battle Phase (7), (1, 2)") == []
    assert france_sections("must land in a harbor (5.3). (6.2.3-6.2.4)") == ["6.2.3", "6.2.4", "harbor (5.3)"]
    assert france_sections("Invader army 1 moves (6.3); kirsten attacks (5.2, 5.3)") == []   # England's own


def test_cite_in_maps_each_section_of_a_parenthesis_and_drops_one_england_has_not() -> None:
    england, france = load_edition("fief_england"), load_edition("fief_france")
    text = ("refused (standing policy, 5.2.3.1); (5.1: lords alone are no army); (3, 5.1.1) (6.4.1 example 1); "
            "(6.2.3.2, 6.4.1 example 2): besiege")
    assert france.cite_in(text) == text   # France's texts stay as they are
    assert england.cite_in(text) == ("refused (standing policy, 5.0); (FAQ l.881: lords alone are no army); "
                                     "(3, 5.0) (7.9); (7.4, 7.9): besiege")
    none = replace(england, sections={"G.2.1.2": "", "6.3": "7.6"})   # "": England has no such rule
    assert none.cite_in("die (G.2.1.2). Kept (6.3, G.2.1.2). (G.2.1.2: half)") == "die. Kept (7.6). (half)"


def played_texts() -> list[tuple[str, str]]:
    """Every event text of every England scenario played: (scenario, text)."""
    told: list[tuple[str, str]] = []
    check = scenarios.check_expected
    for path in sorted(SCENARIOS.glob("*.yaml")):
        def spy(rules, new, events, expect, name=path.name):
            told.extend((name, event.text) for event in events)
            return check(rules, new, events, expect)
        scenarios.check_expected = spy
        try:
            scenarios.run_scenario(path)
        finally:
            scenarios.check_expected = check
    return told


def test_no_event_of_englands_scenarios_cites_a_france_section() -> None:
    told = played_texts()
    assert len(told) > 300
    assert sorted({f"{name}: {text}" for name, text in told if france_sections(text)}) == []


# -- the core's texts no scenario reaches: order errors, a failed cavalcade, the order forms ------------

POSITION = {
    "players": ["kirsten", "george", "dave"], "phase": "movement", "round": 2,
    "lords": {"Lucia": {"family": "kirsten", "at": "Winchester"}, "Godfrey": {"family": "george", "at": "Oxford"},
              "William": {"family": "dave", "at": "York"}},
    "units": {"Winchester": {"kirsten": {"knight": 1, "man_at_arms": 1}}, "Canterbury": {"george": {"man_at_arms": 3}}},
    "towns": {"Canterbury": {"controller": "george"}},
    "policies": {"george": {"safe_passage": {"others": "refuse"}}}}


def england(position: dict):
    from pbem.games import rules_for
    rules = rules_for("fief_england")
    return rules, scenarios.starting_state("fief_england", rules, position)


def errors(rules, state, player: str, text: str) -> str:
    from pbem.orders.yamlsafe import load
    check = rules.check_orders(rules.view(state, player), player, load(text))
    assert not check.ok
    return " | ".join(str(e) for e in check.errors)


def test_the_cores_movement_and_battle_order_errors_cite_englands_rulebook() -> None:
    rules, state = england(POSITION)
    alone = errors(rules, state, "kirsten", "orders:\n  - move: Lucia\n    path: [Canterbury, London]\n"
                                            "    if_refused: cavalcade\n")
    assert "lords alone do not count as one (FAQ l.881, 5.2)" in alone, alone   # France: (5.1, 5.2.4)
    footmen = errors(rules, state, "kirsten", "orders:\n  - move: Lucia\n    with: {knight: 1, man_at_arms: 1}\n"
                                              "    path: [Canterbury, London]\n    if_refused: cavalcade\n")
    assert "an army of knights and lords only (5.2)" in footmen, footmen   # France: 5.2.4
    too_far = errors(rules, state, "kirsten", "orders:\n  - move: Lucia\n    path: [Canterbury, London, Canterbury]\n")
    assert france_sections(alone + footmen + too_far) == [], (alone, footmen, too_far)


def test_a_cavalcade_that_fails_and_a_refusal_cite_englands_rulebook() -> None:
    rules, state = england(POSITION)
    from pbem.orders.yamlsafe import load
    orders = {"kirsten": rules.check_orders(rules.view(state, "kirsten"), "kirsten", load(
        "orders:\n  - move: Lucia\n    with: {knight: 1}\n    path: [Canterbury, London]\n"
        "    if_refused: cavalcade\n")).orders}
    for player in rules.phase(state).deciders:
        orders.setdefault(player, rules.default_orders(rules.view(state, player), player))
    told = [e.text for e in rules.resolve(state, orders, scenarios.FixedRng({"battle": [0, 3, 3, 3, 3, 3]})).events]
    assert any("the cavalcade did not open the way (5.2)" in text for text in told), told   # France: 5.2.4
    assert any("(standing policy, 5.0)" in text for text in told), told   # France: 5.2.3.1
    assert [text for text in told if france_sections(text)] == []


def test_the_cores_order_forms_cite_englands_rulebook() -> None:
    rules, state = england({**POSITION, "hands": {"kirsten": ["passage"]}})
    form = rules.order_template(rules.view(state, "kirsten"), "kirsten")
    assert "(5.0)" in form and "now, 5.2)" in form and "(G." not in form, form
    assert france_sections(form) == [], form
