"""resolve_movement (5): the cases the rulebook's examples do not show."""
from __future__ import annotations

import copy

from pbem.games.fief.board import load_board
from pbem.games.fief.movement.phase import CavalcadeResult, resolve_movement
from pbem.games.fief.state import FiefState
from pbem.rules.rng import Rng

from fief_support import build_with, pawns_by_town

BOARD = load_board("fief_france")


def position(**extra) -> FiefState:
    data = {"players": ["marc", "marie", "enguerand"], "phase": "movement",
            "lords": {"Eric": {"family": "marc", "at": "La Rochelle"},
                      "Guenièvre": {"family": "marie", "at": "Tours"},
                      "Henry": {"family": "enguerand", "at": "Rouen"}},
            "units": {"La Rochelle": {"marc": {"knight": 2}}, "Tours": {"marie": {"knight": 1}}}}
    return build_with(data, extra)


def move(lord: str, path: list[str], **more) -> dict:
    return {"lord": lord, "with": more.pop("with_", "all"), "path": path, "if_refused": more.pop("if_refused", "back"),
            **more}


def run(state: FiefState, orders: dict, rng: Rng | None = None, **kw):
    events = resolve_movement(state, BOARD, orders, rng or Rng("test"), **kw)
    return events, {e.kind: e for e in events}


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def test_steps_are_reset_at_the_start_of_the_phase():
    state = position()
    state.lords["Eric"].steps = 2
    for pawn in state.pawns.values():
        pawn.steps = 2
    _, by = run(state, {"marc": {"moves": [move("Eric", ["Poitiers", "Limoges"])]}})
    assert by["lord_moved"].data["outcome"] == "completed"
    assert state.lords["Eric"].steps == 2 and pawns_by_town(state, "marc") == {"Limoges": 2}


def test_a_move_that_cannot_start_is_an_event_not_an_exception():
    state = position()
    orders = {"marc": {"moves": [move("Guenièvre", ["Poitiers"]), move("Nobody", ["Poitiers"])]}}
    events, _ = run(state, orders)
    failed = [e for e in events if e.kind == "move_failed"]
    assert len(failed) == 2
    assert "Guenièvre is not a lord of marc" in failed[0].text
    assert "Nobody is not on the board" in failed[1].text


def test_first_step_refused_on_the_road_does_not_move_even_with_stay():
    # Marie moves first: Othon walks from Poitiers towards Marc's La Rochelle and waits on that
    # road. Eric's first step out of La Rochelle must cross him; Marie refuses (default), and at a
    # first step there is no road "come by" to stop on: Eric stays home.
    state = position(lords={"Othon": {"family": "marie", "at": "Poitiers"}},
                     units={"Poitiers": {"marie": {"archer": 1}}})
    state.first_player = 1
    orders = {"marie": {"moves": [move("Othon", ["La Rochelle"], with_={})]},
              "marc": {"moves": [move("Eric", ["Poitiers"], if_refused="stay")]}}
    events, _ = run(state, orders)
    held = next(e for e in events if e.kind == "lord_held")
    assert held.data["outcome"] == "refused" and state.lords["Eric"].location == "La Rochelle"
    refused = next(e for e in events if e.kind == "safe_passage_refused")
    assert refused.audience.players == ("marc", "marie")


def test_leaving_controller_gives_control_to_the_chosen_present_family():
    state = position(lords={"Othon": {"family": "marie", "at": "La Rochelle"},
                            "Blanche": {"family": "enguerand", "at": "La Rochelle"}},
                     towns={"La Rochelle": {"controller": "marc", "arrivals": ["marc", "marie", "enguerand"]}})
    _, by = run(copy.deepcopy(state), {"marc": {"moves": [move("Eric", ["Poitiers"])]}})
    state_default = copy.deepcopy(state)
    run(state_default, {"marc": {"moves": [move("Eric", ["Poitiers"])]}})
    assert state_default.towns["La Rochelle"].controller == "marie"    # earliest arrived
    run(state, {"marc": {"moves": [move("Eric", ["Poitiers"], give_control={"La Rochelle": ["enguerand"]})]}})
    assert state.towns["La Rochelle"].controller == "enguerand"
    assert state.towns["La Rochelle"].arrivals == ["enguerand", "marie"]


def test_back_returns_to_the_town_left_spending_a_step():
    # Guenièvre D'Arc (3 steps): Tours -> Nantes (empty: she enters) -> outside Marc's Poitiers;
    # her third step through Poitiers is refused: she goes back to Nantes with it.
    state = position(lords={"Othon": {"family": "marc", "at": "Poitiers"}},
                     units={"Poitiers": {"marc": {"archer": 1}}})
    state.lords["Guenièvre"].political = "darc"
    orders = {"marie": {"moves": [move("Guenièvre", ["Nantes", "Poitiers", "Limoges"])]}}
    _, by = run(state, orders)
    assert by["lord_moved"].data["outcome"] == "back"
    assert "Tours -> Nantes -> Poitiers -> Nantes" in by["lord_moved"].text
    assert state.lords["Guenièvre"].location == "Nantes" and state.lords["Guenièvre"].steps == 3
    assert state.towns["Nantes"].controller == "marie" and state.towns["Poitiers"].arrivals == ["marc"]


def test_cavalcade_plugs_in_at_the_refusal():
    calls = []

    def cavalcade(state, board, request, rng):
        calls.append((request.army.leader, request.against, request.town, request.road))
        return CavalcadeResult(won=True)

    state = position(lords={"Othon": {"family": "marc", "at": "Poitiers"}},
                     units={"Poitiers": {"marc": {"archer": 1}}})
    orders = {"marie": {"moves": [move("Guenièvre", ["Poitiers", "La Rochelle"], if_refused="cavalcade")]}}
    state.first_player = 1
    _, by = run(state, orders, cavalcade=cavalcade)
    assert calls == [("Guenièvre", ("marc",), "Poitiers", ("Poitiers", "La Rochelle"))]
    assert by["lord_moved"].data["outcome"] == "completed"


def test_lost_cavalcade_stops_the_army():
    state = position(lords={"Othon": {"family": "marc", "at": "Poitiers"}},
                     units={"Poitiers": {"marc": {"archer": 1}}})
    orders = {"marie": {"moves": [move("Guenièvre", ["Poitiers", "La Rochelle"], if_refused="cavalcade")]}}
    _, by = run(state, orders, cavalcade=lambda s, b, r, g: CavalcadeResult(won=False))
    assert by["lord_moved"].data["outcome"] == "stopped"
    assert "cavalcade did not open the way" in by["lord_moved"].text


def test_lords_offshore_land_by_default_in_a_harbor_of_their_family_else_an_empty_one():
    state = position(lords={"Eric": {"family": "marc", "at": "offshore"}},
                     units={"La Rochelle": {"marc": {}, "marie": {"knight": 1}}, "offshore": {"marc": {"knight": 1}},
                            "Calais": {"enguerand": {"archer": 1}}})
    events, by = run(state, {})
    assert state.lords["Eric"].location == "Cherbourg"        # Calais is taken; north to south
    assert "landing by default" in by["lord_moved"].text
    assert pawns_by_town(state, "marc") == {"Cherbourg": 1}


def test_companion_lords_and_captives_go_along():
    state = position(lords={"Othon": {"family": "marc", "at": "La Rochelle"},
                            "Arthur": {"family": "marie", "at": "La Rochelle", "captive_of": "marc"}})
    run(state, {"marc": {"moves": [move("Eric", ["Poitiers"], lords=["Othon"], captives=["Arthur"])]}})
    assert {n: state.lords[n].location for n in ("Eric", "Othon", "Arthur")} == \
        {"Eric": "Poitiers", "Othon": "Poitiers", "Arthur": "Poitiers"}
    assert state.lords["Othon"].steps == 1 and state.lords["Arthur"].steps == 1


def test_royal_guard_follows_the_king_only():
    state = position(lords={"Othon": {"family": "marc", "at": "La Rochelle", "titles": ["king"]}},
                     units={"La Rochelle": {"marc": {"knight": 1, "kings_knight": 2}}})
    run(state, {"marc": {"moves": [move("Eric", ["Poitiers"]), move("Othon", ["Nantes"], with_={})]}})
    kinds_at = {(p.location, p.kind) for p in state.pawns.values()}
    assert ("Poitiers", "knight") in kinds_at and ("Nantes", "kings_knight") in kinds_at
    assert ("Poitiers", "kings_knight") not in kinds_at


def test_a_besieger_leaving_with_its_last_lord_removes_its_siege_marker():
    state = position(lords={"Othon": {"family": "marie", "at": "La Rochelle"}},
                     units={"La Rochelle": {"marie": {"knight": 1}}},
                     towns={"La Rochelle": {"controller": "marc", "fortress": "stronghold",
                                            "besieged_by": {"marie": 1}}})
    events, _ = run(state, {"marie": {"moves": [move("Othon", ["Bordeaux"], with_={})]}})
    assert "siege_marker_removed" in kinds(events) and "siege_lifted" in kinds(events)
    assert state.towns["La Rochelle"].besiegers == {}


def test_plague_spares_who_already_suffered_it():
    state = position(effects=[{"card": "plague", "target": "4"}])   # Limoges is in bishopric 4
    state.plague_struck = ["Eric"] + [p.id for p in state.pawns.values() if p.family == "marc"]
    events, _ = run(state, {"marc": {"moves": [move("Eric", ["Poitiers", "Limoges"])]}})
    assert not [e for e in events if e.kind.startswith("plague")]
    assert pawns_by_town(state, "marc") == {"Limoges": 2}


def test_resolution_is_deterministic_and_never_touches_other_players_secrets():
    orders = {"marc": {"moves": [move("Eric", ["Poitiers", "Limoges"])]},
              "marie": {"moves": [move("Guenièvre", ["Poitiers", "La Rochelle"])]}}
    a, b = position(), position()
    ea, _ = run(a, orders, Rng("seed"))
    eb, _ = run(b, orders, Rng("seed"))
    assert [e.to_json() for e in ea] == [e.to_json() for e in eb]
    assert a.to_json() == b.to_json()


def test_no_cavalcade_after_a_naval_step():
    # 5.3 example: "William cannot make Charles do a cavalcade" after disembarking.
    state = position(lords={"Eric": {"family": "marc", "at": "offshore"},
                            "Othon": {"family": "marie", "at": "La Rochelle"}},
                     units={"La Rochelle": {"marc": {}, "marie": {"archer": 1}}, "offshore": {"marc": {"knight": 2}}})
    called = []
    orders = {"marc": {"moves": [move("Eric", ["La Rochelle", "Poitiers"], if_refused="cavalcade")]}}
    _, by = run(state, orders, cavalcade=lambda *a: called.append(a) or CavalcadeResult(won=True))
    assert called == []
    assert by["lord_moved"].data["outcome"] == "stopped"
    assert "cannot make a cavalcade (5.3)" in by["lord_moved"].text
    assert state.lords["Eric"].location == "La Rochelle" and state.towns["La Rochelle"].arrivals == ["marie", "marc"]


def test_passing_through_an_own_town_crosses_the_families_next_to_the_town_space():
    # Marc controls Poitiers; Marie's troop stands there too. Eric enters (his town) and must
    # cross Marie to go on (5.2.1 "cross any non-besieged family present in that town").
    state = position(units={"Poitiers": {"marc": {"archer": 1}, "marie": {"man_at_arms": 1}}},
                     towns={"Poitiers": {"controller": "marc"}})
    events, by = run(state, {"marc": {"moves": [move("Eric", ["Poitiers", "Limoges"], if_refused="stay")]}})
    assert by["lord_moved"].data["outcome"] == "stopped"
    assert state.lords["Eric"].location == "Poitiers" and by["lord_moved"].data["on_road"] is False
    state = position(units={"Poitiers": {"marc": {"archer": 1}, "marie": {"man_at_arms": 1}}},
                     towns={"Poitiers": {"controller": "marc"}},
                     policies={"marie": {"safe_passage": {"allow": ["marc"], "refuse": [], "others": "refuse"}}})
    _, by = run(state, {"marc": {"moves": [move("Eric", ["Poitiers", "Limoges"])]}})
    assert by["lord_moved"].data["outcome"] == "completed" and state.lords["Eric"].location == "Limoges"


def test_leaving_an_own_besieged_town_later_in_a_move_needs_the_besiegers_leave():
    state = position(lords={"Othon": {"family": "marie", "at": "Poitiers"}},
                     units={"Poitiers": {"marc": {"archer": 1}, "marie": {"knight": 1}}},
                     towns={"Poitiers": {"controller": "marc", "fortress": "stronghold", "besieged_by": {"marie": 1}}},
                     policies={"marie": {"safe_passage": {"allow": ["marc"], "refuse": [], "others": "refuse"}}})
    events, by = run(state, {"marc": {"moves": [move("Eric", ["Poitiers", "Limoges"], if_refused="stay")]}})
    refusal = next(e for e in events if e.kind == "safe_passage_refused")
    assert "leave to break out of the siege of Poitiers" in refusal.text
    assert state.lords["Eric"].location == "Poitiers"


def test_a_lordless_troop_landing_in_a_held_harbor_waits_outside_then_is_placed():
    state = position(units={"offshore": {"enguerand": {"knight": 2}}, "La Rochelle": {"marc": {"knight": 2}}})
    events, by = run(state, {"enguerand": {"moves": [], "land": "La Rochelle"}})
    assert "lands next to La Rochelle" in by["troop_landed"].text
    assert state.towns["La Rochelle"].controller == "marc"
    assert state.towns["La Rochelle"].arrivals == ["marc", "enguerand"]
    assert pawns_by_town(state, "enguerand") == {"La Rochelle": 2}


def test_fog_of_war_hides_plague_losses_from_the_others():
    state = position(options={"fog_of_war": True}, effects=[{"card": "plague", "target": "2"}])
    events, _ = run(state, {"marc": {"moves": [move("Eric", ["Nantes"])]}}, Rng("x"))
    troop = [e for e in events if e.kind == "plague_troop"]
    assert [e.audience.to_json() for e in troop] == [["marc"], ["enguerand", "marie"]]
    assert troop[1].data["lost"] == {"hidden": 1} and "knight" not in troop[1].text


def test_going_back_may_retrieve_own_forces_from_the_refused_town():
    # 5.2.3.1: back "cannot leave any force there, but may retrieve some forces of their family
    # that are in that town".
    state = position(lords={"Othon": {"family": "marc", "at": "Poitiers"}},
                     units={"Poitiers": {"marc": {"archer": 1}, "marie": {"man_at_arms": 2}}},
                     towns={"Poitiers": {"controller": "marc"}})
    orders = {"marie": {"moves": [move("Guenièvre", ["Poitiers", "La Rochelle"], leave={"Poitiers": "all"},
                                       pick_up={"Poitiers": {"man_at_arms": 2}})]}}
    _, by = run(state, orders)
    assert by["lord_moved"].data["outcome"] == "back"
    assert by["lord_moved"].data["picked"] == {"Poitiers": {"man_at_arms": 2}}
    assert by["lord_moved"].data["left"] == {}
    assert pawns_by_town(state, "marie") == {"Tours": 3}
    assert state.towns["Poitiers"].arrivals == ["marc"]
