"""The `at_phase_start` trigger (G.4 "at any time"): an at-once surprise card, or a transfer
of a town's control (5.2.2), fired when a phase starts, i.e. at the end of the resolution of
the phase before it (Rulings)."""
from __future__ import annotations

from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position
from pbem.rules.rng import Rng

from fief_support import check, errors

PLAYERS = ["ann", "bob", "cid"]
LORDS = {"Henry": {"family": "ann", "at": "Tours"}, "Mireille": {"family": "ann", "at": "Tours"},
         "Charles": {"family": "bob", "at": "Paris"}, "Isabelle": {"family": "cid", "at": "Lyon",
                                                                  "female": True, "spouse": "Arthur"},
         "Arthur": {"family": "cid", "at": "Lyon", "spouse": "Isabelle"}}


def purchase(hands: dict, policies: dict | None = None, **more) -> dict:
    return build_position({"players": PLAYERS, "phase": "purchase", "hands": hands, "lords": LORDS,
                           "policies": policies or {}, **more}, "fief_france").to_json()


def resolve(state: dict, rng: Rng | None = None):
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in RULES.phase(state).deciders}
    res = RULES.resolve(state, orders, rng or Rng("t"))
    return res.state, list(res.events)


def assassinate(on: str = "Charles", sponsor: str = "Henry", phase: str = "movement", rnd=None) -> dict:
    return {"trigger": "at_phase_start", "phase": phase, "round": rnd,
            "play": {"card": "assassination", "on": on, "sponsor": sponsor}}


def policy(text: str) -> str:
    return "policies:\n  surprise:\n    - at_phase_start: " + text


def test_a_phase_start_play_is_checked_like_a_cards_play_order() -> None:
    state = purchase({"ann": ["assassination", "darc"], "bob": ["uprising"]})
    got = check(state, "ann", policy("Movement\n      play: assassination\n      on: charles\n      sponsor: Henry\n"))
    assert got.ok and got.orders["policies"]["surprise"] == [assassinate()]
    # the cards-play checker's own refusals (surprise/orders.py), with the mail's lines
    assert "line 5: Isabelle: she is married (G.4.1.1" in errors(
        state, "ann", policy("battle\n      play: D'Arc\n      on: Isabelle\n"))
    assert "say which of your lords is the sponsor: Henry, Mireille" in errors(
        state, "ann", policy("battle\n      play: assassination\n      on: Charles\n"))
    assert "never targets a lord of your own family" in errors(
        state, "ann", policy("battle\n      play: assassination\n      on: Mireille\n      sponsor: Henry\n"))
    assert "unknown key `sponsr`" in errors(
        state, "ann", policy("battle\n      play: assassination\n      on: Charles\n      sponsr: Henry\n"))


def test_phase_start_refusals() -> None:
    state = purchase({"ann": ["assassination"], "bob": ["uprising"]})
    play = "\n      play: assassination\n      on: Charles\n      sponsor: Henry\n"
    assert "no surprise card may be played during the cards draw (G.4)" in errors(state, "ann", policy("cards" + play))
    assert "'movment' is not a phase a trigger may wait for (did you mean `movement`?)" in errors(
        state, "ann", policy("movment" + play))
    assert "round 1 is over (this is round 2)" in errors(purchase({"ann": ["assassination"]}, round=2), "ann",
                                                         policy("battle" + play + "      round: 1\n"))
    assert "round must be at least 1, not 0" in errors(state, "ann", policy("battle" + play + "      round: 0\n"))
    assert "round must be a whole number, not 'two'" in errors(state, "ann",
                                                              policy("battle" + play + "      round: two\n"))
    assert "you hold no justice card" in errors(
        state, "ann", policy("battle\n      play: justice\n      on: Charles\n"))
    assert "an uprising is played at once in round-N/cards-play" in errors(
        state, "bob", policy("battle\n      play: uprising\n"))
    assert "'tax' is not a surprise card played at once" in errors(state, "ann", policy("battle\n      play: tax\n"))
    assert "one `play:` (a surprise card) or one `transfer:`" in errors(state, "ann", policy("battle\n"))
    assert "one `play:` (a surprise card) or one `transfer:`" in errors(
        state, "ann", policy("battle" + play + "      transfer: Tours\n      to: bob\n"))


def test_the_card_is_played_when_the_phase_starts_and_the_report_opening_it_says_so() -> None:
    state = purchase({"ann": ["assassination"]}, {"ann": {"surprise": [assassinate()]}})
    state, events = resolve(state)                       # the purchase phase ends: movement starts
    assert RULES.phase(state).id == "round-1/movement"
    assert "Charles" not in state["lords"] and state["lords"]["Henry"]["assassin"]
    assert state["families"]["ann"]["hand"] == [] and state["events_discard"] == ["assassination"]
    assert state["families"]["ann"]["policies"]["surprise"] == []
    kinds = [e.kind for e in events]
    assert kinds.index("trigger_fired") < kinds.index("assassination")
    assert next(e for e in events if e.kind == "trigger_fired").audience.players == ("ann",)
    assert next(e for e in events if e.kind == "assassination").audience.kind == "all"


def test_a_trigger_waits_for_its_phase_its_round_and_its_card() -> None:
    later = assassinate(rnd=2)
    other_phase = assassinate(phase="battle")
    state = purchase({"ann": ["assassination"]}, {"ann": {"surprise": [later, other_phase]}})
    state, events = resolve(state)
    assert "surprise_played" not in [e.kind for e in events] and "Charles" in state["lords"]
    assert state["families"]["ann"]["policies"]["surprise"] == [later, other_phase]

    state = purchase({}, {"ann": {"surprise": [assassinate()]}})     # no card in hand: it waits
    state, events = resolve(state)
    assert not events or "assassination" not in [e.kind for e in events]
    assert state["families"]["ann"]["policies"]["surprise"] == [assassinate()]


def test_triggers_fire_in_turn_order_and_a_void_one_still_discards_its_card() -> None:
    bob_trigger = assassinate(on="Mireille", sponsor="Charles")
    state = purchase({"ann": ["assassination"], "bob": ["assassination"]},
                     {"ann": {"surprise": [assassinate()]}, "bob": {"surprise": [bob_trigger]}})
    state, events = resolve(state)
    void = next(e for e in events if e.kind == "surprise_void")
    assert "Charles is no longer a lord of bob in play" in void.text
    assert "Mireille" in state["lords"] and state["families"]["bob"]["hand"] == []
    assert state["events_discard"] == ["assassination", "assassination"]


def test_an_underground_escape_at_a_phase_start() -> None:
    lords = {**LORDS, "Charles": {"family": "bob", "at": "Tours", "captive_of": "ann"}}
    free = {"trigger": "at_phase_start", "phase": "battle", "round": None,
            "play": {"card": "underground", "free": ["Charles"], "town": None}}
    state = build_position({"players": PLAYERS, "phase": "movement", "hands": {"bob": ["underground"]},
                            "lords": lords, "policies": {"bob": {"surprise": [free]}},
                            "units": {"Tours": {"ann": {"knight": 1}}}}, "fief_france").to_json()
    got = check(state, "bob", policy("battle\n      play: underground\n      free: Charles\n"))
    assert got.ok and got.orders["policies"]["surprise"] == [free]
    state, events = resolve(state)
    assert "escape" in [e.kind for e in events] and state["lords"]["Charles"]["captive_of"] is None


def test_phase_start_triggers_are_private() -> None:
    state = purchase({"ann": ["assassination"]}, {"ann": {"surprise": [assassinate()]}})
    assert "at_phase_start" not in repr(RULES.view(state, "bob"))
    text = "\n".join(RULES.view(state, "ann")["policies_text"])
    assert "surprise: assassination on Charles at the start of movement" in text


def test_the_next_rounds_hear_ye_starts_when_the_end_of_round_is_resolved() -> None:
    state = build_position({"players": PLAYERS, "phase": "end_of_round", "hands": {"ann": ["assassination"]},
                            "lords": LORDS, "policies": {"ann": {"surprise": [assassinate(phase="hear_ye", rnd=2)]}}
                            }, "fief_france").to_json()
    state, events = resolve(state)
    assert RULES.phase(state).id == "round-2/hear-ye"
    assert "Charles" not in state["lords"] and "assassination" in [e.kind for e in events]


def test_an_underground_phase_start_trigger_is_described_to_its_owner() -> None:
    free = {"trigger": "at_phase_start", "phase": "battle", "round": 2,
            "play": {"card": "underground", "free": ["Charles", "Arthur"], "town": None}}
    state = purchase({"bob": ["underground"]}, {"bob": {"surprise": [free]}})
    assert "surprise: underground freeing Charles, Arthur at the start of battle in round 2" in "\n".join(
        RULES.view(state, "bob")["policies_text"])
