"""The Cards Phase (2): order checking, the draw rules (2.2-2.4), the disasters (2.5), playing
lord cards (G.1) and what each player may see. The rulebook examples are scenario files
(tests/scenarios/fief_france/cards-*.yaml)."""
from __future__ import annotations

from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position
from pbem.judge.render import render
from pbem.rules.rng import Rng

from fief_support import check, errors

PLAYERS = ["ann", "bob", "cid"]
LORDS = {"Beaudouin": {"family": "ann", "at": "Tours"}, "Charles": {"family": "bob", "at": "Paris"},
         "Arthur": {"family": "cid", "at": "Lyon"}}


class Dice(Rng):
    def __init__(self, *faces: int):
        super().__init__("cards-test")
        self.faces = list(faces)

    def d6(self, why: str = "d6") -> int:
        return self.faces.pop(0)


def position(**more) -> dict:
    return build_position({"players": PLAYERS, "phase": "cards", "lords": LORDS, **more}, "fief_france").to_json()


def resolve(state: dict, sent: dict[str, str], rng: Rng | None = None):
    phase = RULES.phase(state)
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in phase.deciders}
    for player, text in sent.items():
        result = check(state, player, text)
        assert result.ok, result.errors
        orders[player] = result.orders
    res = RULES.resolve(state, orders, rng or Dice())
    return res.state, list(res.events)


def test_draw_orders_errors() -> None:
    state = position(hands={"ann": ["tax", "Quentin"]})
    assert "you hold no 'famine' card" in errors(state, "ann", "orders:\n  - discard: famine\n")
    assert "1 character card at most" in errors(state, "ann", "orders:\n  - discard: [tax, Quentin]\n"
                                                "  - draw: [character, character]\n")
    assert "you may draw 1 at most" in errors(state, "ann", "orders:\n  - draw: [events, events]\n")
    assert "line 3: you would hold 2 card(s)" in errors(state, "ann", "orders:\n  - discard: []\n"
                                                        "  - draw: [events, events]\n")
    assert "line 4" in errors(state, "ann", "orders:\n  - draw: [events]\n    if_first: {fortune: characters}\n"
                              "  - discard: famine\n")
    assert "no 'treasure' pile" in errors(state, "ann", "orders:\n  - draw: treasure\n")
    assert "the second cannot" in errors(state, "ann", "orders:\n  - discard: tax\n  - draw: [character]\n"
                                         "    if_first: {lord: character}\n")
    assert "not a card nor a group" in errors(state, "ann", "orders:\n  - discard: tax\n  - draw: [events]\n"
                                              "    if_first: {joker: none}\n")
    ok = check(state, "ann", "orders:\n  - discard: [Quentin, tax]\n  - draw: [character, events]\n"
               "    if_first: {Cardinal: none, lord: events}\n")
    assert ok.ok and ok.orders["discard"] == ["Quentin", "tax"]
    assert ok.orders["if_first"] == {"cardinal": "none", "lord": "events"}


def test_the_default_and_the_template_draw_nothing() -> None:
    state = position(hands={"ann": ["tax"]})
    template = RULES.order_template(RULES.view(state, "ann"), "ann")
    assert "Your hand: tax (1 of 3)" in template
    assert check(state, "ann", template).orders == RULES.default_orders(RULES.view(state, "ann"), "ann")


def test_hand_limit_stops_the_draws_and_a_full_track_discards_face_down() -> None:
    # 2.3: the track is full: the disaster is discarded face down; only its back shows.
    state = position(hands={"ann": ["tax", "tax"]}, disasters_track=["famine", "famine", "famine"],
                     piles={"events": ["good_weather", "plague"], "characters": ["Quentin"]})
    state, events = resolve(state, {"ann": "orders:\n  - draw: events\n"}, Dice(6, 6, 6))
    assert state["families"]["ann"]["hand"] == ["tax", "tax", "good_weather"]
    assert any("discarded face down" in e.text for e in events)
    assert state["events_discard"] == ["plague", "famine", "famine", "famine"]
    assert any(e.kind == "disaster_false_alarm" for e in events)
    shown = RULES.view(state, "bob")["piles"]["events_discard_top"]
    assert shown == "famine"       # the revealed false alarms lie on top of the face-down plague
    hidden = position(piles={"events": ["tax", "plague"]}, disasters_track=["famine"] * 3)
    hidden, _ = resolve(hidden, {"ann": "orders:\n  - draw: events\n"}, Dice(1, 2, 3))
    assert RULES.view(hidden, "bob")["piles"]["events_discard_top"] == "face_down"
    assert hidden["events_discard"][-1] == "plague"


def test_a_second_draw_after_seeing_the_first_card() -> None:
    state = position(piles={"characters": ["cardinal", "Quentin"], "events": ["tax", "good_harvest"]})
    state, events = resolve(state, {
        "ann": "orders:\n  - draw: [character, events]\n    if_first: {lord: none}\n",        # Quentin
        "bob": "orders:\n  - draw: [character]\n    if_first: {cardinal: events}\n"})       # cardinal, then
    assert state["families"]["ann"]["hand"] == ["Quentin"]
    assert state["families"]["bob"]["hand"] == ["cardinal", "good_harvest"]
    told = [e for e in events if e.kind == "cards_drawn"]
    assert [e.audience.players for e in told] == [("ann",), ("bob",)]      # only the drawer is told
    public = " ".join(e.text for e in events if e.kind != "cards_drawn")
    assert "Quentin" not in public and "good_harvest" not in public and "good harvest" not in public


def test_an_empty_pile_is_reshuffled_from_its_discard_pile() -> None:
    state = position(hands={"ann": ["tax"]}, piles={"events": []})
    state, events = resolve(state, {"ann": "orders:\n  - discard: tax\n  - draw: events\n"})
    assert state["families"]["ann"]["hand"] == ["tax"] and state["events_discard"] == []
    assert any(e.kind == "pile_reshuffled" for e in events)
    empty = position(piles={"events": []})
    empty, events = resolve(empty, {"bob": "orders:\n  - draw: events\n"})
    assert any(e.kind == "pile_empty" for e in events) and empty["families"]["bob"]["hand"] == []


def test_a_second_disaster_of_a_type_on_a_bishopric_is_discarded() -> None:
    state = position(disasters_track=["famine", "famine", "bad_weather"])
    state, events = resolve(state, {}, Dice(2, 2, 2))
    assert [e.kind for e in events if e.kind.startswith("disaster")] == ["disaster", "disaster_duplicate", "disaster"]
    assert [(e["card"], e["target"]) for e in state["board_effects"]] == [("famine", "2"), ("bad_weather", "2")]
    assert state["events_discard"] == ["famine"]


def test_the_plague_at_once_eliminates_a_lord_and_records_the_struck() -> None:
    state = position(units={"Lyon": {"cid": {"man_at_arms": 3}}}, disasters_track=["plague"])
    state, events = resolve(state, {}, Dice(5, 2))
    assert "Arthur" not in state["lords"] and "Arthur" in state["character_discard"]
    assert len([p for p in state["pawns"].values() if p["location"] == "Lyon"]) == 2
    assert "Arthur" in state["plague_struck"] and len(state["plague_struck"]) == 4


def test_playing_lord_cards() -> None:
    lords = {**LORDS, "Charles": {"family": "bob", "at": "Paris", "titles": ["king"], "spouse": "Blanche"},
             "Blanche": {"family": "ann", "at": "Tours", "titles": ["queen"], "spouse": "Charles"}}
    state = build_position({"players": PLAYERS, "phase": "cards", "lords": lords,
                            "hands": {"ann": ["Quentin", "Henry", "ambush"]}}, "fief_france").to_json()
    state, _ = resolve(state, {})
    assert RULES.phase(state).id == "round-1/cards-play" and RULES.phase(state).deciders == ("ann",)
    template = RULES.order_template(RULES.view(state, "ann"), "ann")
    assert "ambush: a surprise card, kept in hand" in template and check(state, "ann", template).ok
    assert "surprise card" in errors(state, "ann", "orders:\n  - play: ambush\n")
    assert "no 'Quentin' card" in errors(state, "ann", "orders:\n  - play: Quentin\n  - play: Quentin\n")
    state, events = resolve(state, {"ann": "orders:\n  - play: Quentin\n    crown_prince: yes\n"
                                           "  - play: Henry\n    crown_prince: yes\n    in: Tours\n"})
    assert state["lords"]["Quentin"]["political"] == "crown_prince"      # G.1.1
    assert state["crown_prince_couples"] == [["Blanche", "Charles"]]     # D.2.3: no annulment now
    assert any(e.kind == "crown_prince_refused" and "already" in e.text for e in events)
    assert state["lords"]["Henry"]["location"] == "Tours"                # G.1.2: a fortress she controls
    assert state["families"]["ann"]["hand"] == ["ambush"]


def test_a_family_has_four_lords_at_most() -> None:
    lords = {**LORDS, "Blanche": {"family": "ann", "at": "Tours"}, "Eric": {"family": "ann", "at": "Tours"},
             "Henry": {"family": "ann", "at": "Tours"}}
    state = build_position({"players": PLAYERS, "phase": "cards", "lords": lords,
                            "hands": {"ann": ["Quentin"]}}, "fief_france").to_json()
    state, _ = resolve(state, {})
    state, events = resolve(state, {"ann": "orders:\n  - play: Quentin\n"})
    assert "Quentin" not in state["lords"] and state["families"]["ann"]["hand"] == ["Quentin"]
    assert any("at most 4 lords" in e.text for e in events)


def test_crown_prince_is_yes_or_no() -> None:
    state = build_position({"players": PLAYERS, "phase": "cards", "lords": LORDS,
                            "hands": {"ann": ["Quentin"]}}, "fief_france").to_json()
    state, _ = resolve(state, {})
    text = errors(state, "ann", "orders:\n  - play: Quentin\n    crown_prince: maybe\n")
    assert "line 3: `crown_prince:` is yes or no, not 'maybe'" in text and "write `crown_prince: yes`" in text
    assert check(state, "ann", "orders:\n  - play: Quentin\n    crown_prince: Yes\n").orders["play"][0]["crown_prince"]


def test_tax_orders_name_a_lord_who_may_collect() -> None:
    lords = {**LORDS, "Beaudouin": {"family": "ann", "at": "Tours", "titles": ["poitou", "bishop 2"]}}
    state = build_position({"players": PLAYERS, "phase": "cards", "lords": lords,
                            "hands": {"ann": ["tax"], "bob": ["tax"]}}, "fief_france").to_json()
    state, _ = resolve(state, {})
    assert check(state, "ann", "orders:\n  - play: tax\n    tallage: Poitou\n").orders["play"] == [
        {"card": "tax", "tax": "tallage", "target": "poitou", "lord": "Beaudouin"}]
    assert "no lord of your family may collect" in errors(state, "bob", "orders:\n  - play: tax\n    tallage: Poitou\n")
    assert "may not collect" in errors(state, "bob", "orders:\n  - play: tax\n    tithe: 2\n    lord: Charles\n")
    assert "needs `tallage: FIEF`" in errors(state, "ann", "orders:\n  - play: tax\n")
    state, events = resolve(state, {"ann": "orders:\n  - play: tax\n    tithe: Lisieux\n"})
    assert state["board_effects"] == [{"card": "tithe", "target": "2", "player": "ann", "lord": "Beaudouin"}]


def test_hands_and_the_track_stay_hidden_in_views() -> None:
    state = position(hands={"ann": ["tax", "Quentin"]}, disasters_track=["plague"])
    bob = RULES.view(state, "bob")
    assert bob["families"]["ann"]["hand_size"] == 2 and bob["disasters_track"] == 1
    other = position(hands={"ann": ["famine", "cardinal"]}, disasters_track=["famine"])
    assert RULES.view(other, "bob") == bob
    assert RULES.order_template(RULES.view(other, "bob"), "bob") == RULES.order_template(bob, "bob")
    assert RULES.view(state, "ann")["hand"] == ["tax", "Quentin"]


def test_one_cardinal_tithe_marker_per_cardinal() -> None:
    """G.3.3.2: a tithe on a bishopric the family does not own takes the collecting cardinal's
    tithe marker; he has one. On his family's own bishoprics no marker is needed."""
    lords = {**LORDS, "Beaudouin": {"family": "ann", "at": "Tours", "titles": ["bishop 2", "cardinal"]},
             "Quentin": {"family": "ann", "at": "Tours", "titles": ["bishop 5"]},
             "Charles": {"family": "bob", "at": "Paris", "titles": ["bishop 3"]},
             "Arthur": {"family": "cid", "at": "Lyon", "titles": ["bishop 4"]}}

    def at_play(version: int = 2) -> dict:
        state = build_position({"players": PLAYERS, "phase": "cards", "lords": lords,
                                "options": {"rules_version": version},
                                "hands": {"ann": ["tax", "tax", "tax"]}}, "fief_france").to_json()
        return resolve(state, {})[0]

    state = at_play()
    two = ("orders:\n  - play: tax\n    tithe: 3\n    lord: Beaudouin\n"
           "  - play: tax\n    tithe: 4\n    lord: Beaudouin\n")
    assert "line 6: Beaudouin's cardinal tithe marker already lies on bishopric 3" in errors(state, "ann", two)
    # His own bishopric and his family's other bishopric need no marker.
    ok = check(state, "ann", "orders:\n  - play: tax\n    tithe: 3\n    lord: Beaudouin\n"
               "  - play: tax\n    tithe: 2\n    lord: Beaudouin\n  - play: tax\n    tithe: 5\n    lord: Beaudouin\n")
    assert ok.ok, ok.errors
    state, events = resolve(state, {"ann": "orders:\n  - play: tax\n    tithe: 3\n    lord: Beaudouin\n"
                                    "  - play: tax\n    tithe: 5\n    lord: Beaudouin\n"})
    assert [e["target"] for e in state["board_effects"]] == ["3", "5"]
    # A game under rules version 1 keeps its rules at the mail too: no marker limit (ruling 34).
    old = check(at_play(1), "ann", two)
    assert old.ok, old.errors

    # At resolution (an order the mail check could not see, e.g. from a stored canonical set).
    canonical = {"play": [{"card": "tax", "tax": "tithe", "target": t, "lord": "Beaudouin"} for t in ("3", "4")]}
    for version, played in ((2, ["3"]), (1, ["3", "4"])):
        res = RULES.resolve(at_play(version), {"ann": canonical}, Dice())
        assert [e["target"] for e in res.state["board_effects"]] == played, version
        refused = [e for e in res.events if e.kind == "card_not_played"]
        assert bool(refused) is (version == 2)
        if refused:
            assert refused[0].audience.players == ("ann",) and "G.3.3.2" in refused[0].text
            assert res.state["families"]["ann"]["hand"] == ["tax", "tax"]


# -- the beginners' option (2.5, ruling 40) ----------------------------------------------------

def test_beginners_ignore_the_disasters_of_the_first_round_unrevealed() -> None:
    # 2.5: "If some players are beginners, on the 1st round we advise you to ignore and discard
    # disaster cards": no die is rolled (Dice() has none), nothing strikes, the cards go face down.
    state = position(options={"beginners": True}, units={"Lyon": {"cid": {"man_at_arms": 3}}},
                     piles={"events": ["tax", "famine"]}, disasters_track=["plague", "bad_weather"])
    assert "ignored this round (the beginners' option, 2.5)" in RULES.order_template(RULES.view(state, "ann"), "ann")
    report = render(RULES.report_template(), view=RULES.view(state, "ann"), me="ann")
    assert "Options: beginners: no disasters in round 1 (2.5)" in report
    state, events = resolve(state, {"ann": "orders:\n  - draw: events\n"}, Dice())
    assert state["board_effects"] == [] and state["plague_struck"] == [] and "Arthur" in state["lords"]
    assert state["events_discard"] == ["plague", "bad_weather", "famine"]
    assert state["events_discard_face_down"] == [0, 1, 2]
    ignored = [e for e in events if e.kind == "disasters_ignored"]
    assert len(ignored) == 1 and ignored[0].audience.kind == "all"
    assert "3 disaster card(s) on the track are discarded face down, unrevealed" in ignored[0].text
    assert not any(e.kind.startswith("disaster") and e.kind != "disasters_ignored"
                   and e.kind != "disaster_drawn" for e in events)
    # Secret: nobody learns which disasters they were; only the game master sees the pile.
    for player in PLAYERS:
        view = RULES.view(state, player)
        assert view["piles"]["events_discard_top"] == "face_down" and view["options"]["beginners"] is True
        told = " ".join(e.text + repr(e.data) for e in events if e.audience.sees(player))
        assert "plague" not in told and "famine" not in told and "bad" not in told
    assert RULES.view(state, None)["disasters_track_cards"] == []


def test_the_beginners_option_does_nothing_after_the_first_round() -> None:
    state = position(options={"beginners": True}, round=2, disasters_track=["famine"])
    assert "the first player rolls for the disasters" in RULES.order_template(RULES.view(state, "ann"), "ann")
    state, events = resolve(state, {}, Dice(4))
    assert state["board_effects"] == [{"card": "famine", "target": "4", "player": None, "lord": None}]
    assert not any(e.kind == "disasters_ignored" for e in events)


def test_without_the_beginners_option_the_first_round_has_its_disasters() -> None:
    state = position(disasters_track=["famine"])
    state, events = resolve(state, {}, Dice(3))
    assert [(e["card"], e["target"]) for e in state["board_effects"]] == [("famine", "3")]
    assert not any(e.kind == "disasters_ignored" for e in events)
    quiet = position(options={"beginners": True})            # an empty track: nothing to say
    quiet, events = resolve(quiet, {}, Dice())
    assert not any(e.kind == "disasters_ignored" for e in events)
