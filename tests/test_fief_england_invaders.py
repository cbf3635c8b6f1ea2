"""England's Invaders (E 6.0-6.13): each step on hand-built positions with scripted dice and
compass draws, the rulings R11, R13-R16, R39, R40, R51-R5x, the orders by mail and their errors,
exact replay from a seed, and that the public report tells nothing secret."""
from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from pbem.games.fief.state import BoardEffect, Family, FiefState, Lord, Pawn, Town
from pbem.games.fief_england.compass import CompassError, build_compass, load_compass
from pbem.games.fief_england.invaders.armies import new_army, record
from pbem.games.fief_england.invaders.landing import BATTLE_DIE, land
from pbem.games.fief_england.invaders.moves import draw_move
from pbem.games.fief_england.invaders.reinforcements import reinforce
from pbem.rules.rng import Rng

COMPASS = load_compass()
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


def test_a_city_with_two_roads_by_one_point_is_refused():
    data = {"regions": [{"number": "I", "name": "X", "port": "A"}],
            "cities": [{"name": c, "region": "I"} for c in "ABC"],
            "roads": [{"between": ["A", "B"], "directions": {"A": "N", "B": "S"}},
                      {"between": ["A", "C"], "directions": {"A": "N", "C": "S"}}]}
    with pytest.raises(CompassError, match="two roads leaving by N"):
        build_compass(data, "board.yaml")


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


# -- the orders by mail (R53) ------------------------------------------------------------------------

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
    assert canonical == {"danegeld": [{"noble": "Henri", "army": "2"}], "intervene": [{"cleric": "Godfrey", "army": None}]}
    from pbem.games.fief_england.invaders.orders import invader_items
    assert invader_items(canonical) == [{"danegeld": "Henri", "army": 2}, {"intervene": "Godfrey"}]


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


def test_an_abbess_may_intervene():
    view = a_view(Lucia={"female": True})
    view["abbeys"] = {"Abbey of the Autumn": {"city": "York", "abbess": "Lucia"}}
    _, errors, _ = check(view, "orders:\n  - intervene: Lucia\n")
    assert not errors
