"""Fief: England's Excalibur (E 13.2; R21, R37, R115-R118), relics revealed by moving (12.0, R108,
R119) and the Holy Grail's bearer in battle (12.1): by mail (the at-once order `draw_excalibur:`,
the Movement mail) and through the battle engine.
"""
from __future__ import annotations

import copy

from pbem.games import rules_for
from pbem.games.fief.board import load_board
from pbem.games.fief.hear_ye.elimination import eliminate_lord
from pbem.games.fief.positions import build_position
from pbem.games.fief.state import FiefState
from pbem.games.fief_england import excalibur
from pbem.games.fief_england.church import abbeys
from pbem.games.fief_england.hooks import income_parts
from pbem.games.fief_england.opportunity.cards import ambush
from pbem.orders.yamlsafe import load
from test_fief_england_battle import Dice, fight
from test_fief_england_battle import position as battle_position
from test_fief_england_crown import sit
from test_fief_england_game import FixedD6

RULES = rules_for("fief_england")
BOARD = load_board("fief_england")
FOUR = ["ann", "bob", "cat", "dan"]


def position(phase: str = "movement", lords: dict | None = None, **more) -> dict:
    """Henri (ann) and Godfrey (bob) in Winchester, where Excalibur starts (X7); Lucia (cat), a
    noblewoman, there too; Arthur (dan) in York."""
    data = {"players": FOUR, "phase": phase, "round": 2,
            "lords": lords or {"Henri": {"family": "ann", "at": "Winchester"},
                               "Godfrey": {"family": "bob", "at": "Winchester"},
                               "Lucia": {"family": "cat", "at": "Winchester", "female": True},
                               "Arthur": {"family": "dan", "at": "York"}},
            "towns": {c: {"controller": "ann"} for c in ("Winchester", "Oxford", "London")},
            "deniers": {p: 5 for p in FOUR}, **more}
    return build_position(data, "fief_england").to_json()


def draw(name: str) -> str:
    return f"at_once:\n  - draw_excalibur: {name}\n"


def send(state: dict, player: str, text: str, rolls: list[int]) -> tuple[dict, list]:
    result = RULES.check_at_once(RULES.view(state, player), player, load(text))
    assert result.ok, result.errors
    before = copy.deepcopy(state)
    rng = FixedD6(rolls)
    out = RULES.act(state, player, result.orders, rng)
    assert state == before and not rng.rolls, "the state is the caller's; every scripted die is rolled"
    return out.state, list(out.events)


def errors(state: dict, player: str, text: str) -> str:
    result = RULES.check_at_once(RULES.view(state, player), player, load(text))
    assert not result.ok
    return "\n".join(str(e) for e in result.errors)


def public(events: list) -> str:
    return "\n".join(e.text for e in events if e.audience.sees("cat") and e.audience.sees("dan"))


# -- the sword in the stone (13.2, X7) ------------------------------------------------------------------

def test_excalibur_starts_in_winchester_seen_by_everyone() -> None:
    state = position()
    views = [RULES.view(state, p)["excalibur"] for p in FOUR]
    assert views[0] == {"city": "Winchester", "carried_by": None, "tried": {"movement": [], "battle": []}}
    assert all(v == views[0] for v in views)


def test_a_6_draws_it_and_with_no_sovereign_he_is_king_at_once() -> None:   # 13.2, R21
    state, events = send(position(), "ann", draw("Henri"), [6])
    assert state["edition_state"]["excalibur"]["holder"] == "Henri"
    assert state["lords"]["Henri"]["political"] == "king"
    text = public(events)
    assert "the d6 shows 6" in text and "Henri draws the sword" in text and "is King at once" in text
    assert RULES.view(state, "dan")["excalibur"]["carried_by"] == "Henri"


def test_the_new_kings_wife_becomes_queen() -> None:   # 9.0, 9.1
    lords = {"Henri": {"family": "ann", "at": "Winchester", "spouse": "Estrid"},
             "Estrid": {"family": "bob", "at": "London", "female": True, "spouse": "Henri"}}
    state, events = send(position(lords=lords), "ann", draw("Henri"), [6])
    assert state["lords"]["Estrid"]["political"] == "queen"
    # 13.1: a King made by the sword gets his guard as an elected one does, and his Queen hers.
    guard = sorted((p["kind"], p["location"]) for p in state["pawns"].values() if p["kind"].startswith("royal_"))
    assert guard == [("royal_knight", "Winchester")] * 2 + [("royal_man_at_arms", "London")] * 2


def test_a_4_or_5_gives_it_to_arthur_wherever_he_is() -> None:   # R37
    state, events = send(position(), "ann", draw("Henri"), [5])
    assert state["edition_state"]["excalibur"]["holder"] == "Arthur"
    assert state["lords"]["Arthur"]["political"] == "king" and state["lords"]["Henri"]["political"] is None
    assert "the sword goes to Arthur (dan) in York" in public(events)
    assert RULES.view(state, "ann")["excalibur"]["city"] == "York"   # it moves with him


def test_arthur_drawing_himself_takes_it_on_a_4() -> None:   # R37
    lords = {"Arthur": {"family": "dan", "at": "Winchester"}}
    state, _ = send(position(lords=lords), "dan", draw("Arthur"), [4])
    assert state["edition_state"]["excalibur"]["holder"] == "Arthur"


def test_arthur_not_in_play_a_4_leaves_it_in_the_stone() -> None:   # R37
    lords = {"Henri": {"family": "ann", "at": "Winchester"}}
    state, events = send(position(lords=lords), "ann", draw("Henri"), [4])
    assert state["edition_state"]["excalibur"]["holder"] is None
    assert "Arthur, who is not in play and free" in public(events)


def test_1_to_3_nothing_and_one_try_a_phase_then_one_in_battle() -> None:   # 13.2
    state, events = send(position(), "ann", draw("Henri"), [3])
    assert state["edition_state"]["excalibur"] == {"city": "Winchester", "holder": None,
                                                   "tried": {"round": 2, "movement": ["Henri"]}}
    assert "the d6 shows 3; the sword stays in the stone" in public(events)
    assert "has tried once in this phase already" in errors(state, "ann", draw("Henri"))
    send(state, "bob", draw("Godfrey"), [1])   # another nobleman still may
    state["phase"] = "battle"
    state, _ = send(state, "ann", draw("Henri"), [2])
    state["phase"], state["round"] = "movement", 3   # a new round: tries again
    send(state, "ann", draw("Henri"), [1])


def test_with_a_sovereign_the_drawer_holds_it_and_is_not_king() -> None:   # 13.2 "In the absence"
    lords = {"Henri": {"family": "ann", "at": "Winchester"},
             "Anabel": {"family": "bob", "at": "London", "female": True, "titles": ["sovereign_queen"]}}
    state, events = send(position(lords=lords), "ann", draw("Henri"), [6])
    assert state["edition_state"]["excalibur"]["holder"] == "Henri"
    assert state["lords"]["Henri"]["political"] is None and "King" not in public(events)


def test_who_may_not_draw_and_the_errors_name_why() -> None:
    state = position()
    assert "not a noblewoman" in errors(state, "cat", draw("Lucia"))   # R37
    assert "not a noble of your family" in errors(state, "ann", draw("Godfrey"))
    assert "is in York, Excalibur in Winchester" in errors(state, "dan", draw("Arthur"))
    assert "`Nobody` is not a noble in play" in errors(state, "ann", draw("Nobody"))
    assert "in the Movement or the Battle Phase" in errors({**state, "phase": "purchase"}, "ann", draw("Henri"))
    bishop = position(lords={"Henri": {"family": "ann", "at": "Winchester", "titles": ["bishop 4"]}})
    assert "a Bishop or Archbishop may not draw" in errors(bishop, "ann", draw("Henri"))
    drawn, _ = send(state, "ann", draw("Henri"), [6])
    assert "Henri carries it" in errors(drawn, "bob", draw("Godfrey"))


def test_a_try_checked_then_made_impossible_is_refused_not_raised() -> None:
    state = position()
    result = RULES.check_at_once(RULES.view(state, "ann"), "ann", load(draw("Henri")))
    state["lords"]["Henri"]["location"] = "London"
    out = RULES.act(state, "ann", result.orders, FixedD6([]))
    assert [e.kind for e in out.events] == ["excalibur_refused"]
    assert out.events[0].audience.sees("ann") and not out.events[0].audience.sees("bob")


def test_the_at_once_template_shows_the_order() -> None:
    assert "- draw_excalibur: NOBLEMAN" in RULES.at_once_template(RULES.view(position(), "ann"), "ann")


# -- its holder falls (13.2, R116, R117) ------------------------------------------------------------------

def held(state: FiefState, noble: str) -> FiefState:
    state.edition_state["excalibur"] = {"city": None, "holder": noble, "tried": {}}
    return state


def test_holder_assassinated_another_nobleman_there_takes_it_and_is_king() -> None:
    st = held(FiefState.from_json(position()), "Henri")
    events = eliminate_lord(st, BOARD, "Henri")
    assert st.edition_state["excalibur"]["holder"] == "Godfrey"   # Lucia is a woman (R37)
    assert st.lords["Godfrey"].political == "king"
    assert any("Godfrey (bob) takes Excalibur from Henri in Winchester" in e.text for e in events)


def test_the_holders_own_family_picks_it_up_first_then_turn_order_then_name() -> None:   # R116
    lords = {"Henri": {"family": "ann", "at": "Oxford"}, "Robert": {"family": "ann", "at": "Oxford"},
             "Godfrey": {"family": "bob", "at": "Oxford"}, "Edward": {"family": "ann", "at": "Oxford"}}
    st = held(FiefState.from_json(position(lords=lords)), "Henri")
    eliminate_lord(st, BOARD, "Henri")
    assert st.edition_state["excalibur"]["holder"] == "Edward"


def test_no_nobleman_there_it_lies_and_is_drawn_again() -> None:   # R117
    lords = {"Henri": {"family": "ann", "at": "Oxford"}, "Godfrey": {"family": "bob", "at": "London"}}
    st = held(FiefState.from_json(position(lords=lords)), "Henri")
    eliminate_lord(st, BOARD, "Henri")
    assert st.edition_state["excalibur"] == {"city": "Oxford", "holder": None, "tried": {}}
    st.lords["Godfrey"].location = "Oxford"
    state, _ = send(st.to_json(), "bob", draw("Godfrey"), [6])
    assert state["edition_state"]["excalibur"]["holder"] == "Godfrey"


def test_holder_ambushed_the_ambusher_takes_it() -> None:   # 10.5, 13.2: the captor's family first
    lords = {"Henri": {"family": "ann", "at": "Oxford"}, "Robert": {"family": "ann", "at": "Oxford"},
             "Godfrey": {"family": "bob", "at": "Oxford"}}
    st = held(FiefState.from_json(position(lords=lords)), "Henri")
    st.families["bob"].hand.append("ambush")
    events = ambush(st, BOARD, "bob", {"by": "Godfrey", "on": "Henri"})
    assert st.lords["Henri"].captive_of == "bob"
    assert st.edition_state["excalibur"]["holder"] == "Godfrey" and st.lords["Godfrey"].political == "king"
    assert any("takes Excalibur from Henri" in e.text for e in events)


def test_a_king_taken_captive_loses_the_sword_but_the_taker_is_no_king() -> None:   # R21
    lords = {"Henri": {"family": "ann", "at": "Oxford", "titles": ["king"]},
             "Godfrey": {"family": "bob", "at": "Oxford"}}
    st = held(FiefState.from_json(position(lords=lords)), "Henri")
    st.families["bob"].hand.append("ambush")
    ambush(st, BOARD, "bob", {"by": "Godfrey", "on": "Henri"})
    assert st.edition_state["excalibur"]["holder"] == "Godfrey"
    assert st.lords["Godfrey"].political is None and st.lords["Henri"].political == "king"


# -- in battle (13.2, 7.3) -------------------------------------------------------------------------------

def test_excalibur_adds_a_hit_to_its_sides_melee_in_the_engine() -> None:
    state = battle_position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                            {"dave": {"man_at_arms": 1}, "george": {"man_at_arms": 1}},
                            {"London": {"controller": "george"}})
    held(state, "Edward")
    outcome = fight(state, "dave", "george", Dice(0, 0))   # two blanks: only Excalibur's +1 hits
    assert outcome.winner == "attacker" and outcome.captives == [("Henri", "dave")]


def test_holder_taken_captive_in_battle_the_victor_takes_it_and_is_king() -> None:
    state = battle_position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                            {"dave": {"man_at_arms": 2}, "george": {"man_at_arms": 1}},
                            {"London": {"controller": "george"}})
    held(state, "Henri")
    outcome = fight(state, "dave", "george", Dice(1, 0))   # George's blank +1 Excalibur: 1 hit each
    assert outcome.captives == [("Henri", "dave")]
    assert state.edition_state["excalibur"]["holder"] == "Edward"
    assert state.lords["Edward"].political == "king"


# -- income (3.1, 13.2) ----------------------------------------------------------------------------------

def test_excalibur_in_an_abbey_earns_3_shillings_in_the_stone_or_carried() -> None:
    lords = {"Lucia": {"family": "ann", "at": "Winchester", "female": True},
             "Henri": {"family": "bob", "at": "London"}}
    st = FiefState.from_json(position(phase="income", lords=lords))
    abbeys.found(st, BOARD, "ann", "Lucia", "Winchester")
    assert ("Excalibur (Abbey of the Autumn)", 3) in income_parts(st, BOARD)[0]["ann"]
    held(st, "Henri")
    assert not any("Excalibur" in what for what, _ in income_parts(st, BOARD)[0]["ann"])
    st.lords["Henri"].location = "Winchester"   # carried into the Abbey's City (3.1 as for relics)
    assert ("Excalibur (Abbey of the Autumn)", 3) in income_parts(st, BOARD)[0]["ann"]


# -- relics revealed by moving (12.0, R119) ------------------------------------------------------------------

RELICS = {"relics": {"relics": {"holy_grail": {"city": "York", "holder": None, "face_up": False},
                                "chasuble": {"city": "Canterbury", "holder": None, "face_up": False},
                                "skull": {"city": "Exeter", "holder": None, "face_up": False},
                                "shinbone": {"city": "Norwich", "holder": None, "face_up": False}},
                     "vp_marker": None, "skull_used": False, "chasuble_round": {}}}


def moved(lords: dict, mails: dict[str, str], **edition_state) -> tuple[dict, list]:
    """The Movement mails of ``mails`` (the others' defaults) resolved by the rules."""
    return sit(position(lords=lords, towns={"London": {"controller": "ann"}},
                        edition_state={**copy.deepcopy(RELICS), **edition_state}), mails)


def go(noble: str, *path: str) -> str:
    return f"orders:\n  - move: {noble}\n    path: [{', '.join(path)}]\n"


def relic(state: dict, rid: str) -> dict:
    return state["edition_state"]["relics"]["relics"][rid]


def test_a_bishop_moving_into_his_cathedral_city_reveals_its_relic() -> None:   # 12.0
    lords = {"Godfrey": {"family": "ann", "at": "London", "titles": ["bishop 4"]}}
    state, events = moved(lords, {"ann": go("Godfrey", "Canterbury")})
    assert relic(state, "chasuble") == {"city": None, "holder": "Godfrey", "face_up": True}
    assert "Godfrey (ann) reveals the relic of Canterbury: The Chasuble of Thomas Becket" in public(events)
    assert RULES.view(state, "dan")["church"]["relics"]["face_up"]


def test_passing_through_his_cathedral_city_reveals_it_too() -> None:   # 12.0 "moves into"
    lords = {"Godfrey": {"family": "ann", "at": "London", "titles": ["bishop 4"]}}
    state, _ = moved(lords, {"ann": go("Godfrey", "Canterbury", "Winchester")})
    assert relic(state, "chasuble")["holder"] == "Godfrey"


def test_an_abbess_reveals_in_any_cathedral_city_a_bishop_only_in_his_own() -> None:
    lords = {"Lucia": {"family": "ann", "at": "London", "female": True},
             "Godfrey": {"family": "bob", "at": "London", "titles": ["bishop 1"]}}
    state, _ = moved(lords, {"ann": go("Lucia", "Canterbury"), "bob": go("Godfrey", "Canterbury")},
                     church={"abbesses": {"Lucia": ["Oxford"]}})
    assert relic(state, "chasuble")["holder"] == "Lucia"
    alone, _ = moved({"Godfrey": lords["Godfrey"]}, {"bob": go("Godfrey", "Canterbury")})
    assert relic(alone, "chasuble")["holder"] is None, "Godfrey is the Bishop of Exeter, not of Canterbury"


def test_moving_reveals_nothing_to_a_layman_and_no_event_names_a_face_down_relic() -> None:   # R36
    lords = {"Henri": {"family": "ann", "at": "London"},
             "Godfrey": {"family": "bob", "at": "Oxford", "titles": ["bishop 1"]}}
    state, events = moved(lords, {"ann": go("Henri", "Canterbury"), "bob": go("Godfrey", "Winchester")})
    assert relic(state, "chasuble") == {"city": "Canterbury", "holder": None, "face_up": False}
    everything = "\n".join(e.text for e in events).lower()
    assert not any(word in everything for word in ("chasuble", "grail", "skull", "shinbone"))
    for player in FOUR:
        seen = RULES.view(state, player)["church"]["relics"]
        assert seen["face_up"] == {} and "Canterbury" in seen["face_down_in"]
    # the face-down relics' places swapped: no view changes (the secret is which lies where)
    swapped = copy.deepcopy(state)
    rel = swapped["edition_state"]["relics"]["relics"]
    rel["chasuble"]["city"], rel["holy_grail"]["city"] = rel["holy_grail"]["city"], rel["chasuble"]["city"]
    assert all(RULES.view(state, p) == RULES.view(swapped, p) for p in FOUR)


# -- the Holy Grail's bearer in battle (12.1) -----------------------------------------------------------------

def grail_battle(bearer: str) -> tuple:
    state = battle_position({"Edward": {"family": "dave"}, "Henri": {"family": "george"}},
                            {"dave": {"man_at_arms": 1}, "george": {"man_at_arms": 2}},
                            {"London": {"controller": "george"}})
    state.edition_state["relics"] = copy.deepcopy(RELICS["relics"])
    state.edition_state["relics"]["relics"]["holy_grail"].update(holder=bearer, city=None, face_up=True)
    return state


def test_the_grail_voids_the_attackers_ff_when_its_bearer_defends() -> None:   # 12.1
    state = grail_battle("Henri")
    # round 1: dave's ff does nothing, george's f takes dave's man-at-arms; Edward taken
    outcome = fight(state, "dave", "george", Dice(2, 1))
    assert outcome.winner == "defender" and outcome.captives == [("Edward", "george")]


def test_the_grail_with_the_attacker_protects_no_one() -> None:   # 12.1 "not part of the Attacking side"
    state = grail_battle("Edward")
    outcome = fight(state, "dave", "george", Dice(2, 0))
    assert outcome.winner == "attacker" and outcome.captives == [("Henri", "dave")]


def test_holder_taken_captive_by_the_invaders_drops_the_sword_and_the_relics() -> None:   # 13.2, 12.0
    from pbem.games.fief_england.invaders.armies import new_army, record
    from pbem.games.fief_england.invaders.captives import capture
    lords = {"Henri": {"family": "ann", "at": "Oxford"}}
    st = held(FiefState.from_json(position(lords=lords, edition_state=copy.deepcopy(RELICS))), "Henri")
    st.edition_state["relics"]["relics"]["skull"].update(holder="Henri", city=None, face_up=True)
    record(st)["armies"]["1"] = new_army("Oxford")
    events = capture(st, "1", "Henri")
    assert st.edition_state["excalibur"]["holder"] is None and excalibur.where(st) == "Oxford"
    assert st.edition_state["relics"]["relics"]["skull"] == {"city": "Oxford", "holder": None, "face_up": True}
    assert [e.kind for e in events] == ["invaders_captive", "relic_dropped", "excalibur_left"]


# -- through the judge, by mail -----------------------------------------------------------------------------------

def test_drawing_excalibur_by_mail_the_roll_is_in_everyones_report(tmp_path) -> None:
    import json

    from pbem.judge import engine

    from judge_support import Judge

    judge = Judge(tmp_path)
    judge.new_game(name="camelot", players=("alice", "bob", "carol"), game_type="fief_england", seed="camelot")
    judge.tick()
    store = judge.store()
    try:   # a test's shortcut: alice's nobleman put in Winchester in round 2's Movement Phase
        game = engine.load_game(store, "camelot")
        st = game.state
        noble = next(n for n, lo in sorted(st["lords"].items()) if lo["family"] == "alice" and not lo["female"])
        st["round"], st["phase"] = 2, "movement"
        st["lords"][noble]["location"] = "Winchester"
        store.run("UPDATE games SET state=? WHERE id=?", json.dumps(st), game.id)
    finally:
        store.close()
    judge.orders("camelot", "alice", "round-2/movement", f"at_once:\n  - draw_excalibur: {noble}\n")
    judge.tick()
    store = judge.store()
    try:
        sword = engine.load_game(store, "camelot").state["edition_state"]["excalibur"]
    finally:
        store.close()
    assert sword["tried"] == {"round": 2, "movement": [noble]}
    line = f"{noble} (alice) tries to draw Excalibur from the stone in Winchester: the d6 shows"
    for player in ("alice", "bob", "carol"):
        told = "\n".join(m.get_body(("plain",)).get_content() for m in judge.sent_to(f"{player}@pbem.test"))
        assert line in told, player
