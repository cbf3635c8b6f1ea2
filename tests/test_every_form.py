"""Issue 21, section 3: every form a player is shown is a test.

For each game (Fief: France at 4 and 6 players, Fief: England at 2, 3 and 4, Kard és Korona basic
and advanced) the golden playthroughs are replayed to each phase that takes orders, and the
scenarios' positions (tests/scenarios) add what those games never show: kings, captives, bishops,
England's Parliament and its ballots. There each player's order form, as the judge ends the report
with it, is sent back as it is (it must be accepted: it is the default), with each commented order
block uncommented as a player would (`# ` removed, the indentation kept, a block's continuation
lines with it), alone, filled in (its TOWN, NOBLE... from the player's view) and all together,
through the judge's reading of a mail (tests/forms_support.py). Each mail must be accepted — its
echo then read back to the same orders, and the phase resolved with them without an exception — or
refused with errors that name a line the player wrote: never a YAML mistake of the form's own,
never a raise. Likewise every example of the order-language pages (docs/orders*.md), fed at a
phase its section names, and each key of each form given a value of the wrong shape.

The work is bounded by counts, not time: each distinct block of a phase kind is tried once, each
verb of a phase kind in at most PER_KIND forms, each page example in one phase of each source.
"""
from __future__ import annotations

import functools
import re

import pytest

from forms_support import (DOCS, ENVELOPE_LINES, WRONG_SHAPES, Case, Golden, Opening, Scenario, Source, chosen_cases,
                           doc_examples, example_mail, form_keys, form_of, kind, likeliest_player, mail_problems,
                           openings, personal_problems, problems, reshaped_cases, scenario_positions, shape_mail)
from test_fief_full_game import SEED4, SEED6
from test_kek_full_games import PLAYERS as KEK_PLAYERS

PER_KIND = 3


def _kek(version: str, count: int) -> Golden:
    return Golden(f"kard_es_korona-{version}-{count}p.json", "kard_es_korona", KEK_PLAYERS[:count],
                  f"full-{version}-{count}", (("version", version),))


SOURCES: list[Source] = [
    Golden("fief_france-4p.json", "fief_france", ("alice", "bob", "carol", "dave"), SEED4),
    Golden("fief_france-6p.json", "fief_france", ("alice", "bob", "carol", "dave", "erin", "frank"), SEED6),
    Golden("fief_england-2p.json", "fief_england", ("alice", "bob"), "england-2a"),
    Golden("fief_england-3p.json", "fief_england", ("alice", "bob", "carol"), "england-3a"),
    Golden("fief_england-4p.json", "fief_england", ("alice", "bob", "carol", "dave"), "england-4b"),
    _kek("basic", 4),
    _kek("advanced", 6),
    # the scenarios' positions: kings, captives, bishops, sieges, ships, Parliament, ballots
    Scenario("fief_france-scenarios", "fief_france", functools.partial(scenario_positions, "fief_france")),
    Scenario("fief_england-scenarios", "fief_england", functools.partial(scenario_positions, "fief_england")),
]
# The phases of each game that take orders (their round tables), each reached by the sources above.
ORDERING = {
    "fief_france": {"starting-towns", "hear-ye", "hear-ye-votes", "cards-draw", "cards-play", "purchase", "movement",
                    "battle"},
    "fief_england": {"starting-towns", "hear-ye", "hear-ye-votes", "parliament", "cards-draw", "cards-play",
                     "purchase", "movement", "invaders", "battle"},
    "kard_es_korona": {"placement", "recruitment", "movement", "election-judge_royal", "election-treasurer",
                       "election-palatine"},
}

def _report(found: dict[str, list[str]]) -> str:
    return "\n\n".join(f"{case}:\n  " + "\n  ".join(p[:1500] for p in found[case]) for case in found)


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.name)
def test_every_order_form_uncommented_is_accepted_or_refused_with_its_line(source: Source) -> None:
    cases = chosen_cases(source, PER_KIND)
    _, opened = openings(source)
    ordering = {kind(o.phase.id) for o in opened if o.phase.deciders}
    assert {kind(_phase_of(c)) for c in cases} >= ordering   # every phase opened that takes orders
    found = {c.id: p for c in cases if (p := problems(c))}
    assert not found, f"{len(found)} of {len(cases)} mails from the forms are answered wrongly:\n\n" + _report(found)


@pytest.mark.parametrize("game_type", sorted(ORDERING))
def test_every_phase_that_takes_orders_is_reached(game_type: str) -> None:
    reached = {kind(o.phase.id) for s in SOURCES if s.game_type == game_type
               for o in openings(s)[1] if o.phase.deciders}
    assert reached == ORDERING[game_type]


def _phase_of(case: Case) -> str:
    _, opened = openings(case.source)
    return next(o.phase.id for o in opened if o.at == case.at)


# -- every example of the order-language pages ---------------------------------------------------
# Each page's game, and the phase of the examples under a heading that names none (a heading's
# beginning -> the phase kind); a heading naming a phase (`round-N/purchase`) says it itself.
PAGES: dict[str, tuple[str, dict[str, str]]] = {
    "orders.md": ("fief_france", {"The envelope": "movement", "The judge's answers": "starting-towns",
                                  "Example: a complete order mail": "purchase"}),
    "orders-fief-france.md": ("fief_france", {"Fief: France — setup and purchase orders": "purchase"}),
    "orders-fief-france-battle.md": ("fief_france", {"Lower ransoms": "purchase",
                                                     "Fief: France — Battle Phase orders": "battle"}),
    "orders-fief-france-cards.md": ("fief_france", {"Fief: France — Cards Phase orders": "cards-play"}),
    "orders-fief-france-diplomacy.md": ("fief_france", {"Fief: France — diplomacy orders": "purchase"}),
    "orders-fief-france-hear-ye.md": ("fief_france", {}),
    "orders-fief-france-movement.md": ("fief_france", {"Fief: France — movement orders": "movement"}),
    "orders-fief-england.md": ("fief_england", {
        "Two players": "battle", "Movement": "movement", "Battles": "battle", "Fortune and Opportunity": "cards-play",
        "Diplomacy and carrier pigeons": "movement", "Character cards, the Church": "cards-play",
        "The Order of the Garter": "movement"}),
    "orders-kard-es-korona.md": ("kard_es_korona", {"Gifts of garas": "movement"}),
}


def test_every_order_language_page_is_tried() -> None:
    pages = {p.name for p in DOCS.glob("orders*.md")}
    assert pages == set(PAGES)
    unplaced = [e.id for page, (_, table) in PAGES.items() for e in doc_examples(page)
                if e.phase_kind(table) is None and personal_problems(e) is None]
    assert not unplaced, f"examples under no heading that names their phase (add it to PAGES): {unplaced}"


def _where(game_type: str, phase_kind: str, two_families: bool) -> list[tuple[Source, Opening]]:
    """The first opening of this phase kind in each source of the game; in Fief: England, of a
    game of two players (13.7: a mail of `families:`) for an example of one, else of more."""
    out = []
    for source in (s for s in SOURCES if s.game_type == game_type):
        first = next((o for o in openings(source)[1] if o.phase.deciders and kind(o.phase.id) == phase_kind
                      and (game_type != "fief_england" or (len(o.players) == 2) == two_families)), None)
        if first is not None:
            out.append((source, first))
    return out


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_example_of_an_order_page_is_accepted_or_refused_with_its_line(page: str) -> None:
    game_type, table = PAGES[page]
    found: dict[str, list[str]] = {}
    tried = 0
    for example in doc_examples(page):
        personal = personal_problems(example)
        if personal is not None:   # a change of secret or mail format: no phase, no orders
            found.update({example.id: personal} if personal else {})
            continue
        phase_kind = example.phase_kind(table)
        assert phase_kind is not None, example.id
        where = _where(game_type, phase_kind, bool(re.search(r"^families:", example.text, re.MULTILINE)))
        assert where, f"{example.id}: no game reaches a {phase_kind} phase"
        for source, opening in where:
            rules = openings(source)[0]
            player = likeliest_player(rules, opening, example.text)
            text, named = example_mail(example, player, opening.phase.id)
            problems_ = mail_problems(rules, opening, player, text, named)
            tried += 1
            if problems_:
                found[f"{example.id} at {source.name}:{opening.at} ({player})"] = problems_
    assert tried
    assert not found, f"{len(found)} of {tried} examples are answered wrongly:\n\n" + _report(found)


# -- each key of each form, given a value of the wrong shape -------------------------------------

@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.name)
def test_each_key_of_a_form_given_a_value_of_the_wrong_shape_is_refused_at_its_line(source: Source) -> None:
    """`orders: nonsense`, `policies: [x]`, `diplomacy:` left empty...: a player's slip of the
    form's shape, answered like any mistake, with the key's line (or accepted, as an empty key may
    be); tried once per phase kind and key."""
    rules, opened = openings(source)
    found: dict[str, list[str]] = {}
    tried: set[tuple[str, str]] = set()
    for opening in opened:
        for player in opening.phase.deciders[:1]:
            form = form_of(rules, opening, player)
            for key in form_keys(form or ""):
                if (kind(opening.phase.id), key) in tried:
                    continue
                tried.add((kind(opening.phase.id), key))
                for value in WRONG_SHAPES:
                    mail = shape_mail(player, opening.phase.id, key, value)
                    # its line, or the document's first for another key it leaves missing
                    wrong = mail_problems(rules, opening, player, mail, {1, ENVELOPE_LINES + 1})
                    if wrong:
                        found[f"{source.name}:{opening.at}:{player}: `{key}: {value}`"] = wrong
    assert tried
    assert not found, f"{len(found)} wrong answers:\n\n" + _report(found)


# -- each key of the forms' orders, its value written as a list or a mapping ---------------------

@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.name)
def test_each_order_key_given_a_list_or_a_mapping_is_refused_at_its_line(source: Source) -> None:
    """`- garter: [Henri]`, `to: {Henri: 1}`: each key of each verb of each phase kind once,
    filled in."""
    cases = reshaped_cases(source, PER_KIND)
    found = {c.id: p for c in cases if (p := problems(c))}
    assert cases
    assert not found, f"{len(found)} of {len(cases)} mails are answered wrongly:\n\n" + _report(found)
