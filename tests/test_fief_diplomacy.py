"""Diplomacy (F): deniers given freely, messages relayed by the judge, card exchanges, the
diplomacy pawns they spend, and the public diplomacy option (I.3)."""
from __future__ import annotations

from pbem.games.fief.france import RULES
from pbem.games.fief.positions import build_position
from pbem.rules.rng import Rng

from fief_support import check, errors

PLAYERS = ["ann", "bob", "cid"]
LORDS = {"Beaudouin": {"family": "ann", "at": "Tours"}, "Charles": {"family": "bob", "at": "Paris"},
         "Arthur": {"family": "cid", "at": "Lyon"}}


def position(**more) -> dict:
    return build_position({"players": PLAYERS, "phase": "purchase", "lords": LORDS, **more}).to_json()


def resolve(state: dict, sent: dict[str, str]):
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in RULES.phase(state).deciders}
    for player, text in sent.items():
        result = check(state, player, text)
        assert result.ok, result.errors
        orders[player] = result.orders
    out = RULES.resolve(state, orders, Rng("diplomacy"))
    return out.state, list(out.events)


def test_deniers_are_given_freely_and_publicly():
    state = position(deniers={"ann": 10, "bob": 5})
    after, events = resolve(state, {"ann": "diplomacy:\n  - give: 4\n    to: bob\n"})
    assert after["families"]["ann"]["deniers"] == 10 - 4 - 0 and after["families"]["bob"]["deniers"] == 9
    gift = next(e for e in events if e.kind == "diplomacy_gift")
    assert gift.audience.kind == "all" and "ann gives 4 deniers to bob" in gift.text
    assert after["families"]["ann"]["diplomacy_pawns"] == 3     # a gift costs no pawn


def test_a_gift_above_the_treasury_or_to_a_stranger_is_refused_at_check():
    state = position(deniers={"ann": 3})
    assert "you give 5 deniers in all but have 3" in errors(state, "ann", "diplomacy:\n  - give: 5\n    to: bob\n")
    assert "`bobb` is not another player" in errors(state, "ann", "diplomacy:\n  - give: 1\n    to: bobb\n")
    assert "whole number of deniers" in errors(state, "ann", "diplomacy:\n  - give: lots\n    to: bob\n")


def test_a_private_message_reaches_only_its_addressees_and_spends_a_pawn():
    state = position()
    after, events = resolve(state, {"ann": 'diplomacy:\n  - message: "Attack cid in Lyon."\n    to: bob\n'})
    message = next(e for e in events if e.kind == "diplomacy_message")
    assert message.audience.sees("ann") and message.audience.sees("bob") and not message.audience.sees("cid")
    assert "Attack cid in Lyon." in message.text
    public = [e for e in events if e.audience.sees("cid")]
    assert all("Attack" not in e.text and "Attack" not in str(e.data) for e in public)
    assert any(e.kind == "diplomacy_talk" for e in public)
    assert after["families"]["ann"]["diplomacy_pawns"] == 2


def test_a_message_to_all_is_free():
    after, events = resolve(position(), {"bob": 'diplomacy:\n  - message: "Peace!"\n    to: all\n'})
    assert next(e for e in events if e.kind == "diplomacy_message").audience.kind == "all"
    assert after["families"]["bob"]["diplomacy_pawns"] == 3


def test_no_pawn_left_refuses_a_private_message_at_check_and_at_resolution():
    state = position()
    state["families"]["ann"]["diplomacy_pawns"] = 0
    assert "need 1 diplomacy pawn(s)" in errors(state, "ann", 'diplomacy:\n  - message: "hi"\n    to: [bob, cid]\n')
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in PLAYERS}
    orders["ann"]["diplomacy"] = {"give": [], "messages": [{"to": ["bob"], "text": "Zanzibar"}], "exchanges": []}
    out = RULES.resolve(state, orders, Rng("x"))
    assert [e.kind for e in out.events if e.kind.startswith("diplomacy")] == ["diplomacy_refused"]
    assert not any("Zanzibar" in e.text for e in out.events if e.audience.sees("bob"))


def test_public_diplomacy_uses_no_pawn():
    state = position(options={"public_diplomacy": True})
    state["families"]["ann"]["diplomacy_pawns"] = 0
    after, events = resolve(state, {"ann": 'diplomacy:\n  - message: "hi"\n    to: bob\n'})
    assert any(e.kind == "diplomacy_message" and e.audience.sees("bob") for e in events)
    assert after["families"]["ann"]["diplomacy_pawns"] == 0


def test_an_overlong_or_empty_message_is_refused():
    state = position()
    assert "more than 2000" in errors(state, "ann", f'diplomacy:\n  - message: "{"x" * 2001}"\n    to: bob\n')
    assert "the message is empty" in errors(state, "ann", "diplomacy:\n  - message:\n    to: bob\n")


def test_cards_are_exchanged_when_both_orders_mirror_each_other():
    state = position(hands={"ann": ["good_weather"], "bob": ["tax", "good_harvest"]})
    after, events = resolve(state, {
        "ann": "diplomacy:\n  - exchange: [good weather]\n    with: bob\n    take: [tax]\n",
        "bob": "diplomacy:\n  - exchange: [tax]\n    with: ann\n    take: [good weather]\n"})
    assert after["families"]["ann"]["hand"] == ["tax"]
    assert sorted(after["families"]["bob"]["hand"]) == ["good_harvest", "good_weather"]
    private = next(e for e in events if e.kind == "diplomacy_exchange")
    assert not private.audience.sees("cid")
    public = next(e for e in events if e.kind == "diplomacy_exchange_public")
    assert "weather" not in public.text.lower() and "tax" not in public.text.lower()
    # ann is first in turn order, so she pays the pawn (ruling)
    assert after["families"]["ann"]["diplomacy_pawns"] == 2 and after["families"]["bob"]["diplomacy_pawns"] == 3


def test_an_exchange_without_a_mirror_order_moves_nothing():
    state = position(hands={"ann": ["good_weather"], "bob": ["tax"]})
    after, events = resolve(state, {"ann": "diplomacy:\n  - exchange: [good weather]\n    with: bob\n    take: [tax]\n"})
    assert after["families"]["ann"]["hand"] == ["good_weather"]
    assert any(e.kind == "diplomacy_refused" for e in events)
    assert after["families"]["ann"]["diplomacy_pawns"] == 3


def test_an_exchange_checks_the_hand_and_its_limit():
    state = position(hands={"ann": ["good_weather", "tax", "tax"], "bob": ["tax"]})
    assert "more than 3" in errors(state, "ann", "diplomacy:\n  - exchange: []\n    with: bob\n    take: [tax]\n")
    assert "you do not hold good_harvest" in errors(
        state, "ann", "diplomacy:\n  - exchange: [good harvest]\n    with: bob\n")


def test_diplomacy_is_a_list_of_known_orders():
    state = position()
    assert "must be a list" in errors(state, "ann", "diplomacy: hello\n")
    assert "`bribe` is not an order" in errors(state, "ann", "diplomacy:\n  - bribe: 3\n")


def test_public_diplomacy_exchanges_cost_no_pawn():
    state = position(options={"public_diplomacy": True}, hands={"ann": ["tax"], "bob": []})
    state["families"]["ann"]["diplomacy_pawns"] = 0
    after, events = resolve(state, {"ann": "diplomacy:\n  - exchange: [tax]\n    with: bob\n",
                                    "bob": "diplomacy:\n  - exchange: []\n    with: ann\n    take: [tax]\n"})
    assert after["families"]["bob"]["hand"] == ["tax"] and after["families"]["ann"]["hand"] == []
    assert "pawn" not in next(e for e in events if e.kind == "diplomacy_exchange_public").text


def test_diplomacy_rides_on_every_phase_that_takes_orders():
    """H.2: resolved before the phase's own orders, here movement and battle mails."""
    for phase in ("movement", "battle", "cards"):
        state = build_position({"players": PLAYERS, "phase": phase, "lords": LORDS,
                                "deniers": {"cid": 6}}).to_json()
        after, events = resolve(state, {"cid": "diplomacy:\n  - give: 6\n    to: ann\n"})
        assert after["families"]["cid"]["deniers"] == 0, phase
        assert events[0].kind == "diplomacy_gift", phase


def test_a_gift_the_treasury_no_longer_covers_is_refused_in_public():
    state = position(deniers={"ann": 4})
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in PLAYERS}
    orders["ann"]["diplomacy"] = {"give": [{"to": "bob", "deniers": 3}, {"to": "cid", "deniers": 3}],
                                  "messages": [], "exchanges": []}
    out = RULES.resolve(state, orders, Rng("x"))
    refused = [e for e in out.events if e.kind == "diplomacy_refused"]
    assert len(refused) == 1 and refused[0].audience.kind == "all"
    assert out.state["families"]["cid"]["deniers"] == 5 and out.state["families"]["ann"]["deniers"] == 1
