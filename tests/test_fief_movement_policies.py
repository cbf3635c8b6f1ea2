"""Standing policies (DESIGN.md): parsing with lines and fixes, merging, and the answers."""
from __future__ import annotations

from pbem.games.fief.edition import load_edition
from pbem.games.fief.policies import (check_policies, default_loss_order, describe, loss_order, merge_policies,
                                      permits)
from pbem.orders.yamlsafe import load

VIEW = {"game": "fief_france", "turn_order": ["marc", "marie", "enguerand"], "me": "marc"}
FRANCE = load_edition("fief_france")
DEFAULT_LOSS_ORDER = default_loss_order(FRANCE)


def test_the_default_loss_order_is_frances_by_price_then_the_guard():
    """The cheapest pawns die first (4.3), the royal guard last (1.5.5): from the edition record."""
    assert DEFAULT_LOSS_ORDER == ("man_at_arms", "archer", "knight", "bombard", "queens_sergeant", "kings_knight")
    assert default_loss_order(load_edition("fief_england")) == (   # England 13.1: its guard last too
        "man_at_arms", "archer", "knight", "bombard", "trebuchet", "royal_man_at_arms", "royal_knight")


def check(text: str):
    return check_policies(VIEW, "marc", load(text)["policies"])


def test_safe_passage_canonical_form():
    canonical, errors = check("policies:\n  safe_passage: {allow: [Marie], refuse: enguerand, others: Allow}\n")
    assert errors == []
    assert canonical == {"safe_passage": {"allow": ["marie"], "refuse": ["enguerand"], "others": "allow"}}


def test_short_forms():
    canonical, errors = check("policies:\n  safe_passage: allow\n  besieged_may_leave: refuse\n")
    assert errors == []
    assert canonical["safe_passage"] == {"allow": [], "refuse": [], "others": "allow"}
    assert canonical["besieged_may_leave"]["others"] == "refuse"
    canonical, errors = check("policies:\n  safe_passage: {allow: [marie]}\n")
    assert canonical["safe_passage"]["others"] == "refuse"   # the cautious default


def test_errors_with_lines_and_fixes():
    _, errors = check("policies:\n  safe_pasage: {allow: [marie]}\n")
    assert errors[0].line == 2 and "unknown policy `safe_pasage`" in str(errors[0]) and "safe_passage" in str(errors[0])
    _, errors = check("policies:\n  safe_passage:\n    allow: [mary]\n")
    assert errors[0].line == 3 and "no player 'mary'" in str(errors[0]) and "marie" in str(errors[0])
    _, errors = check("policies:\n  safe_passage: {allow: [marc]}\n")
    assert "you need no safe_passage from yourself" in str(errors[0])
    _, errors = check("policies:\n  safe_passage: {allow: [marie], refuse: [marie]}\n")
    assert "marie is named twice" in str(errors[0])
    _, errors = check("policies:\n  safe_passage: {others: maybe}\n")
    assert "`others` must be allow or refuse" in str(errors[0])
    _, errors = check("policies:\n  safe_passage: {alow: [marie]}\n")
    assert "unknown key `alow`" in str(errors[0]) and "allow" in str(errors[0])
    _, errors = check("policies: [safe_passage]\n")
    assert "must be a mapping" in str(errors[0])


def test_plague_losses_order():
    canonical, errors = check("policies:\n  plague_losses: [knights, man-at-arms]\n")
    assert errors == []
    assert canonical["plague_losses"][:3] == ["knight", "man_at_arms", "archer"]
    assert set(canonical["plague_losses"]) == set(DEFAULT_LOSS_ORDER)
    _, errors = check("policies:\n  plague_losses: [dragons]\n")
    assert "unknown unit kind 'dragons'" in str(errors[0])
    _, errors = check("policies:\n  plague_losses: [knight, knight]\n")
    assert "listed twice" in str(errors[0])


def test_permits_and_the_cautious_default():
    assert permits({}, "safe_passage", "marie") is False
    policy = {"safe_passage": {"allow": ["marie"], "refuse": ["enguerand"], "others": "allow"}}
    assert permits(policy, "safe_passage", "marie") is True
    assert permits(policy, "safe_passage", "enguerand") is False
    assert permits(policy, "safe_passage", "olivier") is True
    assert permits(policy, "besieged_may_leave", "marie") is False
    assert loss_order({}, FRANCE) == DEFAULT_LOSS_ORDER


def test_merge_keeps_what_is_not_given():
    stored = {"safe_passage": {"allow": ["marie"], "refuse": [], "others": "refuse"},
              "plague_losses": list(DEFAULT_LOSS_ORDER)}
    given = {"safe_passage": {"allow": [], "refuse": [], "others": "allow"}}
    merged = merge_policies(stored, given)
    assert merged["safe_passage"]["others"] == "allow"
    assert merged["plague_losses"] == list(DEFAULT_LOSS_ORDER)
    assert stored["safe_passage"]["others"] == "refuse"   # not mutated


def test_describe_for_reports():
    lines = describe({"safe_passage": {"allow": ["marie"], "refuse": [], "others": "refuse"}}, FRANCE)
    assert lines[0] == "safe_passage: allow marie; refuse everyone else"
    assert lines[1] == "besieged_may_leave: refuse everyone else"
