"""England's Invaders (E 6.0-6.13): each step on hand-built positions with scripted dice and
compass draws, the rulings R11, R13-R16, R39, R40, R79-R88, the orders by mail and their errors,
exact replay from a seed, and that the public report tells nothing secret."""
from __future__ import annotations

from typing import Any

import pytest

from pbem.games.fief.board import load_board
from pbem.games.fief.state import BoardEffect, Family, FiefState, Lord, Pawn, Town
from pbem.games.fief_england.compass import compass_of
from pbem.games.fief_england.invaders.armies import new_army, record
from pbem.games.fief_england.invaders.landing import BATTLE_DIE, land
from pbem.games.fief_england.invaders.moves import draw_move
from pbem.games.fief_england.invaders.reinforcements import reinforce
from pbem.rules.rng import Rng

BOARD = load_board("fief_england")
COMPASS = compass_of(BOARD)
PLAYERS = ["anna", "bert", "cleo"]


class Script(Rng):
    """Scripted chance: `d6`, `battle` (faces 0-3) and `compass` (N/E/S/W) in order; every
    draw is named (``rolls``), as the phase draws them from the game's generator."""

    def __init__(self, d6=(), battle=(), compass=()):
        super().__init__("script")
        self.left = {"d6": list(d6), "battle": list(battle), "compass": list(compass)}

    def _next(self, kind: str, why: str) -> Any:
        assert self.left[kind], f"one more {kind} needed: {why}"
        value = self.left[kind].pop(0)
        self.rolls.append((why, value))
        return value

    def d6(self, why: str = "d6") -> int:
        return self._next("d6", why)

    def die(self, faces, why: str = "die"):
        assert tuple(faces) == BATTLE_DIE
        return self._next("battle", why)

    def choice(self, items, why: str = "choice"):
        assert why.startswith("compass"), why
        value = self._next("compass", why)
        assert value in items, f"{value} drawn from {items}: a marker drawn twice"
        return value

    def done(self) -> bool:
        return not any(self.left.values())


def position(round_: int = 2, armies: dict[str, dict] | None = None, effects=(), deniers: int = 5) -> FiefState:
    state = FiefState(variant="fief_england", options={}, players=list(PLAYERS), round=round_, phase="invaders")
    state.families = {p: Family(p, deniers=deniers) for p in PLAYERS}
    state.towns = {c: Town(c) for c in COMPASS.region}
    state.board_effects = [BoardEffect(card, target) for card, target in effects]
    rec = record(state)
    for army_id, spec in (armies or {}).items():
        rec["armies"][army_id] = {**new_army(spec.get("city")), **spec}
    return state


def put(state: FiefState, city: str, family: str, **kinds: int) -> None:
    for kind, n in kinds.items():
        for _ in range(n):
            pid = state.new_pawn_id()
            state.pawns[pid] = Pawn(pid, kind, family, city)


def lord(state: FiefState, name: str, family: str, city: str, **fields: Any) -> Lord:
    state.lords[name] = Lord(name, family, fields.pop("female", False), city, **fields)
    return state.lords[name]


# -- the compass (6.3, Ex 6-2, R39) ----------------------------------------------------------------

def test_kings_lynn_roads_are_ex_6_2s():
    assert COMPASS.roads_out("King's Lynn") == {"N": "Lincoln", "W": "Coventry", "E": "Norwich"}
    assert COMPASS.is_port("King's Lynn") and not COMPASS.is_port("Coventry")


def test_ex_6_2_south_is_drawn_again():
    rng = Script(compass=["S", "N"])
    draw = draw_move(COMPASS, "King's Lynn", set(), rng, "army 1")
    assert (draw.point, draw.to, draw.drawn) == ("N", "Lincoln", ["S", "N"])
    assert "South" in draw.told() and "North" in draw.told() and rng.done()


def test_one_road_out_needs_no_draw_r39():
    draw = draw_move(COMPASS, "Plymouth", set(), Script(), "army 1")   # Script() has no draw to give
    assert (draw.to, draw.drawn) == ("Exeter", [])


def test_all_four_roads_take_the_first_marker():
    assert len(COMPASS.roads_out("Coventry")) == 4
    for point, to in COMPASS.roads_out("Coventry").items():
        assert draw_move(COMPASS, "Coventry", set(), Script(compass=[point]), "a").to == to


def test_markers_are_drawn_without_replacement_r39():
    # a city with two roads: the two points without a road are drawn and put aside first
    city = next(c for c, roads in COMPASS.exits.items() if len(roads) == 2)
    missing = [p for p in "NESW" if p not in COMPASS.roads_out(city)]
    taken = next(iter(COMPASS.roads_out(city)))
    draw = draw_move(COMPASS, city, set(), Script(compass=missing + [taken]), "a")
    assert draw.drawn == missing + [taken]


def test_storms_close_the_roads_into_and_out_of_their_region():
    storms = {COMPASS.region["Lincoln"]}   # the North
    draw = draw_move(COMPASS, "King's Lynn", storms, Script(compass=["N", "W"]), "a")
    assert draw.to == "Coventry" and draw.drawn == ["N", "W"]
    assert draw_move(COMPASS, "York", storms, Script(), "a").point is None


# -- 6.1 reinforcements ----------------------------------------------------------------------------

def test_reinforcements_three_at_most_five():
    state = position(armies={"1": {"city": "York", "foot": 1}, "2": {"city": "Lincoln", "foot": 4},
                             "3": {"city": "Durham", "foot": 2, "leader": False}})
    events = reinforce(state, COMPASS)
    armies = record(state)["armies"]
    assert (armies["1"]["foot"], armies["2"]["foot"], armies["3"]["foot"]) == (4, 5, 2)
    # R40: in Region Number order: Durham (III) is leaderless; York and Lincoln (IV) by number
    assert [e.data["army"] for e in events] == ["1", "2"]
    assert all(e.audience.kind == "all" for e in events)


# -- 6.2 landings (Ex 6-1, R12) ---------------------------------------------------------------------

def test_ex_6_1_fff_lands_three_armies():
    state = position(effects=[("invaders", "III")])
    rng = Script(battle=[3])
    events = land(state, COMPASS, rng)
    armies = record(state)["armies"]
    assert [a for a, x in armies.items() if x["city"] == "Berwick"] == ["1", "2", "3"]
    assert all(armies[a]["foot"] == 5 and armies[a]["leader"] for a in "123")
    assert not state.board_effects and state.events_discard == ["invaders"]
    assert any(e.kind == "invasion_landed" and "'fff'" in e.text for e in events) and rng.done()


def test_ex_6_1_never_more_than_four_on_the_map():
    state = position(armies={"1": {"city": "York"}, "2": {"city": "Oxford"}}, effects=[("invaders", "VI")])
    events = land(state, COMPASS, Script(battle=[3]))
    assert sorted(a for a, x in record(state)["armies"].items() if x["city"] == "London") == ["3", "4"]
    assert any("only 2 of 3" in e.text for e in events)


def test_no_f_is_a_false_alarm():
    state = position(effects=[("invaders", "I")])
    events = land(state, COMPASS, Script(battle=[0]))
    assert [e.kind for e in events] == ["invasion_false_alarm"]
    assert not state.board_effects and not any(x["city"] for x in record(state)["armies"].values())


def test_storms_delay_the_invasion_without_a_roll():
    state = position(effects=[("invaders", "V"), ("storms", "V")])
    rng = Script()
    events = land(state, COMPASS, rng)
    assert [e.kind for e in events] == ["invasion_delayed"] and "STORMS" in events[0].text
    assert [e.card for e in state.board_effects] == ["invaders", "storms"] and rng.rolls == []


def test_round_1_invasions_wait_for_round_2():
    state = position(round_=1, effects=[("invaders", "V")])
    assert [e.kind for e in land(state, COMPASS, Script())] == ["invasion_delayed"]
    assert state.board_effects


def test_landing_in_the_plague_halves_the_army_and_rolls_for_its_leader():
    state = position(effects=[("invaders", "II"), ("plague", "II")])
    events = land(state, COMPASS, Script(battle=[2], d6=[4, 2]))
    armies = record(state)["armies"]
    assert (armies["1"]["foot"], armies["1"]["leader"]) == (3, True)     # 5 // 2 = 2 die; d6 4: lives
    assert (armies["2"]["foot"], armies["2"]["leader"]) == (3, False)    # d6 2: he dies
    assert armies["2"]["follows"] == "1"                                 # 6.12: his men follow army 1
    assert any(e.kind == "invaders_plague" and "he dies" in e.text for e in events)


# -- 3.3 Invaders present: income halved -----------------------------------------------------------

def test_ex_3_3_income_halved_rounded_up_while_invaders_are_in_england():
    from pbem.games.fief_england.invaders.income import halved_income
    state = position(armies={"1": {"city": "Berwick"}})
    assert halved_income(state, "anna", 8)[0] == 4          # the Marches: 8 -> 4
    assert halved_income(state, "bert", 7)[0] == 4          # Wales: 7 -> 4 (3.5 rounded up)
    assert "3.3" in (halved_income(state, "bert", 7)[1] or "")
    assert halved_income(position(), "anna", 8) == (8, None)   # no Invaders: whole


# -- the orders by mail (R81) ------------------------------------------------------------------------

def a_view(**lords: dict) -> dict:
    base = {"family": "anna", "location": "York", "captive_of": None, "bishopric": None}
    return {"phase": "invaders", "game": "fief_england",
            "lords": {n: {**base, **spec} for n, spec in lords.items()},
            "invaders": {"armies": {}, "gone": ["4"]}}


def check(view: dict, text: str):
    from pbem.games.fief_england.invaders.orders import check_invader_orders
    from pbem.orders.reading import Problems, order_items
    from pbem.orders.yamlsafe import load
    problems = Problems()
    canonical, notes = check_invader_orders(view, None, "anna", order_items(load(text), problems), problems)
    return canonical, [str(p) for p in problems], notes


def test_danegeld_and_intervention_orders_are_read():
    view = a_view(Henri={}, Godfrey={"bishopric": 1}, Bert={"family": "bert"})
    canonical, errors, _ = check(view, "orders:\n  - danegeld: henri\n    army: 2\n  - intervene: GODFREY\n")
    assert not errors
    assert canonical == {"danegeld": [{"noble": "Henri", "army": "2"}],
                         "intervene": [{"cleric": "Godfrey", "army": None}]}
    from pbem.games.fief_england.invaders.orders import invader_items
    assert invader_items({}, canonical) == [{"danegeld": "Henri", "army": 2}, {"intervene": "Godfrey"}]


def test_nothing_sent_is_no_bribe_and_no_intervention():
    from pbem.games.fief_england.invaders.orders import empty_orders
    canonical, errors, notes = check(a_view(Henri={}), "orders: []\n")
    assert canonical == empty_orders() and not errors and "no Danegeld" in notes[0]


@pytest.mark.parametrize("text, fragment", [
    ("  - danegeld: Bert\n", "'Bert' is not a noble of your family"),
    ("  - danegeld: Hnri\n", "did you mean `Henri`"),
    ("  - danegeld: Carl\n", "Carl is a captive"),
    ("  - danegeld: Dora\n", "Dora is not on the map"),
    ("  - intervene: Henri\n", "only the Clergy may intervene"),
    ("  - danegeld: Henri\n    army: 4\n", "no Invader army 4"),
    ("  - danegeld: Henri\n    army: two\n", "army must be a whole number"),
    ("  - danegeld: Henri\n    amry: 2\n", "did you mean `army`"),
    ("  - danegeld: Henri\n  - danegeld: Henri\n", "the same `danegeld` order twice"),
    ("  - bribe: Henri\n", "danegeld"),
])
def test_order_errors_name_the_problem_and_the_line(text, fragment):
    view = a_view(Henri={}, Bert={"family": "bert"}, Carl={"captive_of": "invaders"}, Dora={"location": None})
    _, errors, _ = check(view, "orders:\n" + text)
    assert errors and any(fragment in e for e in errors), errors
    assert all(e.startswith("line ") for e in errors), errors


def test_an_abbess_may_intervene_r155():
    """6.10: an Abbess is Clergy; the view keeps the Abbeys under `church.abbeys` (city -> abbess).
    The scenario invaders-6.10-an-abbess-intervenes.yaml plays it through the real view."""
    view = {**a_view(Lucia={"female": True}), "options": {"rules_version": 3},
            "church": {"abbeys": {"York": {"abbey": "Abbey of the Autumn", "abbess": "Lucia", "royal": False}}}}
    _, errors, _ = check(view, "orders:\n  - intervene: Lucia\n")
    assert not errors
    from pbem.games.fief_england.invaders.orders import invaders_template
    assert "#  - intervene: Lucia" in invaders_template(view, None, "anna")   # the order form offers it
    _, errors, _ = check({**view, "options": {"rules_version": 2}}, "orders:\n  - intervene: Lucia\n")
    assert any("only the Clergy may intervene" in e for e in errors)   # version 2 kept its refusal


# -- the phase: moves, attacks, leaving (6.3-6.9) ----------------------------------------------------

def run(state: FiefState, rng: Rng, orders: dict | None = None):
    from pbem.games.fief_england.invaders.phase import resolve_invaders
    return resolve_invaders(state, BOARD, orders or {}, rng, COMPASS)


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def test_an_empty_port_reached_from_inland_means_leaving_england():
    state = position(armies={"1": {"city": "Coventry", "foot": 2}})
    carl = lord(state, "Carl", "bert", "Coventry", captive_of="invaders")
    record(state)["armies"]["1"]["captives"] = ["Carl"]
    events = run(state, Script(compass=["E"]))
    army = record(state)["armies"]["1"]
    assert army["city"] is None and "1" not in record(state)["gone"]       # home, may land again (R13)
    assert (carl.location, carl.captive_of) == ("King's Lynn", None)         # released at the port (6.9)
    assert kinds(events)[:3] == ["invaders_reinforced", "invaders_move", "invaders_leave"]


def test_r10_the_invaders_destroy_an_abbey_and_take_the_relics_lying_there():
    """R10, 2.13, 12.0: a city the Invaders take loses its Abbey, and a relic lying there is
    revealed and removed from the game; a relic carried by a noble elsewhere stays."""
    state = position(armies={"1": {"city": "King's Lynn"}})
    state.edition_state["abbeys"] = {"Lincoln": {"abbey": "Abbey of the Spring", "abbess": "Joan", "royal": False}}
    state.edition_state["relics"] = {"relics": {"skull": {"holder": None, "city": "Lincoln", "revealed": False},
                                                "chasuble": {"holder": "Henri", "city": None, "revealed": True}},
                                     "vp_marker": None, "skull_used": False, "chasuble_round": {}}
    events = run(state, Script(compass=["S", "N", "W"]))
    assert "Lincoln" not in state.edition_state["abbeys"]
    assert list(state.edition_state["relics"]["relics"]) == ["chasuble"]
    assert {"abbey_destroyed", "relic_lost"} <= set(kinds(events))
    lost = next(e for e in events if e.kind == "relic_lost")
    assert lost.data == {"relic": "skull", "city": "Lincoln"} and lost.audience.kind == "all"   # revealed

def test_a_port_to_port_move_is_no_leaving():
    # Plymouth's only road goes to Exeter (inland): the rule is for a move from inland only
    state = position(armies={"1": {"city": "Plymouth"}})
    events = run(state, Script(compass=["E"]))
    assert record(state)["armies"]["1"]["city"] not in (None, "Plymouth")
    assert "invaders_leave" not in kinds(events)


def test_r10_an_empty_city_loses_its_mill_and_stronghold_and_the_army_moves_on():
    state = position(armies={"1": {"city": "King's Lynn"}})
    state.towns["Lincoln"].mills, state.towns["Lincoln"].fortress = 1, "stronghold"
    state.towns["Lincoln"].controller = "anna"
    events = run(state, Script(compass=["S", "N", "W"]))
    lincoln = state.towns["Lincoln"]
    assert (lincoln.mills, lincoln.fortress, lincoln.controller) == (0, None, None)
    assert record(state)["destroyed"] == [{"round": 2, "city": "Lincoln", "what": ["mill", "stronghold"]}]
    moves = [e for e in events if e.kind == "invaders_move"]
    assert [m.data["to"] for m in moves] == ["Lincoln", "Nottingham"]      # Lincoln's West road
    assert moves[0].data["drawn"] == ["S", "N"]                             # Ex 6-2: South drawn again
    assert "invaders_halt" in kinds(events)


def test_lone_nobles_are_captured_r75():
    state = position(armies={"1": {"city": "King's Lynn"}})
    lord(state, "Edward", "anna", "Lincoln")
    run(state, Script(compass=["N", "W"]))
    edward = state.lords["Edward"]
    assert edward.captive_of == "invaders" and edward.location == "Nottingham"   # 6.7: follows the army
    assert record(state)["armies"]["1"]["captives"] == ["Edward"]


def test_ex_6_4_six_invaders_do_not_attack_six_troops_and_move_on():
    state = position(effects=[("invaders", "V")])
    put(state, "King's Lynn", "anna", man_at_arms=6)
    state.towns["King's Lynn"].controller = "anna"
    events = run(state, Script(battle=[1], compass=["E", "W"]))
    assert "invaders_attack" not in kinds(events)
    refused = next(e for e in events if e.kind == "invaders_no_attack")
    assert "6 Invader units do not outnumber anna's 6 Troops" in refused.text
    # on to Norwich, and back: still no attack, it stays in the City Outskirts (6.4)
    assert [e.data["to"] for e in events if e.kind == "invaders_move"] == ["Norwich", "King's Lynn"]
    assert record(state)["armies"]["1"]["city"] == "King's Lynn"


def test_ex_6_3_nobles_and_trebuchets_are_not_counted():
    state = position(armies={"1": {"city": "Nottingham", "foot": 1}})   # + 3 recruits: a Leader and 4 Foot Soldiers
    put(state, "Coventry", "anna", knight=2, archer=1, man_at_arms=1, trebuchet=1)
    lord(state, "Lucia", "anna", "Coventry", female=True)
    state.towns["Coventry"].controller = "anna"
    # round 1: her trebuchet's 2 dice and her archer's miss; the Invaders' melee 'fff' 'fff' takes
    # her 2 knights, her 2 melee dice miss; round 2: trebuchet and archer miss again, 'f' 'f' take
    # the archer and the man-at-arms, her one melee die misses
    rng = Script(compass=["S", "N"], battle=[0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 1, 1, 0])   # then back North
    events = run(state, rng)
    assert any(e.kind == "invaders_attack" and "4 Troops" in e.text for e in events)
    assert not [p for p in state.pawns.values() if p.location == "Coventry"]    # the trebuchet destroyed (R83)
    assert state.lords["Lucia"].captive_of == "invaders" and rng.done()
    assert "invaders_engines_destroyed" in kinds(events)


def test_r14_a_fortress_needs_a_melee_die_after_its_penalty():
    # a Leader and 2 Foot Soldiers: 7 SP, 2 dice, -2 for a Fortified City: no attack on 2 troops
    state = position(armies={"1": {"city": "Lincoln", "foot": 0}})   # 0 + 3 recruits
    state.towns["Lincoln"].fortress, state.towns["Lincoln"].controller = "city", "anna"
    put(state, "Lincoln", "anna", man_at_arms=2)
    events = run(state, Script(compass=["S", "N"]))
    assert any(e.kind == "invaders_no_attack" and "R14" in e.text for e in events)


def test_a_fortified_city_taken_loses_its_title_and_keeps_the_army_6_6():
    state = position(armies={"1": {"city": "King's Lynn"}})
    state.towns["Lincoln"].fortress, state.towns["Lincoln"].controller = "city", "anna"
    fief = BOARD.towns["Lincoln"].fief
    lord(state, "Edward", "anna", "York", fief_titles=[fief])
    state.fief_titles[fief], state.governed[fief] = "Edward", True
    events = run(state, Script(compass=["N"]))
    army = record(state)["armies"]["1"]
    assert (army["city"], army["holds"]) == ("Lincoln", True)
    assert state.lords["Edward"].fief_titles == [] and state.fief_titles[fief] is None and not state.governed[fief]
    assert state.towns["Lincoln"].fortress == "city"                  # taken, not destroyed (R10)
    assert {"invaders_take_fortified_city", "invaders_title_lost"} <= set(kinds(events))
    again = run(state, Script())                                       # it never moves out (6.6)
    assert record(state)["armies"]["1"]["city"] == "Lincoln" and "invaders_move" not in kinds(again)


def test_r40_armies_move_in_region_number_order():
    state = position(armies={"1": {"city": "London"}, "2": {"city": "Berwick"}, "3": {"city": "Plymouth"}})
    events = run(state, Script(compass=["N", "E", "S", "N", "S", "N"]))
    order = list(dict.fromkeys(e.data["army"] for e in events if e.kind == "invaders_move"))
    assert order == ["3", "2", "1"]     # Plymouth (I), Berwick (III), London (VI)


def test_the_phase_passes_quietly_without_invaders():
    state = position()
    assert kinds(run(state, Script())) == ["invaders_none"]


# -- Danegeld and Church intervention (6.9, 6.10, R13, R81) ---------------------------------------------

def test_a_danegeld_order_acts_when_the_army_arrives_before_it_attacks():
    state = position(armies={"1": {"city": "King's Lynn"}}, deniers=7)
    lord(state, "Henri", "anna", "Lincoln")
    put(state, "Lincoln", "anna", man_at_arms=1)
    events = run(state, Script(compass=["N"]), {"anna": {"danegeld": [{"noble": "Henri", "army": None}]}})
    assert state.families["anna"].deniers == 2
    assert record(state)["armies"]["1"]["city"] is None and "1" not in record(state)["gone"]   # R13
    assert "invaders_attack" not in kinds(events)
    assert record(state)["sent_away"] == [{"round": 2, "army": "1", "lord": "Henri", "by": "danegeld"}]   # 13.3
    paid = next(e for e in events if e.kind == "invaders_danegeld")
    assert paid.audience.kind == "all" and "5 shillings" in paid.text


def test_a_danegeld_the_family_cannot_pay_is_told_to_it_alone():
    state = position(armies={"1": {"city": "York", "foot": 5}}, deniers=3)
    lord(state, "Henri", "anna", "York")
    put(state, "York", "anna", knight=6)          # 6 Invader units do not outnumber 6 Troops
    events = run(state, Script(compass=["N", "N"]), {"anna": {"danegeld": [{"noble": "Henri", "army": "1"}]}})
    unpaid = next(e for e in events if e.kind == "invaders_danegeld_unpaid")
    assert unpaid.audience.players == ("anna",) and "only 3" in unpaid.text
    public = [e for e in events if e.audience.kind == "all"]
    assert not any("3 shillings" in e.text or " 3)" in e.text for e in public)


def test_an_unused_order_lapses_and_its_player_alone_is_told():
    state = position(armies={"1": {"city": "Plymouth"}})
    lord(state, "Henri", "anna", "Durham")
    events = run(state, Script(compass=["N"]), {"anna": {"danegeld": [{"noble": "Henri", "army": None}]}})
    lapsed = next(e for e in events if e.kind == "invaders_order_lapsed")
    assert lapsed.audience.players == ("anna",)


def test_church_intervention_1_to_3_sends_the_army_away_for_good():
    state = position(armies={"1": {"city": "Exeter"}})
    lord(state, "Godfrey", "anna", "Exeter", bishopric=1)
    events = run(state, Script(d6=[2]), {"anna": {"intervene": [{"cleric": "Godfrey", "army": None}]}})
    assert record(state)["gone"] == ["1"] and record(state)["armies"]["1"]["city"] is None
    assert any(e.kind == "invaders_church_intervention" and e.data["success"] for e in events)
    assert record(state)["sent_away"] == [{"round": 2, "army": "1", "lord": "Godfrey", "by": "church"}]


def test_the_church_sending_an_army_away_places_its_captive_in_his_familys_fortress_r156():
    """7.6 (l.553, l.555): released when "an Invader Captor leaves England (6.9, 6.10)", the captive
    is placed in one of his family's Strongholds or Fortified Cities or with a noble of his family:
    the nearest by road (Exeter - Bristol), a fortress and a noble at one distance in board order."""
    from pbem.games.fief_england.invaders.captives import freed_to
    state = position(armies={"1": {"city": "Exeter"}})
    state.options["rules_version"] = 3
    lord(state, "Godfrey", "anna", "Exeter", bishopric=1)
    carl = lord(state, "Carl", "bert", "Exeter", captive_of="invaders")
    record(state)["armies"]["1"]["captives"] = ["Carl"]
    state.towns["Bristol"].controller, state.towns["Bristol"].fortress = "bert", "stronghold"
    lord(state, "Dora", "bert", "London")
    events = run(state, Script(d6=[2]), {"anna": {"intervene": [{"cleric": "Godfrey", "army": None}]}})
    assert (carl.location, carl.captive_of) == ("Bristol", None)
    assert any("placed in Bristol, a stronghold of his family (7.6)" in e.text for e in events)
    alone = position()
    alone.options["rules_version"] = 3
    lord(alone, "Erik", "bert", "York", captive_of="invaders")
    assert freed_to(alone, BOARD, "Erik", {"Erik"}) is None   # no fortress nor noble: he stays where released


def test_several_families_are_fought_in_turn_order_while_outnumbered():
    state = position(armies={"1": {"city": "Nottingham"}})              # a Leader and 5 Foot Soldiers
    put(state, "Coventry", "bert", man_at_arms=1)
    put(state, "Coventry", "anna", man_at_arms=2)
    state.towns["Coventry"].controller = "bert"
    # 13 SP, 3 dice: anna first (turn order): 'f' 'f' and a blank take her 2 men-at-arms, her die
    # misses; then bert: 'f' and two blanks, his die misses; then the army moves on North
    events = run(state, Script(compass=["S", "N"], battle=[1, 1, 0, 0, 1, 0, 0, 0]))
    fought = [e.data["family"] for e in events if e.kind == "invaders_attack"]
    assert fought == ["anna", "bert"]
    told = [e.text for e in events if e.kind == "invaders_battle_round"]
    assert "the Invaders' melee roll 'f' 'f' blank" in told[0] and "anna loses 2 men-at-arms" in told[0]
    assert not [p for p in state.pawns.values() if p.location == "Coventry"]


def test_6_8_the_invaders_stop_once_they_no_longer_outnumber():
    state = position(armies={"1": {"city": "Nottingham", "foot": 0}})   # + 3: a Leader and 3 Foot Soldiers
    put(state, "Coventry", "anna", knight=3)
    # 4 units against 3 knights: the Invaders' 2 dice miss, her 2 dice 'ff' 'f' kill 1 Foot
    # Soldier (the third hit is wasted): 3 against 3, they stop; the army moves on North
    events = run(state, Script(compass=["S", "N"], battle=[0, 0, 2, 1]))
    stop = next(e for e in events if e.kind == "invaders_stop")
    assert "3 Invader units do not outnumber anna's 3 Troops" in stop.text
    assert record(state)["armies"]["1"]["foot"] == 2 and record(state)["armies"]["1"]["city"] == "Nottingham"


def test_three_rounds_without_a_loss_are_a_deadlock():
    state = position(armies={"1": {"city": "Nottingham"}})
    put(state, "Coventry", "anna", knight=2)
    events = run(state, Script(compass=["S", "N"], battle=[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]))
    assert "invaders_deadlock" in kinds(events)


def test_an_ambushed_leader_leaves_the_game_and_his_men_follow_another_6_11():
    from pbem.games.fief_england.invaders.leaders import ambush_leader, assassinate_leader
    state = position(armies={"1": {"city": "York"}, "2": {"city": "York", "foot": 3},
                             "3": {"city": "Durham", "foot": 0}})
    events = ambush_leader(state, "2")
    armies = record(state)["armies"]
    assert (armies["2"]["leader"], armies["2"]["follows"]) == (False, "1")
    assert "invaders_follow" in kinds(events)
    assert kinds(assassinate_leader(state, "3"))[-1] == "invaders_gone" and record(state)["gone"] == ["3"]
    run(state, Script(compass=["N", "N"]))                            # the follower moves with army 1
    assert armies["2"]["city"] == armies["1"]["city"] is None        # Durham, then Berwick: home


def test_an_army_without_a_leader_stays_and_takes_no_captives():
    state = position(armies={"1": {"city": "York", "leader": False, "foot": 2}})
    events = run(state, Script())
    assert record(state)["armies"]["1"]["city"] == "York" and "invaders_move" not in kinds(events)


# -- replay and secrets ---------------------------------------------------------------------------------

def a_busy_round() -> FiefState:
    state = position(armies={"1": {"city": "Coventry", "foot": 2}, "2": {"city": "Exeter"}},
                     effects=[("invaders", "V"), ("invaders", "III")], deniers=2)
    put(state, "Lincoln", "anna", man_at_arms=2, knight=1)
    put(state, "Oxford", "bert", archer=3)
    lord(state, "Henri", "anna", "Norwich")           # nobles alone: captured, never slain, by the Invaders
    lord(state, "Gwen", "bert", "Bristol", female=True)
    return state


def test_a_replay_from_the_seed_is_exact():
    import copy
    from pbem.games.fief_england.invaders.phase import resolve_invaders
    orders = {"anna": {"danegeld": [{"noble": "Henri", "army": None}], "intervene": []}}
    runs = []
    for _ in range(2):
        state, rng = a_busy_round(), Rng("game-seed/round-2/invaders")
        events = resolve_invaders(state, BOARD, copy.deepcopy(orders), rng, COMPASS)
        runs.append((state.to_json(), [e.to_json() for e in events], rng.rolls))
    assert runs[0] == runs[1]
    names = [why for why, _ in runs[0][2]]
    assert names and all(why.startswith(("invasion of region", "compass:", "Invaders' battle", "plague",
                                          "Church intervention")) for why in names), names


def test_the_public_report_tells_no_treasury():
    for seed in range(20):
        state = a_busy_round()
        from pbem.games.fief_england.invaders.phase import resolve_invaders
        events = resolve_invaders(state, BOARD, {"anna": {"danegeld": [{"noble": "Henri", "army": None}]},
                                                 "bert": {"danegeld": [{"noble": "Gwen", "army": None}]}},
                                  Rng(f"seed-{seed}"), COMPASS)
        for e in events:
            if e.kind == "invaders_danegeld_unpaid":
                assert e.audience.kind == "players" and len(e.audience.players) == 1
            elif e.audience.kind == "all":
                assert "has only" not in e.text and "treasury" not in e.data and "deniers" not in e.data


def test_6_13_rebels_strike_foot_soldiers_first_then_the_leader():
    from pbem.games.fief_england.invaders.rebellion import rebellion_hits
    state = position(armies={"1": {"city": "York", "foot": 2}})
    rebellion_hits(state, "York", 3)                  # one Foot Soldier (2 hits); 1 hit wasted
    assert (record(state)["armies"]["1"]["foot"], record(state)["armies"]["1"]["leader"]) == (1, True)
    events = rebellion_hits(state, "York", 5)         # the last Foot Soldier, then the Leader
    assert record(state)["gone"] == ["1"] and kinds(events)[-1] == "invaders_gone"


def test_ex_6_5_henris_ransom_is_8_shillings():
    from pbem.games.fief_england.invaders.captives import ransom
    henri = Lord("Henri", "anna", False, "York", fief_titles=["midlands", "marches"], bishopric=3)
    assert ransom(henri) == 8     # Duke of the Midlands, Baron of the Marches, Archbishop of Canterbury


def test_every_player_sees_the_same_invaders():
    from pbem.games.fief_england.invaders.view import invaders_view
    state = a_busy_round()
    views = [invaders_view(state, BOARD, who) for who in (*PLAYERS, None)]
    assert all(v == views[0] for v in views)
    assert views[0]["invaders"]["armies"]["1"] == {"city": "Coventry", "leader": True, "foot": 2, "captives": [],
                                                   "holds": False, "follows": None}
    assert invaders_view(position(), BOARD, "anna")["invaders"]["gone"] == []


def test_the_mail_is_asked_only_of_families_with_a_free_noble_when_invaders_are_about():
    from pbem.games.fief_england.invaders.step import invader_deciders
    state = position()
    lord(state, "Henri", "anna", "York")
    lord(state, "Carl", "bert", "York", captive_of="invaders")
    assert invader_deciders(state, BOARD, list(PLAYERS)) == ()                  # no Invaders, no card
    state.board_effects.append(BoardEffect("invaders", "V"))
    assert invader_deciders(state, BOARD, list(PLAYERS)) == ("anna",)
    state.round = 1                                                        # round 1: they cannot land
    assert invader_deciders(state, BOARD, list(PLAYERS)) == ()


def test_r22_an_army_entering_a_plague_region_suffers_it_once_a_round():
    state = position(armies={"1": {"city": "Coventry", "foot": 3}}, effects=[("plague", "VI")])   # 3 + 2 recruits
    # South to Oxford (VI): 5 // 2 = 2 Foot Soldiers die, the Leader's d6 is 5; then North back to
    # Coventry (V)
    events = run(state, Script(compass=["S", "N"], d6=[5]))
    assert record(state)["armies"]["1"]["foot"] == 3 and record(state)["armies"]["1"]["leader"]
    assert kinds(events).index("invaders_move") < kinds(events).index("invaders_plague")
    again = run(state, Script(compass=["S", "N"]))       # the same round: no second roll (2.5)
    assert "invaders_plague_spared" in kinds(again) and record(state)["armies"]["1"]["foot"] == 5


def test_hits_beyond_the_troops_slay_nobles_7_5():
    state = position(armies={"1": {"city": "Nottingham"}})          # 13 SP: 3 dice
    put(state, "Coventry", "anna", man_at_arms=1)
    lord(state, "Edward", "anna", "Coventry")
    lord(state, "Anabel", "anna", "Coventry", female=True)
    # 'ff' 'f' and a blank: 3 hits - the man-at-arms, then Edward and Anabel slain; her die misses
    events = run(state, Script(compass=["S", "N"], battle=[2, 1, 0, 0]))
    assert "Edward" not in state.lords and "Anabel" not in state.lords
    assert "lord_eliminated" in kinds(events) and "invaders_captive" not in kinds(events)


def test_foot_soldiers_without_a_leader_slay_instead_of_taking_captives_7_6():
    state = position(armies={"1": {"city": "Coventry", "leader": False, "foot": 3}, "2": {"city": "Nottingham"}})
    put(state, "Coventry", "anna", man_at_arms=1)
    lord(state, "Edward", "anna", "Coventry")
    # army 2 arrives: 9 units against 1; 'f' and two blanks take the man-at-arms; its leader takes
    # Edward. Without a Leader in the city he would be slain: army 1 alone (no Leader) never attacks.
    run(state, Script(compass=["S", "N"], battle=[1, 0, 0, 0]))
    assert state.lords["Edward"].captive_of == "invaders"
    from pbem.games.fief_england.invaders.battle import _defeated
    state = position(armies={"1": {"city": "Coventry", "leader": False, "foot": 3}})
    lord(state, "Edward", "anna", "Coventry")
    events = _defeated(state, BOARD, "Coventry", "anna", "1")
    assert "Edward" not in state.lords and "invaders_slay" in kinds(events)


def test_church_intervention_4_to_6_slays_the_cleric():
    state = position(armies={"1": {"city": "Exeter"}})
    lord(state, "Godfrey", "anna", "Exeter", bishopric=1)
    events = run(state, Script(d6=[5], compass=["N", "S"]),
                 {"anna": {"intervene": [{"cleric": "Godfrey", "army": "1"}]}})
    assert "Godfrey" not in state.lords
    failed = next(e for e in events if e.kind == "invaders_church_intervention")
    assert not failed.data["success"] and "slay the cleric" in failed.text


def test_the_orders_come_back_from_their_echo():
    from pbem.games import rules_for
    from pbem.games.fief.positions import build_position
    from pbem.orders.yamlsafe import load
    rules = rules_for("fief_england")
    state = build_position({"players": PLAYERS, "round": 2, "phase": "invaders",
                            "lords": {"Henri": {"family": "anna", "at": "York", "titles": ["bishop 2"]}},
                            "effects": [{"card": "invaders", "target": "IV"}]}, "fief_england").to_json()
    view = rules.view(state, "anna")
    first = rules.check_orders(view, "anna", load("orders:\n  - intervene: henri\n    army: 3\n  - danegeld: Henri\n"))
    assert first.ok, first.errors
    echo = rules.echo_orders(view, "anna", first.orders)
    assert "intervene: Henri" in echo and "army: 3" in echo
    again = rules.check_orders(view, "anna", load(echo))
    assert again.ok and again.orders == first.orders
    assert rules.phase(state).deciders == ("anna",)
    assert rules.default_orders(view, "anna") == {"danegeld": [], "intervene": [], "policies": {}}


def test_the_position_report_shows_the_invaders():
    from pbem.games import rules_for
    from pbem.games.fief.positions import build_position
    from pbem.judge.render import render
    rules = rules_for("fief_england")
    armies = {"1": {**new_army("York"), "foot": 4, "captives": ["Edward"]}, "2": new_army(),
              "3": new_army(), "4": {**new_army(), "leader": False}}
    state = build_position({"players": PLAYERS, "round": 2, "phase": "invaders",
                            "lords": {"Edward": {"family": "anna", "at": "York", "captive_of": "invaders"}},
                            "edition_state": {"invaders": {"armies": armies, "gone": ["4"], "destroyed": [],
                                                           "plague": {"round": 0, "armies": []}}}},
                           "fief_england").to_json()
    text = render(rules.report_template(), view=rules.view(state, "bert"), me="bert")
    assert "Invader army 1 in York: its Leader and 4 Foot Soldiers; holding captive Edward\n" in text
    assert "Out of the game for good: army 4." in text
    quiet = build_position({"players": PLAYERS, "round": 2, "phase": "invaders"}, "fief_england").to_json()
    assert "No Invader army is in England." in render(rules.report_template(), view=rules.view(quiet, "bert"),
                                                      me="bert")


def test_ex_6_4_landed_invaders_attack_1_to_5_port_troops_r11():
    state = position(effects=[("invaders", "V")])
    put(state, "King's Lynn", "anna", man_at_arms=5)
    state.towns["King's Lynn"].controller = "anna"
    # one 'f' lands army 1; 6 against 5: 13 SP, 3 dice 'fff' 'ff' blank take the 5 men-at-arms,
    # her die misses; then East to Norwich and West back to the port, empty now: home (6.9)
    events = run(state, Script(battle=[1, 3, 2, 0, 0], compass=["E", "W"]))
    assert any(e.kind == "invaders_attack" and e.data["city"] == "King's Lynn" for e in events)
    assert state.towns["King's Lynn"].controller is None and not state.pawns
    assert kinds(events)[-1] == "invaders_leave" and record(state)["armies"]["1"]["city"] is None


def test_r71_in_a_storms_region_an_army_neither_fights_nor_moves():
    state = position(armies={"1": {"city": "York"}}, effects=[("storms", "IV")])
    put(state, "York", "anna", man_at_arms=1)
    events = run(state, Script())                     # no die, no compass draw
    assert "invaders_no_battle" in kinds(events) and "invaders_attack" not in kinds(events)
    stay = next(e for e in events if e.kind == "invaders_stay")
    assert "STORMS close every road out of York" in stay.text and len(state.pawns) == 1
