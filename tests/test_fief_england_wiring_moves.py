"""Fief: England's functions wired into its phases (issue 11, part EM), each through the engine
(the rules' order check and resolution, as the judge runs them): PASSAGE in Movement (10.2,
through the core's ``MoveCard`` hook, France's underground card's code), a retainer's extra
Moves (2.12), REBELLION, AMBUSH and ASSASSINATION against the Invaders (6.11-6.13), the
BURGHER's votes in Parliament (9.2, 11.2). The rulebook's examples of these are scenario files
too (tests/scenarios/fief_england/movement-10.2-*, opportunity-6.1*-*, parliament-*, ...).
"""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from pbem.games import rules_for
from pbem.games.fief_england import retainers
from pbem.games.fief_england.card_data import Retainer, england_cards
from pbem.orders.yamlsafe import load

from test_fief_scenarios import run_step, starting_state

GAME = "fief_england"
RULES = rules_for(GAME)


def start(position: dict[str, Any]):
    return starting_state(GAME, RULES, {"round": 2, **position})


def step(state, orders: dict[str, str], expect: dict | None = None, dice: dict | None = None, resolve: bool = True):
    new, _ = run_step(RULES, state, {"orders": orders, "expect": expect or {}, "resolve": resolve}, dice)
    return new


def errors(state, player: str, text: str) -> str:
    check = RULES.check_orders(RULES.view(state, player), player, load(text))
    return " | ".join(str(e) for e in check.errors)


# -- PASSAGE in Movement (10.2) ------------------------------------------------------------------

FORTRESS = {"players": ["kirsten", "dave"], "phase": "movement",
            "lords": {"Anabel": {"family": "kirsten", "at": "Winchester", "female": True},
                      "William": {"family": "dave", "at": "York"}},
            "units": {"Winchester": {"kirsten": {"knight": 2}}, "Canterbury": {"dave": {"man_at_arms": 1}},
                      "York": {"dave": {"knight": 1}}},
            "towns": {"Canterbury": {"controller": "dave", "fortress": "stronghold"}}}
TO_LONDON = "orders:\n  - move: Anabel\n    with: all\n    path: [Canterbury]\n"


def test_without_passage_a_refused_entry_waits_in_the_outskirts():
    s = step(start(FORTRESS), {"kirsten": TO_LONDON}, {"events": [{"kind": "entry_refused"}]})
    assert s["towns"]["Canterbury"]["controller"] == "dave"


def test_passage_if_needed_enters_a_fortress_without_its_owners_leave():
    """10.2: "locals helping you into an Opponent's Fortification" - played only because Dave
    refuses the entry (5.0); the army is placed inside."""
    s = step(start({**FORTRESS, "hands": {"kirsten": ["passage"]}}),
             {"kirsten": TO_LONDON + "    passage: if_needed\n"},
             {"events": [{"kind": "passage", "text": "avoid battle"},
                         {"kind": "trigger_fired", "text": "dave refuses kirsten's army entry", "audience": ["kirsten"]},
                         {"kind": "lord_moved", "text": "Winchester -> Canterbury (passage)"}],
              "no_events": ["entry_refused"]})
    assert s["families"]["kirsten"]["hand"] == []


def test_passage_if_needed_is_not_played_where_the_step_needs_none():
    s = step(start({**FORTRESS, "hands": {"kirsten": ["passage"]},
                    "policies": {"dave": {"safe_passage": {"others": "allow"}}}}),
             {"kirsten": TO_LONDON + "    passage: if_needed\n"}, {"no_events": ["passage", "entry_refused"]})
    assert s["families"]["kirsten"]["hand"] == ["passage"]


def test_passage_by_burgher_needs_the_card_on_the_family_board_and_a_treasure():
    s = start(FORTRESS)
    assert "you have no BURGHER card on your family board (11.2)" in errors(
        s, "kirsten", TO_LONDON + "    passage: {Canterbury: always, by: burgher}\n")
    s = start({**FORTRESS, "edition_state": {"family_card": {"kirsten": "burgher_1"},
                                             "treasures": {"kirsten": ["tax_tallage", "tax_tithe"]}}})
    assert "both of your Treasure markers already lie on played cards" in errors(
        s, "kirsten", TO_LONDON + "    passage: {Canterbury: always, by: burgher}\n")


def test_a_passage_order_is_echoed_as_it_is_read_again():
    from pbem.games.fief.echo.moves import movement_items
    s = start({**FORTRESS, "edition_state": {"family_card": {"kirsten": "burgher_1"}}})
    text = TO_LONDON + "    passage: {Canterbury: always, by: burgher}\n"
    check = RULES.check_orders(RULES.view(s, "kirsten"), "kirsten", load(text))
    assert check.ok, check.errors
    item = movement_items(check.orders)[0]
    assert item["passage"] == {"Canterbury": "always", "by": "burgher"}


def test_france_keeps_its_underground_card_and_refuses_passage():
    france = rules_for("fief_france")
    s = starting_state("fief_france", france, {"players": ["a", "b", "c"], "round": 2, "phase": "movement",
                                                "hands": {"a": ["underground"]},
                                                "lords": {"Baudoin": {"family": "a", "at": "Tours"}}})
    view = france.view(s, "a")
    ok = france.check_orders(view, "a", load("orders:\n  - move: Baudoin\n    path: [Poitiers]\n"
                                             "    underground: Poitiers\n"))
    assert ok.ok, ok.errors
    bad = france.check_orders(view, "a", load("orders:\n  - move: Baudoin\n    path: [Poitiers]\n"
                                              "    passage: Poitiers\n"))
    assert "unknown key `passage`" in " ".join(str(e) for e in bad.errors)


# -- a retainer's extra Moves (2.12, 5.0) ------------------------------------------------------------

@pytest.fixture
def swift(monkeypatch):
    """Retainer 2 entered as a game master would: one more Move a round, Spent when used."""
    cards = england_cards()
    entered = Retainer(2, "Retainer 2", True, "per_round", ({"effect": "extra_moves", "moves": 1},))
    monkeypatch.setattr(retainers, "england_cards",
                        lambda: dataclasses.replace(cards, retainers={**cards.retainers, 2: entered}))


RIDER = {"players": ["kirsten", "dave"], "phase": "movement",
         "lords": {"Anabel": {"family": "kirsten", "at": "Plymouth", "female": True},
                   "William": {"family": "dave", "at": "York"}},
         "units": {"Plymouth": {"kirsten": {"knight": 2}}, "York": {"dave": {"knight": 1}}},
         "edition_state": {"retainers": {"deck": [], "of": {"Anabel": 2}, "spent": []}}}
THREE = "orders:\n  - move: Anabel\n    with: all\n    path: [Exeter, Winchester, Canterbury]\n"


def test_three_moves_are_refused_without_the_retainer():
    s = start({**RIDER, "edition_state": {}})
    assert "Anabel has 2 Moves; this path needs 3" in errors(s, "kirsten", THREE)


def test_a_retainers_extra_move_takes_the_noble_and_her_troops_three_moves(swift):
    s = step(start(RIDER), {"kirsten": THREE},
             {"events": [{"kind": "lord_moved", "text": "Plymouth -> Exeter -> Winchester -> Canterbury",
                          "data": {"outcome": "completed"}},
                         {"kind": "retainer_spent", "text": "Anabel's retainer Retainer 2 is Spent"}],
              "forces": {"Canterbury": {"kirsten": {"knight": 2}}}})
    assert s["edition_state"]["retainers"]["spent"] == [2]


def test_a_spent_retainer_gives_no_extra_move(swift):
    s = start({**RIDER, "edition_state": {"retainers": {"deck": [], "of": {"Anabel": 2}, "spent": [2]}}})
    assert "Anabel has 2 Moves; this path needs 3" in errors(s, "kirsten", THREE)


def test_a_retainer_not_needed_is_not_spent(swift):
    s = step(start(RIDER), {"kirsten": "orders:\n  - move: Anabel\n    with: all\n    path: [Exeter]\n"},
             {"no_events": ["retainer_spent"]})
    assert s["edition_state"]["retainers"]["spent"] == []


# -- the BURGHER's votes in Parliament (9.2, 11.2, 11.3; Ex 9-2 is a scenario) --------------------

SITTING = {"players": ["george", "dave", "kirsten"], "phase": "parliament",
           "lords": {"Henri": {"family": "george", "at": "London", "titles": ["king", "south_east"]},
                     "Philippa": {"family": "dave", "at": "York", "female": True, "titles": ["north"]},
                     "Hugh": {"family": "kirsten", "at": "Exeter", "titles": ["south_west"]}},
           "edition_state": {"family_card": {"dave": "burgher_2"}}}
DAVE_BURGHER = "orders:\n  - vote: for\n    burgher: yes\n"


def test_the_burgher_votes_only_when_parliament_sits_and_no_treasure_is_spent_otherwise():
    s = step(start(SITTING), {"george": "orders:\n  - vote: against\n", "dave": DAVE_BURGHER},
             {"events": [{"kind": "parliament_not_convened"}], "no_events": ["burgher_votes"]})
    assert "treasures" not in s["edition_state"]


def test_the_second_burgher_card_adds_5_votes_and_carries_the_tax():
    s = start(SITTING)
    assert RULES.view(s, "kirsten")["parliament"]["burghers"] == {"dave": 5}   # the card lies face up
    step(s, {"george": "orders:\n  - convene: yes\n  - vote: against\n", "dave": DAVE_BURGHER},
         {"events": [{"kind": "parliament_vote", "text": ["dave 6 (BURGHER 5) FOR", "6 of 8 votes for"]}]})


def test_a_treasure_spent_since_the_mail_leaves_the_burgher_silent():
    s = start(SITTING)
    check = RULES.check_orders(RULES.view(s, "dave"), "dave", load(DAVE_BURGHER))
    assert check.ok, check.errors
    s["edition_state"]["treasures"] = {"dave": ["tax_tallage", "burgher_rebellion"]}   # played at once since
    king = RULES.check_orders(RULES.view(s, "george"), "george", load("orders:\n  - convene: yes\n"))
    out = RULES.resolve(s, {"george": king.orders, "dave": check.orders,
                            "kirsten": RULES.default_orders(RULES.view(s, "kirsten"), "kirsten")}, None)
    lost = [e for e in out.events if e.kind == "burgher_votes_lost"]
    assert lost and "both of your Treasure markers" in lost[0].text and lost[0].audience.sees("dave") \
        and not lost[0].audience.sees("kirsten")
    assert "1 of 3 votes for" in next(e.text for e in out.events if e.kind == "parliament_vote")


def test_no_burgher_no_treasure_refused_in_the_mail():
    s = start({**SITTING, "edition_state": {"family_card": {"dave": "burgher_1"},
                                            "treasures": {"dave": ["tax_tallage", "tax_tithe"]}}})
    assert "both of your Treasure markers already lie on played cards" in errors(s, "dave", DAVE_BURGHER)


@pytest.fixture
def heralds(monkeypatch):
    """Retainer 2 adds 2 votes in Parliament, retainer 3 2 votes in elections only."""
    cards = england_cards()
    herald = Retainer(2, "Retainer 2", True, "per_round", ({"effect": "votes", "votes": 2, "in": "parliament"},))
    crier = Retainer(3, "Retainer 3", True, "per_round", ({"effect": "votes", "votes": 2, "in": "election"},))
    monkeypatch.setattr(retainers, "england_cards",
                        lambda: dataclasses.replace(cards, retainers={**cards.retainers, 2: herald, 3: crier}))


def test_a_retainers_parliament_votes_count_in_parliament_and_an_election_ones_do_not(heralds):
    s = start({**SITTING, "edition_state": {"retainers": {"deck": [], "of": {"Philippa": 2, "Hugh": 3},
                                                          "spent": []}}})
    assert RULES.view(s, "george")["parliament"]["votes"] == {"george": 1, "dave": 3, "kirsten": 1}
    s = step(s, {"george": "orders:\n  - convene: yes\n", "dave": "orders:\n  - vote: for\n"},
             {"events": [{"kind": "parliament_vote", "text": "3 of 5 votes for"},
                         {"kind": "retainer_spent", "text": "Philippa's retainer Retainer 2 is Spent"}]})
    assert s["edition_state"]["retainers"]["spent"] == [2]
