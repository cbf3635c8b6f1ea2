"""Surprise cards held for a trigger (G.4): `at_battle_start` (underground, G.4.2.2) and
`ambush` (G.4.2.5), standing conditional orders under `policies: surprise:`."""
from __future__ import annotations

from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position
from pbem.rules.rng import Rng

from fief_support import check, errors

from test_fief_scenarios import FixedRng

PLAYERS = ["ann", "bob"]


def position(hands: dict, policies: dict | None = None, fortress: str | None = None) -> dict:
    towns = {"Tours": {"controller": "bob", **({"fortress": fortress} if fortress else {})}}
    return build_position({"players": PLAYERS, "phase": "battle", "hands": hands, "policies": policies or {},
                           "lords": {"Henry": {"family": "ann", "at": "Tours"},
                                     "Charles": {"family": "bob", "at": "Tours"},
                                     "Arthur": {"family": "bob", "at": "Paris"}},
                           "units": {"Tours": {"ann": {"knight": 2}, "bob": {"man_at_arms": 3}}},
                           "towns": towns}, "fief_france").to_json()


def test_trigger_orders_are_checked_against_the_hand_and_the_board() -> None:
    state = position({"ann": ["underground"]})
    assert "you hold no ambush card" in errors(state, "ann", "policies:\n  surprise:\n    - ambush: Charles\n"
                                               "      in: Tours\n")
    assert "no town 'Atlantis'" in errors(state, "ann", "policies:\n  surprise:\n    - at_battle_start: Atlantis\n"
                                          "      card: underground\n")
    assert "line 3" in errors(state, "ann", "policies:\n  surprise:\n    - uprising: Tours\n")
    assert "plays an underground card" in errors(state, "ann", "policies:\n  surprise:\n"
                                                 "    - at_battle_start: Tours\n      card: ambush\n")
    state = position({"ann": ["ambush"]})
    assert "not another family's lord" in errors(state, "ann", "policies:\n  surprise:\n    - ambush: Henry\n"
                                                 "      in: Tours\n")
    got = check(state, "ann", "policies:\n  surprise:\n    - ambush: Charles\n      in: Tours\n      round: 1\n")
    assert got.ok and got.orders["policies"]["surprise"] == [
        {"trigger": "ambush", "town": "Tours", "lord": "Charles", "round": 1}]
    assert "surprise: ambush on Charles" in "\n".join(
        RULES.view({**state, "families": {**state["families"], "ann": {**state["families"]["ann"],
                    "policies": got.orders["policies"]}}}, "ann")["policies_text"])


def test_an_ambush_takes_the_defending_lord_captive_at_the_start() -> None:
    trigger = {"trigger": "ambush", "town": "Tours", "lord": "Charles", "round": 0}
    state = position({"ann": ["ambush"]}, {"ann": {"surprise": [trigger]}})
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in PLAYERS}
    orders["ann"] = check(state, "ann", "orders:\n  - attack: bob\n    in: Tours\n").orders
    res = RULES.resolve(state, orders, FixedRng({"battle": [3, 0, 3, 0], "d6": [1, 1, 1]}))
    kinds = [e.kind for e in res.events]
    assert kinds.index("surprise_played") < kinds.index("lord_captured")
    assert res.state["lords"]["Charles"]["captive_of"] == "ann"
    assert res.state["families"]["ann"]["hand"] == [] and res.state["events_discard"] == ["ambush"]
    assert res.state["families"]["ann"]["policies"]["surprise"] == []


def test_an_underground_trigger_waits_when_there_is_no_penalty_to_ignore() -> None:
    trigger = {"trigger": "at_battle_start", "town": "Tours"}
    state = position({"ann": ["underground"]}, {"ann": {"surprise": [trigger]}})   # no fortress in Tours
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in PLAYERS}
    orders["ann"] = check(state, "ann", "orders:\n  - attack: bob\n    in: Tours\n").orders
    res = RULES.resolve(state, orders, Rng("t"))
    assert "surprise_played" not in [e.kind for e in res.events]
    assert res.state["families"]["ann"]["hand"] == ["underground"]
    assert res.state["families"]["ann"]["policies"]["surprise"] == [trigger]


def test_a_trigger_stays_hidden_from_the_other_players() -> None:
    trigger = {"trigger": "ambush", "town": "Tours", "lord": "Charles", "round": 0}
    state = position({"ann": ["ambush"]}, {"ann": {"surprise": [trigger]}})
    seen = RULES.view(state, "bob")
    assert "ambush" not in repr(seen) and "ambush" in repr(RULES.view(state, "ann"))


def test_an_ambush_waits_while_its_lord_is_only_watching_the_battle() -> None:
    """G.4.2.5: the card takes a lord "during a battle": a lord in the town whose family joined
    neither side is not in the battle, so the trigger waits and the card stays in hand."""
    trigger = {"trigger": "ambush", "town": "Tours", "lord": "Blanche", "round": 0}
    state = build_position({
        "players": ["ann", "bob", "cid"], "phase": "battle", "hands": {"ann": ["ambush"]},
        "policies": {"ann": {"surprise": [trigger]}},
        "lords": {"Henry": {"family": "ann", "at": "Tours"}, "Charles": {"family": "bob", "at": "Tours"},
                  "Blanche": {"family": "cid", "at": "Tours"}},
        "units": {"Tours": {"ann": {"knight": 2}, "bob": {"man_at_arms": 3}, "cid": {"knight": 1}}},
        "towns": {"Tours": {"controller": "bob"}}}, "fief_france").to_json()
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in ("ann", "bob", "cid")}
    orders["ann"] = check(state, "ann", "orders:\n  - attack: bob\n    in: Tours\n").orders
    res = RULES.resolve(state, orders, Rng("t"))
    assert "surprise_played" not in [e.kind for e in res.events]
    assert res.state["families"]["ann"]["hand"] == ["ambush"]
    assert res.state["families"]["ann"]["policies"]["surprise"] == [trigger]
    assert res.state["lords"]["Blanche"]["captive_of"] is None
