"""England's Movement Phase as it is played (E 5.0-5.5, 13.4; R23, R50-R69): the core's
resolve_movement with England's ``movement`` hook (pbem/games/fief_england/movement/run.py),
and the movement mail's England words, on England's board and edition. The rulebook's examples
5-1 .. 5-6 and 13-1 are also scenario files (tests/scenarios/fief_england/).
"""
from __future__ import annotations

import pytest

from pbem.games.fief.board import load_board
from pbem.games.fief.movement.hooks import CavalcadeResult
from pbem.games.fief.movement.orders import check_movement_orders
from pbem.games.fief.movement.phase import resolve_movement
from pbem.games.fief.movement.template import movement_template
from pbem.games.fief.state import BoardEffect, FiefState
from pbem.games.fief.views import build_view
from pbem.games.fief_england.movement import sherwood
from pbem.orders.yamlsafe import load
from pbem.rules.rng import Rng

from test_fief_england_movement import Dice, state

GAME = "fief_england"
BOARD = load_board(GAME)
PLAYERS = ["kirsten", "dave", "george"]


def position(lords: dict[str, tuple[str, str]], units: dict[str, dict[str, dict[str, int]]] | None = None,
             **shillings: int) -> FiefState:
    """lords: name -> (family, city); units: city -> family -> kind -> count."""
    return state({n: {"family": f, "at": c} for n, (f, c) in lords.items()}, units, shillings, game=GAME)


def move(lord: str, path: list[str], **more) -> dict:
    return {"lord": lord, "with": more.pop("with_", "all"), "path": path,
            "if_refused": more.pop("if_refused", "back"), **more}


def run(state: FiefState, orders: dict, rng: Rng | None = None, **kw):
    events = resolve_movement(state, BOARD, orders, rng or Rng("england"), **kw)
    return events, {e.kind: e for e in events}


def where(state: FiefState, family: str) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for p in state.pawns.values():
        if p.family == family:
            out.setdefault(p.location, {}).setdefault(p.kind, 0)
            out[p.location][p.kind] += 1
    return out


def check(state: FiefState, player: str, text: str):
    doc = load(text)
    return check_movement_orders(build_view(state, BOARD, player), player, doc.get("orders"), doc.get("policies"))


# -- Ex 5-1, 5-2: roads and permission --------------------------------------------------------

def test_ex_5_1_william_leaves_an_archer_in_london_and_oxford_is_lost():
    s = position({"William": ("dave", "Oxford")}, {"Oxford": {"dave": {"archer": 3}}})
    _, by = run(s, {"dave": {"moves": [move("William", ["London", "Canterbury"],
                                            leave={"London": {"archer": 1}})]}})
    assert by["lord_moved"].data["outcome"] == "completed"
    assert where(s, "dave") == {"London": {"archer": 1}, "Canterbury": {"archer": 2}}
    assert s.towns["London"].controller == "dave" and s.towns["Canterbury"].controller == "dave"
    assert s.towns["Oxford"].controller is None   # 5.1: "he no longer controls it"


def lucia(**george_policy) -> FiefState:
    s = position({"Lucia": ("kirsten", "Winchester"), "George": ("george", "Canterbury")},
                 {"Winchester": {"kirsten": {"knight": 2}}, "Canterbury": {"george": {"man_at_arms": 1}}})
    if george_policy:
        s.families["george"].policies["safe_passage"] = george_policy
    return s


def test_ex_5_2_refused_lucia_goes_back_to_winchester():
    s = lucia(others="refuse")
    _, by = run(s, {"kirsten": {"moves": [move("Lucia", ["Canterbury", "London"])]}})
    assert by["lord_moved"].data["outcome"] == "back" and s.lords["Lucia"].location == "Winchester"


def test_ex_5_2_granted_lucia_completes_her_move_to_london():
    s = lucia(allow=["kirsten"], others="refuse")
    run(s, {"kirsten": {"moves": [move("Lucia", ["Canterbury", "London"])]}})
    assert s.lords["Lucia"].location == "London" and where(s, "kirsten") == {"London": {"knight": 2}}


def test_ex_5_2_cavalcade_fought_against_a_defender_outside_a_fortress():
    s = lucia(others="refuse")
    asked = []

    def fight(state, board, request, rng):
        asked.append(request.against)
        return CavalcadeResult(True)

    run(s, {"kirsten": {"moves": [move("Lucia", ["Canterbury", "London"], if_refused="cavalcade",
                                       leave={"Canterbury": {"knight": 1}})]}}, cavalcade=fight)
    assert asked == [("george",)] and s.lords["Lucia"].location == "London"
    assert where(s, "kirsten") == {"Canterbury": {"knight": 1}, "London": {"knight": 1}}


def test_faq_no_cavalcade_on_the_final_move():
    # Lucia's only Move ends in Canterbury's Outskirts: no cavalcade is fought; a battle may
    # follow in the Battle phase (FAQ, l.878).
    s = lucia(others="refuse")
    fought = []
    _, by = run(s, {"kirsten": {"moves": [move("Lucia", ["Canterbury"], if_refused="cavalcade")]}},
                cavalcade=lambda *a: fought.append(a) or CavalcadeResult(True))
    assert not fought and by["lord_moved"].data["on_road"] is True


def test_faq_a_cavalcade_breaks_out_of_a_besieged_fortress_and_must_move_on():
    s = position({"Lucia": ("kirsten", "Canterbury"), "George": ("george", "Canterbury")},
                 {"Canterbury": {"kirsten": {"knight": 2}, "george": {"man_at_arms": 3}}})
    s.towns["Canterbury"].fortress = "stronghold"
    s.towns["Canterbury"].controller = "kirsten"
    s.towns["Canterbury"].besiegers = {"george": 1}
    asked = []

    def fight(state, board, request, rng):
        asked.append(request.against)
        return CavalcadeResult(True)

    run(s, {"kirsten": {"moves": [move("Lucia", ["London"], if_refused="cavalcade")]}}, cavalcade=fight)
    assert asked == [("george",)] and s.lords["Lucia"].location == "London"


def test_r56_the_cavalcade_rides_through_a_defended_fortress_without_battle():
    s = lucia(others="refuse")
    s.towns["Canterbury"].fortress = "stronghold"
    s.families["george"].policies["safe_passage"] = {"others": "refuse"}
    # Lucia's army reaches the Outskirts first: entering George's Stronghold needs his leave.
    fought = []
    events, by = run(s, {"kirsten": {"moves": [move("Lucia", ["Canterbury", "London"], if_refused="cavalcade")]}},
                     cavalcade=lambda *a: fought.append(a) or CavalcadeResult(False))
    assert not fought and s.lords["Lucia"].location == "London"
    assert "rides through Canterbury" in by["lord_moved"].text


def test_entering_a_fortress_needs_its_owners_leave_even_when_empty():
    s = position({"Lucia": ("kirsten", "Winchester")}, {"Winchester": {"kirsten": {"knight": 2}}})
    s.towns["Canterbury"].fortress = "stronghold"
    s.towns["Canterbury"].controller = "george"   # R30: his, though empty
    events, by = run(s, {"kirsten": {"moves": [move("Lucia", ["Canterbury"])]}})
    refusal = by["entry_refused"]
    assert set(refusal.audience.players) == {"kirsten", "george"} and "Outskirts" in refusal.text
    assert by["lord_moved"].data["on_road"] is True
    s2 = position({"Lucia": ("kirsten", "Winchester")}, {"Winchester": {"kirsten": {"knight": 2}}})
    s2.towns["Canterbury"].fortress = "stronghold"
    s2.towns["Canterbury"].controller = "george"
    s2.families["george"].policies["safe_passage"] = {"allow": ["kirsten"], "others": "refuse"}
    _, by2 = run(s2, {"kirsten": {"moves": [move("Lucia", ["Canterbury"])]}})
    assert "entry_refused" not in by2 and by2["lord_moved"].data["on_road"] is False


def test_an_abbey_is_guarded_by_its_abbess_family():
    s = position({"Lucia": ("kirsten", "Winchester"), "Edith": ("george", "London")})
    s.edition_state["abbeys"] = {"Canterbury": {"abbey": "Abbey of the Autumn", "abbess": "Edith", "royal": False}}
    _, by = run(s, {"kirsten": {"moves": [move("Lucia", ["Canterbury"])]}})
    assert by["entry_refused"].data["refused_by"] == "george"


def test_opponents_who_entered_close_the_road_they_came_by():
    # George goes first (turn order) from London into Canterbury, where Dave's Anabel stands.
    s = position({"George": ("george", "London"), "Anabel": ("dave", "Canterbury")},
                 {"London": {"george": {"knight": 1}}, "Canterbury": {"dave": {"archer": 1}}})
    s.first_player = PLAYERS.index("george")
    s.families["dave"].policies["safe_passage"] = {"others": "allow"}
    orders = {"george": {"moves": [move("George", ["Canterbury"])]},
              "dave": {"moves": [move("Anabel", ["London"])]}}
    _, by = run(s, orders)
    assert s.lords["Anabel"].location == "Canterbury" and by["lord_held"].data["outcome"] == "refused"
    assert by["safe_passage_refused"].data["refused_by"] == ["george"]
    s2 = position({"George": ("george", "London"), "Anabel": ("dave", "Canterbury")},
                  {"London": {"george": {"knight": 1}}, "Canterbury": {"dave": {"archer": 1}}})
    s2.first_player = PLAYERS.index("george")
    s2.families["dave"].policies["safe_passage"] = {"others": "allow"}
    run(s2, {"george": orders["george"], "dave": {"moves": [move("Anabel", ["Winchester"])]}})
    assert s2.lords["Anabel"].location == "Winchester"   # every other road is open


def test_troops_moved_by_one_noble_do_not_move_again_with_another():
    s = position({"William": ("dave", "Oxford"), "Anabel": ("dave", "London")}, {"Oxford": {"dave": {"archer": 2}}})
    _, _ = run(s, {"dave": {"moves": [move("William", ["London"], leave={}), move("Anabel", ["Canterbury"])]}})
    # William's archers reached London with him and stay there: Anabel goes alone.
    assert where(s, "dave") == {"London": {"archer": 2}} and s.lords["Anabel"].location == "Canterbury"


# -- Ex 5-3 .. 5-6: naval moves -----------------------------------------------------------------

def test_ex_5_3_whitby_by_sea_to_kings_lynn_then_coventry():
    s = position({"Anabel": ("dave", "Whitby")}, {"Whitby": {"dave": {"knight": 2}}})
    _, by = run(s, {"dave": {"moves": [move("Anabel", ["sea V", "King's Lynn", "Coventry"])]}})
    moved = by["lord_moved"]
    assert moved.data["outcome"] == "completed" and moved.data["path"] == ["King's Lynn", "Coventry"]
    assert "by Sea V (1 Move, 5.4)" in moved.text
    assert where(s, "dave") == {"Coventry": {"knight": 2}} and s.lords["Anabel"].steps == 2


def test_ex_5_4_whitby_through_two_seas_to_london_ends_the_move():
    s = position({"Anabel": ("dave", "Whitby")}, {"Whitby": {"dave": {"knight": 2}}})
    _, by = run(s, {"dave": {"moves": [move("Anabel", ["sea V", "sea VI", "London"])]}})
    assert s.lords["Anabel"].location == "London" and s.lords["Anabel"].steps == 2
    assert all(p.steps == 2 for p in s.pawns.values())
    assert "by Sea V, Sea VI (2 Moves, 5.4)" in by["lord_moved"].text


def test_ex_5_5_berwick_round_scotland_to_cardiff_then_harlech():
    s = position({"Henri": ("george", "Berwick")}, {"Berwick": {"george": {"man_at_arms": 3}}})
    run(s, {"george": {"moves": [move("Henri", ["sea II", "Cardiff", "Harlech"])]}})
    assert s.lords["Henri"].location == "Harlech" and where(s, "george") == {"Harlech": {"man_at_arms": 3}}


def test_ex_5_6_no_naval_move_after_a_road_the_mail_says_so():
    s = position({"Henri": ("george", "Durham")})
    _, errors = check(s, "george", "orders:\n  - move: Henri\n    path: [Berwick, sea II, Cardiff]\n")
    assert len(errors) == 1 and errors[0].line == 3
    assert "step 2: a naval move begins in the port the army began the round in" in errors[0].message
    assert "Ex 5-6" in errors[0].message


def test_troops_bought_in_the_port_sail_but_troops_brought_there_do_not():
    # Dave's archers were bought in Whitby this round (no Move made); his knight came there
    # with Henri from York this round and stays.
    s = position({"Anabel": ("dave", "Whitby"), "Henri": ("dave", "York")},
                 {"Whitby": {"dave": {"archer": 2}}, "York": {"dave": {"knight": 1}}})
    _, by = run(s, {"dave": {"moves": [move("Henri", ["Whitby"]),
                                       move("Anabel", ["sea V", "King's Lynn"], with_={"archer": 2, "knight": 1})]}})
    assert where(s, "dave") == {"King's Lynn": {"archer": 2}, "Whitby": {"knight": 1}}


def test_a_noble_carried_to_the_port_this_round_does_not_sail():
    # Henri came to Whitby with Anabel's move: his own naval move is cut short (5.4).
    s2 = position({"Anabel": ("dave", "York"), "Henri": ("dave", "York")})
    events, by = run(s2, {"dave": {"moves": [move("Anabel", ["Whitby"], lords=["Henri"]),
                                             move("Henri", ["sea V", "King's Lynn"])]}})
    held = [e for e in events if e.data.get("lord") == "Henri"][0]
    assert held.data["outcome"] == "cut_short" and "Henri did not begin the round in Whitby" in held.text
    assert s2.lords["Henri"].location == "Whitby"
    run(s2, {"dave": {"moves": [move("Henri", ["sea V", "King's Lynn"])]}})   # the next round
    assert s2.lords["Henri"].location == "King's Lynn"


def test_5_5_storms_cut_the_naval_move_short():
    s = position({"Anabel": ("dave", "Whitby")}, {"Whitby": {"dave": {"knight": 2}}})
    s.board_effects.append(BoardEffect("storms", "VI"))   # as England's disasters lay it (2.4)
    _, by = run(s, {"dave": {"moves": [move("Anabel", ["sea V", "sea VI", "London"])]}})
    held = by["lord_held"]
    assert held.data["outcome"] == "cut_short" and "STORMS on Region VI" in held.text and "5.5" in held.text
    assert s.lords["Anabel"].location == "Whitby" and s.lords["Anabel"].steps == 0


def test_r23_an_army_arriving_at_the_port_keeps_others_from_sailing():
    s = position({"Anabel": ("dave", "Whitby"), "Henri": ("george", "York")},
                 {"Whitby": {"dave": {"knight": 1}}, "York": {"george": {"knight": 1}}})
    s.first_player = PLAYERS.index("george")
    s.families["george"].policies["safe_passage"] = {"others": "refuse"}
    _, by = run(s, {"george": {"moves": [move("Henri", ["Whitby"], if_refused="stay")]},
                    "dave": {"moves": [move("Anabel", ["sea V", "King's Lynn"])]}})
    assert s.lords["Anabel"].location == "Whitby"
    assert any("george's army arrived at the port of Whitby" in e.text for e in by.values())


# -- Ex 13-1: Sherwood ---------------------------------------------------------------------

def test_ex_13_1_york_to_kings_lynn_through_sherwood_in_one_move():
    s = position({"Henri": ("kirsten", "York")}, {"York": {"kirsten": {"knight": 1, "man_at_arms": 2}}})
    events, by = run(s, {"kirsten": {"moves": [move("Henri", ["Sherwood", "King's Lynn", "Norwich"])]}},
                     Dice(4))
    assert by["sherwood_passed"].data["roll"] == 4 and s.lords["Henri"].location == "Norwich"
    assert s.lords["Henri"].steps == 2 and where(s, "kirsten") == {"Norwich": {"knight": 1, "man_at_arms": 2}}


def test_sherwood_capture_the_leader_held_the_companion_goes_on():
    s = position({"Henri": ("kirsten", "York"), "Edith": ("kirsten", "York")},
                 {"York": {"kirsten": {"knight": 1, "man_at_arms": 2}}}, kirsten=2)
    s.lords["Henri"].fief_titles = ["IV"]   # a Lord: 4 shillings; Edith 2
    _, by = run(s, {"kirsten": {"moves": [move("Henri", ["Sherwood", "Lincoln"], lords=["Edith"])]}}, Dice(2))
    assert s.lords["Henri"].location is None and s.lords["Edith"].location == "Lincoln"
    assert sherwood.captives(s)[0]["noble"] == "Henri" and s.families["kirsten"].deniers == 0
    assert where(s, "kirsten") == {"Lincoln": {"knight": 1, "man_at_arms": 2}}
    assert s.towns["York"].controller is None   # York left empty


def test_sherwood_every_noble_held_the_men_desert_the_knights_stay():
    s = position({"Henri": ("kirsten", "York")}, {"York": {"kirsten": {"knight": 1, "man_at_arms": 2}}}, kirsten=0)
    _, by = run(s, {"kirsten": {"moves": [move("Henri", ["Sherwood", "Lincoln"])]}}, Dice(1))
    assert by["lord_held"].data["outcome"] == "captured" and "held by the bandits" in by["lord_held"].text
    assert s.pawns == {} and s.towns["York"].controller is None
    assert [k["kind"] for k in sherwood.captives(s)[0]["knights"]] == ["knight"]


# -- R50, R69: the royal move --------------------------------------------------------------

def test_r50_the_king_reaches_the_royal_abbey_and_his_troops_stay():
    s = position({"Richard": ("dave", "York")}, {"York": {"dave": {"knight": 1}}})
    s.lords["Richard"].political = "king"
    s.edition_state["abbeys"] = {"Winchester": {"abbey": "Abbey of the Spring", "abbess": None, "royal": True}}
    _, by = run(s, {"dave": {"moves": [move("Richard", ["Winchester"], royal=True)]}})
    assert s.lords["Richard"].location == "Winchester" and s.lords["Richard"].steps == 2
    assert where(s, "dave") == {"York": {"knight": 1}}
    assert "royal move" in by["lord_moved"].text and by["lord_moved"].data["path"] == ["Winchester"]


def test_r50_a_noble_outside_the_royal_families_cannot():
    s = position({"Henri": ("george", "York"), "Richard": ("dave", "London")})
    s.lords["Richard"].political = "king"
    s.edition_state["royal_stronghold"] = {"city": "Oxford"}
    _, by = run(s, {"george": {"moves": [move("Henri", ["Oxford"], royal=True)]}})
    assert "neither of the Royal Family" in by["move_failed"].text and s.lords["Henri"].location == "York"


# -- the mail ----------------------------------------------------------------------------

def test_the_mail_reads_seas_sherwood_and_royal():
    s = position({"Anabel": ("dave", "Whitby"), "Henri": ("dave", "York"), "Mary": ("dave", "Exeter")})
    canonical, errors = check(s, "dave", """orders:
  - move: Anabel
    path: [Sea 5, "King's Lynn", Coventry]
  - move: Henri
    path: [sherwood, nottingham]
  - move: Mary
    royal: yes
    path: Winchester
""")
    assert errors == []
    paths = [m["path"] for m in canonical["moves"]]
    assert paths == [["Sea V", "King's Lynn", "Coventry"], ["Sherwood", "Nottingham"], ["Winchester"]]
    assert canonical["moves"][2]["royal"] is True and "royal" not in canonical["moves"][0]


@pytest.mark.parametrize("start,path,line,words", [
    ("Whitby", "[sea V]", 4, "never ends its move at sea"),
    ("Whitby", "[sea V, sea I, Plymouth]", 5, "Sea I does not touch Sea V"),
    ("York", "[Sherwood, Oxford]", 5, "Oxford is not one of the others"),
    ("Whitby", "[sea V, King's Lynn, Coventry, Nottingham]", 3, "has 2 Moves; this path needs 3"),
])
def test_mail_errors_name_the_line_and_the_fix(start, path, line, words):
    s = position({"Anabel": ("dave", start)})
    items = path.strip("[]").split(", ")
    listed = "".join(f"\n      - {item}" for item in items)
    _, errors = check(s, "dave", f"orders:\n  - move: Anabel\n    path:{listed}\n")
    assert len(errors) == 1 and words in errors[0].message and errors[0].line == line
    assert errors[0].hint


def test_a_royal_path_is_one_city_and_royal_is_yes_or_no():
    s = position({"Mary": ("dave", "Exeter")})
    _, errors = check(s, "dave", "orders:\n  - move: Mary\n    royal: yes\n    path: [Bristol, Oxford]\n")
    assert "royal move's path is the one city" in errors[0].message
    _, errors = check(s, "dave", "orders:\n  - move: Mary\n    royal: maybe\n    path: [Bristol]\n")
    assert "`royal:` is yes or no" in errors[0].message


def test_the_order_form_tells_englands_words():
    s = position({"Mary": ("dave", "Exeter")})
    text = movement_template(build_view(s, BOARD, "dave"), "dave")
    assert "Sea V" in text and "Sherwood" in text and "royal: yes" in text


# -- what each player sees -------------------------------------------------------------------

def seen_by(events, player: str) -> str:
    return "\n".join(e.text + repr(dict(e.data)) for e in events
                     if e.audience.kind == "all" or player in e.audience.players)


def test_fog_of_war_hides_the_kinds_of_a_sailing_army_from_the_others():
    s = position({"Anabel": ("dave", "Whitby")}, {"Whitby": {"dave": {"knight": 2, "archer": 1}}})
    s.options["fog_of_war"] = True
    events, _ = run(s, {"dave": {"moves": [move("Anabel", ["sea V", "King's Lynn"])]}})
    assert "knight" in seen_by(events, "dave")
    others = seen_by(events, "george")
    assert "King's Lynn" in others and "3 units" in others and "pawn" not in others   # England's word (4.0)
    assert "knight" not in others and "archer" not in others


def test_the_bandits_ransom_and_the_purse_stay_with_the_family():
    s = position({"Henri": ("kirsten", "York"), "Edith": ("kirsten", "York")}, kirsten=9)
    s.lords["Henri"].fief_titles = ["IV"]
    events, _ = run(s, {"kirsten": {"moves": [move("Henri", ["Sherwood", "Lincoln"], lords=["Edith"])]}},
                    Dice(1))
    mine, theirs = seen_by(events, "kirsten"), seen_by(events, "george")
    assert "pays the bandits 6 shillings" in mine and "3 left" in mine
    assert "Henri, Edith pay the ransom" in theirs and "rolls 1" in theirs
    assert "shilling" not in theirs and "'left': 3" not in theirs and "'paid'" not in theirs


# -- 13.4: the ransom at the beginning of the Purchase phase ------------------------------------

def held_in_sherwood() -> FiefState:
    s = position({"Henri": ("kirsten", "York"), "Godfrey": ("george", "London")},
                 {"York": {"kirsten": {"knight": 1, "archer": 1}}}, kirsten=1)
    run(s, {"kirsten": {"moves": [move("Henri", ["Sherwood", "Lincoln"])]}}, Dice(1))
    assert s.lords["Henri"].location is None
    s.phase = "purchase"
    return s


def test_every_player_sees_who_the_bandits_hold_not_the_purse():
    s = held_in_sherwood()
    view = build_view(s, BOARD, "george")
    assert view["sherwood"] == [{"noble": "Henri", "family": "kirsten", "ransom": 2, "knights": 1}]
    assert "deniers" not in view["families"]["kirsten"]


def test_the_ransom_paid_at_the_beginning_of_purchase_frees_the_noble_with_his_knights():
    from pbem.games.fief.purchase.phase import resolve_purchase
    s = held_in_sherwood()
    s.families["kirsten"].deniers = 3   # income came in
    events = resolve_purchase(s, BOARD, {}, build_view)
    assert [e.kind for e in events[:3]] == ["sherwood_freed", "town_control", "sherwood_ransom_paid"]
    assert "Henri (kirsten) is freed from Sherwood by ransom and goes to York with 1 knight" in events[0].text
    assert events[2].audience.players == ("kirsten",) and "2 shillings" in events[2].text   # before anyone buys
    assert s.lords["Henri"].location == "York" and s.families["kirsten"].deniers == 1
    assert s.towns["York"].controller == "kirsten"
    assert sherwood.captives(s) == [] and "sherwood" not in build_view(s, BOARD, "george")


def test_a_family_that_cannot_pay_leaves_its_noble_with_the_bandits():
    from pbem.games.fief.purchase.phase import resolve_purchase
    s = held_in_sherwood()
    s.families["kirsten"].deniers = 1
    events = resolve_purchase(s, BOARD, {}, build_view)
    assert not any(e.kind.startswith("sherwood") for e in events) and s.lords["Henri"].location is None


def test_knights_held_in_sherwood_are_not_back_in_the_stockpile():
    from pbem.games.fief.views import pool_left
    s = position({"Henri": ("kirsten", "York")}, {"York": {"kirsten": {"knight": 2, "archer": 1}}}, kirsten=0)
    before = pool_left(s, "kirsten")
    run(s, {"kirsten": {"moves": [move("Henri", ["Sherwood", "Lincoln"])]}}, Dice(1))
    after = pool_left(s, "kirsten")
    assert after["knight"] == before["knight"]        # the 2 knights are with Henri in Sherwood
    assert after["archer"] == before["archer"] + 1    # the archer joined the bandits: back in the stockpile
    assert build_view(s, BOARD, "kirsten")["families"]["kirsten"]["pool"]["knight"] == before["knight"]
