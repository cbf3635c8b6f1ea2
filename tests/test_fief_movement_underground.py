"""The underground card played to move (G.4.2.2, first case): `underground:` on a move order.

Resolution through resolve_movement (as game.py calls it), orders through the real checker
(RULES.check_orders against the player's view), the template, and what each player sees.
"""
from __future__ import annotations

import json

import pytest

from pbem.games.fief.board import load_board
from pbem.games.fief_france.rules import RULES
from pbem.games.fief.movement.phase import resolve_movement
from pbem.games.fief.movement.orders import check_movement_orders
from pbem.games.fief.movement.template import movement_template
from pbem.games.fief.state import FiefState
from pbem.orders.yamlsafe import load
from pbem.rules.rng import Rng

from fief_support import build_with, errors as errors_of, pawns_by_town, resolve, send

BOARD = load_board("fief_france")
HOLD = {"moves": [], "land": None, "policies": {}}


def position(**extra) -> FiefState:
    """Marie (Guenièvre, 2 knights) in Tours holding an underground card; Marc's archer holds
    Poitiers (the rulebook's safe passage example, 5.2.3)."""
    data = {"players": ["marie", "marc", "olivier"], "phase": "movement",
            "hands": {"marie": ["underground"]},
            "lords": {"Guenièvre": {"family": "marie", "at": "Tours"},
                      "Eric": {"family": "marc", "at": "Rouen"},
                      "Arthur": {"family": "olivier", "at": "Paris"}},
            "units": {"Tours": {"marie": {"knight": 2}}, "Poitiers": {"marc": {"archer": 1}}}}
    return build_with(data, extra)


def move(lord: str, path: list[str], underground=None, **more) -> dict:
    order = {"lord": lord, "with": more.pop("with_", "all"), "path": path,
             "if_refused": more.pop("if_refused", "back"), **more}
    if underground is not None:
        order["underground"] = underground
    return order


def run(state: FiefState, orders: dict, rng: Rng | None = None):
    events = resolve_movement(state, BOARD, orders, rng or Rng("test"))
    return events, {e.kind: e for e in events}


# -- passing through (5.2.3.2) --------------------------------------------------------------

def test_named_step_passes_through_without_asking_and_discards_the_card():
    state = position()
    events, by = run(state, {"marie": {"moves": [move("Guenièvre", ["Poitiers", "La Rochelle"],
                                                       {"La Rochelle": "always"})]}})
    assert "safe_passage_refused" not in by          # played at the beginning of the step: nobody asked
    assert state.lords["Guenièvre"].location == "La Rochelle" and state.lords["Guenièvre"].steps == 2
    assert pawns_by_town(state, "marie") == {"La Rochelle": 2}
    assert all(p.steps == 2 for p in state.pawns.values() if p.family == "marie")
    assert state.families["marie"].hand == [] and state.events_discard == ["underground"]
    played = by["surprise_played"]
    assert played.audience.kind == "all"
    assert "passes through Poitiers without fighting (5.2.3.2) and is placed directly in La Rochelle" in played.text
    assert by["trigger_fired"].audience.players == ("marie",) and "as ordered" in by["trigger_fired"].text
    moved = by["lord_moved"]
    assert "Tours -> Poitiers -> La Rochelle (underground)" in moved.text
    assert moved.data["outcome"] == "completed" and moved.data["underground"] == ["La Rochelle"]


def test_if_needed_plays_only_when_the_passage_is_refused():
    state = position()
    events, by = run(state, {"marie": {"moves": [move("Guenièvre", ["Poitiers", "La Rochelle"],
                                                       {"others": "if_needed"})]}})
    refusal = by["safe_passage_refused"]
    assert sorted(refusal.audience.players) == ["marc", "marie"]
    assert state.lords["Guenièvre"].location == "La Rochelle" and state.events_discard == ["underground"]
    # Why it was played is the player's: the public event names no refuser.
    assert "marc" not in by["surprise_played"].text
    assert "marc refused" in by["trigger_fired"].text and by["trigger_fired"].audience.players == ("marie",)
    # An order shows who moves first: the refusal is told before the card.
    assert [e.kind for e in events].index("safe_passage_refused") < [e.kind for e in events].index("surprise_played")

    granted = position(policies={"marc": {"safe_passage": {"allow": ["marie"], "refuse": [], "others": "refuse"}}})
    _, by = run(granted, {"marie": {"moves": [move("Guenièvre", ["Poitiers", "La Rochelle"],
                                                    {"others": "if_needed"})]}})
    assert "surprise_played" not in by and granted.families["marie"].hand == ["underground"]
    assert granted.lords["Guenièvre"].location == "La Rochelle"


def test_if_needed_comes_before_a_cavalcade():
    # A battle to force the passage "costs something": with the card in hand it is played instead.
    state = position()
    called = []
    events = resolve_movement(state, BOARD, {"marie": {"moves": [move(
        "Guenièvre", ["Poitiers", "La Rochelle"], {"others": "if_needed"}, if_refused="cavalcade")]}},
        Rng("t"), cavalcade=lambda *a: called.append(a))
    assert not called and state.lords["Guenièvre"].location == "La Rochelle"
    assert any(e.kind == "surprise_played" for e in events)


def test_the_road_is_not_crossed_either():
    # Marc's Eric waits on the road Tours - Poitiers (La Rochelle is Marc's): the first step must
    # cross him (5.2.1 "in every case"); the card passes without fighting.
    state = position(lords={"Eric": {"family": "marc", "at": "Poitiers"}},
                     units={"Poitiers": {"marc": {"archer": 1}},
                            "Tours": {"marie": {"knight": 2}, "olivier": {"man_at_arms": 1}}},
                     towns={"Tours": {"controller": "olivier"}})
    state.first_player = 1   # marc moves first
    orders = {"marc": {"moves": [move("Eric", ["Tours"], with_={})]},
              "marie": {"moves": [move("Guenièvre", ["Poitiers"], {"others": "if_needed"})]}}
    events, by = run(state, orders)
    assert by["safe_passage_refused"].text.startswith(
        "marc refused marie's Guenièvre safe passage through the road Tours - Poitiers")
    assert state.lords["Guenièvre"].location == "Poitiers"
    assert "leaves Tours crossing nobody" in by["surprise_played"].text


# -- leaving a siege (6.4.2), bad weather (G.2.2) --------------------------------------------

def besieged(**extra) -> FiefState:
    return position(units={"Tours": {"marie": {"knight": 2}, "marc": {"man_at_arms": 2}}},
                    lords={"Eric": {"family": "marc", "at": "Tours"}},
                    towns={"Tours": {"controller": "marie", "fortress": "stronghold", "besieged_by": {"marc": 1}}},
                    **extra)


def test_a_besieged_army_leaves_without_crossing_the_besiegers():
    state = besieged()
    _, by = run(state, {"marie": {"moves": [move("Guenièvre", ["Orléans"], {"Orléans": "always"})]}})
    assert "safe_passage_refused" not in by
    assert state.lords["Guenièvre"].location == "Orléans"
    assert "leaves the besieged fortress of Tours without crossing the besiegers (6.4.2)" in by["surprise_played"].text
    # Marie's last forces left: Marc, the only family there, gets the town and ends his siege.
    assert state.towns["Tours"].controller == "marc" and state.towns["Tours"].besiegers == {}


def test_if_needed_breaks_out_only_when_a_besieger_refuses():
    state = besieged()
    _, by = run(state, {"marie": {"moves": [move("Guenièvre", ["Orléans"], {"others": "if_needed"})]}})
    assert "leave to break out of the siege of Tours" in by["safe_passage_refused"].text
    assert state.lords["Guenièvre"].location == "Orléans" and state.events_discard == ["underground"]
    allowed = besieged(policies={"marc": {"besieged_may_leave": {"allow": [], "refuse": [], "others": "allow"}}})
    _, by = run(allowed, {"marie": {"moves": [move("Guenièvre", ["Orléans"], {"others": "if_needed"})]}})
    assert "surprise_played" not in by and allowed.lords["Guenièvre"].location == "Orléans"


@pytest.mark.parametrize("plan", [{"Poitiers": "always"}, {"others": "if_needed"}, {"Poitiers": "if_needed"}])
def test_bad_weather_lets_the_card_in_and_out(plan):
    # Bishopric 1 (Poitiers, La Rochelle) under bad weather: into it, then within it - a second
    # card for the second step when the first was named.
    state = position(effects=[{"card": "bad_weather", "target": "1"}], units={"Poitiers": {}},
                     hands={"marie": ["underground", "underground"]})
    _, by = run(state, {"marie": {"moves": [move("Guenièvre", ["Poitiers", "La Rochelle"], plan)]}})
    assert "despite the bad weather on bishopric 1 (G.2.2)" in by["surprise_played"].text
    if plan == {"Poitiers": "if_needed"}:   # the second step is not covered: bad weather stops it
        assert state.lords["Guenièvre"].location == "Poitiers"
        assert by["lord_moved"].data["outcome"] == "cut_short" and len(state.families["marie"].hand) == 1
    else:
        assert state.lords["Guenièvre"].location == ("Poitiers" if "always" in plan.values() else "La Rochelle")
    if plan == {"others": "if_needed"}:     # both steps needed it: two cards
        assert state.families["marie"].hand == [] and state.events_discard == ["underground", "underground"]


def test_several_cards_on_several_steps():
    state = position(hands={"marie": ["underground", "tax", "underground"]},
                     units={"La Rochelle": {"marc": {"man_at_arms": 1}}})
    state.towns["La Rochelle"].controller = "marc"
    _, by = run(state, {"marie": {"moves": [move("Guenièvre", ["Poitiers", "La Rochelle"],
                                                       {"Poitiers": "always", "La Rochelle": "always"})]}})
    assert state.families["marie"].hand == ["tax"] and state.events_discard == ["underground", "underground"]
    assert by["lord_moved"].data["underground"] == ["Poitiers", "La Rochelle"]


# -- arrival (5.2.1) --------------------------------------------------------------------------

def test_placed_directly_in_a_town_held_by_another_family_next_to_the_town_space():
    state = position(units={"Poitiers": {"marc": {"archer": 1}}})
    events, by = run(state, {"marie": {"moves": [move("Guenièvre", ["Poitiers"], {"Poitiers": "always"})]}})
    town = state.towns["Poitiers"]
    assert town.controller == "marc" and town.arrivals == ["marc", "marie"]   # next to the town space
    assert not by["lord_moved"].data["on_road"]
    assert "forces_placed" not in by          # not on a road: nothing to place at the end of the phase
    assert "waits on the road" not in by["lord_moved"].text


def test_a_later_mover_must_cross_the_army_the_card_placed_in_the_town():
    # Olivier's Arthur passes through Poitiers after Marie's underground arrival: he must now
    # cross Marie too (she is in the town, not on the road).
    state = position(lords={"Arthur": {"family": "olivier", "at": "Tours"}},
                     units={"Tours": {"marie": {"knight": 2}, "olivier": {"knight": 1}}},
                     towns={"Tours": {"controller": "marie"}},
                     policies={"marc": {"safe_passage": {"allow": [], "refuse": [], "others": "allow"}}})
    orders = {"marie": {"moves": [move("Guenièvre", ["Poitiers"], {"Poitiers": "always"})]},
              "olivier": {"moves": [move("Arthur", ["Poitiers", "Limoges"], if_refused="stay")]}}
    _, by = run(state, orders)
    assert by["safe_passage_refused"].data["refused_by"] == ["marie"]


def test_an_empty_town_is_taken_as_usual():
    state = position(units={"Poitiers": {}})
    _, by = run(state, {"marie": {"moves": [move("Guenièvre", ["Poitiers"], {"Poitiers": "always"})]}})
    assert state.towns["Poitiers"].controller == "marie"


def test_back_after_an_underground_step_stops_in_the_town():
    # Placed in Poitiers by the card, refused the passage on to La Rochelle (Marc's), with no
    # card left: she came by no road to go back along, so `back` stops her in Poitiers.
    state = position(units={"La Rochelle": {"marc": {"man_at_arms": 1}}, "Poitiers": {"marc": {"archer": 1}}},
                     towns={"La Rochelle": {"controller": "marc"}})
    _, by = run(state, {"marie": {"moves": [move("Guenièvre", ["Poitiers", "La Rochelle", ], {"Poitiers": "always"})]}})
    moved = by["lord_moved"]
    assert moved.data["outcome"] == "stopped" and moved.data["end"] == "Poitiers"
    assert "came by an underground card, not by a road" in moved.text
    assert state.lords["Guenièvre"].steps == 1


def test_plague_strikes_on_entry_by_underground_too():
    class Dice(Rng):
        def d6(self, why="d6"):
            return 6
    state = position(effects=[{"card": "plague", "target": "1"}], units={"Poitiers": {}})
    _, by = run(state, {"marie": {"moves": [move("Guenièvre", ["Poitiers"], {"Poitiers": "always"})]}}, Dice("t"))
    assert by["plague_lord"].data["lord"] == "Guenièvre"
    assert pawns_by_town(state, "marie") == {"Poitiers": 1}


# -- steps (5.1.1) ------------------------------------------------------------------------------

def test_the_underground_step_counts_for_every_pawn():
    # Othon brings a knight from Nantes to Tours (1 step); Guenièvre takes it on: it makes the
    # step to Poitiers (its 2nd) and has none left for the underground step, so it stays on
    # the road outside Poitiers and is placed there at the end of the phase (5).
    state = position(lords={"Othon": {"family": "marie", "at": "Nantes"}},
                     units={"Nantes": {"marie": {"knight": 1}}})
    orders = {"marie": {"moves": [move("Othon", ["Tours"]),
                                  move("Guenièvre", ["Poitiers", "La Rochelle"], {"La Rochelle": "always"})]}}
    _, by = run(state, orders)
    assert state.lords["Guenièvre"].location == "La Rochelle" and state.lords["Guenièvre"].steps == 2
    assert pawns_by_town(state, "marie") == {"La Rochelle": 2, "Poitiers": 1}
    assert "1 knight has no step left" in by["lord_moved"].text


def test_darc_keeps_her_three_steps_with_an_underground_step():
    state = position(lords={"Guenièvre": {"family": "marie", "at": "Tours", "titles": ["darc"]}})
    _, by = run(state, {"marie": {"moves": [move("Guenièvre", ["Poitiers", "La Rochelle", "Bordeaux"],
                                                       {"La Rochelle": "always"})]}})
    assert state.lords["Guenièvre"].location == "Bordeaux" and state.lords["Guenièvre"].steps == 3
    assert pawns_by_town(state, "marie") == {"Bordeaux": 2}
    assert all(p.steps == 3 for p in state.pawns.values() if p.family == "marie")
    assert by["lord_moved"].data["underground"] == ["La Rochelle"]


def test_no_step_left_plays_no_card():
    # Guenièvre went to Nantes and back with Othon: her own move has no step left.
    state = position(lords={"Othon": {"family": "marie", "at": "Tours"}})
    orders = {"marie": {"moves": [move("Othon", ["Nantes", "Tours"], with_={}, lords=["Guenièvre"]),
                                  move("Guenièvre", ["Poitiers"], {"Poitiers": "always"})]}}
    events, by = run(state, orders)
    assert "surprise_played" not in by and state.families["marie"].hand == ["underground"]
    held = [e for e in events if e.kind == "lord_held" and e.data["lord"] == "Guenièvre"]
    assert held and "no step left" in held[0].text


# -- a card no longer in hand -------------------------------------------------------------------

def test_a_card_gone_from_the_hand_lets_the_step_follow_the_normal_rules():
    state = position(hands={"marie": []})       # e.g. given away in diplomacy before the phase
    events, by = run(state, {"marie": {"moves": [move("Guenièvre", ["Poitiers", "La Rochelle"],
                                                       {"La Rochelle": "always"}, if_refused="stay")]}})
    missing = by["underground_missing"]
    assert missing.audience.players == ("marie",)
    assert "you hold no underground card any more" in missing.text and "normal movement rules" in missing.text
    assert by["lord_moved"].data["outcome"] == "stopped"     # Marc refused; `stay` applied
    assert "underground" not in by["lord_moved"].data


def test_a_second_lord_finds_the_card_already_played():
    state = position(lords={"Othon": {"family": "marie", "at": "Tours"}}, units={"Poitiers": {}})
    state.towns["Poitiers"].controller = None
    _, by = run(state, {"marie": {"moves": [move("Guenièvre", ["Poitiers"], {"Poitiers": "always"}),
                                             move("Othon", ["Poitiers"], {"Poitiers": "always"}, with_={})]}})
    assert state.events_discard == ["underground"]
    assert "Othon's underground card for the step to Poitiers" in by["underground_missing"].text
    assert state.lords["Othon"].location == "Poitiers"       # the normal step: nobody to cross


# -- orders ---------------------------------------------------------------------------------------

def state_json(**extra) -> dict:
    return position(**extra).to_json()


def canonical(text: str, **extra) -> dict:
    result = send(state_json(**extra), "marie", text)
    assert result.ok, result.errors
    return result.orders["moves"][0]


MOVE = "orders:\n  - move: Guenièvre\n    with: all\n    path: [Poitiers, La Rochelle]\n"


@pytest.mark.parametrize("line, plan", [
    ("underground: la rochelle", {"La Rochelle": "always"}),
    ("underground: [Poitiers, La Rochelle]", {"Poitiers": "always", "La Rochelle": "always"}),
    ("underground: if_needed", {"others": "if_needed"}),
    ("underground: if needed", {"others": "if_needed"}),
    ("underground: {Poitiers: always, others: if_needed}", {"Poitiers": "always", "others": "if_needed"}),
    ("underground: {La Rochelle: if_needed}", {"La Rochelle": "if_needed"}),
])
def test_the_written_forms(line, plan):
    hand = {"marie": ["underground", "underground"]}
    assert canonical(MOVE + "    " + line + "\n", hands=hand)["underground"] == plan


@pytest.mark.parametrize("text, hand, fragments", [
    (MOVE + "    underground: Poitiers\n", [],
     ["line 5", "you hold no underground card (G.4.2.2)", "your hand: empty"]),
    (MOVE + "    underground: Limoges\n", ["underground"], ["line 5", "Limoges is not on this path",
                                                            "the towns its land steps reach: Poitiers, La Rochelle"]),
    (MOVE + "    underground: Tours\n", ["underground"], ["Tours is where the move starts"]),
    (MOVE + "    underground: Limoge\n", ["underground"], ["no town called 'Limoge'", "Limoges"]),
    (MOVE + "    underground: {Poitiers: maybe}\n", ["underground"], ["`always` or `if_needed`, not 'maybe'"]),
    (MOVE + "    underground: {others: always}\n", ["underground"], ["`others:` takes `if_needed` only"]),
    (MOVE + "    underground: [Poitiers, La Rochelle]\n", ["underground"],
     ["line 5", "always play 2 underground cards, but you hold 1"]),
    (MOVE + "    underground:\n", ["underground"], ["names a town of the path, a list of them, or `if_needed`"]),
    (MOVE + "    underground: []\n", ["underground"], ["`underground:` is empty"]),
    (MOVE + "    undergroud: Poitiers\n", ["underground"], ["unknown key `undergroud`", "underground"]),
    ("orders:\n  - move: Guenièvre\n    path: [Nantes, offshore]\n    underground: offshore\n", ["underground"],
     ["line 4", "the step to offshore is a naval step (5.3)", "by road to an adjacent town"]),
])
def test_refused_orders(text, hand, fragments):
    message = errors_of(state_json(hands={"marie": hand}), "marie", text)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"


def test_a_landing_is_a_naval_step_too():
    state = state_json(lords={"Guenièvre": {"family": "marie", "at": "offshore"}},
                       units={"Tours": {}, "offshore": {"marie": {"knight": 1}}})
    message = errors_of(state, "marie", "orders:\n  - move: Guenièvre\n    path: [Nantes, Tours]\n"
                                        "    underground: [Nantes]\n")
    assert "the step to Nantes is a naval step (5.3)" in message
    # `if_needed` covers the land step that follows the landing.
    result = send(state, "marie",
                  "orders:\n  - move: Guenièvre\n    path: [Nantes, Tours]\n    underground: if_needed\n")
    assert result.ok
    message = errors_of(state, "marie",
                        "orders:\n  - move: Guenièvre\n    path: [Nantes]\n    underground: if_needed\n")
    assert "this path has no land step for an underground card" in message


def test_cards_are_counted_over_all_the_moves():
    state = state_json(lords={"Othon": {"family": "marie", "at": "Tours"}})
    text = MOVE + "    underground: Poitiers\n  - move: Othon\n    path: [Nantes]\n    underground: Nantes\n"
    assert "always play 2 underground cards, but you hold 1" in errors_of(state, "marie", text)
    text = MOVE + "    underground: Poitiers\n  - move: Othon\n    path: [Nantes]\n    underground: if_needed\n"
    assert send(state, "marie", text).ok


# -- hidden information ------------------------------------------------------------------------------

def test_the_order_and_the_card_stay_private_until_played():
    state = state_json()
    text = MOVE + "    underground: if_needed\n"
    result = send(state, "marie", text)
    marc_view = RULES.view(state, "marc")
    assert "underground" not in json.dumps(marc_view)           # marc sees a hand size only
    assert marc_view["families"]["marie"]["hand_size"] == 1
    new, events = resolve(state, {"marie": result.orders, "marc": HOLD, "olivier": HOLD})
    seen_by_marc = [e for e in events if e.audience.kind == "all" or "marc" in (e.audience.players or ())]
    assert any(e.kind == "surprise_played" for e in seen_by_marc)          # a played card is public
    assert not any(e.kind == "trigger_fired" for e in seen_by_marc)
    olivier = [e for e in events if e.audience.kind == "all" or "olivier" in (e.audience.players or ())]
    assert not any("refused" in e.text for e in olivier)                   # nor was the refusal his
    assert new["families"]["marie"]["hand"] == [] and new["events_discard"] == ["underground"]
    assert RULES.view(new, "marc")["families"]["marie"]["hand_size"] == 0


def test_a_card_not_played_stays_unseen():
    state = state_json(policies={"marc": {"safe_passage": {"allow": ["marie"], "refuse": [], "others": "refuse"}}})
    result = send(state, "marie", MOVE + "    underground: if_needed\n")
    new, events = resolve(state, {"marie": result.orders, "marc": HOLD, "olivier": HOLD})
    assert not any("underground" in e.text for e in events if e.audience.kind == "all")
    assert new["families"]["marie"]["hand"] == ["underground"]


def test_under_fog_of_war_the_card_is_public_and_the_units_are_not():
    state = state_json(options={"fog_of_war": True})
    result = send(state, "marie", MOVE + "    underground: La Rochelle\n")
    _, events = resolve(state, {"marie": result.orders, "marc": HOLD, "olivier": HOLD})
    played = [e for e in events if e.kind == "surprise_played"]
    assert len(played) == 1 and played[0].audience.kind == "all" and "knight" not in played[0].text


# -- the template ---------------------------------------------------------------------------------

def test_the_template_offers_the_card_to_its_holder_only():
    state = state_json()
    view = RULES.view(state, "marie")
    text = movement_template(view, "marie")
    assert "You hold 1 underground card (G.4.2.2)" in text and "#   underground: if_needed" in text
    lines = text.splitlines()
    start = lines.index("  # - move: Guenièvre")
    block = [ln.replace("  # ", "  ", 1) for ln in lines[start:start + 6]]
    doc = load("orders:\n" + "\n".join(block) + "\n")
    got, problems = check_movement_orders(view, "marie", doc.get("orders"), None)
    assert problems == [] and got["moves"][0]["underground"] == {"others": "if_needed"}
    assert "underground" not in movement_template(RULES.view(state_json(hands={"marie": []}), "marie"), "marie")
    assert "underground" not in movement_template(RULES.view(state, "marc"), "marc")


def test_a_town_reached_twice_names_both_steps():
    # D'Arc Guenièvre: Tours -> Poitiers -> Tours -> Poitiers; `underground: Poitiers` is 2 cards.
    darc = {"Guenièvre": {"family": "marie", "at": "Tours", "titles": ["darc"]}}
    text = "orders:\n  - move: Guenièvre\n    path: [Poitiers, Tours, Poitiers]\n    underground: Poitiers\n"
    assert "always play 2 underground cards, but you hold 1" in errors_of(state_json(lords=darc), "marie", text)
    state = position(lords=darc, hands={"marie": ["underground", "underground"]}, units={"Poitiers": {}})
    _, by = run(state, {"marie": {"moves": [move("Guenièvre", ["Poitiers", "Tours", "Poitiers"],
                                                  {"Poitiers": "always"})]}})
    assert by["lord_moved"].data["underground"] == ["Poitiers", "Poitiers"]
    assert state.families["marie"].hand == [] and state.lords["Guenièvre"].steps == 3
