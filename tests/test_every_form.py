"""Issue 21, section 3: every form a player is shown is a test.

For each game (Fief: France at 4 and 6 players, Fief: England at 2, 3 and 4, Kard és Korona basic
and advanced) the golden playthroughs are replayed to each phase that takes orders (and a few
positions reach the phases those games never open: England's Parliament and the votes of its
Hear Ye phase). There each player's order form, as the judge ends the report with it, is sent
back as it is, with each commented order block uncommented as a player would (`# ` removed, the
indentation kept, a block's continuation lines with it), and with all of them together, through
the judge's reading of a mail (tests/forms_support.py). Each mail must be accepted — its echo then
read back to the same orders, and the phase resolved with them without an exception — or refused
with errors that name a line of the mail: never a YAML mistake of the form's own, never a raise.

The work is bounded by counts, not time: each distinct block of a phase kind is tried once, each
verb of a phase kind in at most PER_KIND forms.
"""
from __future__ import annotations

import functools

import pytest

from forms_support import Case, Golden, Scenario, Source, scenario_positions, chosen_cases, kind, openings, problems
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

# Cases whose fix belongs to another part of issue 21 (grep "awaiting fix"): tried apart below,
# each expected to fail until its fix is merged.
AWAITING: dict[str, str] = {}


def _report(found: dict[str, list[str]]) -> str:
    return "\n\n".join(f"{case}:\n  " + "\n  ".join(p[:1500] for p in found[case]) for case in found)


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.name)
def test_every_order_form_uncommented_is_accepted_or_refused_with_its_line(source: Source) -> None:
    cases = chosen_cases(source, PER_KIND)
    _, opened = openings(source)
    ordering = {kind(o.phase.id) for o in opened if o.phase.deciders}
    assert {kind(_phase_of(c)) for c in cases} >= ordering   # every phase opened that takes orders
    found = {c.id: p for c in cases if c.id not in AWAITING and (p := problems(c))}
    assert not found, f"{len(found)} of {len(cases)} mails from the forms are answered wrongly:\n\n" + _report(found)


@pytest.mark.parametrize("game_type", sorted(ORDERING))
def test_every_phase_that_takes_orders_is_reached(game_type: str) -> None:
    reached = {kind(o.phase.id) for s in SOURCES if s.game_type == game_type
               for o in openings(s)[1] if o.phase.deciders}
    assert reached == ORDERING[game_type]


def _phase_of(case: Case) -> str:
    _, opened = openings(case.source)
    return next(o.phase.id for o in opened if o.at == case.at)


def _awaiting() -> list:
    return [pytest.param(case_id, marks=pytest.mark.xfail(strict=True, reason=f"awaiting fix: {why}"), id=case_id)
            for case_id, why in AWAITING.items()]


@pytest.mark.parametrize("case_id", _awaiting())
def test_a_form_case_awaiting_its_fix(case_id: str) -> None:
    source = next(s for s in SOURCES if case_id.startswith(s.name + ":"))
    case = next(c for c in chosen_cases(source, PER_KIND) if c.id == case_id)
    assert problems(case) == []

