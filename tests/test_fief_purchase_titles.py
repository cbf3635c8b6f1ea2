"""The king's privilege to offer a fief title (4.4, D.3.1, 7) and the cardinal title for sale
(4.5, G.4.1.2, D.2.3) in the Purchase Phase. The rulebook's cases are scenario files
(tests/scenarios/fief_france/purchase-king-*.yaml, purchase-cardinal-*.yaml,
purchase-title-offer-errors.yaml); these tests cover the rulings around them."""
from __future__ import annotations

from pbem.games.fief.board import load_board
from pbem.games.fief.cards.effects import tax_problem
from pbem.games.fief_france.elections import bishop_votes, excommunicate, pope_ballot_possible, voters_of
from pbem.games.fief.hear_ye.elimination import eliminate_lord
from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position
from pbem.games.fief.purchase.titles import cardinal_title_holder, privilege_lord
from pbem.games.fief_france.royal import PRIVILEGED
from pbem.games.fief.state import FiefState
from pbem.judge.render import render

from fief_support import errors, resolve, send

BOARD = load_board("fief_france")


def _bretagne(**extra) -> dict:
    """Enguerand's king Charles in Paris; Marie holds Rennes and Nantes (a stronghold)."""
    position = {
        "players": ["enguerand", "marie", "olivier"],
        "phase": "purchase",
        "deniers": {"enguerand": 6, "marie": 5, "olivier": 5},
        "lords": {"Charles": {"family": "enguerand", "at": "Paris", "titles": ["king"]},
                  "Quentin": {"family": "marie", "at": "Nantes"},
                  "Arthur": {"family": "olivier", "at": "Tours"}},
        "units": {"Paris": {"enguerand": {"knight": 1}}, "Nantes": {"marie": {"man_at_arms": 1}},
                  "Rennes": {"marie": {"man_at_arms": 1}}, "Tours": {"olivier": {"man_at_arms": 1}}},
        "towns": {"Nantes": {"fortress": "stronghold"}},
    }
    position.update(extra)
    return build_position(position, "fief_france").to_json()


def _kinds(events) -> list[str]:
    return [e.kind for e in events]


def _play(state: dict, mails: dict[str, str]) -> tuple[dict, list]:
    orders = {}
    for player, text in mails.items():
        check = send(state, player, text)
        assert check.ok, check.errors
        orders[player] = check.orders
    return resolve(state, orders)


OFFER = "orders:\n  - offer_title: Bretagne\n    to: marie\n"
TAKE = "orders:\n  - title: Bretagne\n    lord: Quentin\n"


# -- the king's privilege (4.4) ---------------------------------------------------------------

def test_a_plain_title_order_pays_nothing_when_the_title_is_offered() -> None:
    new, events = _play(_bretagne(), {"enguerand": OFFER, "marie": TAKE})
    assert new["families"]["marie"]["deniers"] == 5
    assert new["fief_titles"]["bretagne"] == "Quentin"
    assert new["king_offer_used"] is True
    bought = next(e for e in events if e.kind == "title_bought")
    assert bought.data["deniers"] == 0 and "for nothing" in bought.text


def test_without_the_offer_the_same_order_pays_the_price() -> None:
    new, events = _play(_bretagne(), {"marie": TAKE})
    assert new["families"]["marie"]["deniers"] == 1
    assert new["king_offer_used"] is False
    assert "king_privilege_used" not in _kinds(events)


def test_only_if_offered_and_no_offer_buys_nothing_and_keeps_the_deniers() -> None:
    new, events = _play(_bretagne(), {"marie": TAKE + "    only_if_offered: yes\n"})
    failed = next(e for e in events if e.kind == "purchase_failed")
    assert failed.data["reason"] == "not_offered"
    assert "only if offered, and no offer of the Barony of Bretagne stands for you" in failed.text
    assert new["families"]["marie"]["deniers"] == 5 and new["fief_titles"]["bretagne"] is None


def test_the_mail_check_counts_an_only_if_offered_title_as_free() -> None:
    state = _bretagne(deniers={"marie": 0})
    check = send(state, "marie", TAKE + "    only_if_offered: yes\n")
    assert check.ok and check.orders["orders"] == [
        {"title": "bretagne", "lord": "Quentin", "city": "Nantes", "heir": None, "only_if_offered": True}]
    assert "0 deniers left" in check.notes[0]
    text = errors(state, "marie", TAKE)
    assert "costs 4 deniers; you have 0 left" in text and "only_if_offered: yes" in text


def test_an_offer_to_the_kings_own_family_is_allowed_and_free() -> None:
    """Ruling: "to a player able to purchase it" does not exclude the king's player."""
    state = _bretagne(lords={"Charles": {"family": "enguerand", "at": "Nantes", "titles": ["king"]}},
                      units={"Nantes": {"enguerand": {"knight": 1}}, "Rennes": {"enguerand": {"knight": 1}}},
                      deniers={"enguerand": 0})
    # The title order is written first: the mail's offer is read before its purchases.
    mail = "orders:\n  - title: Bretagne\n    lord: Charles\n  - offer_title: Bretagne\n    to: enguerand\n"
    check = send(state, "enguerand", mail)
    assert check.ok, check.errors
    assert [list(o)[0] for o in check.orders["orders"]] == ["title", "offer_title"]   # as written
    new, events = resolve(state, {"enguerand": check.orders})
    assert new["fief_titles"]["bretagne"] == "Charles" and new["families"]["enguerand"]["deniers"] == 0
    assert new["king_offer_used"] is True


def test_the_regent_queen_holds_the_privilege_when_there_is_no_king() -> None:
    state = _bretagne(lords={"Blanche": {"family": "olivier", "at": "Tours", "titles": ["regent_queen"]},
                             "Quentin": {"family": "marie", "at": "Nantes"}},
                      units={"Tours": {"olivier": {"man_at_arms": 1}}, "Nantes": {"marie": {"man_at_arms": 1}},
                             "Rennes": {"marie": {"man_at_arms": 1}}})
    new, events = _play(state, {"olivier": OFFER, "marie": TAKE})
    offered = next(e for e in events if e.kind == "title_offer")
    assert offered.text.startswith("The regent queen Blanche (olivier) offers")
    assert new["king_offer_used"] is True and new["families"]["marie"]["deniers"] == 5


def test_the_king_comes_before_the_regent_queen() -> None:
    lords = {"Anne": {"political": "regent_queen", "family": "a"}, "Louis": {"political": "king", "family": "b"}}
    assert privilege_lord(lords, PRIVILEGED) == "Louis"
    assert privilege_lord({"X": {"political": "queen", "family": "a"}}, PRIVILEGED) is None


def test_a_captive_king_may_offer() -> None:
    """Neither 4.4 nor D.3.1 restricts a captive king (unlike the queen's birth, D.3.2)."""
    state = _bretagne(lords={"Charles": {"family": "enguerand", "at": "Tours", "titles": ["king"],
                                         "captive_of": "olivier"},
                             "Quentin": {"family": "marie", "at": "Nantes"},
                             "Arthur": {"family": "olivier", "at": "Tours"}},
                      deniers={"enguerand": 0})   # the ransom (6) cannot be paid
    new, events = _play(state, {"enguerand": OFFER, "marie": TAKE})
    assert "ransom_unpaid" in _kinds(events)
    assert new["fief_titles"]["bretagne"] == "Quentin" and new["king_offer_used"] is True


def test_the_privilege_used_this_round_refuses_another_offer() -> None:
    state = _bretagne(king_offer_used=True)
    text = errors(state, "enguerand", OFFER)
    assert "Charles's privilege is used this round" in text and "after the End of Round (7)" in text


def test_an_offer_to_a_player_out_of_the_game_is_refused() -> None:
    state = _bretagne()
    state["families"]["olivier"]["eliminated"] = True
    assert "olivier is out of the game" in errors(state, "enguerand",
                                                  "orders:\n  - offer_title: Bretagne\n    to: olivier\n")


def test_an_offer_nobody_takes_lapses_and_the_privilege_stays_unused() -> None:
    new, events = _play(_bretagne(), {"enguerand": OFFER})
    void = next(e for e in events if e.kind == "title_offer_void")
    assert "marie ordered no `title: bretagne` to take it" in void.text
    assert new["king_offer_used"] is False


def test_the_offer_is_taken_once_a_second_order_of_the_title_fails() -> None:
    state = _bretagne()
    assert "the fief is governed" in errors(state, "marie", TAKE + TAKE[8:])   # refused by mail
    # At resolution (the orders as the judge stores them), the second order finds it governed.
    take = {"title": "bretagne", "lord": "Quentin", "city": None, "heir": None}
    offer = send(state, "enguerand", OFFER).orders
    new, events = resolve(state, {"enguerand": offer, "marie": {"orders": [take, dict(take)], "policies": {}}})
    assert _kinds(events).count("king_privilege_used") == 1
    failed = next(e for e in events if e.kind == "purchase_failed")
    assert "the fief is governed" in failed.text and "title_offer_void" not in _kinds(events)
    assert new["families"]["marie"]["deniers"] == 5


def test_a_beneficiary_whose_title_order_fails_voids_the_offer() -> None:
    """Judged when the order resolves: an order for the offered title that fails (here Rennes
    is not Olivier's: such an order reaches resolution only as stored, not by mail)."""
    state = _bretagne()
    offer = send(state, "enguerand", OFFER.replace("marie", "olivier")).orders
    take = {"title": "bretagne", "lord": "Arthur", "city": None, "heir": None, "only_if_offered": True}
    new, events = resolve(state, {"enguerand": offer, "olivier": {"orders": [take], "policies": {}}})
    void = next(e for e in events if e.kind == "title_offer_void")
    assert "olivier is not able to purchase it: olivier does not control Rennes, Nantes" in void.text
    assert new["king_offer_used"] is False and new["fief_titles"]["bretagne"] is None


def test_the_privilege_turns_back_at_the_end_of_the_round() -> None:
    state, _ = _play(_bretagne(), {"enguerand": OFFER, "marie": TAKE})
    assert RULES.view(state, "olivier")["king_offer_used"] is True
    while state["phase"] != "end_of_round":
        phase = RULES.phase(state)
        state, _ = resolve(state, {p: RULES.default_orders(RULES.view(state, p), p) for p in phase.deciders})
    assert state["king_offer_used"] is True
    state, _ = resolve(state, {})
    assert state["king_offer_used"] is False and state["phase"] == "hear_ye"


def test_the_templates_tell_the_king_and_the_others() -> None:
    state = _bretagne()
    king = RULES.order_template(RULES.view(state, "enguerand"), "enguerand")
    assert "The king's privilege (4.4): Charles (enguerand) may offer 1 ungoverned fief title" in king
    assert "- offer_title: Bretagne" in king
    other = RULES.order_template(RULES.view(state, "marie"), "marie")
    assert "only_if_offered: yes" in other and "offer_title" not in other
    used = _bretagne(king_offer_used=True)
    assert "privilege" not in RULES.order_template(RULES.view(used, "marie"), "marie")
    assert "Cardinal title" not in other   # no bishop in play to take it


def test_the_report_shows_the_privileges_side_and_the_cardinal_title() -> None:
    state = _bretagne()
    text = render(RULES.report_template(), view=RULES.view(state, "marie"), me="marie")
    assert "King Charles (enguerand): the privilege to offer a fief title (4.4) is available this round." in text
    assert "Cardinal title (4.5): for sale, 5 deniers." in text
    state["king_offer_used"] = True
    text = render(RULES.report_template(), view=RULES.view(state, "marie"), me="marie")
    assert "is used this round." in text


# -- the cardinal title (4.5) -----------------------------------------------------------------

def _bishops(**extra) -> dict:
    position = {
        "players": ["marie", "olivier", "marc"],
        "phase": "purchase",
        "deniers": {"marie": 6, "olivier": 9, "marc": 5},
        "lords": {"Quentin": {"family": "marie", "at": "Nantes", "titles": ["bishop 2"]},
                  "Arthur": {"family": "olivier", "at": "Tours", "titles": ["bishop 1"]},
                  "Eric": {"family": "marc", "at": "Reims", "titles": ["bishop 4"]}},
        "units": {"Nantes": {"marie": {"man_at_arms": 1}}, "Tours": {"olivier": {"man_at_arms": 1}},
                  "Reims": {"marc": {"man_at_arms": 1}}},
    }
    position.update(extra)
    return build_position(position, "fief_france").to_json()


def test_the_first_buyer_in_turn_order_gets_the_single_title() -> None:
    new, events = _play(_bishops(), {"marie": "orders:\n  - cardinal: Quentin\n",
                                     "olivier": "orders:\n  - cardinal: Arthur\n"})
    assert new["lords"]["Quentin"]["cardinal"] and not new["lords"]["Arthur"]["cardinal"]
    failed = next(e for e in events if e.kind == "purchase_failed")
    assert "the cardinal title is not for sale: Quentin holds it" in failed.text
    assert new["families"]["marie"]["deniers"] == 1 and new["families"]["olivier"]["deniers"] == 9


def test_a_sold_title_is_refused_when_the_mail_is_checked() -> None:
    state = _bishops(deniers={"marie": 1})
    state["lords"]["Quentin"]["cardinal"] = True
    state["cardinal_title"] = "Quentin"
    assert RULES.view(state, "marc")["cardinal_title"] == {"for_sale": False, "holder": "Quentin", "price": 5}
    assert "not for sale: Quentin holds it" in errors(state, "olivier", "orders:\n  - cardinal: Arthur\n")
    assert "Cardinal title (4.5)" not in RULES.order_template(RULES.view(state, "olivier"), "olivier")
    text = render(RULES.report_template(), view=RULES.view(state, "olivier"), me="olivier")
    assert "Cardinal title (4.5): sold, held by Quentin." in text


def test_not_enough_deniers_for_the_cardinal_title() -> None:
    text = errors(_bishops(deniers={"marc": 4}), "marc", "orders:\n  - cardinal: Eric\n")
    assert "the cardinal title costs 5 deniers; you have 4 left" in text


def test_the_title_is_for_sale_again_when_its_cardinal_leaves_play() -> None:
    state, _ = _play(_bishops(), {"marie": "orders:\n  - cardinal: Quentin\n"})
    st = FiefState.from_json(state)
    assert cardinal_title_holder(st) == "Quentin"
    eliminate_lord(st, BOARD, "Quentin")
    assert cardinal_title_holder(st) is None
    assert st.character_discard == ["Quentin"]   # no cardinal card goes to the discard pile
    assert RULES.view(st.to_json(), "olivier")["cardinal_title"]["for_sale"] is True


def test_the_title_is_for_sale_again_when_its_cardinal_is_excommunicated() -> None:
    state, _ = _play(_bishops(), {"marie": "orders:\n  - cardinal: Quentin\n"})
    st = FiefState.from_json(state)
    st.lords["Eric"].pope = True
    excommunicate(st, st.lords["Eric"], st.lords["Quentin"])   # D.2.3.1: he loses it
    assert cardinal_title_holder(st) is None


def test_a_same_named_lord_made_cardinal_by_a_card_does_not_hold_the_bought_tile() -> None:
    st = FiefState.from_json(_bishops())
    st.cardinal_title = "Quentin"          # an earlier Quentin bought it and left play
    st.lords["Quentin"].cardinal = True    # this one is a cardinal by his card
    st.frieze["Quentin"] = "cardinal"
    assert cardinal_title_holder(st) is None


def test_the_popes_own_family_needs_no_leave_and_another_needs_his_policy() -> None:
    lords = {"Quentin": {"family": "marie", "at": "Nantes", "titles": ["bishop 2"]},
             "Arthur": {"family": "olivier", "at": "Tours", "titles": ["bishop 1", "pope"]},
             "Eric": {"family": "marc", "at": "Reims", "titles": ["bishop 4"]}}
    new, events = _play(_bishops(lords=lords), {"olivier": "orders:\n  - cardinal: Arthur\n"})
    assert new["lords"]["Arthur"]["cardinal"]   # a pope may become a cardinal too (D.2.1)
    allowed = _bishops(lords=lords, policies={"olivier": {"new_cardinal": {"allow": [], "refuse": [],
                                                                           "others": "allow"}}})
    new, events = _play(allowed, {"marc": "orders:\n  - cardinal: Quentin\n"})
    assert new["lords"]["Quentin"]["cardinal"] and new["families"]["marc"]["deniers"] == 0
    assert "Quentin of marie" in next(e for e in events if e.kind == "cardinal_title_bought").text


def test_a_bought_cardinal_acts_as_a_card_made_one() -> None:
    """Votes (1.3.2, 1.4), the tithe on any governed bishopric (G.3.3.2): Lord.cardinal alone."""
    state, _ = _play(_bishops(), {"marie": "orders:\n  - cardinal: Quentin\n",
                                  "olivier": "orders: []\n"})
    st = FiefState.from_json(state)
    assert [l.name for l in voters_of(st, "pope")["marie"]] == ["Quentin"]
    assert bishop_votes(st, BOARD, 3, {}, set())["marie"] == 3   # cardinal: 3 votes, not 2
    assert tax_problem(st, BOARD, "marie", "tithe", "1", "Quentin") is None   # Arthur governs 1
    st.lords["Arthur"].cardinal = True
    assert pope_ballot_possible(st)
    assert st.lords["Quentin"].title_count() == 2   # 4.1: his ransom counts it


def test_the_template_lists_the_bishops_for_the_cardinal_title() -> None:
    text = RULES.order_template(RULES.view(_bishops(), "marc"), "marc")
    assert "Cardinal title (4.5): 5 deniers, for any bishop in play (any family): Quentin, Arthur, Eric." in text
    assert "#   - cardinal: Quentin" in text
