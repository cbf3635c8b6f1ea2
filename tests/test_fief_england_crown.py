"""Fief: England's Crown and messages (issue 11, part EP): the carrier pigeons (E 2.15, 9.0; R27,
R42, R47), by mail an at-once order (`at_once: - pigeon: ...`) done when the judge reads the mail.
"""
from __future__ import annotations

import copy
import json

from pbem.games import rules_for
from pbem.games.fief.positions import build_position
from pbem.orders.yamlsafe import load
from pbem.rules.rng import Rng
from test_fief_england_game import FixedD6

RULES = rules_for("fief_england")
FOUR = ["ann", "bob", "cat", "dan"]


def position(**data) -> dict:
    data.setdefault("players", FOUR)
    data.setdefault("phase", "movement")
    data.setdefault("lords", {"Henri": {"family": "ann", "at": "London"},
                              "Anabel": {"family": "bob", "at": "York"},
                              "Hugh": {"family": "cat", "at": "London"},
                              "Lucia": {"family": "dan", "at": "Oxford"}})
    data.setdefault("towns", {"London": {"controller": "ann", "fortress": "stronghold"},
                              "York": {"controller": "bob", "fortress": "city"}})
    data.setdefault("deniers", {p: 5 for p in FOUR})
    return build_position(data, "fief_england").to_json()


def check(state: dict, player: str, text: str):
    return RULES.check_at_once(RULES.view(state, player), player, load(text))


def send(state: dict, player: str, text: str, rolls: list[int] | None = None) -> tuple[dict, list]:
    result = check(state, player, text)
    assert result.ok, result.errors
    before = copy.deepcopy(state)
    rng = FixedD6(rolls or [])
    out = RULES.act(state, player, result.orders, rng)
    assert state == before
    assert not getattr(rng, "rolls", []), "a die scripted was not rolled"
    return out.state, list(out.events)


def errors(state: dict, player: str, text: str) -> str:
    result = check(state, player, text)
    assert not result.ok
    return "\n".join(str(e) for e in result.errors)


def pigeon(sender: str, to: str, shillings: int = 0, cards: str = "") -> str:
    lines = ["at_once:", f"  - pigeon: {sender}", f"    to: {to}"]
    if shillings:
        lines.append(f"    shillings: {shillings}")
    if cards:
        lines.append(f"    cards: [{cards}]")
    return "\n".join(lines) + "\n"


def seen_by(events: list, player: str) -> str:
    return "\n".join(e.text for e in events if e.audience.sees(player))


# -- the same City (2.15, R27) ---------------------------------------------------------------------

def test_in_the_same_city_any_shillings_and_cards_and_no_die() -> None:
    state = position(hands={"ann": ["good_weather", "tax"]})
    state, events = send(state, "ann", pigeon("Henri", "Hugh", 3, "good weather, tax"))   # no roll (R27)
    assert state["families"]["ann"]["deniers"] == 2 and state["families"]["cat"]["deniers"] == 8
    assert sorted(state["families"]["cat"]["hand"]) == ["good_weather", "tax"]
    assert state["edition_state"]["pigeons"]["spent"] == {"ann": 1}
    assert "it arrives (2.15, R27)" in seen_by(events, "bob")


def test_married_allies_in_one_city_need_no_pigeon() -> None:   # 9.0
    lords = {"Henri": {"family": "ann", "at": "London", "spouse": "Lucia"},
             "Lucia": {"family": "dan", "at": "London", "spouse": "Henri"},
             "Anabel": {"family": "bob", "at": "York"}}
    state = position(lords=lords, hands={"ann": ["tax"]})
    state, events = send(state, "ann", pigeon("Henri", "Lucia", 2, "tax"))
    assert state["families"]["dan"]["deniers"] == 7 and state["families"]["dan"]["hand"] == ["tax"]
    assert not ((state.get("edition_state") or {}).get("pigeons") or {}).get("spent")
    assert RULES.view(state, "bob")["pigeons"]["left"]["ann"] == 3


# -- between two Cities (2.15) ---------------------------------------------------------------------

def test_between_fortresses_one_card_and_shillings_arrive_on_1_to_5() -> None:
    state = position(hands={"ann": ["good_weather"]})
    state, events = send(state, "ann", pigeon("Henri", "Anabel", 1, "good weather"), rolls=[5])
    assert state["families"]["bob"]["hand"] == ["good_weather"] and state["families"]["bob"]["deniers"] == 6
    assert "rolls 5, it arrives" in seen_by(events, "cat")
    assert RULES.view(state, "cat")["pigeons"]["left"] == {"ann": 2, "bob": 3, "cat": 3, "dan": 3}


def test_a_6_loses_the_pigeon_the_card_discarded_unshown_the_shillings_kept() -> None:
    state = position(hands={"ann": ["good_weather"]})
    state, events = send(state, "ann", pigeon("Henri", "Anabel", 2, "good weather"), rolls=[6])
    assert state["families"]["ann"]["hand"] == [] and state["families"]["bob"]["hand"] == []
    assert state["families"]["ann"]["deniers"] == 5 and state["families"]["bob"]["deniers"] == 5
    assert state["events_discard"] == ["good_weather"]
    assert RULES.view(state, "bob")["piles"]["events_discard_top"] == "face_down"   # R42: not shown
    assert "goes astray" in seen_by(events, "bob")
    assert state["edition_state"]["pigeons"]["spent"] == {"ann": 1}                 # spent whatever the result


def test_between_cities_only_from_and_to_a_stronghold_fortified_city_or_abbey() -> None:
    state = position()
    assert "Lucia is in Oxford, not in a Stronghold" in errors(state, "ann", pigeon("Henri", "Lucia", 1))
    abbey = position(edition_state={"abbeys": {"Oxford": {"abbey": "Abbey of the Autumn", "abbess": None}}})
    send(abbey, "ann", pigeon("Henri", "Lucia", 1), rolls=[1])


def test_between_cities_at_most_one_card() -> None:
    state = position(hands={"ann": ["good_weather", "tax"]})
    assert "at most 1 card" in errors(state, "ann", pigeon("Henri", "Anabel", 0, "good weather, tax"))


def test_three_pigeons_for_the_game() -> None:
    state = position(edition_state={"pigeons": {"spent": {"ann": 3}}})
    assert "no carrier pigeon left" in errors(state, "ann", pigeon("Henri", "Hugh", 1))


def test_the_hand_limit_refuses_the_whole_pigeon() -> None:   # R47
    state = position(hands={"ann": ["tax"], "cat": ["good_weather", "good_weather", "tax"]})
    assert "cat would hold 4 cards, more than 3 (2.15, R47)" in errors(state, "ann", pigeon("Henri", "Hugh", 2, "tax"))


def test_errors_name_the_problem() -> None:
    state = position(hands={"ann": ["tax"]})
    assert "is not a noble of your family" in errors(state, "ann", pigeon("Anabel", "Hugh", 1))
    assert "is not another family's noble" in errors(state, "ann", pigeon("Henri", "Henri", 1))
    assert "carries nothing" in errors(state, "ann", pigeon("Henri", "Hugh"))
    assert "you have 5 shillings, not 9" in errors(state, "ann", pigeon("Henri", "Hugh", 9))
    assert "you do not hold good_weather" in errors(state, "ann", pigeon("Henri", "Hugh", 0, "good weather"))
    assert "not a card" in errors(state, "ann", pigeon("Henri", "Hugh", 0, "dragon"))
    assert "whole number" in errors(state, "ann", "at_once:\n  - pigeon: Henri\n    to: Hugh\n    shillings: lots\n")
    captive = position(lords={"Henri": {"family": "ann", "at": "London", "captive_of": "cat"},
                              "Hugh": {"family": "cat", "at": "London"}})
    assert "a captive" in errors(captive, "ann", pigeon("Henri", "Hugh", 1))


def test_what_changed_since_the_check_is_refused_not_raised() -> None:
    state = position(hands={"ann": ["tax"]})
    result = check(state, "ann", pigeon("Henri", "Hugh", 1, "tax"))
    state["families"]["ann"]["hand"] = []
    out = RULES.act(state, "ann", result.orders, FixedD6([]))
    assert [e.kind for e in out.events] == ["pigeon_refused"] and out.state == state


# -- who learns what (R42) -------------------------------------------------------------------------

def test_what_a_pigeon_carries_is_told_to_the_two_players_only() -> None:
    state = position(hands={"ann": ["good_weather"]})
    after, events = send(state, "ann", pigeon("Henri", "Anabel", 4, "good weather"), rolls=[2])
    for outsider in ("cat", "dan"):
        seen = seen_by(events, outsider)
        assert "4 shilling" not in seen and "GOOD WEATHER" not in seen.upper().replace("_", " ")
        assert all("carried" not in e.data for e in events if e.audience.sees(outsider))
        view = json.dumps(RULES.view(after, outsider))
        assert "good_weather" not in view and '"deniers": 9' not in view
    assert "4 shilling(s)" in seen_by(events, "bob") and "4 shilling(s)" in seen_by(events, "ann")


def test_a_lost_pigeons_cargo_is_told_to_its_sender_only() -> None:
    state = position(hands={"ann": ["good_weather"]})
    _, events = send(state, "ann", pigeon("Henri", "Anabel", 4, "good weather"), rolls=[6])
    assert "4 shilling(s)" in seen_by(events, "ann")
    for other in ("bob", "cat", "dan"):
        assert "shilling" not in seen_by(events, other) and "weather" not in seen_by(events, other).lower()


# -- 2.9 Ex (l.187): Dave's shilling sent by pigeon ------------------------------------------------

def test_ex_2_9_george_pays_dave_1_shilling_by_pigeon() -> None:
    """George pays his ally Dave 1 Shilling via Carrier Pigeon for a GOOD WEATHER on the Marches
    and "successfully sends" it: a roll of 1-5 between two fortresses."""
    state = position(players=["george", "dave", "cat"], deniers={"george": 3, "dave": 0},
                     lords={"William": {"family": "george", "at": "Durham"},
                            "Edward": {"family": "dave", "at": "York"}},
                     towns={"Durham": {"controller": "george", "fortress": "stronghold"},
                            "York": {"controller": "dave", "fortress": "city"}})
    state, events = send(state, "george", pigeon("William", "Edward", 1), rolls=[3])
    assert state["families"]["dave"]["deniers"] == 1 and state["families"]["george"]["deniers"] == 2
    assert "1 shilling(s)" not in seen_by(events, "cat")


def test_the_template_shows_the_pigeon_order() -> None:
    state = position()
    assert "- pigeon: YOUR_NOBLE" in RULES.at_once_template(RULES.view(state, "ann"), "ann")


def test_no_public_gift_of_secret_shillings() -> None:
    """France's `diplomacy: - give:` is told to everyone (A.6): in England the shillings are
    secret, so they go by pigeon (or between allies in one City) instead."""
    state = position()
    text = "diplomacy:\n  - give: 2\n    to: bob\n"
    assert "money is secret" in errors(state, "ann", text)
    assert "- pigeon:" in errors(state, "ann", text)


# -- an exchange in one City: an offer and its mirror (2.15, R101) ----------------------------------

def exchange(sender: str, to: str, give: str, take: str) -> str:
    return (f"at_once:\n  - pigeon: {sender}\n    to: {to}\n    cards: [{give}]\n    take_cards: [{take}]\n"
            "    take_shillings: 1\n" if sender == "Henri" else
            f"at_once:\n  - pigeon: {sender}\n    to: {to}\n    cards: [{give}]\n    take_cards: [{take}]\n"
            "    shillings: 1\n")


def test_an_exchange_in_one_city_waits_for_the_mirror_order_and_spends_the_offerers_pigeon() -> None:
    state = position(hands={"ann": ["tax"], "cat": ["good_weather"]})
    state, events = send(state, "ann", exchange("Henri", "Hugh", "tax", "good weather"))
    assert [e.kind for e in events] == ["pigeon_offer"] and events[0].audience.sees("cat")
    assert not events[0].audience.sees("bob") and state["families"]["ann"]["hand"] == ["tax"]
    assert RULES.view(state, "ann")["pigeons"]["left"]["ann"] == 3          # nothing flew yet
    state, events = send(state, "cat", exchange("Hugh", "Henri", "good weather", "tax"))
    assert state["families"]["ann"]["hand"] == ["good_weather"] and state["families"]["cat"]["hand"] == ["tax"]
    assert state["families"]["ann"]["deniers"] == 6 and state["families"]["cat"]["deniers"] == 4
    assert state["edition_state"]["pigeons"] == {"spent": {"ann": 1}, "offers": []}
    public = seen_by(events, "bob")
    assert "ann spends the pigeon" in public and "shilling" not in public and "tax" not in public.lower()


def test_an_answer_that_is_not_the_mirror_is_an_offer_of_its_own() -> None:
    state = position(hands={"ann": ["tax"], "cat": ["good_weather", "tax"]})
    state, _ = send(state, "ann", exchange("Henri", "Hugh", "tax", "good weather"))
    state, events = send(state, "cat", exchange("Hugh", "Henri", "tax", "tax"))
    assert [e.kind for e in events] == ["pigeon_offer"] and len(state["edition_state"]["pigeons"]["offers"]) == 2


def test_an_exchange_refused_when_the_offerer_no_longer_holds_the_card() -> None:
    state = position(hands={"ann": ["tax"], "cat": ["good_weather"]})
    state, _ = send(state, "ann", exchange("Henri", "Hugh", "tax", "good weather"))
    state["families"]["ann"]["hand"] = []
    state, events = send(state, "cat", exchange("Hugh", "Henri", "good weather", "tax"))
    assert [e.kind for e in events] == ["pigeon_refused"] and events[0].audience.sees("ann")
    assert state["families"]["cat"]["hand"] == ["good_weather"]


def test_between_two_cities_a_pigeon_carries_one_way_only() -> None:
    state = position(hands={"ann": ["tax"]})
    text = "at_once:\n  - pigeon: Henri\n    to: Anabel\n    cards: [tax]\n    take_shillings: 2\n"
    assert "carries one way" in errors(state, "ann", text)


def test_the_hand_limit_counts_both_hands_of_an_exchange() -> None:   # R47
    state = position(hands={"ann": ["tax", "tax", "tax"], "cat": ["good_weather"]})
    text = "at_once:\n  - pigeon: Henri\n    to: Hugh\n    take_cards: [good weather]\n"
    assert "ann would hold 4 cards, more than 3" in errors(state, "ann", text)


def test_information_in_one_city_is_relayed_as_the_senders_words_to_the_two_only() -> None:
    state = position()
    text = 'at_once:\n  - pigeon: Henri\n    to: Hugh\n    message: "Meet me at Oxford."\n'
    _, events = send(state, "ann", text)
    said = [e for e in events if e.said is not None]
    assert len(said) == 1 and said[0].said.text == "Meet me at Oxford." and said[0].said.by == "ann"
    assert said[0].audience.sees("cat") and not said[0].audience.sees("bob")
    assert "Oxford" not in seen_by(events, "bob")


# == Parliament and the Royal Tax (9.2, 9.3, R4) ==================================================

def parliament_position(**more) -> dict:
    more.setdefault("round", 2)
    more.setdefault("phase", "hear_ye")
    more.setdefault("lords", {"Henri": {"family": "ann", "at": "London", "titles": ["South East"]},
                              "Philippa": {"family": "bob", "at": "York", "titles": ["North"]},
                              "Hugh": {"family": "cat", "at": "Exeter", "titles": ["South West"]},
                              "Lucia": {"family": "dan", "at": "Oxford", "titles": ["Midlands", "Wales"]}})
    state = position(**more)
    state["lords"]["Henri"]["political"] = "king"
    state["phase"] = "parliament"
    return state


def sit(state: dict, mails: dict[str, str]) -> tuple[dict, list]:
    orders = {}
    for player in RULES.phase(state).deciders:
        view = RULES.view(state, player)
        if player in mails:
            result = RULES.check_orders(view, player, load(mails[player]))
            assert result.ok, result.errors
            orders[player] = result.orders
        else:
            orders[player] = RULES.default_orders(view, player)
    out = RULES.resolve(state, orders, Rng("t"))
    return out.state, list(out.events)


KING = "orders:\n  - convene: yes\n    share: {ann: 6, bob: 6}\n  - vote: for\n"
FOR = "orders:\n  - vote: for\n"


def test_parliament_comes_after_the_hear_ye_phase_from_round_2() -> None:
    from pbem.games.fief.edition import load_edition
    edition = load_edition("fief_england")
    assert edition.after("hear_ye", 2) == "parliament" and edition.after("parliament", 2) == "cards"
    assert edition.opening(1) != "parliament"


def test_a_majority_of_all_votes_passes_the_royal_tax_shared_secretly() -> None:
    state = parliament_position(deniers={p: 0 for p in FOUR})
    assert RULES.phase(state).deciders == ("ann", "bob", "cat", "dan")
    after, events = sit(state, {"ann": KING, "bob": FOR, "cat": FOR})   # 3 of 4 votes (dan: 1 noble)
    assert "3 of 4 votes for: the Royal Tax passes" in seen_by(events, "dan")
    assert after["families"]["ann"]["deniers"] == 6 and after["families"]["bob"]["deniers"] == 6
    assert after["edition_state"]["parliament"] == {"round": 2, "passed": True}
    assert after["edition_state"]["parliament_rebellion"] is True
    assert RULES.view(after, "cat")["parliament"]["rebellion_side"] is True
    assert after["phase"] == "cards"
    # 9.2 "secretly": the shares are told to the Sovereign's family and each receiver only
    for outsider in ("cat", "dan"):
        assert "6" not in seen_by([e for e in events if e.kind.startswith("royal_tax")], outsider)
    assert "You keep 6".lower() in seen_by(events, "ann").lower() and "gives you 6" in seen_by(events, "bob")


def test_half_the_votes_is_no_majority() -> None:
    state = parliament_position(deniers={p: 0 for p in FOUR})
    after, events = sit(state, {"ann": KING, "bob": FOR})
    assert "2 of 4 votes for: the Royal Tax is not levied" in texts(events)
    assert after["families"]["ann"]["deniers"] == 0 and "parliament_rebellion" not in after["edition_state"]


def test_an_archbishop_gives_2_votes_and_a_noble_with_two_titles_1() -> None:   # R4, 9.1's Ex
    state = parliament_position(edition_state={"church": {"archbishops": ["Hugh"]}})
    state["lords"]["Hugh"]["bishopric"] = 1
    votes = RULES.view(state, "ann")["parliament"]["votes"]
    assert votes == {"ann": 1, "bob": 1, "cat": 2, "dan": 1}


def after_hear_ye(state: dict) -> str:
    state = {**state, "phase": "hear_ye"}
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in FOUR}
    return RULES.resolve(state, orders, Rng("t")).state["phase"]


def test_no_parliament_without_a_free_sovereign_nor_twice_a_round() -> None:
    state = parliament_position()
    state["lords"]["Henri"]["captive_of"] = "bob"
    assert RULES.phase(state).deciders == ()
    after, events = sit(state, {})
    assert events == [] and after["phase"] == "cards"
    assert after_hear_ye(state) == "cards"      # passed by: no mail, no resolution of its own
    state["lords"]["Henri"]["captive_of"] = None
    assert after_hear_ye(state) == "parliament"
    again = parliament_position(edition_state={"parliament": {"round": 2, "passed": False}})
    assert RULES.phase(again).deciders == ()
    besieged = parliament_position(towns={"London": {"controller": "ann", "besieged_by": ["bob"]}})
    assert RULES.phase(besieged).deciders == ()


def test_the_sovereign_may_not_convene() -> None:
    state = parliament_position()
    after, events = sit(state, {"bob": FOR})
    assert [e.kind for e in events] == ["parliament_not_convened"]
    assert "parliament" not in after.get("edition_state", {})


def test_parliament_errors_name_the_problem() -> None:
    state = parliament_position()
    def bad(player: str, text: str) -> str:
        result = RULES.check_orders(RULES.view(state, player), player, load(text))
        assert not result.ok
        return "\n".join(str(e) for e in result.errors)
    assert "only the King's or Sovereign Queen's family" in bad("bob", "orders:\n  - convene: yes\n")
    assert "`vote:` is `for` or `against`" in bad("bob", "orders:\n  - vote: maybe\n")
    assert "more than the 12 shillings" in bad("ann", "orders:\n  - convene: yes\n    share: {bob: 13}\n")
    assert "not a player of this game" in bad("ann", "orders:\n  - convene: yes\n    share: {zed: 1}\n")
    assert "a second `vote:`" in bad("bob", "orders:\n  - vote: for\n  - vote: against\n")


def test_parliament_orders_echo_and_template() -> None:
    state = parliament_position()
    view = RULES.view(state, "ann")
    result = RULES.check_orders(view, "ann", load(KING))
    echoed = RULES.echo_orders(view, "ann", result.orders)
    assert RULES.check_orders(view, "ann", load(echoed)).orders == result.orders
    assert "convene: yes" in RULES.order_template(view, "ann")
    assert "convene" not in RULES.order_template(RULES.view(state, "bob"), "bob")


def texts(events) -> str:
    return "\n".join(e.text for e in events)


# == The Crown's privileges (4.5, 4.6) ============================================================

def purchase_position(**more) -> dict:
    more.setdefault("phase", "purchase")
    more.setdefault("lords", {"Henri": {"family": "ann", "at": "London"},
                              "Anabel": {"family": "bob", "at": "Berwick"},
                              "Hugh": {"family": "cat", "at": "Exeter"}})
    more.setdefault("towns", {"Berwick": {"controller": "bob", "fortress": "stronghold"},
                              "Durham": {"controller": "bob"}})
    state = position(**more)
    state["lords"]["Henri"]["political"] = "king"
    return state


WILL = "at_once:\n  - kings_will: Marches\n    to: Anabel\n    city: Berwick\n"


def test_the_kings_will_gives_an_unclaimed_title_free() -> None:   # 4.5
    state = purchase_position()
    after, events = send(state, "ann", WILL)
    assert after["lords"]["Anabel"]["fief_titles"] == ["marches"] and after["families"]["bob"]["deniers"] == 5
    assert after["towns"]["Berwick"]["fortress"] == "city"            # 4.4
    assert "By the King's Will Henri gives the title of the Barony of the Marches to Anabel" in seen_by(events, "cat")


def test_the_kings_will_gives_any_number_of_titles() -> None:
    towns = {"Berwick": {"controller": "bob", "fortress": "stronghold"}, "Durham": {"controller": "bob"},
             "Cardiff": {"controller": "cat", "fortress": "stronghold"}, "Harlech": {"controller": "cat"}}
    state = purchase_position(towns=towns)
    text = WILL + "  - kings_will: Wales\n    to: Hugh\n    city: Cardiff\n"
    after, _ = send(state, "ann", text)
    assert after["lords"]["Hugh"]["fief_titles"] == ["wales"] and after["lords"]["Anabel"]["fief_titles"] == ["marches"]


def test_the_kings_will_needs_the_sovereign_the_purchase_phase_and_4_3s_conditions() -> None:
    state = purchase_position()
    assert "only the King's or Sovereign Queen's family" in errors(state, "bob", WILL)
    assert "only in the Purchase Phase" in errors({**state, "phase": "movement"}, "ann", WILL)
    lacking = purchase_position(towns={"Berwick": {"controller": "bob", "fortress": "stronghold"}})
    assert "bob does not control Durham" in errors(lacking, "ann", WILL)
    bare = purchase_position(towns={"Berwick": {"controller": "bob"}, "Durham": {"controller": "bob"}})
    assert "no Stronghold" in errors(bare, "ann", WILL)
    assert "name with `city:` the Stronghold" in errors(state, "ann", WILL.replace("    city: Berwick\n", ""))
    held = purchase_position(lords={"Henri": {"family": "ann", "at": "London"},
                                    "Anabel": {"family": "bob", "at": "Berwick", "titles": ["Marches"]}})
    assert "is held by Anabel" in errors(held, "ann", WILL)
    assert "not a Region" in errors(state, "ann", WILL.replace("Marches", "Atlantis"))
    assert "not a noble in play" in errors(state, "ann", WILL.replace("to: Anabel", "to: Zed"))


HAND = "at_once:\n  - hand_title: Marches\n    to: Lucia\n"


def test_a_lord_hands_a_smaller_title_to_a_noble_of_his_family() -> None:   # 4.6
    lords = {"Henri": {"family": "ann", "at": "London", "titles": ["Midlands", "Marches"]},
             "Lucia": {"family": "ann", "at": "London"}}
    state = purchase_position(lords=lords)
    after, events = send(state, "ann", HAND)
    assert after["lords"]["Henri"]["fief_titles"] == ["midlands"]
    assert after["lords"]["Lucia"]["fief_titles"] == ["marches"]
    assert "Henri hands the title of the Barony of the Marches to Lucia (ann) (4.6)" in seen_by(events, "bob")


def test_a_lord_keeps_his_largest_title() -> None:
    lords = {"Henri": {"family": "ann", "at": "London", "titles": ["Midlands", "Marches"]},
             "Lucia": {"family": "ann", "at": "London"}, "Anabel": {"family": "bob", "at": "York"}}
    state = purchase_position(lords=lords)
    assert "must keep the title of his largest Fiefdom" in errors(state, "ann", HAND.replace("Marches", "Midlands"))
    assert "is not another noble of your family" in errors(state, "ann", HAND.replace("Lucia", "Anabel"))
    assert "no Lord of your family holds" in errors(state, "bob", "at_once:\n  - hand_title: Marches\n    to: Anabel\n")
    two_duchies = purchase_position(lords={**lords, "Henri": {"family": "ann", "at": "London",
                                                              "titles": ["Midlands", "South East"]}})
    after, _ = send(two_duchies, "ann", HAND.replace("Marches", "Midlands"))
    assert after["lords"]["Henri"]["fief_titles"] == ["south_east"]


# -- the Royal Stronghold (4.9, R19) ---------------------------------------------------------------

ROYAL = "at_once:\n  - royal_stronghold: Durham\n"


def test_the_royal_stronghold_in_an_independent_city_for_5_shillings() -> None:
    state = purchase_position(towns={})
    after, events = send(state, "ann", ROYAL)
    assert after["families"]["ann"]["deniers"] == 0
    assert after["towns"]["Durham"] == {**after["towns"]["Durham"], "controller": "ann", "fortress": "stronghold"}
    assert after["edition_state"]["royal_stronghold"] == {"city": "Durham", "family": "ann"}
    assert "no longer part of the Barony of the Marches" in seen_by(events, "bob")
    assert "5 shillings" not in seen_by(events, "bob")                       # the treasury stays secret
    assert RULES.view(after, "bob")["royal_stronghold"]["city"] == "Durham"


def test_the_royal_stronghold_is_refused_at_the_mail_in_a_city_with_an_abbey() -> None:
    """4.2: one building a City, an Abbey (2.13) counted: the mail's check sees the Abbeys where the
    view keeps them (`church.abbeys`), as the resolution does; it accepted the order before."""
    abbey = {"abbeys": {"Durham": {"abbey": "Abbey of the Autumn", "abbess": "Anabel", "royal": False}},
             "church": {"archbishops": [], "abbesses": {"Anabel": ["Abbey of the Autumn"]}, "destroyed": {}}}
    state = purchase_position(edition_state=abbey)
    assert "Durham has a building already (one a City, 4.2)" in errors(state, "ann", ROYAL)


def test_the_royal_stronghold_city_leaves_its_region_for_the_title() -> None:   # R19
    towns = {"Berwick": {"controller": "bob", "fortress": "stronghold"}, "Durham": {"controller": "ann",
                                                                                  "fortress": "stronghold"}}
    state = purchase_position(towns=towns, edition_state={"royal_stronghold": {"city": "Durham", "family": "ann"}})
    after, _ = send(state, "ann", WILL)      # bob controls every City of the Marches left: Berwick
    assert after["lords"]["Anabel"]["fief_titles"] == ["marches"]
    view = RULES.view(state, "bob")
    result = RULES.check_orders(view, "bob", load("orders:\n  - title: Marches\n    lord: Anabel\n    city: Berwick\n"))
    assert result.ok, result.errors


def test_the_royal_stronghold_needs_the_royal_family_a_free_city_and_the_lords_consent() -> None:
    state = purchase_position(towns={})
    assert "only the Royal Family" in errors(state, "bob", ROYAL)
    assert "has a building already" in errors(purchase_position(), "ann", "at_once:\n  - royal_stronghold: Berwick\n")
    poor = purchase_position(towns={}, deniers={p: 4 for p in FOUR})
    assert "costs 5 shillings; you have 4" in errors(poor, "ann", ROYAL)
    built = purchase_position(towns={}, edition_state={"royal_stronghold": {"city": "York", "family": "ann"}})
    assert "stands in York already" in errors(built, "ann", ROYAL)
    fief = purchase_position(towns={}, lords={"Henri": {"family": "ann", "at": "London"},
                                              "Anabel": {"family": "bob", "at": "Berwick", "titles": ["Marches"]}})
    assert "who has not consented" in errors(fief, "ann", ROYAL)
    assert "not in a Fiefdom whose Lord is of your family" in errors(
        fief, "cat", "at_once:\n  - consent_royal_stronghold: Durham\n")
    fief, _ = send(fief, "bob", "at_once:\n  - consent_royal_stronghold: Durham\n")
    after, _ = send(fief, "ann", ROYAL)
    assert after["towns"]["Durham"]["controller"] == "ann"


def test_the_royal_stronghold_changes_sides_with_the_sovereign() -> None:
    from pbem.games.fief.state import FiefState
    from pbem.games.fief_england.crown import follow_sovereign
    state = purchase_position(towns={"Durham": {"controller": "ann", "fortress": "stronghold"}},
                              units={"Durham": {"ann": {"man_at_arms": 2}}},
                              edition_state={"royal_stronghold": {"city": "Durham", "family": "ann"}})
    st = FiefState.from_json(state)
    st.lords["Henri"].political = None
    st.lords["Anabel"].political = "sovereign_queen"
    events = follow_sovereign(st)
    assert st.towns["Durham"].controller == "bob"
    assert sorted(p.family for p in st.pawns.values() if p.location == "Durham") == ["bob", "bob"]
    assert "changes sides with the Sovereign: bob now holds it" in events[0].text


# -- the King's Interdiction (13.4): a pigeon frees a captive of the bandits -----------------------

def test_the_kings_interdiction_spends_a_pigeon_and_frees_the_captive() -> None:
    lords = {"Henri": {"family": "ann", "at": "London"}, "Hugh": {"family": "cat", "at": None},
             "Anabel": {"family": "bob", "at": "York"}}
    state = position(lords=lords, towns={"Exeter": {"controller": "cat"}},
                     edition_state={"sherwood": {"captives": [{"noble": "Hugh", "family": "cat", "ransom": 2,
                                                               "knights": []}]}})
    state["lords"]["Henri"]["political"] = "king"
    text = "at_once:\n  - interdiction: Hugh\n    by: Henri\n"
    assert "not your family's King or Queen" in errors(state, "bob", text.replace("Henri", "Anabel"))
    assert "not a captive of the bandits" in errors(state, "ann", text.replace("Hugh", "Anabel"))
    after, events = send(state, "ann", text)
    assert after["lords"]["Hugh"]["location"] == "Lincoln"           # the nearest friendly City (13.4)
    assert not after["edition_state"].get("sherwood", {}).get("captives")
    assert after["edition_state"]["pigeons"]["spent"] == {"ann": 1}
    assert "carrier pigeon" in seen_by(events, "dan")
    spent = {**state, "edition_state": {**state["edition_state"], "pigeons": {"spent": {"ann": 3}}}}
    assert "no carrier pigeon left" in errors(spent, "ann", text)
