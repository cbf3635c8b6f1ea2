"""England's movement (E 5.0-5.5, 13.4; rulings R23, R24, R30, R50, R60-R65): the pieces in
pbem/games/fief_england/movement/, each rule and each error, on England's board file."""
from __future__ import annotations

import pytest

from pbem.games.fief.board import load_board
from pbem.games.fief.edition import load_edition
from pbem.games.fief.state import BoardEffect, Family, FiefState, Lord, Pawn, Town
from pbem.games.fief_england.movement import cavalcade, naval, permission, royal, sherwood
from pbem.games.fief_england.movement.path import LAND, ROAD, SEA, SHERWOOD, Leg, PathProblem, moves_of, read_path
from pbem.games.fief_england.movement.waters import waters_of
from pbem.games.fief_england.regions import storm_regions
from pbem.rules.api import Audience
from pbem.rules.rng import Rng

BOARD = load_board("fief_england")
WATERS = waters_of(BOARD)
EXTRA = load_edition("fief_england").extra
RANSOM, CAPTURE = EXTRA["bandit_ransom"], EXTRA["dice"]["bandits_capture"]
NAVAL_SEAS, ROYAL_COST = EXTRA["moves"]["naval_seas"], EXTRA["moves"]["royal_to_abbey_or_stronghold"]


class Dice(Rng):
    def __init__(self, *faces: int):
        super().__init__("england-movement")
        self.faces = list(faces)

    def d6(self, why: str = "d6") -> int:
        value = self.faces.pop(0)
        self.rolls.append((why, value))
        return value


def state(lords: dict[str, dict] | None = None, units: dict[str, dict[str, dict[str, int]]] | None = None,
          shillings: dict[str, int] | None = None, game: str = "fief_england") -> FiefState:
    """lords: name -> {family, at, female, titles, political, bishopric}; units: city -> family ->
    kind -> count. A family with a noble or a unit in a city controls it."""
    players = ["kirsten", "dave", "george"]
    s = FiefState(game, {}, players, phase="movement", round=2,
                  families={p: Family(p, deniers=(shillings or {}).get(p, 5)) for p in players},
                  towns={c: Town(c) for c in BOARD.towns})
    for name, spec in (lords or {}).items():
        s.lords[name] = Lord(name, spec["family"], spec.get("female", False), spec["at"],
                             fief_titles=list(spec.get("titles", [])), political=spec.get("political"),
                             bishopric=spec.get("bishopric"))
    for city, fams in (units or {}).items():
        for fam, kinds in fams.items():
            for kind, n in kinds.items():
                for _ in range(n):
                    pid = s.new_pawn_id()
                    s.pawns[pid] = Pawn(pid, kind, fam, city)
    for fam, city in [(lo.family, lo.location) for lo in s.lords.values()] + \
            [(p.family, p.location) for p in s.pawns.values()]:
        s.towns[city].controller = s.towns[city].controller or fam
        if fam not in s.towns[city].arrivals:
            s.towns[city].arrivals.append(fam)
    return s


def legs(start: str, path: list) -> list[Leg]:
    out = read_path(BOARD, WATERS, start, path, NAVAL_SEAS)
    assert not isinstance(out, PathProblem), out
    return out


def problem(start: str, path: list) -> PathProblem:
    out = read_path(BOARD, WATERS, start, path, NAVAL_SEAS)
    assert isinstance(out, PathProblem), out
    return out


# -- the board's waters ------------------------------------------------------------------------

def test_waters_read_from_englands_board():
    assert WATERS.seas == ("I", "II", "III", "IV", "V", "VI")
    assert WATERS.port_sea["Whitby"] == "IV" and WATERS.port_sea["King's Lynn"] == "V"
    assert WATERS.touches["III"] == {"II", "IV"}
    assert WATERS.bandit_cities == ("York", "Lincoln", "King's Lynn", "Nottingham")


@pytest.mark.parametrize("text,sea", [("V", "V"), ("sea V", "V"), ("Sea 5", "V"), (5, "V"), ("sea region II", "II"),
                                      ("vi", "VI"), ("sea VII", None), (7, None), ("London", None), (True, None)])
def test_a_sea_by_its_name_or_number(text, sea):
    assert WATERS.find_sea(text) == sea


# -- naval moves: the path (5.4) ---------------------------------------------------------------

def test_ex_5_3_whitby_to_kings_lynn_by_sea_then_coventry_by_road():
    got = legs("Whitby", ["sea V", "King's Lynn", "Coventry"])
    assert got == [Leg(SEA, "V", 1), Leg(LAND, "King's Lynn", 0), Leg(ROAD, "Coventry", 1)]
    assert moves_of(got) == 2


def test_ex_5_4_whitby_to_london_through_two_seas_is_two_moves():
    got = legs("Whitby", ["sea V", "sea VI", "London"])
    assert [leg.kind for leg in got] == [SEA, SEA, LAND] and moves_of(got) == 2


def test_ex_5_5_berwick_round_scotland_to_cardiff_then_harlech():
    got = legs("Berwick", ["sea II", "Cardiff", "Harlech"])
    assert moves_of(got) == 2 and got[-1] == Leg(ROAD, "Harlech", 1)


def test_ex_5_6_no_naval_move_after_a_move_by_road():
    p = problem("Durham", ["Berwick", "sea II", "Cardiff"])
    assert p.index == 1 and "first step" in p.problem and "5.4" in p.problem and "Ex 5-6" in p.problem


@pytest.mark.parametrize("start,path,index,words,fix", [
    ("York", ["sea IV", "Whitby"], 0, "York is not a port", "the ports"),
    ("Whitby", ["sea IV", "King's Lynn"], 0, "lies on Sea IV already", "Sea III or Sea V"),
    ("Whitby", ["sea VI", "London"], 0, "Sea VI does not touch Sea IV", "Sea III or Sea V"),
    ("Whitby", ["sea V", "sea I", "Plymouth"], 1, "Sea I does not touch Sea V", "Sea IV or Sea VI"),
    ("Whitby", ["sea V", "sea VI", "sea I", "Plymouth"], 2, "one or two seas away, not 3", "land"),
    ("Whitby", ["Sea V", "London"], 1, "lands at its port, King's Lynn", "`King's Lynn`"),
    ("Whitby", ["sea V"], 0, "never ends its move at sea", "King's Lynn"),
    ("Whitby", ["sea V", "sea VI"], 1, "never ends its move at sea", "London"),
])
def test_naval_path_errors_name_the_step_and_the_fix(start, path, index, words, fix):
    p = problem(start, path)
    assert p.index == index and words in p.problem and fix in p.fix
    assert f"step {index + 1}" in p.problem or "path ends" in p.problem


def test_a_road_path_and_its_errors():
    assert moves_of(legs("Oxford", ["London", "Canterbury"])) == 2   # Ex 5-1
    assert "no road from Oxford to Canterbury" in problem("Oxford", ["Canterbury"]).problem
    assert "already in Oxford" in problem("Oxford", ["Oxford"]).problem
    p = problem("Oxford", ["Lodnon"])
    assert "no city or sea called 'Lodnon'" in p.problem and "London" in p.fix
    assert "the path is empty" in problem("Oxford", []).problem


# -- Sherwood: the path (13.4) -----------------------------------------------------------------

def test_ex_13_1_york_to_kings_lynn_through_sherwood_is_one_move():
    got = legs("York", ["Sherwood", "King's Lynn"])
    assert got == [Leg(SHERWOOD, "King's Lynn", 1)] and moves_of(got) == 1
    assert moves_of(legs("York", ["Whitby", "Lincoln", "King's Lynn"])) == 3   # by road: 3 Moves


def test_sherwood_then_a_road():
    assert moves_of(legs("Nottingham", ["Sherwood", "York", "Whitby"])) == 2


@pytest.mark.parametrize("start,path,words,fix", [
    ("Oxford", ["Sherwood", "York"], "no bandit path leaves Oxford", "York, Lincoln"),
    ("York", ["Sherwood", "Oxford"], "Oxford is not one of the others", "Lincoln"),
    ("York", ["Sherwood", "York"], "York is not one of the others", "Lincoln"),
    ("York", ["Sherwood"], "ends in Sherwood", "city"),
    ("York", ["Sherwood", "Sherwood"], "Sherwood twice", "city"),
    ("King's Lynn", ["Sherwood", "sea VI"], "Sherwood leads to a city", "York"),
])
def test_sherwood_path_errors(start, path, words, fix):
    p = problem(start, path)
    assert words in p.problem and fix in p.fix


def test_a_road_error_in_a_bandit_city_mentions_the_bandit_paths():
    assert "bandit paths" in problem("York", ["King's Lynn"]).fix


# -- naval moves as they are made (5.4, 5.5, R23) ---------------------------------------------

def whitby_army(**more) -> FiefState:
    return state({"Anabel": {"family": "dave", "at": "Whitby", "female": True}},
                 {"Whitby": {"dave": {"knight": 2}}}, **more)


def test_an_army_that_began_the_round_in_the_port_sails():
    s = whitby_army()
    assert naval.sail_problem(s, WATERS, "dave", "Whitby", legs("Whitby", ["sea V", "King's Lynn"]),
                              [], set(), []) is None


def test_an_army_that_moved_this_round_does_not_sail():
    s = whitby_army()
    why = naval.sail_problem(s, WATERS, "dave", "Whitby", legs("Whitby", ["sea V", "King's Lynn"]),
                             ["Anabel"], set(), [])
    assert "Anabel did not begin the round in Whitby" in why and "bought there" in why and "5.4" in why


@pytest.mark.parametrize("stormy", ["IV", "V", "VI"])
def test_storms_close_every_region_of_the_voyage(stormy):
    s = whitby_army()
    s.board_effects.append(BoardEffect("storms", stormy))
    why = naval.sail_problem(s, WATERS, "dave", "Whitby", legs("Whitby", ["sea V", "sea VI", "London"]),
                             [], storm_regions(s), [])
    assert f"STORMS on Region {stormy}" in why and "5.5" in why


def test_storms_elsewhere_do_not_matter():
    s = whitby_army()
    s.board_effects += [BoardEffect("storms", "II"), BoardEffect("famine", "V"), BoardEffect("storms", "III")]
    assert storm_regions(s) == {"II", "III"}
    assert naval.sail_problem(s, WATERS, "dave", "Whitby", legs("Whitby", ["sea V", "King's Lynn"]),
                              [], storm_regions(s), []) is None


def test_a_road_move_is_no_voyage():
    s = whitby_army()
    assert naval.voyage_seas(WATERS, "Whitby", legs("Whitby", ["York"])) == []
    assert naval.sail_problem(s, WATERS, "dave", "Whitby", legs("Whitby", ["York"]), ["Anabel"], {"IV"}, []) is None


def test_r23_an_army_arrived_at_the_port_keeps_others_in_it():
    s = whitby_army()
    s.families["george"].policies["safe_passage"] = {"others": "refuse"}
    route = legs("Whitby", ["sea V", "King's Lynn"])
    why = naval.sail_problem(s, WATERS, "dave", "Whitby", route, [], set(), ["george"])
    assert "george's army arrived at the port of Whitby" in why and "safe_passage" in why
    s.families["george"].policies["safe_passage"] = {"allow": ["dave"], "others": "refuse"}
    assert naval.sail_problem(s, WATERS, "dave", "Whitby", route, [], set(), ["george"]) is None
    assert naval.sail_problem(s, WATERS, "dave", "Whitby", route, [], set(), ["dave"]) is None


# -- Sherwood's bandits (13.4, R60-R63) --------------------------------------------------------

def no_clergy(lord) -> bool:
    return lord.bishopric is not None


def york_army(shillings: int = 10, **lords) -> FiefState:
    nobles = {"Henri": {"family": "kirsten", "at": "York"}}
    nobles.update(lords)
    return state(nobles, {"York": {"kirsten": {"knight": 2, "man_at_arms": 3, "archer": 1}}},
                 shillings={"kirsten": shillings})


def cross(s: FiefState, rng: Rng, nobles: list[str]) -> sherwood.Crossing:
    units = [pid for pid, p in s.pawns.items() if p.family == "kirsten" and p.location == "York"]
    return sherwood.pass_sherwood(s, rng, "kirsten", nobles, units, RANSOM, no_clergy, ("York", "King's Lynn"), CAPTURE)


@pytest.mark.parametrize("title,political,bishopric,owed", [
    ([], None, None, 2), (["IV"], None, None, 4), ([], None, 2, 5), (["IV"], None, 2, 10),
    (["IV"], "king", None, 0), ([], "queen", None, 0), ([], "sovereign_queen", None, 0),
    ([], "prince_of_wales", None, 2)])
def test_the_bandits_ransom_table(title, political, bishopric, owed):
    lord = Lord("X", "kirsten", False, "York", fief_titles=title, political=political, bishopric=bishopric)
    assert sherwood.ransom_of(lord, RANSOM, no_clergy(lord)) == owed


def test_a_roll_of_3_to_6_passes_and_is_public():
    s = york_army()
    got = cross(s, Dice(3), ["Henri"])
    assert not got.captured and got.goes_on(["Henri"]) == ["Henri"]
    (e,) = got.events
    assert e.kind == "sherwood_passed" and e.audience == Audience.everyone() and "rolls 3" in e.text
    assert s.families["kirsten"].deniers == 10 and len(s.pawns) == 6


def test_captured_and_paid_the_army_goes_on():
    s = york_army(shillings=10, Edith={"family": "kirsten", "at": "York", "female": True, "titles": ["IV"]})
    got = cross(s, Dice(2), ["Henri", "Edith"])
    assert got.captured and got.paid == {"Henri": 2, "Edith": 4} and not got.held
    assert s.families["kirsten"].deniers == 4 and len(s.pawns) == 6
    public, private = got.events
    assert public.kind == "sherwood_captured" and "rolls 2" in public.text and "Henri, Edith pay" in public.text
    assert private.audience == Audience.only("kirsten") and "6 shillings" in private.text and "4 left" in private.text


def test_r52_pay_in_the_armys_order_while_the_purse_lasts():
    # 5 shillings: Edith (4, the leader) is paid, Henri (2) is not; 1 left.
    s = york_army(shillings=5, Edith={"family": "kirsten", "at": "York", "female": True, "titles": ["IV"]})
    got = cross(s, Dice(1), ["Edith", "Henri"])
    assert got.paid == {"Edith": 4} and got.held == ["Henri"] and got.goes_on(["Edith", "Henri"]) == ["Edith"]
    assert s.lords["Henri"].location is None and s.families["kirsten"].deniers == 1
    assert not got.deserted and len(s.pawns) == 6   # a noble still leads them: the troops go on
    assert sherwood.captives(s) == [{"noble": "Henri", "family": "kirsten", "ransom": 2, "knights": []}]


def test_all_nobles_held_men_at_arms_and_archers_desert_knights_stay():
    s = york_army(shillings=1)
    got = cross(s, Dice(1), ["Henri"])
    assert got.held == ["Henri"] and len(got.deserted) == 4 and len(got.knights) == 2
    assert s.pawns == {}   # off the map: the deserters to the stockpile, the knights in Sherwood
    (held,) = sherwood.captives(s)
    assert [k["kind"] for k in held["knights"]] == ["knight", "knight"]
    public = got.events[0]
    assert "cannot pay" in public.text and "4 units join the bandits" in public.text and "2 knights stay" in public.text
    assert len(got.events) == 1   # nothing paid: no private line


def test_money_stays_secret_in_the_public_events():
    s = york_army(shillings=7, Edith={"family": "kirsten", "at": "York", "female": True, "titles": ["IV"]})
    got = cross(s, Dice(2), ["Henri", "Edith"])
    for e in got.events:
        if e.audience == Audience.everyone():
            assert "left" not in e.data and "shilling" not in e.text and "paid" not in e.data


def test_the_king_pays_nothing_and_is_never_held():
    s = york_army(shillings=0)
    s.lords["Henri"].political = "king"
    got = cross(s, Dice(1), ["Henri"])
    assert got.paid == {"Henri": 0} and not got.held and len(s.pawns) == 6


def test_exact_replay_of_the_bandits_dice():
    """The d6 comes from the game's seeded generator: the same seed gives the same roll and
    the same outcome, and the roll is recorded."""
    outcomes = []
    for _ in range(2):
        s = york_army(shillings=1)
        rng = Rng("game-7/round-2/movement")
        got = cross(s, rng, ["Henri"])
        outcomes.append((rng.rolls, got.roll, got.held, sorted(got.deserted), [e.text for e in got.events]))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] == [("bandits", outcomes[0][1])]


def held_henri() -> FiefState:
    s = york_army(shillings=1)
    cross(s, Dice(1), ["Henri"])
    s.families["kirsten"].deniers = 0
    return s


def test_r54_freed_into_the_nearest_friendly_city():
    s = held_henri()
    s.towns["York"].controller = "dave"     # York (first in order) is another's
    s.lords["Anabel"] = Lord("Anabel", "dave", True, "York")
    s.families["kirsten"].deniers = 2
    events = sherwood.pay_ransoms(s, BOARD, WATERS)
    assert s.lords["Henri"].location == "Lincoln"   # independent, the next bandit city
    assert sum(1 for p in s.pawns.values() if p.kind == "knight" and p.location == "Lincoln") == 2
    freed, control, paid = events
    assert freed.kind == "sherwood_freed" and "goes to Lincoln with 2 knights" in freed.text
    assert control.kind == "town_control" and s.towns["Lincoln"].controller == "kirsten"   # 5.1
    assert paid.audience == Audience.only("kirsten") and s.families["kirsten"].deniers == 0
    assert "sherwood" not in s.edition_state


def test_a_captive_whose_family_cannot_pay_waits():
    s = held_henri()
    assert sherwood.pay_ransoms(s, BOARD, WATERS) == []
    assert s.lords["Henri"].location is None and len(sherwood.captives(s)) == 1


def test_nearest_friendly_prefers_own_city_or_noble_then_goes_by_road():
    s = held_henri()
    for city in WATERS.bandit_cities:
        s.towns[city].controller = "dave"
        s.lords["D" + city] = Lord("D" + city, "dave", False, city)
    # Every bandit city is dave's: one road further Durham, Whitby, Norwich, Coventry are
    # independent; the board's order of cities picks Durham.
    assert sherwood.friendly_city(s, BOARD, WATERS, "kirsten") == "Durham"
    s.lords["Mary"] = Lord("Mary", "kirsten", True, "Nottingham")
    assert sherwood.friendly_city(s, BOARD, WATERS, "kirsten") == "Nottingham"


def test_the_kings_interdiction_frees_at_once():
    s = held_henri()
    s.lords["Richard"] = Lord("Richard", "dave", False, "London", political="king")
    assert "only the King or Queen" in sherwood.interdiction_problem(s, "Edward", "Henri")
    s.lords["Edward"] = Lord("Edward", "dave", False, "Oxford")
    assert "Edward is neither" in sherwood.interdiction_problem(s, "Edward", "Henri")
    assert "Mary is not a captive" in sherwood.interdiction_problem(s, "Richard", "Mary")
    events = sherwood.interdiction(s, BOARD, WATERS, "Richard", "Henri")
    assert "carrier pigeon" in events[0].text and s.lords["Henri"].location == "York"
    assert s.families["kirsten"].deniers == 0   # no ransom
    with pytest.raises(ValueError):
        sherwood.interdiction(s, BOARD, WATERS, "Richard", "Henri")


def test_r53_knights_stay_with_the_nobles_still_held():
    s = york_army(shillings=0, Edith={"family": "kirsten", "at": "York", "female": True})
    cross(s, Dice(2), ["Henri", "Edith"])
    s.lords["Richard"] = Lord("Richard", "dave", False, "London", political="king")
    sherwood.interdiction(s, BOARD, WATERS, "Richard", "Henri")
    assert not any(p.kind == "knight" for p in s.pawns.values())
    (edith,) = sherwood.captives(s)
    assert edith["noble"] == "Edith" and len(edith["knights"]) == 2
    sherwood.interdiction(s, BOARD, WATERS, "Richard", "Edith")
    assert sum(1 for p in s.pawns.values() if p.kind == "knight") == 2


# -- moves and permission (5.0, 5.1, R24, R30, R64) --------------------------------------------

def fortified_canterbury(fortress: str | None = "stronghold") -> FiefState:
    s = state({"Lucia": {"family": "kirsten", "at": "Winchester", "female": True}})
    s.towns["Canterbury"].controller = "george"
    s.towns["Canterbury"].fortress = fortress
    return s


def test_entering_a_fortress_needs_the_owners_permission_even_empty_and_allied():
    s = fortified_canterbury()
    assert permission.entry_owner(s, "Canterbury", "kirsten", {}) == "george"
    assert permission.entry_owner(s, "Canterbury", "george", {}) is None
    s.families["george"].policies["safe_passage"] = {"others": "refuse"}
    assert permission.entry_refused(s, "Canterbury", "kirsten", {}) == "george"
    s.families["george"].policies["safe_passage"] = {"allow": ["kirsten"], "others": "refuse"}
    assert permission.entry_refused(s, "Canterbury", "kirsten", {}) is None


def test_an_abbey_is_its_abbess_familys_and_a_plain_city_needs_no_entry_permission():
    s = fortified_canterbury(fortress=None)
    assert permission.entry_owner(s, "Canterbury", "kirsten", {}) is None
    assert permission.entry_owner(s, "Canterbury", "kirsten", {"Canterbury": "dave"}) == "dave"
    assert permission.entry_owner(s, "Canterbury", "dave", {"Canterbury": "dave"}) is None


def test_after_opponents_entered_only_their_road_is_closed():
    s = fortified_canterbury()
    s.families["george"].policies["safe_passage"] = {"others": "refuse"}
    s.families["kirsten"].policies["safe_passage"] = {"others": "allow"}
    entered = [("george", "London"), ("kirsten", "Winchester")]
    assert permission.exit_refused(s, "Canterbury", "dave", "London", entered) == ["george"]
    assert permission.exit_refused(s, "Canterbury", "dave", "Winchester", entered) == []   # kirsten allows
    assert permission.exit_refused(s, "Canterbury", "george", "London", entered) == []


# -- royal movement (R50) ----------------------------------------------------------------------

def royal_state() -> FiefState:
    s = state({"Richard": {"family": "dave", "at": "York", "political": "king"},
               "Anabel": {"family": "kirsten", "at": "Norwich", "female": True, "political": "queen"},
               "William": {"family": "dave", "at": "Oxford"},
               "Mary": {"family": "kirsten", "at": "Exeter", "female": True},
               "Henri": {"family": "george", "at": "Bristol"}},
              {"York": {"dave": {"royal_knight": 2, "knight": 1}}, "Oxford": {"dave": {"archer": 1}}})
    s.towns["Bristol"].besiegers = {}
    return s


def royal_problem(s: FiefState, noble: str, dest: str, places: list[str], units: list[str],
                  guards: list[str]) -> str | None:
    return royal.royal_move_problem(s, noble, dest, places, units, guards, ROYAL_COST)


def units_at(s: FiefState, city: str, family: str) -> list[str]:
    return [pid for pid, p in s.pawns.items() if p.location == city and p.family == family]


def test_r50_the_royal_family_and_their_guards_reach_the_royal_abbey():
    s = royal_state()
    guards = [pid for pid in units_at(s, "York", "dave") if s.pawns[pid].kind == "royal_knight"]
    assert royal_problem(s, "Richard", "Winchester", ["Winchester"], guards, ["royal_knight"]) is None
    assert royal_problem(s, "Anabel", "Winchester", ["Winchester"], [], ["royal_knight"]) is None


def test_r50_their_families_nobles_come_without_troops():
    s = royal_state()
    assert royal_problem(s, "Mary", "Winchester", ["Winchester"], [], ["royal_knight"]) is None
    why = royal_problem(s, "William", "Winchester", ["Winchester"], units_at(s, "Oxford", "dave"),
                                   ["royal_knight"])
    assert "carries no troops" in why and "1 unit would have to stay" in why
    why = royal_problem(s, "Richard", "Winchester", ["Winchester"], units_at(s, "York", "dave"),
                                   ["royal_knight"])
    assert "carries no troops" in why   # the king's own knight is a troop, not a guard


def test_r50_errors():
    s = royal_state()
    assert "neither of the Royal Family" in royal_problem(s, "Henri", "Winchester", ["Winchester"], [], [])
    assert "holds neither the Royal Abbey" in royal_problem(s, "Mary", "Oxford", ["Winchester"], [], [])
    assert "none is on the map" in royal_problem(s, "Mary", "Oxford", [], [], [])
    s.lords["Mary"].steps = 1
    assert "costs 2 Moves" in royal_problem(s, "Mary", "Winchester", ["Winchester"], [], [])
    s.lords["Mary"].steps = 0
    s.towns["Exeter"].controller = "kirsten"
    s.towns["Exeter"].besiegers = {"george": 1}
    s.families["george"].policies["besieged_may_leave"] = {"others": "refuse"}
    assert "besieged by george" in royal_problem(s, "Mary", "Winchester", ["Winchester"], [], [])


# -- England's cavalcade (5.2, 5.3, FAQ, R65) --------------------------------------------------

def test_r56_a_defended_fortress_lets_the_cavalcade_pass():
    s = fortified_canterbury()
    assert cavalcade.through_fortress(s, "Canterbury", ["george"]) == (True, [])
    plain = fortified_canterbury(fortress=None)
    assert cavalcade.through_fortress(plain, "Canterbury", ["george"]) == (False, ["george"])
    # a family in the city that does not hold its fortress fights
    assert cavalcade.through_fortress(s, "Canterbury", ["george", "dave"]) == (False, ["dave"])
