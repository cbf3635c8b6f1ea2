"""G.1.2's fourth placement class: a lord coming into play goes "in an empty town or a town
controlled by another player with their agreement". By mail the agreement is the controller's
standing `placement` policy (ruling 42), read on every path that places a lord as coming into
play: lord cards (G.1), ransoms (4.1), released captives (6.3). Rules version 2 on; a game of
version 1 keeps ruling 21 (no town of another family)."""
from __future__ import annotations

from pbem.games.fief.board import load_board
from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position
from pbem.games.fief.state import FiefState
from pbem.games.fief.hear_ye.titles import entry_classes
from pbem.judge.render import render

from fief_support import check, errors, resolve

PLAYERS = ["ann", "bob", "cid"]
V2 = {"rules_version": 2}
# ann's only lord is cid's captive: ann has no town, so her lords come into play in class 4.
LORDS = {"Beaudouin": {"family": "ann", "at": "Lyon", "captive_of": "cid"},
         "Charles": {"family": "bob", "at": "Paris"}, "Arthur": {"family": "cid", "at": "Lyon"}}
UNITS = {"Paris": {"bob": {"knight": 2}}, "Lyon": {"cid": {"man_at_arms": 2}}}
AGREE = {"bob": {"placement": {"allow": ["ann"], "refuse": [], "others": "refuse"}}}


def position(phase: str = "cards", options: dict | None = None, **more) -> dict:
    data = {"players": PLAYERS, "phase": phase, "lords": LORDS, "units": UNITS,
            "options": V2 if options is None else options, **more}
    state = build_position(data, "fief_france").to_json()
    if phase == "cards":   # on to step D, where lord cards are played
        orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in RULES.phase(state).deciders}
        state, _ = resolve(state, orders)
    return state


def play(state: dict, text: str) -> tuple[dict, list]:
    sent = check(state, "ann", text)
    assert sent.ok, sent.errors
    return resolve(state, {"ann": sent.orders})


def test_the_placement_policy_is_a_standing_permission() -> None:
    state = position(hands={"bob": ["tax"]})
    sent = check(state, "bob", "policies:\n  placement: {allow: [Ann], others: refuse}\n")
    assert sent.ok and sent.orders["policies"] == AGREE["bob"]
    assert "no player 'anne' in this game" in errors(state, "bob", "policies:\n  placement: {allow: [anne]}\n")
    assert "you need no placement from yourself" in errors(state, "bob", "policies:\n  placement: {allow: [bob]}\n")
    assert "did you mean `placement`" in errors(state, "bob", "policies:\n  placment: allow\n")
    agreed = position(policies=AGREE)
    report = render(RULES.report_template(), view=RULES.view(agreed, "bob"), me="bob")
    assert "placement: allow ann; refuse everyone else" in report
    # Secret: a standing policy is seen by its owner only (and the game master).
    assert RULES.view(agreed, "ann") == RULES.view(position(), "ann")
    assert RULES.view(agreed, None)["policies_by_family"]["bob"] == AGREE["bob"]


def test_a_lord_card_comes_into_play_in_a_town_whose_controller_agrees() -> None:
    state = position(policies=AGREE, hands={"ann": ["Quentin"]})
    state, events = play(state, "orders:\n  - play: Quentin\n    in: Paris\n")
    assert state["lords"]["Quentin"]["location"] == "Paris"
    assert state["towns"]["Paris"]["controller"] == "bob"          # control stays with bob
    placed = next(e for e in events if e.kind == "lord_placed")
    assert placed.audience.kind == "all" and placed.data["agreed_by"] == "bob"
    assert "comes into play in Paris, controlled by bob who agrees (their `placement` policy)" in placed.text


def test_without_the_agreement_the_lord_goes_to_an_empty_town_and_the_family_is_told_why() -> None:
    state = position(hands={"ann": ["Quentin"]})
    state, events = play(state, "orders:\n  - play: Quentin\n    in: Paris\n")
    first_empty = next(t for t in load_board("fief_france").towns if t not in ("Paris", "Lyon"))
    assert state["lords"]["Quentin"]["location"] == first_empty
    assert state["towns"][first_empty]["controller"] == "ann"
    why = next(e for e in events if e.kind == "lord_place_not_taken")
    assert why.audience.players == ("ann",)
    assert ("Quentin cannot come into play in Paris: Paris is controlled by bob, whose `placement` policy does not "
            "agree") in why.text


def test_an_agreement_is_used_when_named_or_when_no_town_is_empty() -> None:
    st = FiefState.from_json(position(policies=AGREE))
    board = load_board("fief_france")
    fourth = entry_classes(st, board, "ann")[3]
    assert fourth[-1] == "Paris" and "Lyon" not in fourth       # cid does not agree
    assert fourth[:-1] == [t for t in board.towns if t not in ("Paris", "Lyon")]   # empty towns first
    st.families["bob"].policies = {}
    assert "Paris" not in entry_classes(st, board, "ann")[3]


def every_town_held_by_cid() -> dict:
    return {t: {"cid": {"man_at_arms": 1}} for t in load_board("fief_france").towns}


def test_a_released_captive_is_placed_with_the_agreement_when_no_town_is_empty() -> None:
    # 6.3: "a released captive lord is placed as if they are coming into play (G.1.2)".
    lords = {"Beaudouin": {"family": "ann", "at": "Lyon", "captive_of": "cid"},
             "Arthur": {"family": "cid", "at": "Lyon"}}
    agree = {"cid": {"placement": {"allow": [], "refuse": [], "others": "allow"}}}
    data = {"players": PLAYERS, "phase": "battle", "lords": lords, "units": every_town_held_by_cid(),
            "options": V2}
    state = build_position({**data, "policies": agree}, "fief_france").to_json()
    sent = check(state, "cid", "orders:\n  - release: Beaudouin\n")
    assert sent.ok, sent.errors
    after, events = resolve(state, {"cid": sent.orders})
    first = next(iter(load_board("fief_france").towns))
    assert after["lords"]["Beaudouin"]["location"] == first and after["towns"][first]["controller"] == "cid"
    assert any(e.kind == "lord_placed" and "cid who agrees" in e.text for e in events)
    refused = build_position(data, "fief_france").to_json()
    after, events = resolve(refused, {"cid": sent.orders})
    assert after["lords"]["Beaudouin"]["location"] is None
    assert any(e.kind == "lord_unplaced" for e in events)


def test_a_ransomed_lord_is_placed_in_the_town_named_with_the_agreement() -> None:
    # 4.1: "a freed lord is placed as if they came into play (G.1.2)".
    state = position("purchase", policies=AGREE, deniers={"ann": 10})
    state, events = play(state, "orders:\n  - ransom: Beaudouin\n    place: Paris\n")
    assert state["lords"]["Beaudouin"]["location"] == "Paris" and state["lords"]["Beaudouin"]["captive_of"] is None
    assert state["families"]["ann"]["deniers"] == 10 - 2 and state["families"]["cid"]["deniers"] == 5 + 2


def test_rules_version_1_keeps_ruling_21() -> None:
    old = position(options={"rules_version": 1}, hands={"ann": ["Quentin"]})
    text = errors(old, "bob", "policies:\n  placement: {allow: [ann]}\n")
    assert "line 2: `placement`" in text and "rules version 1" in text and "remove `placement:`" in text
    # never honoured in version 1
    stored = position(options={"rules_version": 1}, policies=AGREE, hands={"ann": ["Quentin"]})
    stored, events = play(stored, "orders:\n  - play: Quentin\n    in: Paris\n")
    assert stored["lords"]["Quentin"]["location"] != "Paris"
    assert any(e.kind == "lord_place_not_taken" and "rules version 1 (ruling 21)" in e.text for e in events)


def test_a_captive_escaping_underground_is_placed_in_the_town_named_with_the_agreement() -> None:
    # G.4.2.2: the freed lords are placed as coming into play (G.1.2).
    state = position(policies=AGREE, hands={"ann": ["underground"]})
    state, events = play(state, "orders:\n  - play: underground\n    free: Beaudouin\n    in: Paris\n")
    assert state["lords"]["Beaudouin"]["location"] == "Paris" and state["lords"]["Beaudouin"]["captive_of"] is None
    assert any(e.kind == "lord_placed" and "bob who agrees" in e.text for e in events)
