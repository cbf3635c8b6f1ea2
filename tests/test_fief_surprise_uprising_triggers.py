"""Uprisings at the start of a battle (G.4.2.1) and underground cards against an uprising's
Fortress penalty (G.4.2.2): the `uprising_at_battle_start` and `underground_in_uprising`
standing triggers, and `underground: yes` on a cards-play uprising."""
from __future__ import annotations

import pytest

from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position
from pbem.rules.rng import Rng

from fief_support import check, errors

PLAYERS = ["ann", "bob", "cid"]
FAMINE_2 = [{"card": "famine", "target": "2"}]      # bishopric 2: Rennes, Nantes, Cherbourg, Lisieux, Tours


class Scripted(Rng):
    """The first battle dice as given, then the seeded generator."""

    def __init__(self, *faces: int):
        super().__init__("t")
        self.faces = list(faces)

    def die(self, faces, why: str = "die"):
        return self.faces.pop(0) if self.faces else super().die(faces, why)


def battle(hands: dict, policies: dict, bob_units: dict, fortress: str | None = None,
           effects: list | None = FAMINE_2, bob_lord: bool = False) -> dict:
    lords = {"Henry": {"family": "ann", "at": "Tours"}, "Arthur": {"family": "cid", "at": "Paris"},
             "Charles": {"family": "bob", "at": "Tours" if bob_lord else "Lyon"}}
    return build_position({
        "players": PLAYERS, "phase": "battle", "hands": hands, "policies": policies, "effects": effects or [],
        "lords": lords, "units": {"Tours": {"ann": {"knight": 2}, "bob": bob_units}},
        "towns": {"Tours": {"controller": "bob", **({"fortress": fortress} if fortress else {})}}},
        "fief_france").to_json()


def attack(state: dict, rng: Rng):
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in RULES.phase(state).deciders}
    orders["ann"] = check(state, "ann", "orders:\n  - attack: bob\n    in: Tours\n").orders
    res = RULES.resolve(state, orders, rng)
    return res.state, list(res.events)


def trigger(town: str = "Tours", targets: list | None = None, underground: bool = False) -> dict:
    return {"trigger": "uprising_at_battle_start", "town": town, "targets": targets or [], "underground": underground}


SURPRISE = "policies:\n  surprise:\n"   # the trigger lines follow, from line 3


def test_the_orders_of_the_uprising_triggers_are_checked() -> None:
    state = battle({"cid": ["uprising"]}, {}, {"man_at_arms": 2})
    got = check(state, "cid", SURPRISE + "    - uprising_at_battle_start: tours\n      targets: [Bob]\n")
    assert got.ok and got.orders["policies"]["surprise"] == [trigger(targets=["bob"])]


@pytest.mark.parametrize("player, triggers, message", [
    ("cid", "    - uprising_at_battle_start: Tours\n      underground: yes\n",
     "you hold no underground card for `underground: yes`"),
    ("cid", "    - uprising_at_battle_start: Tours\n      underground: maybe\n",
     "line 4: `underground:` is yes or no, not 'maybe'"),
    ("cid", "    - uprising_at_battle_start: Tours\n      targets: [zed]\n", "no player 'zed' in this game"),
    ("cid", "    - uprising_at_battle_start: Atlantis\n", "line 3: there is no town 'Atlantis'"),
    ("cid", "    - uprising_at_battle_start: Tours\n      in: Tours\n", "unknown key `in`"),
    ("ann", "    - uprising_at_battle_start: Tours\n", "you hold no uprising card for this trigger"),
    ("cid", "    - underground_in_uprising: Nantes\n", "you hold no underground card for this trigger"),
    ("cid", "    - uprising: Tours\n", "starts with one of"),
])
def test_a_wrong_uprising_trigger_is_refused(player: str, triggers: str, message: str) -> None:
    state = battle({"cid": ["uprising"]}, {}, {"man_at_arms": 2})
    assert message in errors(state, player, SURPRISE + triggers)


def test_an_unknown_trigger_is_not_offered_later() -> None:
    state = battle({"cid": ["uprising"]}, {}, {"man_at_arms": 2})
    assert "not offered yet" not in errors(state, "cid", SURPRISE + "    - uprising: Tours\n")


def test_an_uprising_at_the_battle_start_can_leave_nobody_to_fight() -> None:
    state = battle({"cid": ["uprising"]}, {"cid": {"surprise": [trigger(targets=["bob"])]}}, {"man_at_arms": 2})
    state, events = attack(state, Scripted(1))          # 1 die: 1 + 1 = 2 hits, on bob first
    kinds = [e.kind for e in events]
    assert kinds.index("battle_uprising") < kinds.index("uprising") < kinds.index("battle_not_fought")
    lost = next(e for e in events if e.kind == "uprising_losses")
    assert lost.data["family"] == "bob" and len(lost.data["pawns"]) == 2
    assert "bob has no forces left in Tours" in next(e.text for e in events if e.kind == "battle_not_fought")
    assert "battle_round" not in kinds
    assert state["families"]["cid"]["hand"] == [] and state["events_discard"] == ["uprising"]
    assert state["families"]["cid"]["policies"]["surprise"] == []
    fired = next(e for e in events if e.kind == "trigger_fired")
    assert fired.audience.players == ("cid",)


def test_the_battle_goes_on_with_what_the_uprising_left() -> None:
    state = battle({"cid": ["uprising"]}, {"cid": {"surprise": [trigger(targets=["bob"])]}},
                   {"man_at_arms": 3}, bob_lord=True)
    state, events = attack(state, Scripted(1))
    kinds = [e.kind for e in events]
    assert kinds.index("uprising_losses") < kinds.index("battle_round")
    assert "battle_not_fought" not in kinds
    forces = next(e.text for e in events if e.kind == "battle_forces")
    assert "defender side (bob: Charles, 1 man-at-arms)" in forces   # 3 men-at-arms less 2


def test_several_players_triggers_cumulate_into_one_uprising_against_the_fortress() -> None:
    # A stronghold: -1 die. bob's trigger alone would be cancelled; with cid's, 2 - 1 = 1 die.
    policies = {"ann": {"surprise": [trigger(targets=["bob"])]}, "cid": {"surprise": [trigger(targets=["ann"])]}}
    state = battle({"ann": ["uprising"], "cid": ["uprising"]}, policies, {"man_at_arms": 2},
                   fortress="stronghold", bob_lord=True)
    state, events = attack(state, Scripted(0))          # 0 + 1 = 1 hit
    rolled = next(e for e in events if e.kind == "uprising")
    assert rolled.data["roller"] == "ann" and rolled.data["faces"] == [0]   # ann first in turn order
    assert next(e for e in events if e.kind == "uprising_losses").data["family"] == "bob"   # ann's targets
    assert state["events_discard"][:2] == ["uprising", "uprising"]
    assert [e.data["player"] for e in events if e.kind == "surprise_played"][:2] == ["ann", "cid"]


def test_a_trigger_without_grounds_waits_in_hand() -> None:
    state = battle({"cid": ["uprising"]}, {"cid": {"surprise": [trigger()]}}, {"man_at_arms": 2},
                   effects=[{"card": "tithe", "target": "2", "player": "cid", "lord": "Arthur"}], bob_lord=True)
    state, events = attack(state, Scripted())
    assert "uprising" not in [e.kind for e in events]
    assert state["families"]["cid"]["hand"] == ["uprising"]
    assert state["families"]["cid"]["policies"]["surprise"] == [trigger()]


def test_an_underground_trigger_cancels_the_penalty_of_another_players_uprising() -> None:
    policies = {"cid": {"surprise": [trigger(targets=["bob"])]},
                "bob": {"surprise": [{"trigger": "underground_in_uprising", "town": "Tours"},
                                     {"trigger": "underground_in_uprising", "town": "Nantes"}]}}
    state = battle({"cid": ["uprising"], "bob": ["underground"]}, policies, {"man_at_arms": 3},
                   fortress="city", bob_lord=True)
    state, events = attack(state, Scripted(0))          # a city: -2 dice, ignored: 1 die
    played = [e for e in events if e.kind == "surprise_played" and e.data["card"] == "underground"]
    assert len(played) == 1 and "ignores the Fortress penalty (2)" in played[0].text
    assert next(e for e in events if e.kind == "uprising").data["faces"] == [0]
    assert state["families"]["bob"]["hand"] == [] and "underground" in state["events_discard"]
    assert state["families"]["bob"]["policies"]["surprise"] == [{"trigger": "underground_in_uprising",
                                                                 "town": "Nantes"}]
    assert "underground_in_uprising" not in repr(RULES.view(state, "cid"))
    assert "underground against the Fortress penalty of an uprising in Nantes" in "\n".join(
        RULES.view(state, "bob")["policies_text"])


def test_the_uprising_players_own_underground_comes_first_and_only_when_needed() -> None:
    own = trigger(targets=["bob"], underground=True)
    policies = {"cid": {"surprise": [own]}, "bob": {"surprise": [{"trigger": "underground_in_uprising",
                                                                  "town": "Tours"}]}}
    state = battle({"cid": ["uprising", "underground"], "bob": ["underground"]}, policies, {"man_at_arms": 3},
                   fortress="stronghold", bob_lord=True)
    state, events = attack(state, Scripted(0))
    assert [e.data["player"] for e in events if e.kind == "surprise_played" and e.data["card"] == "underground"] \
        == ["cid"]
    assert state["families"]["bob"]["hand"] == ["underground"]

    state = battle({"cid": ["uprising", "underground"]}, {"cid": {"surprise": [own]}}, {"man_at_arms": 3},
                   bob_lord=True)                       # no fortress: nothing to ignore
    state, events = attack(state, Scripted(0))
    assert "underground card is not needed" in " ".join(e.text for e in events)
    assert state["families"]["cid"]["hand"] == ["underground"]


def test_underground_yes_on_a_cards_play_uprising() -> None:
    from test_fief_surprise import at_play, play
    lords = {"Mireille": {"family": "ann", "at": "Tours"}, "Charles": {"family": "bob", "at": "Paris"}}
    units = {"Nantes": {"bob": {"archer": 2}}}
    state = at_play(lords, {"ann": ["uprising"]}, effects=FAMINE_2, units=units,
                    towns={"Nantes": {"controller": "bob", "fortress": "stronghold"}})
    assert "you hold no underground card for `underground: yes`" in errors(
        state, "ann", "orders:\n  - play: uprising\n    in: Nantes\n    underground: yes\n")
    state = at_play(lords, {"ann": ["uprising", "underground"]}, effects=FAMINE_2, units=units,
                    towns={"Nantes": {"controller": "bob", "fortress": "stronghold"}})
    got = check(state, "ann", "orders:\n  - play: uprising\n    in: Nantes\n    underground: yes\n")
    assert got.ok and got.orders["play"][0]["underground"] is True
    assert "you hold no 'underground' card" in errors(
        state, "ann", "orders:\n  - play: uprising\n    in: Nantes\n    underground: yes\n"
        "  - play: underground\n    free: Charles\n")
    state, events = play(state, "ann", "orders:\n  - play: uprising\n    in: Nantes\n    underground: yes\n")
    rolled = next(e for e in events if e.kind == "uprising")
    assert len(rolled.data["faces"]) == 1                # 1 card, the stronghold's -1 ignored
    assert state["families"]["ann"]["hand"] == []
    assert sorted(state["events_discard"]) == ["underground", "uprising"]


# -- the trigger points of issue 9: Income, the famine, movement; calming as a policy ------------

class Dice(Rng):
    """Battle dice and d6 as given, then the seeded generator."""

    def __init__(self, battle: tuple = (), d6: tuple = ()):
        super().__init__("t")
        self.faces, self.sixes = list(battle), list(d6)

    def die(self, faces, why: str = "die"):
        return self.faces.pop(0) if self.faces else super().die(faces, why)

    def d6(self, why: str = "d6") -> int:
        return self.sixes.pop(0) if self.sixes else super().d6(why)


def taxed(lords: dict, policies: dict, effects: list, hands: dict | None = None, version: int = 2,
          deniers: dict | None = None, phase: str = "income") -> dict:
    """Tours (bishopric 2) holds 3 of bob's men-at-arms; ann holds an uprising card."""
    return build_position({
        "players": PLAYERS, "phase": phase, "options": {"rules_version": version},
        "hands": hands or {"ann": ["uprising"]}, "policies": policies, "effects": effects, "lords": lords,
        "deniers": deniers or {}, "units": {"Tours": {"bob": {"man_at_arms": 3}}}}, "fief_france").to_json()


WHEN_TAXED_TOURS = {"trigger": "uprising_when_taxed", "town": "Tours", "targets": [], "underground": False}


def test_the_new_uprising_triggers_are_checked() -> None:
    state = battle({"cid": ["uprising"]}, {}, {"man_at_arms": 2})
    got = check(state, "cid", SURPRISE + "    - uprising_when_taxed: tours\n      cards: 2\n"
                "    - uprising_on_famine: Nantes\n    - uprising_before_move: Tours\n      against: [Bob]\n")
    assert got.ok, got.errors
    assert got.orders["policies"]["surprise"] == [
        {**WHEN_TAXED_TOURS, "cards": 2},
        {"trigger": "uprising_on_famine", "town": "Nantes", "targets": [], "underground": False},
        {"trigger": "uprising_before_move", "town": "Tours", "targets": [], "underground": False, "against": ["bob"]}]
    assert "surprise: uprising (up to 2 cards) when a tax is collected in Tours (Income)" in "\n".join(
        RULES.view(RULES.resolve(state, {"ann": {"battles": [], "sieges": [], "lifts": [], "plunder": [],
                                                 "captives": []}, "cid": got.orders}, Rng("t")).state,
                   "cid")["policies_text"])


@pytest.mark.parametrize("triggers, message", [
    ("    - uprising_when_taxed: Tours\n      cards: 5\n", "line 4: there are 4 uprising cards in the game, not 5"),
    ("    - uprising_when_taxed: Tours\n      cards: two\n", "line 4: cards must be a whole number"),
    ("    - uprising_when_taxed: Tours\n      cards: 0\n",
     "line 4: cards must be at least 1, not 0 (write e.g. `cards: 1`)"),
    ("    - uprising_when_taxed: Tours\n      against: [bob]\n", "unknown key `against`"),
    ("    - uprising_before_move: Tours\n      against: [cid]\n", "your own moves never raise your uprising"),
    ("    - uprising_on_famine: Atlantis\n", "there is no town 'Atlantis'"),
    ("    - uprising_on_famine: Nants\n", "there is no town 'Nants' (did you mean `Nantes`?)"),
    ("    - uprising_when_taxed: [Tours, Nantes]\n", "line 3: a trigger names one town, not a list "
     "(write one trigger per town: `- uprising_when_taxed: Tours`, then `- uprising_when_taxed: Nantes`)"),
    ("    - uprising_before_move: Tours\n      against: [zed]\n", "line 4: no player 'zed' in this game"),
])
def test_a_wrong_new_uprising_trigger_is_refused(triggers: str, message: str) -> None:
    state = battle({"cid": ["uprising"]}, {}, {"man_at_arms": 2})
    assert message in errors(state, "cid", SURPRISE + triggers)


def test_an_uprising_against_a_tithe_played_later_in_turn_order_fires_at_income() -> None:
    lords = {"Henry": {"family": "ann", "at": "Lyon"}, "Charles": {"family": "bob", "at": "Paris",
                                                                   "titles": ["bishop 2"]}}
    state = taxed(lords, {}, [], hands={"ann": ["uprising"], "bob": ["tax"]}, phase="cards")
    state = RULES.resolve(state, {p: RULES.default_orders(RULES.view(state, p), p) for p in PLAYERS},
                          Rng("t")).state                           # the draw: nothing
    # ann plays before bob: the tithe is not on the board when her mail is checked.
    refused = errors(state, "ann", "orders:\n  - play: uprising\n    in: Tours\n")
    assert "no uprising in Tours" in refused and "uprising_when_taxed: Tours" in refused
    ann = check(state, "ann", SURPRISE + "    - uprising_when_taxed: Tours\n")
    bob = check(state, "bob", "orders:\n  - play: tax\n    tithe: 2\n")
    res = RULES.resolve(state, {"ann": ann.orders, "bob": bob.orders}, Rng("t"))
    assert "uprising" not in [e.kind for e in res.events]          # not yet: the tax is collected at Income
    assert RULES.phase(res.state).id == "round-1/income"
    res = RULES.resolve(res.state, {}, Dice(battle=(1,)))
    kinds = [e.kind for e in res.events]
    assert kinds.index("trigger_uprising") < kinds.index("uprising") < kinds.index("income")
    assert next(e for e in res.events if e.kind == "uprising_losses").data["family"] == "bob"
    assert res.state["families"]["ann"]["hand"] == [] and res.state["families"]["ann"]["policies"]["surprise"] == []


def test_a_standing_uprising_never_leaks_before_it_fires() -> None:
    lords = {"Henry": {"family": "ann", "at": "Lyon"}, "Charles": {"family": "bob", "at": "Paris",
                                                                   "titles": ["bishop 2"]}}
    state = taxed(lords, {}, [], hands={"ann": ["uprising"]}, phase="purchase")
    ann = check(state, "ann", SURPRISE + "    - uprising_when_taxed: Tours\n      targets: [bob]\n"
                "    - uprising_before_move: Nantes\n    - uprising_on_famine: Rennes\n")
    assert ann.ok, ann.errors
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in RULES.phase(state).deciders}
    res = RULES.resolve(state, {**orders, "ann": ann.orders}, Rng("t"))
    assert len(res.state["families"]["ann"]["policies"]["surprise"]) == 3
    for other in ("bob", "cid", "gm"):
        seen = [e.text for e in res.events if e.audience.sees(other if other != "gm" else None)]
        if other != "gm":
            view = repr(RULES.view(res.state, other))
            assert "uprising_" not in view and "Tours" not in repr(RULES.view(res.state, other)["policies"])
            assert not any("uprising" in t or "trigger" in t for t in seen)
    assert "uprising_when_taxed" in repr(RULES.view(res.state, None))   # the game master sees everything


def test_the_mover_killed_by_an_uprising_before_his_move_does_not_move() -> None:
    state = build_position({
        "players": ["marc", "marie"], "phase": "movement", "hands": {"marie": ["uprising"]},
        "effects": [{"card": "famine", "target": "1"}],
        "policies": {"marie": {"surprise": [{"trigger": "uprising_before_move", "town": "Poitiers", "targets": [],
                                             "underground": False, "against": []}]}},
        "lords": {"Eric": {"family": "marc", "at": "Poitiers"}, "Guenièvre": {"family": "marie", "at": "Tours"}},
        "units": {"Poitiers": {"marc": {"man_at_arms": 1}}, "Tours": {"marie": {"knight": 1}}}},
        "fief_france").to_json()
    marc = check(state, "marc", "orders:\n  - move: Eric\n    with: all\n    path: [La Rochelle]\n")
    marie = check(state, "marie", "orders:\n  - move: Guenièvre\n    path: [Poitiers]\n")
    res = RULES.resolve(state, {"marc": marc.orders, "marie": marie.orders}, Dice(battle=(0,)))
    failed = next(e for e in res.events if e.kind == "move_failed")
    assert "Eric was eliminated by the uprising in Poitiers before moving (G.4.2.1)" in failed.text
    assert "Eric" not in res.state["lords"]
    # marie's own move out of Tours raises nothing (her trigger fired; it never answers her own moves).
    assert [e.kind for e in res.events].count("trigger_uprising") == 1


def test_a_bishop_never_calms_his_own_familys_uprising_from_version_2() -> None:
    lords = {"Henry": {"family": "ann", "at": "Lyon", "titles": ["bishop 2"]},
             "Charles": {"family": "bob", "at": "Paris", "titles": ["bishop 4", "cardinal"]}}
    effects = [{"card": "tithe", "target": "2", "player": "bob", "lord": "Charles"}]
    policies = {"ann": {"calm_uprisings": "as_bishop", "surprise": [WHEN_TAXED_TOURS]}}
    for version, calms in ((2, False), (1, True)):
        res = RULES.resolve(taxed(lords, policies, effects, version=version), {}, Dice(battle=(0,), d6=(4,)))
        kinds = [e.kind for e in res.events]
        assert ("uprising_calmed" in kinds) is calms, version
        assert ("uprising" in kinds) is not calms


def test_a_cardinal_who_is_the_bishop_pays_and_survives_from_version_2() -> None:
    lords = {"Henry": {"family": "ann", "at": "Lyon"},
             "Charles": {"family": "bob", "at": "Paris", "titles": ["bishop 2", "cardinal"]}}
    effects = [{"card": "tithe", "target": "2", "player": "bob", "lord": "Charles"}]
    policies = {"ann": {"surprise": [WHEN_TAXED_TOURS]}, "bob": {"calm_uprisings": "also_as_cardinal"}}
    res = RULES.resolve(taxed(lords, policies, effects), {}, Dice(battle=(0,), d6=(1,)))
    failed = next(e for e in res.events if e.kind == "uprising_not_calmed")
    assert "Charles (cardinal, paying 3 deniers) rolls 1" in failed.text
    assert "Charles" in res.state["lords"]
    res = RULES.resolve(taxed(lords, policies, effects, version=1), {}, Dice(battle=(0,), d6=(1,)))
    assert "Charles (bishop) rolls 1" in next(e for e in res.events if e.kind == "uprising_not_calmed").text
    assert "Charles" not in res.state["lords"]                    # v1: he tried as a bishop (D.2.1)
    # Not able to pay: he may still try as a bishop (D.2.2), which the mapping form allows.
    policies["bob"] = {"calm_uprisings": {"as_bishop": True, "as_cardinal": True, "except_raised_by": []}}
    res = RULES.resolve(taxed(lords, policies, effects, deniers={"bob": 2}), {}, Dice(battle=(0,), d6=(5,)))
    assert "Charles (bishop) rolls 5: one uprising card in Tours is discarded" in " ".join(e.text for e in res.events)


def test_the_calm_policy_may_spare_an_ally() -> None:
    lords = {"Henry": {"family": "ann", "at": "Lyon"},
             "Charles": {"family": "bob", "at": "Paris", "titles": ["bishop 4", "cardinal"]},
             "Arthur": {"family": "cid", "at": "Reims", "titles": ["bishop 2"]}}
    effects = [{"card": "tithe", "target": "2", "player": "bob", "lord": "Charles"}]
    state = taxed(lords, {"ann": {"surprise": [WHEN_TAXED_TOURS]}}, effects)
    cid = check(state, "cid", "policies:\n  calm_uprisings:\n    as_bishop: yes\n    except_raised_by: [Ann]\n")
    assert cid.orders["policies"]["calm_uprisings"] == {"as_bishop": True, "as_cardinal": False,
                                                        "except_raised_by": ["ann"]}
    assert "line 3: `as_bishop:` is yes or no" in errors(state, "cid", "policies:\n  calm_uprisings:\n"
                                                        "    as_bishop: maybe\n")
    assert "unknown key `as_pope`" in errors(state, "cid", "policies:\n  calm_uprisings:\n    as_pope: yes\n")
    assert "is one of never, as_bishop, also_as_cardinal or a mapping" in errors(
        state, "cid", "policies:\n  calm_uprisings: sometimes\n")
    state["families"]["cid"]["policies"] = cid.orders["policies"]
    assert ("calm_uprisings: as_bishop yes; as_cardinal no; never against ann"
            in RULES.view(state, "cid")["policies_text"])
    res = RULES.resolve(state, {}, Dice(battle=(0,), d6=(6,)))
    kinds = [e.kind for e in res.events]
    assert "uprising" in kinds and not {"uprising_calmed", "uprising_not_calmed"} & set(kinds)
    state["families"]["cid"]["policies"] = {"calm_uprisings": "as_bishop"}   # ann not spared: Arthur tries
    assert "uprising_calmed" in [e.kind for e in RULES.resolve(state, {}, Dice(battle=(0,), d6=(6,))).events]


def test_an_uprising_during_movement_spares_the_forces_on_a_road_to_the_town() -> None:
    # marc's Eric reaches Tours, held by marie: he waits on the road (5.2.1), his location
    # already Tours. When Guenièvre is about to leave, cid's uprising strikes the town only.
    state = build_position({
        "players": ["marc", "marie", "cid"], "phase": "movement", "hands": {"cid": ["uprising"]},
        "effects": [{"card": "famine", "target": "2"}],
        "policies": {"cid": {"surprise": [{"trigger": "uprising_before_move", "town": "Tours", "targets": ["marc"],
                                           "underground": False, "against": ["marie"]}]}},
        "lords": {"Eric": {"family": "marc", "at": "Poitiers"}, "Guenièvre": {"family": "marie", "at": "Tours"},
                  "Arthur": {"family": "cid", "at": "Lyon"}},
        "units": {"Poitiers": {"marc": {"man_at_arms": 2}}, "Tours": {"marie": {"man_at_arms": 1}}}},
        "fief_france").to_json()
    marc = check(state, "marc", "orders:\n  - move: Eric\n    with: all\n    path: [Tours]\n")
    marie = check(state, "marie", "orders:\n  - move: Guenièvre\n    with: all\n    path: [Rennes]\n")
    res = RULES.resolve(state, {"marc": marc.orders, "marie": marie.orders, "cid": {"moves": [], "land": None}},
                        Dice(battle=(0,)))
    lost = [e.data["family"] for e in res.events if e.kind == "uprising_losses"]
    assert lost == ["marie"]                                  # marc's targets: not in the town
    assert "Guenièvre" not in res.state["lords"] and "Eric" in res.state["lords"]
    assert sum(1 for p in res.state["pawns"].values() if p["family"] == "marc") == 2
    assert res.state["lords"]["Eric"]["location"] == "Tours"


def test_the_draw_template_offers_the_famine_trigger_to_an_uprising_holder_only() -> None:
    state = build_position({"players": PLAYERS, "phase": "cards", "hands": {"ann": ["uprising"]},
                            "lords": {"Henry": {"family": "ann", "at": "Tours"}}}, "fief_france").to_json()
    template = RULES.order_template(RULES.view(state, "ann"), "ann")
    assert "uprising_on_famine: TOWN" in template
    # A `surprise:` list replaces the standing triggers: the template says so, lest it cost an ambush.
    assert "it replaces your standing surprise triggers: repeat those you keep" in template
    assert "uprising" not in RULES.order_template(RULES.view(state, "bob"), "bob")


def test_each_card_is_spent_once_in_the_documented_order() -> None:
    # ann: one card, triggers on Nantes then Tours; bob (later in turn order) also on Tours.
    lords = {"Henry": {"family": "ann", "at": "Lyon"}, "Arthur": {"family": "cid", "at": "Paris",
                                                                  "titles": ["bishop 2"]}}
    effects = [{"card": "tithe", "target": "2", "player": "cid", "lord": "Arthur"}]
    nantes = {**WHEN_TAXED_TOURS, "town": "Nantes"}
    policies = {"ann": {"surprise": [nantes, WHEN_TAXED_TOURS]}, "bob": {"surprise": [WHEN_TAXED_TOURS]}}
    state = taxed(lords, policies, effects, hands={"ann": ["uprising"], "bob": ["uprising"]})
    res = RULES.resolve(state, {}, Dice(battle=(0, 0)))
    played = [(e.data["player"], e.data["town"]) for e in res.events if e.kind == "surprise_played"]
    assert played == [("ann", "Nantes"), ("bob", "Tours")]
    assert res.state["families"]["ann"]["policies"]["surprise"] == [WHEN_TAXED_TOURS]   # waits, no card left
    assert res.state["events_discard"].count("uprising") == 2


def test_a_tax_card_the_income_then_cancels_still_sets_off_the_uprising() -> None:
    # Ruling 32: bob's tithe lies on bishopric 2 though its lord Charles left play.
    effects = [{"card": "tithe", "target": "2", "player": "bob", "lord": "Charles"}]
    state = taxed({"Henry": {"family": "ann", "at": "Lyon"}}, {"ann": {"surprise": [WHEN_TAXED_TOURS]}}, effects)
    kinds = [e.kind for e in RULES.resolve(state, {}, Dice(battle=(0,))).events]
    assert kinds.index("uprising") < kinds.index("tithe_cancelled")


def test_sparing_a_raiser_is_refused_in_a_version_1_game_and_empty_answers_read_as_such() -> None:
    # Ruling 33: `except_raised_by` acts from rules version 2 only; in an older game it would be
    # dropped in silence, so the mail is refused and says why (the yes/no keys still work there).
    lords = {"Henry": {"family": "ann", "at": "Lyon"},
             "Arthur": {"family": "cid", "at": "Reims", "titles": ["bishop 2"]}}
    old = taxed(lords, {}, [], version=1)
    text = errors(old, "cid", "policies:\n  calm_uprisings:\n    as_bishop: yes\n    except_raised_by: [ann]\n")
    assert "line 4: `except_raised_by` is not used in this game" in text and "rules version 1" in text
    assert check(old, "cid", "policies:\n  calm_uprisings:\n    as_bishop: yes\n").ok
    new = taxed(lords, {}, [])
    assert "line 3: `as_bishop:` is yes or no, not empty" in errors(new, "cid", "policies:\n  calm_uprisings:\n"
                                                                    "    as_bishop:\n")
    assert "line 3: except_raised_by is empty" in errors(new, "cid", "policies:\n  calm_uprisings:\n"
                                                         "    except_raised_by:\n")
