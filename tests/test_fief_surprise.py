"""Surprise cards played at once in the cards-play sub-phase (G.4, H.2): D'Arc, cardinal,
assassination, justice, underground (a captive escapes). The rulebook examples are scenario
files (tests/scenarios/fief_france/surprise-*.yaml)."""
from __future__ import annotations

from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position

from fief_support import check, errors
from tests.test_fief_cards import Dice

PLAYERS = ["ann", "bob", "cid"]


def at_play(lords: dict, hands: dict, **more) -> dict:
    state = build_position({"players": PLAYERS, "phase": "cards", "lords": lords, "hands": hands,
                            **more}, "fief_france").to_json()
    res = RULES.resolve(state, {p: RULES.default_orders(RULES.view(state, p), p)
                                for p in RULES.phase(state).deciders}, Dice())
    assert RULES.phase(res.state).id == "round-1/cards-play"
    return res.state


def play(state: dict, player: str, text: str):
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in RULES.phase(state).deciders}
    result = check(state, player, text)
    assert result.ok, result.errors
    orders[player] = result.orders
    res = RULES.resolve(state, orders, Dice())
    return res.state, list(res.events)


LORDS = {"Mireille": {"family": "ann", "at": "Tours"}, "Blanche": {"family": "ann", "at": "Tours"},
         "Charles": {"family": "bob", "at": "Paris", "titles": ["king"], "spouse": "Isabelle"},
         "Isabelle": {"family": "cid", "at": "Lyon", "titles": ["queen"], "spouse": "Charles"},
         "Arthur": {"family": "cid", "at": "Lyon"}}


def test_a_surprise_card_holder_decides_in_the_play_step() -> None:
    state = at_play(LORDS, {"bob": ["justice"]})
    assert RULES.phase(state).deciders == ("bob",)


def test_darc_targets_an_unmarried_female_lord_of_any_family() -> None:
    state = at_play(LORDS, {"bob": ["darc"]})
    assert "she is married" in errors(state, "bob", "orders:\n  - play: darc\n    on: Isabelle\n")
    assert "female lord only" in errors(state, "bob", "orders:\n  - play: darc\n    on: Arthur\n")
    assert "no lord 'Jeanne' is in play" in errors(state, "bob", "orders:\n  - play: darc\n    on: Jeanne\n")
    assert "line 3" in errors(state, "bob", "orders:\n  - play: darc\n    on: Arthur\n")
    state, events = play(state, "bob", "orders:\n  - play: D'Arc\n    on: Blanche\n")   # ann cannot refuse
    assert state["lords"]["Blanche"]["political"] == "darc"
    assert state["frieze"] == {"Blanche": "darc"} and state["families"]["bob"]["hand"] == []


def test_the_regent_queen_cannot_be_darc() -> None:
    lords = {**LORDS, "Isabelle": {"family": "cid", "at": "Lyon", "titles": ["regent_queen"]}}
    lords.pop("Charles")
    lords["Henry"] = {"family": "bob", "at": "Paris"}
    state = at_play(lords, {"bob": ["darc"]})
    assert "regent queen" in errors(state, "bob", "orders:\n  - play: darc\n    on: Isabelle\n")


def test_the_popes_policy_decides_a_new_cardinal() -> None:
    lords = {**LORDS, "Arthur": {"family": "cid", "at": "Lyon", "titles": ["bishop 2"]},
             "Henry": {"family": "bob", "at": "Paris", "titles": ["pope", "bishop 1"]}}
    state = at_play(lords, {"ann": ["cardinal"]})
    assert "only a bishop" in errors(state, "ann", "orders:\n  - play: cardinal\n    on: Mireille\n")
    refused, events = play(state, "ann", "orders:\n  - play: cardinal\n    on: Arthur\n")
    assert any(e.kind == "cardinal_refused" and "does not authorise" in e.text for e in events)
    assert refused["families"]["ann"]["hand"] == ["cardinal"]          # D.2.3: not played
    assert not refused["lords"]["Arthur"]["cardinal"]
    state["families"]["bob"]["policies"] = {"new_cardinal": {"allow": ["ann"], "refuse": [], "others": "refuse"}}
    state, events = play(state, "ann", "orders:\n  - play: cardinal\n    on: Arthur\n")
    assert state["lords"]["Arthur"]["cardinal"] and state["frieze"] == {"Arthur": "cardinal"}
    assert state["families"]["ann"]["hand"] == []


def test_assassination_then_justice() -> None:
    state = at_play(LORDS, {"ann": ["assassination"], "bob": ["justice"]})
    assert "never targets a lord of your own family" in errors(
        state, "ann", "orders:\n  - play: assassination\n    on: Blanche\n    sponsor: Mireille\n")
    assert "say which of your lords is the sponsor" in errors(
        state, "ann", "orders:\n  - play: assassination\n    on: Charles\n")
    assert "no assassin marker" not in errors(state, "bob", "orders:\n  - play: justice\n    on: Mireille\n")
    state, events = play(state, "ann", "orders:\n  - play: assassination\n    on: Charles\n    sponsor: Mireille\n")
    assert "Charles" not in state["lords"] and state["lords"]["Mireille"]["assassin"]
    assert "Charles" in state["character_discard"] and "assassination" in state["events_discard"]
    assert any(e.kind == "assassin_marker" for e in events)
    assert all(e.audience.kind == "all" for e in events if e.kind in ("surprise_played", "assassination"))


def test_justice_on_a_sponsor_and_the_immune() -> None:
    lords = {**LORDS, "Mireille": {"family": "ann", "at": "Tours", "assassin": True}}
    state = at_play(lords, {"bob": ["justice"]})
    assert "assassin marker only" in errors(state, "bob", "orders:\n  - play: justice\n    on: Arthur\n")
    state["lords"]["Isabelle"]["assassin"] = True
    assert "immune" in errors(state, "bob", "orders:\n  - play: justice\n    on: Isabelle\n")
    state, events = play(state, "bob", "orders:\n  - play: justice\n    on: Mireille\n")
    assert "Mireille" not in state["lords"] and state["events_discard"] == ["justice"]


def test_a_failed_effect_still_discards_the_card() -> None:
    """H.2: bob's justice target lost the marker before his turn: no effect, card discarded."""
    lords = {**LORDS, "Mireille": {"family": "ann", "at": "Tours", "assassin": True}}
    state = at_play(lords, {"ann": ["assassination"], "bob": ["justice"]})
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in RULES.phase(state).deciders}
    orders["ann"] = check(state, "ann", "orders:\n  - play: assassination\n    on: Arthur\n"
                          "    sponsor: Blanche\n").orders
    orders["bob"] = check(state, "bob", "orders:\n  - play: justice\n    on: Mireille\n").orders
    state["lords"]["Mireille"]["assassin"] = False   # as if the marker were gone before bob's turn
    res = RULES.resolve(state, orders, Dice())
    assert any(e.kind == "surprise_void" and "H.2" in e.text for e in res.events)
    assert res.state["families"]["bob"]["hand"] == [] and "justice" in res.state["events_discard"]


def test_underground_frees_captives_of_one_jailer_in_a_town() -> None:
    lords = {**LORDS, "Arthur": {"family": "cid", "at": "Paris", "captive_of": "bob"},
             "Blanche": {"family": "ann", "at": "Paris", "captive_of": "bob"}}
    state = at_play(lords, {"ann": ["underground"]})
    assert "not captive" in errors(state, "ann", "orders:\n  - play: underground\n    free: Mireille\n")
    state, events = play(state, "ann", "orders:\n  - play: underground\n    free: Blanche\n    also: [Arthur]\n")
    assert state["lords"]["Blanche"]["captive_of"] is None and state["lords"]["Arthur"]["captive_of"] is None
    assert state["lords"]["Blanche"]["location"] != "Paris"
    assert [e.kind for e in events].count("escape") == 2 and state["events_discard"] == ["underground"]
    assert check(at_play(lords, {"ann": ["underground"]}), "ann",
                 "orders:\n  - play: underground\n    free: Arthur\n").ok


def test_a_frieze_card_returns_to_the_discard_pile_with_its_lord() -> None:
    """H.3: in turn order, ann's D'Arc on Blanche, then bob's assassination of her."""
    state = at_play(LORDS, {"ann": ["darc"], "bob": ["assassination"]})
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in RULES.phase(state).deciders}
    orders["ann"] = check(state, "ann", "orders:\n  - play: darc\n    on: Blanche\n").orders
    orders["bob"] = check(state, "bob", "orders:\n  - play: assassination\n    on: Blanche\n").orders
    res = RULES.resolve(state, orders, Dice())
    kinds = [e.kind for e in res.events]
    assert kinds.index("darc") < kinds.index("assassination")
    assert res.state["frieze"] == {} and "darc" in res.state["character_discard"]
    assert res.state["lords"]["Charles"]["assassin"]   # bob's only lord is the sponsor


def test_a_held_surprise_card_stays_hidden_from_the_others() -> None:
    state = at_play(LORDS, {"ann": ["assassination"]})
    seen = RULES.view(state, "bob")
    assert "assassination" not in repr(seen) and seen["families"]["ann"]["hand_size"] == 1
    assert RULES.view(state, "ann")["hand"] == ["assassination"]


def test_the_template_shows_surprise_plays_and_checks_as_sent() -> None:
    state = at_play(LORDS, {"ann": ["darc", "underground", "ambush"]})
    template = RULES.order_template(RULES.view(state, "ann"), "ann")
    assert "#  - play: darc\n#    on: NAME" in template and "#    free: NAME" in template
    assert "ambush: a surprise card, kept in hand" in template and check(state, "ann", template).ok


def test_a_bishop_calms_an_uprising_or_dies_trying_as_his_policy_says() -> None:
    lords = {"Mireille": {"family": "ann", "at": "Tours"}, "Charles": {"family": "bob", "at": "Paris"},
             "Arthur": {"family": "cid", "at": "Reims", "titles": ["bishop 3"]}}
    base = dict(lords=lords, hands={"ann": ["uprising", "uprising"]},
                effects=[{"card": "famine", "target": "3"}],
                units={"Calais": {"bob": {"man_at_arms": 3}}})
    state = at_play(base.pop("lords"), base.pop("hands"), **base)
    text = "orders:\n  - play: uprising\n    in: Calais\n  - play: uprising\n    in: Calais\n"
    state, events = play(state, "ann", text)     # cid's policy: never (the default)
    assert not any(e.kind.startswith("uprising_calm") or e.kind == "uprising_not_calmed" for e in events)
    rolled = next(e for e in events if e.kind == "uprising")
    assert len(rolled.data["faces"]) == 2 and "Arthur" in state["lords"]   # both cards, one roll

    state = at_play(lords, {"ann": ["uprising", "uprising"]}, effects=[{"card": "famine", "target": "3"}],
                    units={"Calais": {"bob": {"man_at_arms": 3}}},
                    policies={"cid": {"calm_uprisings": "as_bishop"}})
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in RULES.phase(state).deciders}
    orders["ann"] = check(state, "ann", text).orders
    res = RULES.resolve(state, orders, Dice(5, 2))   # the first card calmed; the second roll fails
    kinds = [e.kind for e in res.events]
    assert kinds.count("uprising_calmed") == 1 and kinds.count("uprising_not_calmed") == 1
    assert "Arthur" not in res.state["lords"]                        # a bishop who fails is eliminated
    assert res.state["events_discard"] == ["uprising", "uprising"]
    assert "calm_uprisings: as_bishop" in "\n".join(RULES.view(res.state, "cid")["policies_text"])


# -- issue 9 (rules version 2): 6.3 captives and the B caps on assassin markers ---------------------

def test_justice_on_a_lord_made_captive_after_the_mail_has_no_effect() -> None:
    """6.3: Mireille is taken captive between bob's mail and its resolution: no effect, the card
    is discarded (H.2). In a game of rules version 1 justice still eliminates a captive."""
    lords = {**LORDS, "Mireille": {"family": "ann", "at": "Tours", "assassin": True}}
    state = at_play(lords, {"bob": ["justice"]})
    orders = {"bob": check(state, "bob", "orders:\n  - play: justice\n    on: Mireille\n").orders}
    state["lords"]["Mireille"]["captive_of"] = "cid"
    refused = errors(state, "bob", "orders:\n  - play: justice\n    on: Mireille\n")   # the mail sees it
    assert "line 3: Mireille: a captive lord (of cid) cannot be eliminated" in refused
    assert "keep the card until Mireille is free (ransom, release, escape: 6.3)" in refused
    res = RULES.resolve(state, orders, Dice())
    void = [e for e in res.events if e.kind == "surprise_void"]
    assert len(void) == 1 and "a captive lord (of cid) cannot be eliminated" in void[0].text
    assert "Mireille" in res.state["lords"] and res.state["events_discard"] == ["justice"]
    old = at_play(lords | {"Mireille": {**lords["Mireille"], "captive_of": "cid"}}, {"bob": ["justice"]},
                  options={"rules_version": 1})
    old, events = play(old, "bob", "orders:\n  - play: justice\n    on: Mireille\n")
    assert "Mireille" not in old["lords"]


def test_two_assassin_markers_only() -> None:
    """B: 2 assassin markers. Both on ann's lords: ann's next assassination needs a sponsor who
    bears one already; a marker on the target comes back before the sponsor takes one."""
    lords = {**LORDS, "Mireille": {"family": "ann", "at": "Tours", "assassin": True},
             "Blanche": {"family": "ann", "at": "Tours"},
             "Henry": {"family": "bob", "at": "Paris", "assassin": True}}
    state = at_play(lords, {"ann": ["assassination"]})
    text = "orders:\n  - play: assassination\n    on: Arthur\n    sponsor: Blanche\n"
    assert "line 4: no assassin marker is left for the sponsor: the 2 markers (B) lie on Henry and Mireille" \
        in errors(state, "ann", text)
    assert "bears an assassin marker already" in errors(state, "ann", text)
    after, _ = play(state, "ann", "orders:\n  - play: assassination\n    on: Arthur\n    sponsor: Mireille\n")
    assert "Arthur" not in after["lords"]
    after, events = play(state, "ann", "orders:\n  - play: assassination\n    on: Henry\n    sponsor: Blanche\n")
    assert "Henry" not in after["lords"] and after["lords"]["Blanche"]["assassin"]
    # Resolution: the second marker went on a lord between the mail and its turn (H.2: void, discarded).
    state["lords"]["Mireille"]["assassin"] = False   # the mail was checked while one marker was free
    orders = {"ann": check(state, "ann", text).orders}
    state["lords"]["Mireille"]["assassin"] = True
    res = RULES.resolve(state, orders, Dice())
    assert [e.kind for e in res.events if e.kind.startswith(("surprise", "assassin"))] == \
        ["surprise_played", "surprise_void"]
    assert "Arthur" in res.state["lords"] and res.state["events_discard"] == ["assassination"]
    old = at_play(lords, {"ann": ["assassination"]}, options={"rules_version": 1})
    old, _ = play(old, "ann", text)
    assert "Arthur" not in old["lords"] and sum(lo["assassin"] for lo in old["lords"].values()) == 3
