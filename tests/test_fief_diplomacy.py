"""Diplomacy (F), done at once when the judge accepts the mail: deniers given freely, messages
relayed, card exchanges offered and answered, the diplomacy pawns they spend, and the public
diplomacy option (I.3). The judge's side (immediate mail, archive) is in test_judge_at_once.py."""
from __future__ import annotations

from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position
from pbem.rules.rng import Rng

from fief_support import act, check_at_once

PLAYERS = ["ann", "bob", "cid"]
LORDS = {"Beaudouin": {"family": "ann", "at": "Tours"}, "Charles": {"family": "bob", "at": "Paris"},
         "Arthur": {"family": "cid", "at": "Lyon"}}
OFFER = "diplomacy:\n  - exchange: [good weather]\n    with: bob\n    take: [tax]\n"
MIRROR = "diplomacy:\n  - exchange: [tax]\n    with: ann\n    take: [good weather]\n"


def position(**more) -> dict:
    return build_position({"players": PLAYERS, "phase": "purchase", "lords": LORDS, **more}, "fief_france").to_json()


def refused(state: dict, player: str, text: str) -> str:
    result = check_at_once(state, player, text)
    assert not result.ok
    return " | ".join(str(e) for e in result.errors)


def test_deniers_are_given_freely_and_publicly():
    state = position(deniers={"ann": 10, "bob": 5})
    after, events = act(state, "ann", "diplomacy:\n  - give: 4\n    to: bob\n")
    assert after["families"]["ann"]["deniers"] == 6 and after["families"]["bob"]["deniers"] == 9
    gift = next(e for e in events if e.kind == "diplomacy_gift")
    assert gift.audience.kind == "all" and "ann gives 4 deniers to bob" in gift.text
    assert after["families"]["ann"]["diplomacy_pawns"] == 3     # a gift costs no pawn


def test_a_gift_above_the_treasury_or_to_a_stranger_is_refused_at_check():
    state = position(deniers={"ann": 3})
    assert "you give 5 deniers in all but have 3" in refused(state, "ann", "diplomacy:\n  - give: 5\n    to: bob\n")
    assert "line 2: you give 5 deniers in all" in refused(state, "ann", "diplomacy:\n  - give: 2\n    to: bob\n"
                                                            "  - give: 3\n    to: cid\n")
    assert "`bobb` is not another player" in refused(state, "ann", "diplomacy:\n  - give: 1\n    to: bobb\n")
    assert "whole number of deniers" in refused(state, "ann", "diplomacy:\n  - give: lots\n    to: bob\n")


def test_a_private_message_reaches_only_its_addressees_and_spends_a_pawn():
    after, events = act(position(), "ann", 'diplomacy:\n  - message: "Attack cid in Lyon."\n    to: bob\n')
    message = next(e for e in events if e.kind == "diplomacy_message")
    assert message.audience.sees("ann") and message.audience.sees("bob") and not message.audience.sees("cid")
    assert message.said.by == "ann" and message.said.text == "Attack cid in Lyon." and "Attack" not in message.text
    public = [e for e in events if e.audience.sees("cid")]
    assert all("Attack" not in e.text and "Attack" not in str(e.data) for e in public)
    assert any(e.kind == "diplomacy_talk" for e in public)
    assert after["families"]["ann"]["diplomacy_pawns"] == 2


def test_a_message_to_all_is_free():
    after, events = act(position(), "bob", 'diplomacy:\n  - message: "Peace!"\n    to: all\n')
    assert next(e for e in events if e.kind == "diplomacy_message").audience.kind == "all"
    assert after["families"]["bob"]["diplomacy_pawns"] == 3


def test_no_pawn_left_refuses_a_private_message():
    state = position()
    state["families"]["ann"]["diplomacy_pawns"] = 0
    assert "need 1 diplomacy pawn(s)" in refused(state, "ann", 'diplomacy:\n  - message: "hi"\n    to: [bob, cid]\n')


def test_public_diplomacy_uses_no_pawn():
    state = position(options={"public_diplomacy": True})
    state["families"]["ann"]["diplomacy_pawns"] = 0
    after, events = act(state, "ann", 'diplomacy:\n  - message: "hi"\n    to: bob\n')
    assert any(e.kind == "diplomacy_message" and e.audience.sees("bob") for e in events)
    assert after["families"]["ann"]["diplomacy_pawns"] == 0


def test_an_overlong_or_empty_message_is_refused():
    state = position()
    assert "more than 2000" in refused(state, "ann", f'diplomacy:\n  - message: "{"x" * 2001}"\n    to: bob\n')
    assert "the message is empty" in refused(state, "ann", "diplomacy:\n  - message:\n    to: bob\n")


def test_an_exchange_is_an_offer_seen_by_the_two_players_until_the_mirror_order_comes():
    state = position(hands={"ann": ["good_weather"], "bob": ["tax", "good_harvest"]})
    offered, events = act(state, "ann", OFFER)
    assert offered["families"]["ann"]["hand"] == ["good_weather"]          # nothing moved yet
    offer = next(e for e in events if e.kind == "diplomacy_offer")
    assert offer.audience.players == ("ann", "bob")
    assert RULES.view(offered, "bob")["exchange_offers"] == [
        {"from": "ann", "with": "bob", "give": ["good_weather"], "take": ["tax"]}]
    assert RULES.view(offered, "cid")["exchange_offers"] == []             # a private talk (F)
    after, events = act(offered, "bob", MIRROR)
    assert after["families"]["ann"]["hand"] == ["tax"]
    assert sorted(after["families"]["bob"]["hand"]) == ["good_harvest", "good_weather"]
    assert after["exchange_offers"] == []
    private = next(e for e in events if e.kind == "diplomacy_exchange")
    assert not private.audience.sees("cid")
    public = next(e for e in events if e.kind == "diplomacy_exchange_public")
    assert "weather" not in public.text.lower() and "tax" not in public.text.lower()
    # ann is first in turn order, so she pays the pawn (ruling), though bob's order did it
    assert after["families"]["ann"]["diplomacy_pawns"] == 2 and after["families"]["bob"]["diplomacy_pawns"] == 3


def test_an_answer_that_does_not_mirror_the_offer_is_a_counter_offer():
    state = position(hands={"ann": ["good_weather"], "bob": ["tax", "good_harvest"]})
    offered, _ = act(state, "ann", OFFER)
    after, events = act(offered, "bob",
                        "diplomacy:\n  - exchange: [good harvest]\n    with: ann\n    take: [good weather]\n")
    assert after["families"]["ann"]["hand"] == ["good_weather"]
    assert {(o["from"], o["with"]) for o in after["exchange_offers"]} == {("ann", "bob"), ("bob", "ann")}
    assert [e.kind for e in events] == ["diplomacy_offer"]


def test_an_offer_is_replaced_or_withdrawn_and_lapses_with_the_round():
    state = position(hands={"ann": ["good_weather", "tax"], "bob": ["tax"]})
    offered, _ = act(state, "ann", OFFER)
    again, _ = act(offered, "ann", "diplomacy:\n  - exchange: [tax]\n    with: bob\n")
    assert again["exchange_offers"] == [{"from": "ann", "with": "bob", "give": ["tax"], "take": []}]
    withdrawn, events = act(again, "ann", "diplomacy:\n  - exchange: []\n    with: bob\n    take: []\n")
    assert withdrawn["exchange_offers"] == [] and events[0].kind == "diplomacy_offer_withdrawn"
    assert "no exchange offer to bob to withdraw" in refused(
        withdrawn, "ann", "diplomacy:\n  - exchange: []\n    with: bob\n    take: []\n")
    # 7: an unanswered offer lapses at the end of the round, told to the two players
    end = dict(offered, phase="end_of_round")
    out = RULES.resolve(end, {}, Rng("t"))
    assert out.state["exchange_offers"] == []
    lapsed = next(e for e in out.events if e.kind == "diplomacy_offer_lapsed")
    assert lapsed.audience.players == ("ann", "bob")


def test_a_card_gone_from_a_hand_refuses_the_exchange_when_answered():
    state = position(hands={"ann": ["good_weather"], "bob": ["tax"]})
    offered, _ = act(state, "ann", OFFER)
    offered["families"]["ann"]["hand"] = []          # played in the meantime
    after, events = act(offered, "bob", MIRROR)
    assert [e.kind for e in events] == ["diplomacy_refused"] and events[0].audience.players == ("ann", "bob")
    assert after["families"]["bob"]["hand"] == ["tax"] and after["families"]["ann"]["diplomacy_pawns"] == 3


def test_an_exchange_checks_the_hand_and_its_limit():
    state = position(hands={"ann": ["good_weather", "tax", "tax"], "bob": ["tax"]})
    assert "more than 3" in refused(state, "ann", "diplomacy:\n  - exchange: []\n    with: bob\n    take: [tax]\n")
    assert "you do not hold good_harvest" in refused(
        state, "ann", "diplomacy:\n  - exchange: [good harvest]\n    with: bob\n")


def test_diplomacy_is_a_list_of_known_orders():
    state = position()
    assert "must be a list" in refused(state, "ann", "diplomacy: hello\n")
    assert "`bribe` is not an order" in refused(state, "ann", "diplomacy:\n  - bribe: 3\n")


def test_public_diplomacy_exchanges_cost_no_pawn():
    state = position(options={"public_diplomacy": True}, hands={"ann": ["tax"], "bob": []})
    state["families"]["ann"]["diplomacy_pawns"] = 0
    offered, _ = act(state, "ann", "diplomacy:\n  - exchange: [tax]\n    with: bob\n")
    after, events = act(offered, "bob", "diplomacy:\n  - exchange: []\n    with: ann\n    take: [tax]\n")
    assert after["families"]["bob"]["hand"] == ["tax"] and after["families"]["ann"]["hand"] == []
    assert "pawn" not in next(e for e in events if e.kind == "diplomacy_exchange_public").text


def test_the_payer_without_a_pawn_refuses_the_exchange_when_it_is_answered():
    state = position(hands={"ann": ["good_weather"], "bob": ["tax"]})
    offered, _ = act(state, "ann", OFFER)
    offered["families"]["ann"]["diplomacy_pawns"] = 0     # spent on talks since
    after, events = act(offered, "bob", MIRROR)
    assert events[0].kind == "diplomacy_refused" and "ann has no diplomacy pawn left" in events[0].text
    assert after["families"]["ann"]["hand"] == ["good_weather"]


def test_diplomacy_is_done_in_any_phase():
    """F: "at any time": the judge accepts `diplomacy:` whatever the phase (and from players
    with no orders to give in it); the rules act on it the same way."""
    for phase in ("movement", "battle", "cards", "income", "end_of_round"):
        state = build_position({"players": PLAYERS, "phase": phase, "lords": LORDS,
                                "deniers": {"cid": 6}}, "fief_france").to_json()
        after, events = act(state, "cid", "diplomacy:\n  - give: 6\n    to: ann\n")
        assert after["families"]["cid"]["deniers"] == 0, phase
        assert events[0].kind == "diplomacy_gift" and after["phase"] == phase


def test_a_gift_the_treasury_no_longer_covers_is_refused_in_public():
    state = position(deniers={"ann": 4})
    action = {"diplomacy": {"give": [{"to": "bob", "deniers": 3}, {"to": "cid", "deniers": 3}],
                            "messages": [], "exchanges": []}}
    out = RULES.act(state, "ann", action, Rng("x"))
    refused_events = [e for e in out.events if e.kind == "diplomacy_refused"]
    assert len(refused_events) == 1 and refused_events[0].audience.kind == "all"
    assert out.state["families"]["cid"]["deniers"] == 5 and out.state["families"]["ann"]["deniers"] == 1


def test_the_phase_orders_no_longer_take_diplomacy():
    """The judge splits `diplomacy:` off every mail (it is done at once); the phase's own
    checker never sees it, and names it if it is ever handed one."""
    from fief_support import errors
    assert "diplomacy" in errors(position(), "ann", "orders: []\ndiplomacy:\n  - give: 1\n    to: bob\n")
