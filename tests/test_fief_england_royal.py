"""Fief: England's royal family and the Order of the Garter (issue 11, part ER; E 9.0, 9.1, 13.1,
13.3, 4.8, FAQ l.869; rulings R8, R21, R28, R44, R128-R134): the royal guard given, kept with its
noble, counted in battle and removed; the Queen, the Prince Consort and the widow; the Prince of
Wales and succession; Excalibur's King; the Garter's deeds, award by mail, errors, loss and the
battles its holder may not fight."""
from __future__ import annotations

import copy

from pbem.games import rules_for
from pbem.games.fief.board import load_board
from pbem.games.fief.hear_ye.elimination import capture_lord, eliminate_lord
from pbem.games.fief.positions import build_position
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.royal import garter, guard, succession
from pbem.orders.yamlsafe import load
from pbem.rules.rng import Rng
from test_fief_england_game import ELECTORATE, hear_ye, play, texts

RULES = rules_for("fief_england")
BOARD = load_board("fief_england")
FOUR = ["ann", "bob", "cat", "dan"]


def state_of(phase: str = "movement", **data) -> FiefState:
    data.setdefault("players", FOUR)
    data.setdefault("round", 2)
    return build_position({"phase": phase, **data}, "fief_england")


def guard_kinds(state: FiefState, noble: str) -> list[str]:
    return sorted(state.pawns[p].kind for p in guard.guard_of(state, noble))


def crowned(lords: dict, king: str = "Edward", **more) -> FiefState:
    """A position with ``king`` made Sovereign as an election makes him (9.1)."""
    state = state_of(lords=lords, **more)
    succession.crown(state, king, None)
    return state


COUPLE = {"Edward": {"family": "cat", "at": "London", "titles": ["South East"], "spouse": "Joan"},
          "Joan": {"family": "bob", "at": "Oxford", "female": True, "spouse": "Edward"},
          "Henri": {"family": "ann", "at": "York", "titles": ["North"]}}


# -- the royal guard (13.1) ---------------------------------------------------------------------------

def test_an_elected_king_receives_2_royal_knights_and_his_wife_2_royal_men_at_arms() -> None:
    """9.1, 13.1: given in addition to their troops, in their Cities; told to everyone."""
    lords = dict(ELECTORATE, Edward={**ELECTORATE["Edward"], "spouse": "Joan"},
                 Joan={"family": "bob", "at": "Oxford", "female": True, "spouse": "Edward"})
    state, _ = play(hear_ye(lords=lords, players=FOUR), {"cat": "orders:\n  - candidate: Edward\n    for: sovereign\n"})
    state, events = play(state, {"cat": "orders:\n  - vote: sovereign\n    for: Edward\n"})
    st = FiefState.from_json(state)
    assert guard_kinds(st, "Edward") == ["royal_knight"] * 2 and guard_kinds(st, "Joan") == ["royal_man_at_arms"] * 2
    assert {st.pawns[p].location for p in guard.guard_of(st, "Joan")} == {"Oxford"}
    told = texts(events)
    assert "Edward (cat) receives 2 Royal Knights in London (13.1)." in told
    assert "Joan (bob) receives 2 Royal Men-at-Arms in Oxford (13.1)." in told
    assert all(e.audience.everyone for e in events if e.kind == "royal_guard")
    view = RULES.view(state, "ann")["royal"]
    assert view["guards"] == {"Edward": {"kind": "royal_knight", "count": 2},
                              "Joan": {"kind": "royal_man_at_arms", "count": 2}}


def test_a_sovereign_queens_husband_is_prince_consort_without_a_title_and_guarded() -> None:
    """9.1: "Her husband holds NO new Title. He receives 2 Royal Guards"."""
    lords = {"Lucia": {"family": "ann", "at": "Norwich", "female": True, "titles": ["Midlands"], "spouse": "Hugh"},
             "Hugh": {"family": "bob", "at": "York", "spouse": "Lucia"}}
    state = state_of(lords=lords)
    events = succession.crown(state, "Lucia", None)
    assert state.lords["Lucia"].political == "sovereign_queen" and state.lords["Hugh"].political is None
    assert guard_kinds(state, "Lucia") == ["royal_knight"] * 2
    assert guard_kinds(state, "Hugh") == ["royal_man_at_arms"] * 2
    assert "Hugh (bob), the Sovereign Queen's husband, is Prince Consort and holds no title (9.1)." in texts(events)
    assert state.lords["Hugh"].title_count() == 0   # no title: his ransom is 2 (7.7)


def test_a_king_marrying_later_makes_his_wife_queen_with_her_guard() -> None:
    """9.0: "If the husband is King, his new wife becomes Queen"; 13.1 her guard."""
    lords = {"Edward": {"family": "cat", "at": "London", "titles": ["South East", "king"]},
             "Joan": {"family": "bob", "at": "Oxford", "female": True}}
    state = state_of(lords=lords)
    state.lords["Edward"].spouse, state.lords["Joan"].spouse = "Joan", "Edward"
    events = succession.married(state, state.lords["Edward"], state.lords["Joan"])
    assert state.lords["Joan"].political == "queen" and guard_kinds(state, "Joan") == ["royal_man_at_arms"] * 2
    assert [e.kind for e in events] == ["queen", "royal_guard"]


def test_the_guard_moves_only_with_its_noble_and_cannot_be_taken_by_name() -> None:
    """13.1: "Royal Guards can neither be bought nor leave the side of their Lord": the King's
    knights go with him unnamed; another noble of his family cannot take them; the Prince Consort's
    (no title) follow him too."""
    lords = {"Edward": {"family": "cat", "at": "London", "titles": ["South East"]},
             "Richard": {"family": "cat", "at": "London"},
             "Lucia": {"family": "ann", "at": "Norwich", "female": True, "titles": ["Midlands"], "spouse": "Hugh"},
             "Hugh": {"family": "bob", "at": "Lincoln", "spouse": "Lucia"}}
    state = state_of(lords=lords, units={"London": {"cat": {"man_at_arms": 1}}, "Lincoln": {"bob": {"knight": 1}}})
    succession.crown(state, "Edward", None)
    succession.crown_spouse(state, state.lords["Hugh"])
    data = state.to_json()
    refused = RULES.check_orders(RULES.view(data, "cat"), "cat",
                                 load("orders:\n  - move: Richard\n    with: [royal knight]\n    path: [Canterbury]\n"))
    assert not refused.ok and "not a unit kind you can move by name" in str(refused.errors[0])
    assert "stays with its lord" in str(refused.errors[0])
    state_json, _ = play(data, {"cat": "orders:\n  - move: Richard\n    with: [man-at-arms]\n    path: [Canterbury]\n"
                                       "  - move: Edward\n    path: [Oxford]\n",
                                "bob": "orders:\n  - move: Hugh\n    path: [Nottingham]\n"})
    after = FiefState.from_json(state_json)
    assert {after.pawns[p].location for p in guard.guard_of(after, "Edward")} == {"Oxford"}
    assert {after.pawns[p].location for p in guard.guard_of(after, "Hugh")} == {"Nottingham"}
    assert [p.kind for p in after.pawns.values() if p.location == "Canterbury"] == ["man_at_arms"]


def test_r8_each_guard_marker_adds_a_hit_to_the_melee_roll() -> None:
    """13.1, R8: the battle counts the pawns given, +1f each to its side's melee roll."""
    from pbem.games.fief_england.battle.numbers import england_numbers
    from pbem.games.fief_england.battle.rounds import Setup, melee
    from pbem.games.fief_england.battle.sides import force_of_units
    state = crowned(COUPLE, units={"London": {"cat": {"man_at_arms": 1}}})
    units = [p.id for p in state.pawns.values() if p.location == "London"]
    force = force_of_units(state, units, ["Edward"])
    assert force.units == {"man_at_arms": 1, "royal_knight": 2} and force.strength(england_numbers()) == 8
    other = force_of_units(state, [], [])
    step = melee({"attacker": other, "defender": force}, Setup(), england_numbers(), lambda why: 0)
    assert step.volleys["defender"].bonus == 2 and step.volleys["defender"].hits == 2


def test_the_guard_returns_to_the_supply_when_its_noble_is_slain_or_taken_captive() -> None:
    state = crowned(COUPLE)
    events = capture_lord(state, BOARD, "Edward", "ann")
    assert guard.guard_of(state, "Edward") == [] and not [p for p in state.pawns.values() if p.kind == "royal_knight"]
    assert "Edward's 2 Royal Knights return to the supply: Edward is taken captive (13.1)." in texts(events)
    events = eliminate_lord(state, BOARD, "Joan")
    assert not [p for p in state.pawns.values() if p.kind == "royal_man_at_arms"]
    assert "Joan's 2 Royal Men-at-Arms return to the supply: Joan is slain (13.1)." in texts(events)
    assert guard.supply(state, guard.KNIGHTS) == 2   # returned, not defeated


def test_defeated_markers_return_only_with_a_new_sovereign() -> None:
    """13.1: "Defeated Royal Guard Markers return only when a new King or Sovereign Queen is
    elected": a Queen crowned after one of hers fell receives 1; the next Sovereign's spouse 2."""
    state = crowned(COUPLE)
    del state.pawns[guard.guard_of(state, "Joan")[0]]          # defeated in a battle
    del state.pawns[guard.guard_of(state, "Edward")[0]]
    eliminate_lord(state, BOARD, "Joan")                         # her last marker returns
    state.lords["Margaret"] = copy.deepcopy(state.lords["Henri"])
    margaret = state.lords["Margaret"]
    margaret.name, margaret.female, margaret.fief_titles, margaret.family = "Margaret", True, [], "dan"
    margaret.spouse, state.lords["Edward"].spouse = "Edward", "Margaret"
    events = succession.married(state, state.lords["Edward"], margaret)
    assert guard_kinds(state, "Margaret") == ["royal_man_at_arms"]
    assert "Margaret (dan) receives 1 Royal Man-at-Arms in York (13.1)." in texts(events)
    eliminate_lord(state, BOARD, "Edward")                       # no Prince of Wales: vacant
    assert guard.supply(state, guard.KNIGHTS) == 1
    succession.crown(state, "Henri", None)                       # a new Sovereign: all back
    assert guard_kinds(state, "Henri") == ["royal_knight"] * 2


def test_a_captive_made_sovereign_receives_no_guard_r116() -> None:
    state = state_of(lords={"Edward": {"family": "cat", "at": "London", "titles": ["South East"], "captive_of": "ann"},
                            "Henri": {"family": "ann", "at": "London"}},
                     units={"London": {"ann": {"knight": 1}}}, towns={"London": {"controller": "ann"}})
    events = succession.crown(state, "Edward", "succeeds")
    assert guard.guard_of(state, "Edward") == [] and "is a captive and receives no Royal Knights" in texts(events)


# -- the widow (9.0) ------------------------------------------------------------------------------------

def test_the_widow_keeps_her_guard_and_title_until_a_new_queen_is_crowned() -> None:
    """9.0: "If the King dies, his wife retains her Royal Guard (13.1) until a new Queen is crowned";
    R59: her Queen's title with it."""
    lords = dict(COUPLE, Margaret={"family": "dan", "at": "Bristol", "female": True, "spouse": "Henri"})
    lords["Henri"] = {**COUPLE["Henri"], "spouse": "Margaret"}
    state = crowned(lords)
    events = eliminate_lord(state, BOARD, "Edward")
    assert state.lords["Joan"].political == "queen" and guard_kinds(state, "Joan") == ["royal_man_at_arms"] * 2
    assert "throne is vacant" in texts(events)
    events = succession.crown(state, "Henri", None)               # Henri elected: his wife is the new Queen
    assert state.lords["Joan"].political is None and guard.guard_of(state, "Joan") == []
    assert state.lords["Margaret"].political == "queen" and guard_kinds(state, "Margaret") == ["royal_man_at_arms"] * 2
    told = texts(events)
    assert "Joan (bob) is no longer Queen: a new Queen is crowned (9.0)." in told
    assert "Joan's 2 Royal Men-at-Arms return to the supply" in told


def test_the_widow_elected_sovereign_queen_gives_back_her_men_at_arms_for_knights() -> None:
    """9.0: "... or if she is elected Sovereign Queen (9.1)"."""
    lords = dict(COUPLE, Joan={**COUPLE["Joan"], "titles": ["Wales"]})
    state = crowned(lords)
    eliminate_lord(state, BOARD, "Edward")
    succession.crown(state, "Joan", None)
    assert state.lords["Joan"].political == "sovereign_queen" and guard_kinds(state, "Joan") == ["royal_knight"] * 2
    assert not [p for p in state.pawns.values() if p.kind == "royal_man_at_arms"]


def test_a_widowed_prince_consort_keeps_his_guard_until_a_new_consort_r117() -> None:
    lords = {"Lucia": {"family": "ann", "at": "Norwich", "female": True, "titles": ["Midlands"], "spouse": "Hugh"},
             "Hugh": {"family": "bob", "at": "York", "spouse": "Lucia"},
             "Edward": {"family": "cat", "at": "London", "titles": ["South East"], "spouse": "Joan"},
             "Joan": {"family": "dan", "at": "Oxford", "female": True, "spouse": "Edward"}}
    state = crowned(lords, king="Lucia")
    eliminate_lord(state, BOARD, "Lucia")
    assert guard_kinds(state, "Hugh") == ["royal_man_at_arms"] * 2
    succession.crown(state, "Edward", None)
    assert guard.guard_of(state, "Hugh") == [] and guard_kinds(state, "Joan") == ["royal_man_at_arms"] * 2


# -- the Prince of Wales and succession (9.0, FAQ l.869) ------------------------------------------

def _placed(state: FiefState, name: str, family: str, female: bool = False, at: str = "Oxford") -> list:
    from pbem.games.fief.state import Lord
    from pbem.games.fief_england.hooks import lord_played
    state.lords[name] = Lord(name, family, female, at)
    return lord_played(state, family, name, {})


def test_the_queens_new_son_is_the_prince_of_wales() -> None:
    state = crowned(COUPLE)
    _placed(state, "Isabella", "bob", female=True)      # a daughter is no Prince of Wales
    assert state.lords["Isabella"].political is None
    events = _placed(state, "Richard", "bob")
    assert state.lords["Richard"].political == "prince_of_wales"
    assert "Richard (bob), the Queen's son, is the Prince of Wales (9.0)." in texts(events)
    _placed(state, "Robert", "bob")                      # one marker (l.26): no second Prince
    assert state.lords["Robert"].political is None
    assert RULES.view(state.to_json(), "dan")["royal"]["prince_of_wales"] == "Richard"


def test_a_sovereign_queens_son_is_prince_of_wales_too_but_not_a_widows() -> None:
    """Definitions (l.891): "... or if his 'mother', as the Sovereign Queen, dies"; R131: a widowed
    Queen bears no Prince of Wales (the King he would succeed is dead)."""
    state = crowned({"Lucia": {"family": "ann", "at": "Norwich", "female": True, "titles": ["Midlands"]}}, king="Lucia")
    _placed(state, "Richard", "ann")
    assert state.lords["Richard"].political == "prince_of_wales"
    widow = crowned(COUPLE)
    eliminate_lord(widow, BOARD, "Edward")
    _placed(widow, "Robert", "bob")
    assert widow.lords["Robert"].political is None


def test_a_captive_queens_son_is_a_captive_with_her() -> None:
    """7.6: "If the Queen is captive, the Prince of Wales can still be put into play, but he is a
    captive with his mother"."""
    state = crowned(COUPLE)
    state.lords["Joan"].captive_of = "ann"
    _placed(state, "Richard", "bob", at="Bristol")
    assert state.lords["Richard"].captive_of == "ann" and state.lords["Richard"].location == "Oxford"


def test_the_prince_of_wales_succeeds_the_dead_king_and_his_wife_is_queen() -> None:
    """9.0: "A Noble can only become King through an election (9.1) or if he is the Prince of Wales
    (son of the Queen) when the King or Sovereign Queen dies"; 13.1 (R21): his Royal Knights."""
    state = crowned(COUPLE)
    _placed(state, "Richard", "bob")
    state.lords["Cecily"] = copy.deepcopy(state.lords["Joan"])
    cecily = state.lords["Cecily"]
    cecily.name, cecily.family, cecily.political, cecily.location = "Cecily", "dan", None, "Bristol"
    cecily.spouse, state.lords["Richard"].spouse = "Richard", "Cecily"
    events = eliminate_lord(state, BOARD, "Edward")
    assert state.lords["Richard"].political == "king" and guard_kinds(state, "Richard") == ["royal_knight"] * 2
    assert state.lords["Cecily"].political == "queen" and guard_kinds(state, "Cecily") == ["royal_man_at_arms"] * 2
    assert state.lords["Joan"].political is None
    assert "Richard (bob) succeeds Edward as the Prince of Wales (9.0) and becomes King." in texts(events)


def test_the_prince_of_wales_stays_so_when_his_mother_dies_before_the_king_r118() -> None:
    state = crowned(COUPLE)
    _placed(state, "Richard", "bob")
    eliminate_lord(state, BOARD, "Joan")
    assert state.lords["Richard"].political == "prince_of_wales"
    eliminate_lord(state, BOARD, "Edward")
    assert state.lords["Richard"].political == "king"


def test_the_prince_of_wales_succeeds_his_mother_the_sovereign_queen() -> None:
    state = crowned({"Lucia": {"family": "ann", "at": "Norwich", "female": True, "titles": ["Midlands"]}}, king="Lucia")
    _placed(state, "Richard", "ann")
    eliminate_lord(state, BOARD, "Lucia")
    assert state.lords["Richard"].political == "king" and guard_kinds(state, "Richard") == ["royal_knight"] * 2


def test_with_no_prince_of_wales_the_throne_is_vacant_and_an_election_may_follow() -> None:
    lords = dict(ELECTORATE, Edward={**ELECTORATE["Edward"], "titles": ["South East", "king"]})
    state = state_of(lords=lords, edition_state={"church": {"archbishops": ["Hugh"]}})
    events = eliminate_lord(state, BOARD, "Edward")
    assert "the throne is vacant until a new Sovereign is elected (9.1) or draws Excalibur (13.2)" in texts(events)
    state.phase = "hear_ye"
    assert RULES.view(state.to_json(), "ann")["hear_ye"]["possible"] == ["sovereign"]


def test_crown_by_excalibur_makes_a_king_with_his_guard_only_without_a_sovereign() -> None:
    """13.2, R21: the Excalibur part's call."""
    state = state_of(lords=COUPLE)
    events = succession.crown_by_excalibur(state, "Edward")
    assert state.lords["Edward"].political == "king" and state.lords["Joan"].political == "queen"
    assert guard_kinds(state, "Edward") == ["royal_knight"] * 2
    assert "queen" in [e.kind for e in events]   # the crowning itself is told by the Excalibur part
    assert succession.crown_by_excalibur(state, "Henri") == [] and state.lords["Henri"].political is None


# -- the Order of the Garter (13.3) ---------------------------------------------------------------

def garter_position(**more) -> dict:
    lords = dict(COUPLE, Hugh={"family": "dan", "at": "Exeter", "titles": ["bishop of exeter", "South West"]},
                 Anabel={"family": "ann", "at": "Bristol", "female": True})
    state = crowned(lords, **more)
    from pbem.games.fief_england.invaders.armies import record
    record(state)["sent_away"] = [
        {"round": 2, "army": "1", "lord": "Hugh", "by": "church"},
        {"round": 2, "army": "2", "lord": "Anabel", "by": "danegeld"}]
    return state.to_json()


def send(state: dict, player: str, text: str) -> tuple[dict, list]:
    result = RULES.check_at_once(RULES.view(state, player), player, load(text))
    assert result.ok, result.errors
    out = RULES.act(state, player, result.orders, Rng("garter"))
    return out.state, list(out.events)


def refused(state: dict, player: str, text: str) -> str:
    result = RULES.check_at_once(RULES.view(state, player), player, load(text))
    assert not result.ok
    return "\n".join(str(e) for e in result.errors)


def test_r28_eligible_lords_and_the_award_by_mail() -> None:
    """13.3, R28: a Lord who sent an army away by Church Intervention is eligible; a Danegeld payer
    without a fiefdom title is not. The Sovereign's family awards it; everyone is told."""
    state = garter_position()
    assert RULES.view(state, "bob")["royal"]["garter"]["eligible"] == {
        "Hugh": "sent an Invader army away by Church Intervention"}
    captive = FiefState.from_json(state)                 # R133: a captive Sovereign gives it too
    captive.lords["Edward"].captive_of = "ann"
    assert RULES.check_at_once(RULES.view(captive.to_json(), "cat"), "cat", load("at_once:\n  - garter: Hugh\n")).ok
    state, events = send(state, "cat", "at_once:\n  - garter: Hugh\n")
    assert state["edition_state"]["garter"] == ["Hugh"]
    assert events[0].kind == "garter" and events[0].audience.everyone
    assert events[0].text == ("Edward inducts Hugh (dan) into the Order of the Garter: Hugh sent an Invader army away "
                              "by Church Intervention (13.3).")
    assert RULES.view(state, "ann")["royal"]["garter"]["holders"] == ["Hugh"]


def test_garter_order_errors() -> None:
    state = garter_position()
    assert "only the King's or Sovereign Queen's family" in refused(state, "dan", "at_once:\n  - garter: Hugh\n")
    assert "Anabel is not eligible" in refused(state, "cat", "at_once:\n  - garter: Anabel\n")
    assert "eligible: Hugh (sent an Invader army away" in refused(state, "cat", "at_once:\n  - garter: Anabel\n")
    assert "`Hgh` is not a noble in play" in refused(state, "cat", "at_once:\n  - garter: Hgh\n")
    assert "unknown key" in refused(state, "cat", "at_once:\n  - garter: Hugh\n    to: Henri\n")
    state, _ = send(state, "cat", "at_once:\n  - garter: Hugh\n")
    assert "holds the Order of the Garter already" in refused(state, "cat", "at_once:\n  - garter: Hugh\n")
    st = FiefState.from_json(state)
    st.lords["Anabel"].fief_titles.append("wales")
    st.fief_titles["wales"] = "Anabel"
    assert "a Garter was given already in round 2 (13.3: one a Round)" in \
        refused(st.to_json(), "cat", "at_once:\n  - garter: Anabel\n")
    st.round = 3
    st.edition_state["garter"] = ["A", "B", "C", "D"]
    assert "the 4 Garter markers are all given" in refused(st.to_json(), "cat", "at_once:\n  - garter: Anabel\n")


def test_a_garter_order_no_longer_possible_is_refused_to_its_sender_alone() -> None:
    state = garter_position()
    result = RULES.check_at_once(RULES.view(state, "cat"), "cat", load("at_once:\n  - garter: Hugh\n"))
    st = FiefState.from_json(state)
    eliminate_lord(st, BOARD, "Hugh")
    out = RULES.act(st.to_json(), "cat", result.orders, Rng("g"))
    assert out.state["edition_state"].get("garter", []) == []
    refusal = next(e for e in out.events if e.kind == "garter_refused")
    assert refusal.audience.players == ("cat",) and "Hugh is no longer in play" in refusal.text


def test_the_garter_is_lost_at_the_lords_death() -> None:
    st = FiefState.from_json(garter_position())
    st.edition_state["garter"] = ["Hugh"]
    events = eliminate_lord(st, BOARD, "Hugh")
    assert st.edition_state["garter"] == []
    assert "Hugh's Order of the Garter returns to the supply: the Lord is dead (13.3)." in texts(events)


def test_r119_a_family_defeating_an_invader_army_makes_its_lords_eligible() -> None:
    """13.3 "Defeated an Invader Army": recorded by the Invaders' battle for the nobles there."""
    from pbem.games.fief_england.battle.rounds import Force, Noble
    from pbem.games.fief_england.invaders.armies import new_army, record
    from pbem.games.fief_england.invaders.battle import _apply
    state = crowned(COUPLE, units={"York": {"ann": {"knight": 2}}})
    record(state)["armies"]["1"] = {**new_army("York"), "foot": 1}
    before = {"attacker": Force({"invader_leader": 1, "invader_foot": 1}),
              "defender": Force({"knight": 2}, [Noble("Henri")])}
    after = {"attacker": Force({}), "defender": Force({"knight": 2}, [Noble("Henri")])}
    _apply(state, BOARD, "York", "ann", "1", before, after)
    assert state.edition_state["royal"]["garter_deeds"] == [{"round": 2, "army": "1", "lord": "Henri", "by": "defeat"}]
    assert garter.eligible(state) == {"Henri": "defeated an Invader army"}


def battle_position(garter_holder: str = "Henri") -> dict:
    lords = dict(COUPLE, Edward={**COUPLE["Edward"], "at": "York"},
                 Anabel={"family": "dan", "at": "York", "female": True, "titles": ["Wales"]})
    state = crowned(lords, phase="battle", units={"York": {"ann": {"knight": 3}, "cat": {"man_at_arms": 1},
                                                           "dan": {"knight": 2}}},
                    towns={"York": {"controller": "cat"}})
    state.edition_state["garter"] = [garter_holder]
    return state.to_json()


def declared(state: dict, player: str, target: str, town: str) -> tuple[dict, list]:
    """The Battle Phase resolved with ``player``'s declaration as it stands (checked when mailed, in
    another position)."""
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in RULES.phase(state).deciders}
    orders[player]["battles"] = [{"target": target, "town": town}]
    result = RULES.resolve(state, orders, Rng("battle"))
    return result.state, list(result.events)


def test_r121_a_garter_lord_may_not_attack_the_sovereign() -> None:
    """13.3: refused in the mail, and at resolution (a Garter given since the mail)."""
    state = battle_position()
    result = RULES.check_orders(RULES.view(state, "ann"), "ann", load("orders:\n  - attack: cat\n    in: York\n"))
    assert not result.ok
    assert "Henri, of the Order of the Garter, may not attack the King Edward (13.3)" in str(result.errors[0])
    assert "move Henri out of York first, or attack another family" in str(result.errors[0])
    _, events = declared(state, "ann", "cat", "York")
    not_fought = next(e for e in events if e.kind == "battle_not_fought")
    assert "Henri, of the Order of the Garter, may not attack the King Edward (13.3)" in not_fought.text
    assert not any(e.kind.startswith("battle_round") for e in events)
    free = FiefState.from_json(state)
    free.edition_state["garter"] = []
    assert RULES.check_orders(RULES.view(free.to_json(), "ann"), "ann",
                              load("orders:\n  - attack: cat\n    in: York\n")).ok


def test_r121_a_garter_lords_family_does_not_join_a_coalition_against_the_sovereign() -> None:
    state = battle_position(garter_holder="Anabel")
    st = FiefState.from_json(state)
    st.families["dan"].policies["coalition"] = {"join": {"ann": "anywhere"}}
    st.families["ann"].policies["coalition"] = {"accept": {"dan": "anywhere"}}
    _, events = play(st.to_json(), {"ann": "orders:\n  - attack: cat\n    in: York\n"})
    barred = [e for e in events if e.kind == "coalition_refused" and e.data["family"] == "dan"]
    assert barred and "Anabel, of the Order of the Garter, may not attack the King Edward (13.3)" in barred[0].text
    assert not any(e.kind == "battle_not_fought" for e in events)


def test_the_royal_part_of_the_view_is_public_and_the_same_for_everyone() -> None:
    state = garter_position()
    views = [RULES.view(state, p)["royal"] for p in FOUR] + [RULES.view(state, None)["royal"]]
    assert all(v == views[0] for v in views)
    deed = "sent an Invader army away by Church Intervention"
    assert views[0]["garter"] == {"holders": [], "eligible": {"Hugh": deed}, "given_round": None, "left": 4}


def test_the_guard_leaves_a_noble_ambushed_or_taken_by_the_invaders() -> None:
    """13.1: "taken captive" by an AMBUSH (10.5: before the troops scatter) or by the Invaders (6.7)."""
    from pbem.games.fief_england.invaders.armies import new_army, record
    from pbem.games.fief_england.invaders.captives import capture
    from pbem.games.fief_england.opportunity.cards import ambush
    state = crowned(dict(COUPLE, William={"family": "dan", "at": "London"}),
                    units={"London": {"dan": {"knight": 1}}}, hands={"dan": ["ambush"]},
                    towns={"London": {"controller": "dan"}})
    events = ambush(state, BOARD, "dan", {"by": "William", "on": "Edward"})
    assert state.lords["Edward"].captive_of == "dan"
    assert not [p for p in state.pawns.values() if p.kind == "royal_knight"]
    assert "Edward's 2 Royal Knights return to the supply: Edward is taken captive (13.1)." in texts(events)
    record(state)["armies"]["1"] = new_army("Oxford")
    events = capture(state, "1", "Joan")
    assert not [p for p in state.pawns.values() if p.kind == "royal_man_at_arms"]
    assert "Joan's 2 Royal Men-at-Arms return to the supply" in texts(events)


def test_the_position_report_says_who_holds_what() -> None:
    """All public: the Sovereign and the Prince Consort, the Prince of Wales, each guard, the
    Garter's holders and the eligible Lords, in every player's report."""
    from pbem.judge.render import render
    lords = {"Lucia": {"family": "ann", "at": "Norwich", "female": True, "titles": ["Midlands"], "spouse": "Hugh"},
             "Hugh": {"family": "bob", "at": "York", "spouse": "Lucia"}}
    state = crowned(lords, king="Lucia")
    _placed(state, "Richard", "ann")
    state.edition_state["garter"] = ["Lucia"]
    text = render(RULES.report_template(), view=RULES.view(state.to_json(), "cat"), me="cat")
    assert "  Sovereign Queen: Lucia (ann); Prince Consort Hugh (bob)\n" in text
    assert "  Prince of Wales: Richard (ann)\n" in text
    assert "  Lucia's royal guard: 2 Royal Knights (13.1)\n" in text
    assert "  Hugh's royal guard: 2 Royal Men-at-Arms (13.1)\n" in text
    assert "  Order of the Garter: Lucia; 3 marker(s) left; none given this round.\n" in text
    quiet = state_of(lords=COUPLE).to_json()
    assert "No King or Sovereign Queen reigns" in render(RULES.report_template(), view=RULES.view(quiet, "cat"),
                                                         me="cat")


def test_a_garter_given_by_mail_is_the_first_tiebreak_r44() -> None:
    """8.5, R44: the victory's tiebreak reads the Garter the Sovereign gave."""
    from pbem.games.fief_england.hooks import tiebreak
    state, _ = send(garter_position(), "cat", "at_once:\n  - garter: Hugh\n")
    st = FiefState.from_json(state)
    assert tiebreak(st, ("dan",), {})[0] is True and tiebreak(st, ("cat",), {})[:2] == (False, True)


def test_the_king_rides_a_cavalcade_with_his_royal_knights_not_the_queen_with_her_men_at_arms() -> None:
    """5.2: a cavalcade of "Nobles and Knights": the Royal Knights that never leave the King (13.1)
    ride with him (the core's `cavalcade_kinds` hook); Royal Men-at-Arms are no knights."""
    from pbem.games.fief.battle.phase import _no_cavalcade
    from pbem.games.fief.movement.army import Army, StepBudget
    state = crowned(COUPLE, units={"London": {"cat": {"knight": 1}}})
    budget = StepBudget(state)
    king = Army("cat", "Edward", ("town", "London"),
                pawns=[p.id for p in state.pawns.values() if p.location == "London"])
    assert _no_cavalcade(state, king, ("ann",), budget) is None
    queen = Army("bob", "Joan", ("town", "Oxford"), pawns=guard.guard_of(state, "Joan"))
    assert "only knights and lords may make a cavalcade" in str(_no_cavalcade(state, queen, ("ann",), budget))


def test_r121_a_garter_lord_rides_no_cavalcade_against_the_sovereign() -> None:
    """13.3: a cavalcade (5.2) is an attack too: not fought, told why; the battle rules' hook."""
    from pbem.games.fief.battle.phase import resolve_cavalcade
    from pbem.games.fief.movement.army import Army, StepBudget
    from pbem.games.fief.movement.hooks import CavalcadeRequest
    state = crowned(COUPLE, units={"London": {"cat": {"man_at_arms": 1}}, "Canterbury": {"ann": {"knight": 2}}})
    state.lords["Henri"].location = "Canterbury"
    state.edition_state["garter"] = ["Henri"]
    army = Army("ann", "Henri", ("town", "Canterbury"),
                pawns=[p.id for p in state.pawns.values() if p.location == "Canterbury"])
    request = CavalcadeRequest(army, ("cat",), "London", ("London", "Oxford"), StepBudget(state))
    result = resolve_cavalcade(state, BOARD, request, Rng("c"))
    assert not result.won and result.events[0].kind == "cavalcade_impossible"
    assert "Henri, of the Order of the Garter, may not attack the King Edward (13.3)" in result.events[0].text


def test_a_prince_consort_held_by_the_bandits_loses_his_guard_and_the_army_goes_on_without_it() -> None:
    """13.4, 13.1: held by the bandits is taken captive; his Royal Men-at-Arms return to the supply
    and do not go on with the free nobles."""
    from pbem.games.fief_england.movement import sherwood
    from test_fief_england_movement import CAPTURE, RANSOM, Dice, no_clergy
    lords = {"Lucia": {"family": "ann", "at": "Norwich", "female": True, "titles": ["Midlands"], "spouse": "Hugh"},
             "Hugh": {"family": "bob", "at": "York", "spouse": "Lucia"},
             "Edith": {"family": "bob", "at": "York", "female": True, "titles": ["North"]}}
    state = crowned(lords, king="Lucia", units={"York": {"bob": {"knight": 1}}}, deniers={"bob": 4})
    units = [p.id for p in state.pawns.values() if p.location == "York"]
    got = sherwood.pass_sherwood(state, Dice(1), "bob", ["Edith", "Hugh"], units, RANSOM, no_clergy,
                                 ("York", "King's Lynn"), CAPTURE)
    assert got.held == ["Hugh"] and len(got.guards) == 2
    assert not [p for p in state.pawns.values() if p.kind == "royal_man_at_arms"]
    assert "Hugh's 2 Royal Men-at-Arms return to the supply: Hugh is held by the bandits (13.1)." in texts(got.events)
    assert guard.supply(state, guard.MEN_AT_ARMS) == 2   # returned, not defeated


def test_a_widowed_prince_consort_made_king_trades_his_men_at_arms_for_knights() -> None:
    lords = {"Lucia": {"family": "ann", "at": "Norwich", "female": True, "titles": ["Midlands"], "spouse": "Hugh"},
             "Hugh": {"family": "bob", "at": "York", "spouse": "Lucia", "titles": ["North"]}}
    state = crowned(lords, king="Lucia")
    eliminate_lord(state, BOARD, "Lucia")
    events = succession.crown(state, "Hugh", None)
    assert guard_kinds(state, "Hugh") == ["royal_knight"] * 2 and guard.guards(state)["Hugh"]["kind"] == "royal_knight"
    assert "Hugh's 2 Royal Men-at-Arms return to the supply: Hugh becomes the Sovereign (13.1)." in texts(events)


def test_the_royal_move_takes_the_nobles_own_guard_and_no_one_elses() -> None:
    """5.0 l.356, 13.1, R50: "their Royal Guards" travel with them and leave no Lord's side: the
    King's royal move to the Royal Abbey takes his Royal Knights, not his Queen's Men-at-Arms
    standing in the same City; the Prince Consort's takes his own Men-at-Arms."""
    lords = {"Edward": {"family": "cat", "at": "London", "titles": ["South East"], "spouse": "Joan"},
             "Joan": {"family": "cat", "at": "London", "female": True, "spouse": "Edward"}}
    state = crowned(lords, edition_state={"abbeys": {"Winchester": {"abbey": "Abbey of the Spring", "abbess": None,
                                                                    "royal": True}}})
    after, _ = play(state.to_json(), {"cat": "orders:\n  - move: Edward\n    royal: yes\n    path: [Winchester]\n"})
    moved = FiefState.from_json(after)
    assert moved.lords["Edward"].location == "Winchester"
    assert {moved.pawns[p].location for p in guard.guard_of(moved, "Edward")} == {"Winchester"}
    assert {moved.pawns[p].location for p in guard.guard_of(moved, "Joan")} == {"London"}
    consort = {"Lucia": {"family": "ann", "at": "Norwich", "female": True, "titles": ["Midlands"], "spouse": "Hugh"},
               "Hugh": {"family": "ann", "at": "Lincoln", "spouse": "Lucia"}}
    state = crowned(consort, king="Lucia", edition_state={"abbeys": {"Winchester": {
        "abbey": "Abbey of the Spring", "abbess": None, "royal": True}}})
    after, _ = play(state.to_json(), {"ann": "orders:\n  - move: Hugh\n    royal: yes\n    path: [Winchester]\n"})
    moved = FiefState.from_json(after)
    assert moved.lords["Hugh"].location == "Winchester"
    assert {moved.pawns[p].location for p in guard.guard_of(moved, "Hugh")} == {"Winchester"}
