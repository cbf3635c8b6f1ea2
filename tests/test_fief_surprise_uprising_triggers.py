"""Uprisings at the start of a battle (G.4.2.1) and underground cards against an uprising's
Fortress penalty (G.4.2.2): the `uprising_at_battle_start` and `underground_in_uprising`
standing triggers, and `underground: yes` on a cards-play uprising."""
from __future__ import annotations

import pytest

from pbem.games.fief.france import RULES
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

    def battle_die(self, why: str = "battle die") -> int:
        return self.faces.pop(0) if self.faces else super().battle_die(why)


def battle(hands: dict, policies: dict, bob_units: dict, fortress: str | None = None,
           effects: list | None = FAMINE_2, bob_lord: bool = False) -> dict:
    lords = {"Henry": {"family": "ann", "at": "Tours"}, "Arthur": {"family": "cid", "at": "Paris"},
             "Charles": {"family": "bob", "at": "Tours" if bob_lord else "Lyon"}}
    return build_position({
        "players": PLAYERS, "phase": "battle", "hands": hands, "policies": policies, "effects": effects or [],
        "lords": lords, "units": {"Tours": {"ann": {"knight": 2}, "bob": bob_units}},
        "towns": {"Tours": {"controller": "bob", **({"fortress": fortress} if fortress else {})}}}).to_json()


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
