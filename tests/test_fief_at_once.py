"""`at_once:` (at_once.py): surprise cards (G.4 "at any time") and town control transfers
(5.2.2 "at any time") done as soon as the judge reads the mail, after the mail's diplomacy
(H.2). The judge's side (immediate mail, archive, replay) is in test_judge_at_once.py."""
from __future__ import annotations

from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position

from fief_support import act, check_at_once

PLAYERS = ["ann", "bob", "cid"]
LORDS = {"Henry": {"family": "ann", "at": "Tours"}, "Charles": {"family": "bob", "at": "Tours"},
         "Arthur": {"family": "cid", "at": "Lyon"}}
UNITS = {"Tours": {"ann": {"knight": 1}, "bob": {"man_at_arms": 1}}, "Lyon": {"cid": {"knight": 1}}}


def position(phase: str = "movement", **more) -> dict:
    return build_position({"players": PLAYERS, "phase": phase, "lords": LORDS, "units": UNITS,
                           "towns": {"Tours": {"controller": "ann"}}, **more}, "fief_france").to_json()


def refused(state: dict, player: str, text: str) -> str:
    result = check_at_once(state, player, text)
    assert not result.ok
    return " | ".join(str(e) for e in result.errors)


def test_an_assassination_at_once_and_the_card_is_discarded():
    state = position(hands={"ann": ["assassination"]})
    after, events = act(state, "ann", "at_once:\n  - play: assassination\n    on: Arthur\n    sponsor: Henry\n")
    assert "Arthur" not in after["lords"] and after["lords"]["Henry"]["assassin"]
    assert after["families"]["ann"]["hand"] == [] and after["events_discard"][-1] == "assassination"
    assert [e.kind for e in events][:2] == ["surprise_played", "assassination"]
    assert all(e.audience.kind == "all" for e in events if e.kind != "trigger_fired")
    assert after["phase"] == "movement"


def test_a_transfer_of_control_at_once():
    after, events = act(position(), "ann", "at_once:\n  - transfer: Tours\n    to: bob\n")
    assert after["towns"]["Tours"]["controller"] == "bob"
    assert events[0].kind == "control_transferred"


def test_diplomacy_comes_first_then_the_items_in_order():
    """H.2: a diplomacy pawn is primary: the exchange that brings the card is done before the
    card is played; the items follow in the order written."""
    state = position(hands={"ann": [], "bob": ["justice"]})
    state["lords"]["Arthur"]["assassin"] = True
    offered, _ = act(state, "bob", "diplomacy:\n  - exchange: [justice]\n    with: ann\n")
    assert refused(offered, "ann", "at_once:\n  - play: justice\n    on: Arthur\n").startswith(
        "line 2: you hold no justice card")


def test_a_card_given_away_in_the_same_mail_voids_its_play_privately():
    state = position(hands={"ann": ["justice"], "bob": []})
    state["lords"]["Arthur"]["assassin"] = True
    offered, _ = act(state, "bob", "diplomacy:\n  - exchange: []\n    with: ann\n    take: [justice]\n")
    after, events = act(offered, "ann", "diplomacy:\n  - exchange: [justice]\n    with: bob\n"
                        "at_once:\n  - play: justice\n    on: Arthur\n")
    assert after["families"]["bob"]["hand"] == ["justice"] and "Arthur" in after["lords"]
    void = next(e for e in events if e.kind == "card_not_played")
    assert void.audience.players == ("ann",)


def test_refusals_name_the_problem():
    state = position(hands={"ann": ["uprising", "justice"]})
    assert "`at_once:` must be a list" in refused(state, "ann", "at_once: now\n")
    assert "an uprising is played at once in round-N/cards-play" in refused(
        state, "ann", "at_once:\n  - play: uprising\n    in: Tours\n")
    assert "you hold no assassination card" in refused(
        state, "ann", "at_once:\n  - play: assassination\n    on: Arthur\n    sponsor: Henry\n")
    assert "Arthur: the justice card targets a lord with an assassin marker only" in refused(
        state, "ann", "at_once:\n  - play: justice\n    on: Arthur\n")
    assert "you do not control Lyon" in refused(state, "ann", "at_once:\n  - transfer: Lyon\n    to: cid\n")
    assert "`steal` is not an order" in refused(state, "ann", "at_once:\n  - steal: Tours\n")


def test_no_surprise_card_during_the_cards_draw_but_a_transfer_is_allowed():
    state = position("cards", hands={"ann": ["justice"]})
    state["lords"]["Arthur"]["assassin"] = True
    assert "no surprise card may be played during the cards draw (G.4: step B)" in refused(
        state, "ann", "at_once:\n  - play: justice\n    on: Arthur\n")
    after, _ = act(state, "ann", "at_once:\n  - transfer: Tours\n    to: bob\n")
    assert after["towns"]["Tours"]["controller"] == "bob"


def test_the_at_once_template_offers_both_keys():
    state = position(hands={"ann": ["justice"]})
    text = RULES.at_once_template(RULES.view(state, "ann"), "ann")
    assert "# diplomacy:" in text and "# at_once:" in text and "transfer:" in text
