"""Fief: England's mercenary crossbowmen lent or rented to another family (E 11.1, l.746; rulings
R141-R144): by mail an offer (`lend_crossbowmen:`) and its acceptance (`borrow_crossbowmen:`),
at-once orders; the price goes by 2.15's rules and is the two families' secret.
"""
from __future__ import annotations

import copy
import json

from pbem.games import rules_for
from pbem.games.fief.at_once import at_once_template
from pbem.games.fief.state import FiefState
from pbem.games.fief_england import hired
from pbem.games.fief_england.battle.hire import check_hire
from pbem.orders.reading import Problems
from test_fief_england_crown import check, errors, seen_by, send   # the at-once mail's helpers
from test_fief_england_crown import position as crown_position
from test_fief_england_game import FixedD6

RULES = rules_for("fief_england")
FOUR = ["ann", "bob", "cat", "dan"]
CARD = {"family_card": {"ann": "mercenary_1"}, "mercenaries": {"mercenary_1": {"on_card": 3, "hired": []}}}


def position(**data) -> dict:
    """The Crown tests' position (Henri of ann in London, a Stronghold; Anabel of bob in York, a
    Fortified City; Hugh of cat in London; Lucia of dan in Oxford), 10 shillings each and ann's
    MERCENARY card with its 3 crossbowmen."""
    data.setdefault("deniers", {p: 10 for p in FOUR})
    data.setdefault("edition_state", copy.deepcopy(CARD))
    return crown_position(**data)


def lend(count: int, to: str, price: int = 0, paid_to: str = "Henri") -> str:
    lines = ["at_once:", f"  - lend_crossbowmen: {count}", f"    to: {to}"]
    if price:
        lines += [f"    price: {price}", f"    paid_to: {paid_to}"]
    return "\n".join(lines) + "\n"


def borrow(lender: str = "ann", paid_by: str = "", city: str = "") -> str:
    lines = ["at_once:", f"  - borrow_crossbowmen: {lender}"]
    lines += [f"    paid_by: {paid_by}"] if paid_by else []
    lines += [f"    in: {city}"] if city else []
    return "\n".join(lines) + "\n"


def mercs(state: dict) -> dict:
    return state["edition_state"]["mercenaries"]["mercenary_1"]


def crossbowmen(state: dict) -> list[dict]:
    return [p for p in state["pawns"].values() if p["kind"] == "crossbowman"]


def end_of_round(state: dict) -> tuple[dict, list]:
    st = FiefState.from_json(copy.deepcopy(state))
    events = hired.end_of_round(st)
    return st.to_json(), events


# -- a loan: no price, no pigeon (11.1, R141) ------------------------------------------------------

def test_a_loan_is_an_offer_then_an_acceptance_and_the_borrower_hires_them() -> None:
    state = position()
    state, events = send(state, "ann", lend(2, "bob"))
    assert "ann offers bob 2 crossbowmen" in seen_by(events, "bob") and mercs(state)["on_card"] == 3
    assert seen_by(events, "cat") == ""
    state, events = send(state, "bob", borrow())                       # no price: no die, no pigeon
    assert "ann lends 2 crossbowmen of its French Mercenary Crossbowmen card to bob" in seen_by(events, "dan")
    assert mercs(state)["on_card"] == 1 and mercs(state)["lent"] == {"bob": 2}
    assert not (state["edition_state"].get("pigeons") or {}).get("spent")
    assert RULES.view(state, "cat")["church"]["crossbowmen_lent"] == {"bob": 2}
    # R143: the borrower hires them as its own troops, paying 11.1's 2 shillings each
    state, events = send(state, "bob", "at_once:\n  - hire: 2\n    in: Oxford\n")
    assert "bob hires 2 mercenary crossbowmen into Oxford, lent by ann" in seen_by(events, "cat")
    assert state["families"]["bob"]["deniers"] == 6 and state["families"]["ann"]["deniers"] == 10
    assert [(p["family"], p["location"]) for p in crossbowmen(state)] == [("bob", "Oxford")] * 2
    assert "lent" not in mercs(state)
    # 11.1 (l.749): at the End of Round they return to the lender's card
    state, events = end_of_round(state)
    assert mercs(state)["on_card"] == 3 and not crossbowmen(state)


def test_the_borrowing_may_hire_them_at_once_into_a_city() -> None:
    state, _ = send(position(), "ann", lend(3, "bob"))
    state, events = send(state, "bob", borrow(city="York"))
    assert "bob hires 3 mercenary crossbowmen into York, lent by ann" in seen_by(events, "cat")
    assert state["families"]["bob"]["deniers"] == 4 and mercs(state)["on_card"] == 0
    assert len(crossbowmen(state)) == 3


def test_the_borrower_hires_its_own_cards_crossbowmen_first() -> None:
    es = copy.deepcopy(CARD)
    es["family_card"]["bob"] = "mercenary_2"
    es["mercenaries"]["mercenary_2"] = {"on_card": 1, "hired": []}
    state, _ = send(position(edition_state=es), "ann", lend(1, "bob"))
    state, _ = send(state, "bob", borrow())
    state, events = send(state, "bob", "at_once:\n  - hire: 2\n    in: York\n")
    assert "bob hires 2 mercenary crossbowmen into York, lent by ann" in seen_by(events, "bob")
    assert state["edition_state"]["mercenaries"]["mercenary_2"]["on_card"] == 0
    assert len(mercs(state)["hired"]) == 1


def test_lent_crossbowmen_fight_in_the_borrowers_battle_plan() -> None:   # R41, R138
    state, _ = send(position(), "ann", lend(2, "bob"))
    state, _ = send(state, "bob", borrow())
    st = FiefState.from_json(copy.deepcopy(state))
    events = hired.hire_in_battle(st, "bob", 3, "York")           # wants 3, 2 are lent to bob
    assert "bob hires 2" in events[0].text and st.families["bob"].deniers == 6
    view, problems = RULES.view(state, "bob"), Problems()         # the plan's word, checked on bob's view
    assert check_hire(view, "bob", 2, None, problems) == 2 and not list(problems)
    assert check_hire(view, "bob", 3, None, problems) == 0 and "only 2 crossbowmen" in str(list(problems))


# -- a rent: the price by 2.15 (R142) --------------------------------------------------------------

def test_a_rent_in_one_city_spends_the_borrowers_pigeon_and_rolls_no_die() -> None:   # R27
    state, events = send(position(), "ann", lend(2, "cat", price=3))
    assert "for 3 shilling(s), sent to Henri" in seen_by(events, "cat")
    state, events = send(state, "cat", borrow(paid_by="Hugh"))          # Hugh and Henri: both in London
    assert state["families"]["cat"]["deniers"] == 7 and state["families"]["ann"]["deniers"] == 13
    assert state["edition_state"]["pigeons"]["spent"] == {"cat": 1}
    assert mercs(state)["lent"] == {"cat": 2}


def test_married_allies_in_one_city_pay_without_a_pigeon() -> None:   # 9.0
    lords = {"Henri": {"family": "ann", "at": "London", "spouse": "Hilda"},
             "Hilda": {"family": "cat", "at": "London", "female": True, "spouse": "Henri"}}
    state, _ = send(position(lords=lords), "ann", lend(1, "cat", price=2))
    state, _ = send(state, "cat", borrow(paid_by="Hilda"))
    assert state["families"]["ann"]["deniers"] == 12 and mercs(state)["lent"] == {"cat": 1}
    assert not (state["edition_state"].get("pigeons") or {}).get("spent")


def test_a_rent_between_fortresses_arrives_on_1_to_5() -> None:
    state, _ = send(position(), "ann", lend(3, "bob", price=4))
    state, events = send(state, "bob", borrow(paid_by="Anabel"), rolls=[5])   # York to London
    assert "rolls 5, it arrives" in seen_by(events, "cat")
    assert state["families"]["bob"]["deniers"] == 6 and state["families"]["ann"]["deniers"] == 14
    assert mercs(state)["lent"] == {"bob": 3} and mercs(state)["on_card"] == 0


def test_a_lost_price_lends_nothing_and_the_offer_stands() -> None:   # 2.15: another pigeon may follow
    state, _ = send(position(), "ann", lend(3, "bob", price=4))
    state, events = send(state, "bob", borrow(paid_by="Anabel"), rolls=[6])
    assert "goes astray" in seen_by(events, "dan") and "none are lent" in seen_by(events, "bob")
    assert state["families"]["bob"]["deniers"] == 10 and state["families"]["ann"]["deniers"] == 10
    assert mercs(state)["on_card"] == 3 and "lent" not in mercs(state)
    assert state["edition_state"]["pigeons"]["spent"] == {"bob": 1}
    state, _ = send(state, "bob", borrow(paid_by="Anabel"), rolls=[1])         # the second pigeon arrives
    assert mercs(state)["lent"] == {"bob": 3} and state["edition_state"]["pigeons"]["spent"] == {"bob": 2}
    assert "crossbowmen_offers" not in state["edition_state"]


# -- what the price reveals (secret shillings) -----------------------------------------------------

def test_the_price_is_told_to_the_two_families_only() -> None:
    state, offered = send(position(), "ann", lend(2, "bob", price=7))
    for outsider in ("cat", "dan"):
        assert "crossbowmen_offers" not in RULES.view(state, outsider)["church"]
    assert RULES.view(state, "bob")["church"]["crossbowmen_offers"][0]["price"] == 7
    after, taken = send(state, "bob", borrow(paid_by="Anabel"), rolls=[2])
    for outsider in ("cat", "dan"):
        seen = seen_by(offered + taken, outsider)
        assert "7" not in seen and "shilling" not in seen and "ann lends 2 crossbowmen" in seen
        assert all("price" not in e.data and "carried" not in e.data for e in offered + taken
                   if e.audience.sees(outsider))
        view = json.dumps(RULES.view(after, outsider))
        assert '"price": 7' not in view and '"deniers": 17' not in view and '"deniers": 3' not in view
    assert "for 7 shilling(s)" in seen_by(taken, "ann") and "for 7 shilling(s)" in seen_by(taken, "bob")


# -- losses and the card (11.1 l.748-749, R144) ----------------------------------------------------

def test_lent_crossbowmen_defeated_go_to_the_stockpile_and_the_card_with_none_is_discarded() -> None:
    state, _ = send(position(), "ann", lend(3, "bob"))
    state, _ = send(state, "bob", borrow(city="York"))
    for pawn in crossbowmen(state)[:2]:
        del state["pawns"][pawn["id"]]                 # two defeated in bob's battle
    after, events = end_of_round(state)
    assert mercs(after)["on_card"] == 1 and after["edition_state"]["family_card"] == {"ann": "mercenary_1"}
    del state["pawns"][crossbowmen(state)[0]["id"]]    # all three defeated
    after, events = end_of_round(state)
    assert "card is discarded" in " ".join(e.text for e in events)
    assert "ann" not in after["edition_state"].get("family_card", {})


def test_crossbowmen_lent_and_not_hired_return_and_keep_the_card() -> None:
    state, _ = send(position(), "ann", lend(3, "bob"))
    state, _ = send(state, "bob", borrow())
    assert mercs(state)["on_card"] == 0
    after, events = end_of_round(state)
    assert mercs(after)["on_card"] == 3 and "lent" not in mercs(after)
    assert after["edition_state"]["family_card"] == {"ann": "mercenary_1"}


def test_offers_lapse_at_the_end_of_round() -> None:
    state, _ = send(position(), "ann", lend(1, "bob"))
    after, _ = end_of_round(state)
    assert "crossbowmen_offers" not in after["edition_state"]
    assert "is not a family whose offer of crossbowmen to you is waiting" in errors(after, "bob", borrow())


def test_the_lenders_card_discarded_takes_the_lent_crossbowmen_off_the_map() -> None:   # R144
    state, _ = send(position(), "ann", lend(2, "bob"))
    state, _ = send(state, "bob", borrow(city="York"))
    st = FiefState.from_json(copy.deepcopy(state))
    events = hired.discard(st, "ann", "replaced")
    assert events[0].data["crossbowmen_removed"] == 2 and not any(p.kind == "crossbowman" for p in st.pawns.values())


# -- errors ----------------------------------------------------------------------------------------

def test_errors_of_the_offer_name_the_problem() -> None:
    state = position()
    assert "no MERCENARY card" in errors(state, "bob", lend(1, "ann"))
    assert "only 3 crossbowmen" in errors(state, "ann", lend(4, "bob"))
    assert "is not another player's family" in errors(state, "ann", lend(1, "ann"))
    assert "is not another player's family" in errors(state, "ann", lend(1, "zed"))
    assert "`paid_to:`" in errors(state, "ann", "at_once:\n  - lend_crossbowmen: 1\n    to: bob\n    price: 2\n")
    assert "'Anabel' is not a noble of your family" in errors(state, "ann", lend(1, "bob", 2, paid_to="Anabel"))
    assert "must be a whole number" in errors(state, "ann", "at_once:\n  - lend_crossbowmen: two\n    to: bob\n")
    assert "this lending has none" in errors(state, "ann", lend(1, "bob") + "    paid_to: Henri\n")
    assert "unknown key `for`" in errors(state, "ann", "at_once:\n  - lend_crossbowmen: 1\n    to: bob\n    for: 2\n")


def test_errors_of_the_acceptance_name_the_problem() -> None:
    state = position()
    assert "is not a family whose offer of crossbowmen to you is waiting" in errors(state, "bob", borrow())
    state, _ = send(state, "ann", lend(1, "cat"))
    assert "ann lends them free: there is no price to send" in errors(state, "cat", borrow(paid_by="Hugh"))
    state, _ = send(state, "ann", lend(2, "dan", price=3))
    assert "`paid_by:`" in errors(state, "dan", borrow())
    assert "Lucia is in Oxford, not in a Stronghold" in errors(state, "dan", borrow(paid_by="Lucia"))
    state, _ = send(state, "ann", lend(3, "bob", price=5))
    poor = copy.deepcopy(state)
    poor["families"]["bob"]["deniers"] = 8
    assert "cost 11 shillings" in errors(poor, "bob", borrow(paid_by="Anabel", city="York"))
    poor["families"]["bob"]["deniers"] = 4
    assert "you have 4 shillings, not 5" in errors(poor, "bob", borrow(paid_by="Anabel"))


def test_what_changed_since_the_check_is_refused_not_raised() -> None:
    state, _ = send(position(), "ann", lend(3, "bob"))
    result = check(state, "bob", borrow())
    assert result.ok
    state, _ = send(state, "ann", "at_once:\n  - hire: 1\n    in: London\n")   # ann hires one meanwhile
    stale = copy.deepcopy(state)
    del stale["edition_state"]["crossbowmen_offers"]                          # or the offer lapsed
    out = RULES.act(stale, "bob", result.orders, FixedD6([]))
    assert "no offer of crossbowmen from ann" in seen_by(list(out.events), "bob")
    assert "crossbowmen_offers" not in out.state["edition_state"]
    out = RULES.act(state, "bob", result.orders, FixedD6([]))
    assert "no longer holds the 3 crossbowmen offered" in seen_by(list(out.events), "bob")
    assert "lent" not in out.state["edition_state"]["mercenaries"]["mercenary_1"]


def test_a_new_offer_to_the_same_family_replaces_the_old() -> None:
    state, _ = send(position(), "ann", lend(1, "bob"))
    state, _ = send(state, "ann", lend(2, "bob", price=1))
    assert [(o["count"], o["price"]) for o in state["edition_state"]["crossbowmen_offers"]] == [(2, 1)]


def test_the_template_shows_the_orders() -> None:
    text = at_once_template(RULES.view(position(), "ann"), "ann")
    assert "lend_crossbowmen: N" in text and "borrow_crossbowmen: FAMILY" in text


def test_at_two_players_a_family_lends_only_to_the_opponents_families() -> None:   # 13.7, R141
    two = ["ann", "ann-2", "bob", "bob-2"]
    lords = {"Henri": {"family": "ann", "at": "London"}, "Alys": {"family": "ann-2", "at": "London", "female": True},
             "Anabel": {"family": "bob", "at": "York"}, "Hugh": {"family": "bob-2", "at": "York"}}
    state = position(players=two, family_players={"ann-2": "ann", "bob-2": "bob"}, lords=lords,
                     deniers={"ann": 10, "bob": 10})
    assert "is not another player's family" in errors(state, "ann", lend(1, "ann-2"))
    state, _ = send(state, "ann", lend(1, "bob-2", price=2))
    assert RULES.view(state, "bob")["church"]["crossbowmen_offers"][0]["price"] == 2   # bob runs bob-2
    state, _ = send(state, "bob-2", borrow(paid_by="Hugh"), rolls=[3])
    assert mercs(state)["lent"] == {"bob-2": 1}


def test_an_offer_changed_to_a_rent_since_the_check_is_refused() -> None:
    state, _ = send(position(), "ann", lend(2, "bob"))
    result = check(state, "bob", borrow())                 # a loan: no `paid_by:` needed
    state, _ = send(state, "ann", lend(2, "bob", price=3))   # ann asks a price before bob's mail is done
    out = RULES.act(state, "bob", result.orders, FixedD6([]))
    assert "name a noble of yours in play to send the 3 shilling(s)" in seen_by(list(out.events), "bob")
    assert "lent" not in out.state["edition_state"]["mercenaries"]["mercenary_1"]
