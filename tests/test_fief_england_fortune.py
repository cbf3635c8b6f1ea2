"""England's disasters, fortune cards, treasures and Opportunity cards (E 2.3-2.10, 3.0-3.4,
10.0-10.5, 11.2-11.3; docs/fief-england.md "Disasters", "Fortune cards", "Opportunity cards"),
on hand-built positions (tests/england_cards_support.py). Each rulebook example is named."""
from __future__ import annotations

import pytest

from england_cards_support import Dice, england_board, position, units_in
from pbem.games.fief.state import BoardEffect
from pbem.games.fief_england import disasters, fortune, treasure
from pbem.games.fief_england.opportunity import cards as opp
from pbem.games.fief_england.opportunity.rebellion import choose_losses, grounds_problem
from pbem.games.fief_england.opportunity.scatter import scatter
from pbem.games.fief_england.regions import region_cities, region_of

BOARD = england_board()


def abbey(abbess: str) -> dict:
    """An Abbey as the Church part records it (church/abbeys.py: city -> {abbey, abbess, royal})."""
    return {"abbey": "Abbey of the Autumn", "abbess": abbess, "royal": False}


def kinds(events):
    return [e.kind for e in events]


# -- Regions -------------------------------------------------------------------------------

def test_regions_are_numbered_by_the_board_order():
    assert region_of(BOARD, "Berwick") == "III" and region_of(BOARD, "London") == "VI"
    assert region_of(BOARD, "Sea III") == "III" and region_of(BOARD, "nowhere") is None
    assert set(region_cities(BOARD, "III")) == {"Berwick", "Durham"}


# -- Disasters (2.3-2.5) ---------------------------------------------------------------------

def test_round_1_disasters_wait_on_their_sea_and_act_in_round_2():
    """2.4 (l.127), R12: round 1's cards are placed, not acting; round 2 activates them first."""
    state = position(["kirsten", "dave"], round=1, lords={"Lucia": {"family": "dave", "at": "London", "female": True}},
                     units={"London": {"dave": {"man_at_arms": 4}}})
    state.disasters_track = ["plague", "storms"]
    events = disasters.resolve_disasters(state, BOARD, None, Dice(d6=[6, 3]))
    assert kinds(events) == ["disaster_waiting", "disaster_waiting"]
    assert state.board_effects == [] and units_in(state, "London", "dave") == {"man_at_arms": 4}
    assert state.edition_state["disasters"]["waiting"] == [{"card": "plague", "region": "VI"},
                                                          {"card": "storms", "region": "III"}]
    state.round = 2
    state.disasters_track = ["famine"]
    events = disasters.resolve_disasters(state, BOARD, None, Dice(d6=[4, 2]))   # Lucia rolls 4, famine on II
    assert [(e.card, e.target) for e in state.board_effects] == [("plague", "VI"), ("storms", "III"), ("famine", "II")]
    assert units_in(state, "London", "dave") == {"man_at_arms": 2} and "Lucia" in state.lords
    assert "disasters" not in state.edition_state
    assert "lying on Sea VI since round 1 now acts" in events[0].text


def test_every_roll_strikes_and_a_second_of_a_type_is_discarded():
    """2.4 Ex (FAMINE on III, STORMS and PLAGUE on VI), R43: a 6 is Region VI, no false alarm."""
    state = position(["kirsten", "dave"])
    state.disasters_track = ["famine", "storms", "plague", "storms"]
    events = disasters.resolve_disasters(state, BOARD, None, Dice(d6=[3, 6, 6, 6]))
    assert [(e.card, e.target) for e in state.board_effects] == [("famine", "III"), ("storms", "VI"), ("plague", "VI")]
    assert kinds(events)[-1] == "disaster_duplicate" and state.events_discard == ["storms"]
    assert "Marches" in events[0].text


def test_georges_plague_halves_each_city_rounded_down():
    """2.5 Ex (George's plague): 3 men-at-arms + 2 knights lose 2; 1 man-at-arms loses none;
    bombards are not troops."""
    state = position(["george", "dave"], units={"London": {"george": {"man_at_arms": 3, "knight": 2, "bombard": 1}},
                                                 "Oxford": {"george": {"man_at_arms": 1}}})
    state.families["george"].policies["plague_losses"] = ["man_at_arms", "archer", "knight"]
    disasters._strike(state, BOARD, Dice(), "plague", "VI", "test")
    assert units_in(state, "London", "george") == {"man_at_arms": 1, "knight": 2, "bombard": 1}
    assert units_in(state, "Oxford", "george") == {"man_at_arms": 1}


def test_plague_nobles_die_on_1_to_3_and_the_abbey_protects():
    state = position(["a", "b"], lords={"Hugh": {"family": "a", "at": "London"},
                                        "Henri": {"family": "a", "at": "Oxford"},
                                        "Lucia": {"family": "b", "at": "Canterbury", "female": True}},
                     edition_state={"abbeys": {"Canterbury": abbey("Lucia")}})
    events = disasters._strike(state, BOARD, Dice(d6=[3, 4]), "plague", "VI", "test")
    assert "Hugh" not in state.lords and "Henri" in state.lords and "Lucia" in state.lords
    assert "plague_abbey" in kinds(events)


def test_entering_a_plague_region_rolls_once_a_round():
    """2.5, R22: entering rolls; leaving and re-entering, or from an adjacent plagued Region, does not."""
    state = position(["a", "b"], lords={"Hugh": {"family": "a", "at": "Exeter"}},
                     units={"Exeter": {"a": {"man_at_arms": 4}}})
    state.board_effects.append(BoardEffect("plague", "VI"))
    pawns = list(state.pawns)
    events = disasters.enter_plague(state, BOARD, Dice(d6=[5]), "Exeter", "Winchester", "a", ["Hugh"], pawns)
    assert kinds(events) == ["plague_troops", "plague_troops", "plague_noble"] and len(state.pawns) == 2
    assert disasters.enter_plague(state, BOARD, Dice(), "Exeter", "Winchester", "a", ["Hugh"], list(state.pawns)) == []
    assert disasters.enter_plague(state, BOARD, Dice(), "London", "Winchester", "a", ["Hugh"], list(state.pawns)) == []


def test_storms_block_land_and_sea_and_battles_famine_stops_mills():
    state = position(["a", "b"])
    state.board_effects += [BoardEffect("storms", "VI"), BoardEffect("famine", "III")]
    assert "STORMS" in disasters.storms_block(state, BOARD, "Exeter", "Winchester")
    assert disasters.storms_block(state, BOARD, "Sea VI", "Sea I")
    assert disasters.storms_block(state, BOARD, "Exeter", "Plymouth") is None
    assert "no battle" in disasters.storms_forbid_battle(BOARD, [("storms", "VI")], "London")
    assert disasters.storms_forbid_battle(BOARD, [("storms", "VI")], "York") is None
    assert disasters.famine_in(state, BOARD, "Durham") and not disasters.famine_in(state, BOARD, "York")
    state.towns["Durham"].mills = 1
    assert fortune.mill_and_abbey_value(state, BOARD, "Durham") == (0, 0)


def test_invaders_card_is_left_on_its_sea_for_the_invaders_phase():
    state = position(["a", "b"])
    state.disasters_track = ["invaders"]
    disasters.resolve_disasters(state, BOARD, None, Dice(d6=[3]))
    assert state.board_effects == [BoardEffect("invaders", "III")]
    state.board_effects.append(BoardEffect("famine", "II"))
    events = disasters.end_of_round(state)
    assert state.board_effects == [BoardEffect("invaders", "III")] and state.events_discard == ["famine"]
    assert kinds(events) == ["cards_leave_map"]


# -- Fortune cards (2.7-2.9) ---------------------------------------------------------------

def test_harvest_cancels_famine():
    """2.7 Ex (Harvest on a famine): both discarded."""
    state = position(["george", "dave"])
    state.board_effects.append(BoardEffect("famine", "III"))
    played, event = fortune.play_bonus_card(state, BOARD, "george", "bountiful_harvest", "III")
    assert played and event.kind == "card_cancels" and state.board_effects == []
    assert state.events_discard == ["famine", "bountiful_harvest"]


def test_good_weather_cancels_storms_then_a_second_lies_on_the_sea():
    """2.9 Ex (two Good Weather cards) and 2.7 Ex (Good Weather during Movement)."""
    state = position(["dave", "kirsten"])
    state.board_effects.append(BoardEffect("storms", "I"))
    assert fortune.play_bonus_card(state, BOARD, "dave", "good_weather", "I")[0]
    assert disasters.storms_block(state, BOARD, "Exeter", "Winchester") is None
    played, event = fortune.play_bonus_card(state, BOARD, "dave", "good_weather", "I")
    assert played and state.board_effects == [BoardEffect("good_weather", "I", "dave")]
    played, event = fortune.play_bonus_card(state, BOARD, "dave", "good_weather", "I")
    assert not played and "once per Region" in event.text and event.audience.players == ("dave",)


def test_blocked_placements():
    state = position(["a", "b"])
    state.board_effects += [BoardEffect("storms", "II"), BoardEffect("famine", "IV")]
    assert "STORMS" in fortune.play_bonus_card(state, BOARD, "a", "bountiful_harvest", "II")[1].text
    assert "FAMINE" in fortune.play_bonus_card(state, BOARD, "a", "good_weather", "IV")[1].text


def test_harvest_and_weather_stack_on_mills_and_abbeys():
    """2.9 Ex (Harvest + Weather on the Marches), R9: +2 per Mill and per Abbey."""
    state = position(["george", "dave"], edition_state={"abbeys": {"Durham": abbey("X")}})
    fortune.play_bonus_card(state, BOARD, "george", "bountiful_harvest", "III")
    fortune.play_bonus_card(state, BOARD, "dave", "good_weather", "III")
    assert fortune.fortune_bonus(state, BOARD, "Berwick") == 2
    assert fortune.mill_and_abbey_value(state, BOARD, "Durham") == (4, 4)


# -- TAX and treasures (2.8, 11.3) -----------------------------------------------------------

def test_georges_tallage_two_per_city_and_no_city_income_there():
    """2.8 Ex (George's Tallage), R17: 2 x 4 cities = 8; David's city gives him nothing."""
    state = position(["george", "dave"],
                     lords={"Henri": {"family": "george", "at": "London", "titles": ["south_east"]}})
    played, event = fortune.play_tallage(state, BOARD, "george", "Henri", "VI")
    assert played, event.text
    assert fortune.tallage_income(state, BOARD) == {"george": {"VI": 8}}
    assert fortune.tallaged_cities(state, BOARD) == {"London", "Canterbury", "Oxford", "Winchester"}
    assert treasure.used(state, "george") == ["tax_tallage"]
    assert "already" in fortune.play_tallage(state, BOARD, "george", "Henri", "VI")[1].text
    state.fief_titles["south_east"] = None                   # the title left the family: no Tallage
    assert fortune.tallage_income(state, BOARD) == {}


def test_tallage_refusals_and_the_sovereigns_tallage():
    state = position(["george", "dave"], lords={"Henri": {"family": "george", "at": "London"},
                                                "Hugh": {"family": "dave", "at": "York", "political": "king",
                                                         "titles": ["north"]}})
    played, event = fortune.play_tallage(state, BOARD, "george", "Henri", "VI")
    assert not played and "neither holds" in event.text
    assert not fortune.play_tallage(state, BOARD, "george", "Hugh", "VI")[0]      # not his family
    assert fortune.play_tallage(state, BOARD, "dave", "Hugh", "VI")[0]           # 2.8: ungoverned Region
    assert fortune.play_tallage(state, BOARD, "dave", "Hugh", "IV")[0]           # his own fiefdom
    played, event = fortune.play_tallage(state, BOARD, "dave", "Hugh", "I")
    assert not played and "Treasure markers" in event.text                       # 11.3: both used


def test_treasures_return_at_round_end():
    state = position(["a", "b"])
    assert treasure.spend_treasure(state, "a", "burgher_votes") is None
    assert treasure.spend_treasure(state, "a", "tax_tithe") is None
    assert "both of your Treasure" in treasure.spend_treasure(state, "a", "tax_tallage")
    assert treasure.treasures_left(state, "b") == 2
    assert treasure.return_treasures(state) and treasure.treasures_left(state, "a") == 2
    with pytest.raises(ValueError):
        treasure.spend_treasure(state, "a", "bribe")


def test_scorched_earth_two_per_own_mill_told_to_the_owner_only():
    """3.4, R26."""
    state = position(["a", "b"], towns={"London": {"mills": 1, "controller": "a"}, "Oxford": {"mills": 1}})
    ctrl = {"London": "a", "Oxford": "b"}
    events = fortune.scorched_earth(state, "a", ["London", "Oxford", "York"], ctrl)
    assert state.towns["London"].mills == 0 and state.towns["Oxford"].mills == 1
    assert state.families["a"].deniers == 12
    gain = next(e for e in events if e.kind == "scorched_earth_gain")
    assert gain.audience.players == ("a",)
    assert sum(e.kind == "scorch_refused" for e in events) == 2


# -- REBELLION (10.1) -------------------------------------------------------------------------

def test_rebellion_grounds():
    state = position(["george", "kirsten"],
                     lords={"Henri": {"family": "george", "at": "London", "titles": ["south_east"]}})
    assert "neither taxed" in grounds_problem(state, BOARD, "kirsten", "London")
    fortune.play_tallage(state, BOARD, "george", "Henri", "VI")
    assert grounds_problem(state, BOARD, "kirsten", "London") is None
    assert "you played" in grounds_problem(state, BOARD, "george", "London")
    state.board_effects.append(BoardEffect("famine", "III"))
    assert grounds_problem(state, BOARD, "kirsten", "Berwick") is None
    state.edition_state["parliament_rebellion"] = True      # 9.3: any city
    assert grounds_problem(state, BOARD, "kirsten", "York") is None


def test_ex_10_1_and_10_2_two_rebellions_and_a_stronghold():
    """Ex 10-1: two REBELLION cards, 2 dice +2; Ex 10-2: a Stronghold cancels one: 1 die +1."""
    state = position(["george", "dave", "kirsten"], towns={"Durham": {"controller": "kirsten"}},
                     units={"Durham": {"kirsten": {"knight": 2}}}, hands={"george": ["rebellion"],
                                                                          "dave": ["rebellion"]})
    state.board_effects.append(BoardEffect("famine", "III"))
    state.families["dave"].policies["join_rebellions"] = {"against": ["kirsten"], "cards": 1}
    events = opp.rebellion(state, BOARD, Dice(battle=[3, 0]), "george", {"in": "Durham"})
    roll = next(e for e in events if e.kind == "rebellion_roll")
    assert roll.data["hits"] == 5 and "rebellion_joined" in kinds(events)
    assert units_in(state, "Durham", "kirsten") == {"knight": 1}
    state = position(["george", "dave", "kirsten"], towns={"Durham": {"controller": "kirsten",
                                                                      "fortress": "stronghold"}},
                     units={"Durham": {"kirsten": {"knight": 2}}}, hands={"george": ["rebellion"],
                                                                          "dave": ["rebellion"]})
    state.board_effects.append(BoardEffect("famine", "III"))
    state.families["dave"].policies["join_rebellions"] = {"against": "all"}
    events = opp.rebellion(state, BOARD, Dice(battle=[2]), "george", {"in": "Durham"})
    assert next(e for e in events if e.kind == "rebellion_roll").data["hits"] == 3
    assert state.events_discard == ["rebellion", "rebellion"]


def test_ex_10_3_london_one_die_plus_one(tmp_path):
    """Ex 10-3, R5: a blank and the +1: Dave loses one man-at-arms, Philippa lives."""
    state = position(["kirsten", "dave"], lords={"Philippa": {"family": "dave", "at": "London", "female": True},
                                                 "Henri": {"family": "kirsten", "at": "York",
                                                           "titles": ["south_east"]}},
                     units={"London": {"dave": {"man_at_arms": 2}}}, towns={"London": {"controller": "dave"}},
                     hands={"kirsten": ["rebellion"]})
    state.board_effects.append(BoardEffect("tallage", "VI", "george_not_here", "X"))
    events = opp.rebellion(state, BOARD, Dice(battle=[0]), "kirsten", {"in": "London"})
    assert next(e for e in events if e.kind == "rebellion_roll").data["hits"] == 1
    assert units_in(state, "London", "dave") == {"man_at_arms": 1} and "Philippa" in state.lords


def test_ex_11_1_norwich_burgher_passage_and_two_cards():
    """Ex 11-1, R29, R34: BURGHER Rebellion + BURGHER Passage (both treasures) + George's and
    Kirsten's cards: 3 dice +3 = f, blank, fff + 3 = 7 hits; every troop and Estrid die; the
    Mill and Stronghold are destroyed."""
    state = position(["george", "kirsten", "dave"],
                     lords={"Estrid": {"family": "dave", "at": "Norwich", "female": True}},
                     units={"Norwich": {"dave": {"knight": 1, "archer": 1, "man_at_arms": 2}}},
                     towns={"Norwich": {"controller": "dave", "fortress": "stronghold", "mills": 1}},
                     hands={"george": ["rebellion"], "kirsten": ["rebellion"]},
                     edition_state={"family_card": {"george": "burgher_3"}})
    state.board_effects.append(BoardEffect("famine", "V"))
    state.families["kirsten"].policies["join_rebellions"] = {"against": ["dave"]}
    events = opp.rebellion(state, BOARD, Dice(battle=[1, 0, 3]), "george",
                           {"in": "Norwich", "cards": 1, "burgher": True, "passage": "burgher"})
    assert next(e for e in events if e.kind == "rebellion_roll").data["hits"] == 7
    assert units_in(state, "Norwich", "dave") == {} and "Estrid" not in state.lords
    assert state.towns["Norwich"].mills == 0 and state.towns["Norwich"].fortress is None
    assert sorted(treasure.used(state, "george")) == ["burgher_passage", "burgher_rebellion"]
    assert "rebellion_cancelled" not in kinds(events)


def test_rebellion_spares_a_fortified_city_and_nobles_in_an_abbey_r29():
    state = position(["a", "b"], lords={"Hugh": {"family": "b", "at": "York"}},
                     towns={"York": {"controller": "b", "fortress": "city", "mills": 1}},
                     hands={"a": ["rebellion"]}, edition_state={"parliament_rebellion": True})
    events = opp.rebellion(state, BOARD, Dice(battle=[0]), "a", {"in": "York", "passage": None})
    assert "rebellion_over" in kinds(events)          # 2 rebellions (card + Parliament) - 2 cancelled
    state = position(["a", "b"], lords={"Hugh": {"family": "b", "at": "York"}},
                     towns={"York": {"controller": "b", "mills": 1}}, hands={"a": ["rebellion"]},
                     edition_state={"parliament_rebellion": True, "abbeys": {"York": abbey("Z")}})
    events = opp.rebellion(state, BOARD, Dice(battle=[0, 0]), "a", {"in": "York"})
    assert "Hugh" in state.lords and "York" not in state.edition_state["abbeys"]   # R34 no troops; 2.13
    assert state.towns["York"].mills == 0


def test_rebellion_refused_keeps_the_card():
    state = position(["a", "b"], hands={"a": ["rebellion"]})
    events = opp.rebellion(state, BOARD, Dice(), "a", {"in": "York", "burgher": True})
    assert kinds(events) == ["card_not_played"] and state.families["a"].hand == ["rebellion"]
    state.board_effects.append(BoardEffect("famine", "IV"))
    events = opp.rebellion(state, BOARD, Dice(), "a", {"in": "York", "burgher": True})
    assert "no BURGHER" in events[0].text
    events = opp.rebellion(state, BOARD, Dice(), "a", {"in": "York", "cards": 2})
    assert "not 2" in events[0].text


def test_a_cleric_quells_by_paying_or_praying():
    state = position(["a", "b"], lords={"Hugh": {"family": "b", "at": "York", "bishopric": 2}},
                     units={"York": {"b": {"man_at_arms": 1}}}, hands={"a": ["rebellion"]})
    state.board_effects.append(BoardEffect("famine", "IV"))
    state.families["b"].policies["quell_rebellions"] = "pay"
    events = opp.rebellion(state, BOARD, Dice(), "a", {"in": "York"})
    assert "rebellion_quelled" in kinds(events) and state.families["b"].deniers == 7
    state = position(["a", "b"], lords={"Hugh": {"family": "b", "at": "York", "bishopric": 2}},
                     units={"York": {"b": {"man_at_arms": 1}}}, hands={"a": ["rebellion"]})
    state.board_effects.append(BoardEffect("famine", "IV"))
    state.families["b"].policies["quell_rebellions"] = "pray"
    events = opp.rebellion(state, BOARD, Dice(d6=[5], battle=[1]), "a", {"in": "York"})
    assert "cleric_stoned" in kinds(events) and "Hugh" not in state.lords


def test_losses_take_as_many_hits_as_possible():
    """7.5 by 10.1: 4 hits on a knight and 2 men-at-arms: the knight and a man-at-arms."""
    worth = {"knight": 3, "man_at_arms": 1}
    lost = choose_losses(["knight", "man_at_arms", "man_at_arms"], 4, ("man_at_arms", "knight"), worth)
    assert sorted(lost) == [0, 1]
    assert choose_losses(["knight"], 2, (), worth) == []


# -- ASSASSINATION, JUSTICE, AMBUSH, PASSAGE (10.2-10.5) ------------------------------------

def test_assassination_gives_the_sponsor_the_heresy_marker_r31():
    state = position(["a", "b"], lords={"Hugh": {"family": "a", "at": "York"}, "Godfrey": {"family": "a",
                                                                                           "at": "Lincoln"},
                                        "Henri": {"family": "b", "at": "London"}},
                     units={"London": {"b": {"man_at_arms": 2}}}, hands={"a": ["assassination", "assassination"]},
                     edition_state={"heresy": "Godfrey"})
    events = opp.assassination(state, BOARD, "a", {"on": "Henri", "sponsor": "Hugh"})
    assert "Henri" not in state.lords and state.edition_state["heresy"] == "Hugh"
    assert "taken from Godfrey" in events[-1].text
    events = opp.assassination(state, BOARD, "a", {"on": "Hugh", "sponsor": "Godfrey"})
    assert kinds(events) == ["opportunity_played", "opportunity_void"] and "own family" in events[1].text


def test_justice_only_on_the_heresy_bearer_never_royal_never_in_an_abbey():
    state = position(["a", "b"], lords={"Hugh": {"family": "b", "at": "York"}, "Henri": {"family": "b",
                                                                                         "at": "London"}},
                     hands={"a": ["justice"]}, edition_state={"heresy": "Hugh"})
    assert "does not bear" in opp.justice_problem(state, state.lords["Henri"])
    state.lords["Hugh"].political = "king"
    assert "beyond JUSTICE" in opp.justice_problem(state, state.lords["Hugh"])
    state.lords["Hugh"].political = None
    state.edition_state["abbeys"] = {"York": abbey("Z")}
    assert "Abbey" in opp.justice_problem(state, state.lords["Hugh"])
    del state.edition_state["abbeys"]
    events = opp.justice(state, BOARD, "a", {"on": "Hugh"})
    assert "Hugh" not in state.lords and "heresy" not in state.edition_state and "justice" in kinds(events)


def test_ex_10_5_ambush_in_exeter():
    """Ex 10-5: Dave ambushes Lord Edward in Exeter; Kirsten's troops go to Winchester and
    Canterbury in groups of 4; the bombard left behind becomes Dave's."""
    state = position(["kirsten", "dave"],
                     lords={"Edward": {"family": "kirsten", "at": "Exeter"}, "William": {"family": "dave",
                                                                                         "at": "Exeter"},
                            "Anabel": {"family": "kirsten", "at": "Winchester", "female": True},
                            "Herbert": {"family": "kirsten", "at": "Canterbury"}},
                     units={"Exeter": {"kirsten": {"man_at_arms": 5, "knight": 2, "bombard": 1},
                                       "dave": {"man_at_arms": 2}}},
                     towns={"Exeter": {"controller": "dave"}}, hands={"dave": ["ambush"]})
    events = opp.ambush(state, BOARD, "dave", {"by": "William", "on": "Edward"})
    assert state.lords["Edward"].captive_of == "dave"
    assert sum(units_in(state, "Winchester", "kirsten").values()) == 4
    assert sum(units_in(state, "Canterbury", "kirsten").values()) == 3
    assert units_in(state, "Exeter", "dave") == {"man_at_arms": 2, "bombard": 1}
    assert {"ambush", "troops_scattered", "engines_taken"} <= set(kinds(events))


def test_ambush_refusals():
    state = position(["a", "b"], lords={"Hugh": {"family": "a", "at": "York"}, "Henri": {"family": "b", "at": "York"},
                                        "Ann": {"family": "a", "at": "London", "female": True}},
                     towns={"York": {"controller": "b", "fortress": "stronghold"}})
    assert "inside the Stronghold" in opp.ambush_problem(state, "a", state.lords["Hugh"], state.lords["Henri"])
    assert "not in London" in opp.ambush_problem(state, "a", state.lords["Ann"], state.lords["Henri"])
    state.lords["Hugh"].captive_of = "b"
    assert "captive" in opp.ambush_problem(state, "a", state.lords["Hugh"], state.lords["Henri"])


def test_scatter_without_havens_loses_the_troops():
    state = position(["a", "b"], units={"York": {"a": {"man_at_arms": 3}}})
    events = scatter(state, BOARD, "a", "York", "test")
    assert state.pawns == {} and "lost" in events[0].text


def test_passage_frees_a_captive_and_serves_other_parts():
    state = position(["a", "b"], lords={"Hugh": {"family": "a", "at": "York", "captive_of": "b"}},
                     towns={"Lincoln": {"controller": "a"}}, hands={"a": ["passage", "passage"]})
    events = opp.free_captive(state, BOARD, "a", {"free": "Hugh"})
    assert state.lords["Hugh"].captive_of is None and state.lords["Hugh"].location == "Lincoln"
    assert kinds(events) == ["passage", "escape"]
    spent, events = opp.use_passage(state, "a", "withdraw")
    assert spent and state.families["a"].hand == [] and state.events_discard == ["passage", "passage"]
    spent, events = opp.use_passage(state, "a", "storms")
    assert not spent and "no PASSAGE" in events[0].text
    spent, events = opp.use_passage(state, "a", "storms", by="burgher")
    assert not spent and "BURGHER" in events[0].text


# -- By mail: at-once orders (R41) and what each player sees ---------------------------------

from pbem.games.fief.views import build_view   # noqa: E402
from pbem.games.fief_england.opportunity.orders import act, check_play, find_region  # noqa: E402
from pbem.orders.reading import Problems  # noqa: E402
from pbem.orders.yamlsafe import load  # noqa: E402


def _check(state, player, text):
    view = build_view(state, BOARD, player)
    doc = load(text)
    problems = Problems()
    plays = [check_play(view, BOARD, player, item, None, problems) for item in doc["at_once"]]
    return plays, [str(p) for p in problems]


def _ambush_state():
    return position(["kirsten", "dave"], lords={"Edward": {"family": "kirsten", "at": "Exeter"},
                                                 "William": {"family": "dave", "at": "Exeter"},
                                                 "Hugh": {"family": "dave", "at": "York"}},
                    hands={"dave": ["ambush", "good_weather"]})


def test_mail_plays_are_read_and_carried_out():
    state = _ambush_state()
    plays, errors = _check(state, "dave", "at_once:\n  - play: ambush\n    on: edward\n    by: William\n"
                                          "  - play: Good Weather\n    on: Marches\n")
    assert errors == [] and plays == [{"card": "ambush", "on": "Edward", "by": "William"},
                                      {"card": "good_weather", "on": "III"}]
    events = act(state, BOARD, Dice(), "dave", plays[0]) + act(state, BOARD, Dice(), "dave", plays[1])
    assert state.lords["Edward"].captive_of == "dave" and state.families["dave"].hand == []
    assert "card_played" in kinds(events)


def test_mail_errors_name_the_problem_and_the_fix():
    state = _ambush_state()
    _, errors = _check(state, "dave", "at_once:\n  - play: ambush\n    on: Hugh\n    by: Edward\n")
    assert any("own family" in e for e in errors) and any("not a noble of your family" in e for e in errors)
    _, errors = _check(state, "dave", "at_once:\n  - play: justice\n    on: Edward\n")
    assert any("you hold no JUSTICE card" in e for e in errors)
    _, errors = _check(state, "dave", "at_once:\n  - play: rebelion\n")
    assert any("rebellion" in e for e in errors)
    _, errors = _check(state, "dave", "at_once:\n  - play: rebellion\n    in: Yrok\n    cards: 0\n")
    assert any("York" in e for e in errors) and any("needs a REBELLION card" in e for e in errors)
    _, errors = _check(state, "dave", "at_once:\n  - play: good_weather\n    on: Atlantis\n    colour: red\n")
    assert any("Region" in e for e in errors) and any("unknown key `colour`" in e for e in errors)
    state.phase = "cards"
    _, errors = _check(state, "dave", "at_once:\n  - play: ambush\n    on: Edward\n    by: William\n")
    assert any("during the Cards phase's draws" in e for e in errors)


def test_find_region_by_numeral_number_or_name():
    assert [find_region(BOARD, t) for t in ("iii", "6", "Wales", "County of the South West", "7")] == \
        ["III", "VI", "II", "I", None]


def test_no_leak_of_hands_or_face_down_disasters():
    """A hand is its owner's; a disaster on the track is face down until revealed (2.3)."""
    state = position(["kirsten", "dave"], round=1, hands={"dave": ["assassination"], "kirsten": ["passage"]})
    state.disasters_track = ["plague"]
    view = build_view(state, BOARD, "kirsten")
    view.pop("policies_text")   # the viewer's own standing orders name `plague_losses`
    assert "assassination" not in repr(view)
    assert "plague" not in repr(view)
    assert view["hand"] == ["passage"] and view["disasters_track"] == 1
    assert build_view(state, BOARD, None)["disasters_track_cards"] == ["plague"]
    disasters.resolve_disasters(state, BOARD, None, Dice(d6=[2]))
    assert "plague" not in repr(build_view(state, BOARD, "kirsten")["board_effects"])   # waiting, not acting
    assert state.edition_state["disasters"]["waiting"] == [{"card": "plague", "region": "II"}]


def test_rebellion_policies_are_checked():
    from pbem.games.fief_england.opportunity.rebellion import check_policy
    players = ["a", "b", "c"]
    assert check_policy("quell_rebellions", "Pay", players, "a") == ("pay", None)
    assert "one of never" in check_policy("quell_rebellions", "sometimes", players, "a")[1]
    assert check_policy("join_rebellions", {"against": "b"}, players, "a") == ({"against": ["b"], "cards": 1}, None)
    assert check_policy("join_rebellions", {"against": "all", "cards": 2}, players,
                        "a")[0] == {"against": "all", "cards": 2}
    assert "other than you" in check_policy("join_rebellions", {"against": ["a", "zed"]}, players, "a")[1]
    assert "1 or 2" in check_policy("join_rebellions", {"against": "all", "cards": 5}, players, "a")[1]
    assert "mapping" in check_policy("join_rebellions", "yes", players, "a")[1]


def test_round_end_discards_the_regions_cards_returns_treasures_and_turns_parliament():
    """2.10, 8.0, 11.3, 9.3: the edition's end_of_round hook, as the core's End of Round calls it."""
    from pbem.games.fief.edition import load_edition
    round_end = load_edition("fief_england").hooks.end_of_round   # the cards' part, then the Church's
    assert round_end is not None
    state = position(["a", "b"], edition_state={"parliament_rebellion": True})
    treasure.spend_treasure(state, "a", "tax_tallage")
    state.board_effects += [BoardEffect("tallage", "VI", "a", "X"), BoardEffect("invaders", "II"),
                            BoardEffect("storms", "I")]
    events = round_end(state, BOARD)
    assert kinds(events) == ["cards_leave_map", "treasures_returned", "parliament_turned"]
    assert state.board_effects == [BoardEffect("invaders", "II")] and state.events_discard == ["tax", "storms"]
    # the cards' own keys are gone (the Church's part keeps its empty retainer record)
    assert not {"treasures", "parliament_rebellion"} & set(state.edition_state)
    assert round_end(state, BOARD) == []


# -- Through England's rules object, as the judge reads a mail ---------------------------------

def _england_act(state, player, text, rng=None):
    from pbem.games.fief_england.rules import RULES
    data = state.to_json()
    check = RULES.check_at_once(RULES.view(data, player), player, load(text))
    if not check.ok:
        return None, [str(e) for e in check.errors]
    result = RULES.act(data, player, check.orders, rng or Dice())
    return result.state, list(result.events)


def test_good_weather_during_movement_cancels_storms_at_once():
    """2.7 Ex (Good Weather during Movement), R41: Kirsten plays GOOD WEATHER by mail during
    Movement; the STORMS and the card are discarded and her armies may move in."""
    state = position(["kirsten", "dave"], hands={"kirsten": ["good_weather", "ambush"]})
    state.phase = "movement"
    state.board_effects.append(BoardEffect("storms", "VI"))
    after, events = _england_act(state, "kirsten", "at_once:\n  - play: Good Weather\n    on: South East\n")
    assert after["board_effects"] == [] and after["families"]["kirsten"]["hand"] == ["ambush"]
    assert after["events_discard"] == ["storms", "good_weather"]
    assert [e.kind for e in events] == ["card_cancels"]


def test_at_once_refuses_fortune_cards_that_are_not_opportunity_cards():
    state = position(["kirsten", "dave"], hands={"kirsten": ["tax", "bountiful_harvest"]})
    state.phase = "movement"
    _, errors = _england_act(state, "kirsten", "at_once:\n  - play: tax\n    tallage: VI\n")
    assert any("not an Opportunity card" in e for e in errors)
    _, errors = _england_act(state, "kirsten", "at_once:\n  - play: bountiful harvest\n    on: VI\n")
    assert any("not an Opportunity card" in e for e in errors)


def test_assassination_by_mail_through_the_judge():
    state = position(["kirsten", "dave"], lords={"Hugh": {"family": "kirsten", "at": "York"},
                                                 "Henri": {"family": "dave", "at": "London"}},
                     hands={"kirsten": ["assassination"]})
    state.phase = "purchase"
    after, events = _england_act(state, "kirsten", "at_once:\n  - play: assassination\n    on: Henri\n"
                                                   "    sponsor: Hugh\n")
    assert "Henri" not in after["lords"] and after["edition_state"]["heresy"] == "Hugh"
    assert "assassination" in kinds(events)


def test_the_at_once_template_shows_the_opportunity_cards_held():
    from pbem.games.fief_england.rules import RULES
    state = position(["kirsten", "dave"], hands={"kirsten": ["ambush", "tax"], "dave": ["justice"]})
    text = RULES.at_once_template(RULES.view(state.to_json(), "kirsten"), "kirsten")
    assert "- play: ambush" in text and "by: YOUR_NOBLE" in text
    assert "justice" not in text and "play: tax" not in text and "sponsor" not in text


def test_the_cards_play_template_shows_englands_cards():
    from pbem.games.fief.cards.template import play_template
    state = position(["kirsten", "dave"], hands={"kirsten": ["tax", "bountiful_harvest", "ambush"]})
    text = play_template(build_view(state, BOARD, "kirsten"), "kirsten")
    assert "#  - play: tax" in text and "tallage: REGION" in text and "on: REGION" in text
    assert "by: YOUR_NOBLE" in text and "Bretagne" not in text


def test_troop_losses_tell_the_kinds_to_the_owner_only():
    """4.1, R96 (fog of war, always on in England): plague and rebellion losses are told by kind
    to their owner, by count to the others."""
    state = position(["a", "b"], units={"London": {"a": {"knight": 1, "man_at_arms": 1}}}, hands={"b": ["rebellion"]})
    events = disasters._strike(state, BOARD, Dice(), "plague", "VI", "test")
    mine = [e for e in events if e.kind == "plague_troops" and e.audience.players == ("a",)]
    theirs = [e for e in events if e.kind == "plague_troops" and e.audience.players == ("b",)]
    assert "1 man-at-arms" in mine[0].text and mine[0].data["kinds"] == ["man_at_arms"]
    assert "man-at-arms" not in theirs[0].text and theirs[0].data == {"family": "a", "city": "London",
                                                                      "region": "VI", "lost": 1}
    state.board_effects.append(BoardEffect("famine", "VI"))
    events = opp.rebellion(state, BOARD, Dice(battle=[3]), "b", {"in": "London"})
    theirs = [e for e in events if e.kind == "rebellion_losses" and "b" in e.audience.players]
    assert theirs and "knight" not in theirs[0].text and theirs[0].data["lost"] == 1


def test_scorched_earth_by_mail_in_the_purchase_phase():
    """3.4, R26, R97: `scorch:` at once while the Purchase phase is open; the shillings are secret."""
    state = position(["a", "b"], towns={"London": {"mills": 1, "controller": "a"}, "Oxford": {"mills": 1,
                                                                                          "controller": "b"}},
                     units={"London": {"a": {"man_at_arms": 1}}, "Oxford": {"b": {"man_at_arms": 1}}})
    state.phase = "income"
    _, errors = _england_act(state, "a", "at_once:\n  - scorch: London\n")
    assert any("while the Purchase phase is open" in e for e in errors)
    state.phase = "purchase"
    _, errors = _england_act(state, "a", "at_once:\n  - scorch: [Oxford, Atlantis]\n")
    assert any("not yours" in e for e in errors) and any("no city 'Atlantis'" in e for e in errors)
    after, events = _england_act(state, "a", "at_once:\n  - scorch: [London]\n")
    assert after["towns"]["London"]["mills"] == 0 and after["families"]["a"]["deniers"] == 12
    gain = next(e for e in events if e.kind == "scorched_earth_gain")
    assert gain.audience.players == ("a",)


def test_the_view_shows_waiting_disasters_and_used_treasures_to_everyone():
    """2.4: round 1's disasters lie face up on their Seas; 11.3: a Treasure marker lies on the
    played card. Both public; the hand and the face-down track stay hidden."""
    from pbem.games.fief_england.rules import RULES
    state = position(["a", "b"], round=1, hands={"a": ["tax"]})
    state.disasters_track = ["famine", "storms"]
    disasters.resolve_disasters(state, BOARD, None, Dice(d6=[2, 5]))
    state.disasters_track = ["plague"]
    treasure.spend_treasure(state, "a", "tax_tallage")
    view = RULES.view(state.to_json(), "b")
    assert view["disasters_waiting"] == [{"card": "famine", "region": "II"}, {"card": "storms", "region": "V"}]
    assert view["treasures_used"] == {"a": ["tax_tallage"]}
    assert "plague" not in repr(view["disasters_waiting"]) and view["disasters_track"] == 1
    assert "tax" not in repr({k: v for k, v in view.items() if k != "treasures_used"}.get("families"))


def test_rebellion_policies_by_mail():
    """R94: `join_rebellions` and `quell_rebellions` are standing orders of England's mails."""
    from pbem.games.fief_england.rules import RULES
    state = position(["a", "b"], hands={"a": ["rebellion"]})
    data = state.to_json()
    ok = RULES.check_orders(RULES.view(data, "a"), "a", load(
        "orders: []\npolicies:\n  join_rebellions: {against: [b], cards: 2}\n  quell_rebellions: pray\n"))
    assert ok.ok, ok.errors
    assert ok.orders["policies"] == {"join_rebellions": {"against": ["b"], "cards": 2}, "quell_rebellions": "pray"}
    bad = RULES.check_orders(RULES.view(data, "a"), "a",
                             load("orders: []\npolicies:\n  join_rebellions: {against: [a]}\n"))
    assert not bad.ok and "other than you" in str(bad.errors[0])


def test_a_captive_does_not_roll_for_the_plague():
    """R57 (7.6): a safe captive dies only by ASSASSINATION; their jailer's noble rolls."""
    state = position(["a", "b"], lords={"Hugh": {"family": "a", "at": "London", "captive_of": "b"},
                                        "Henri": {"family": "b", "at": "London"}})
    events = disasters._strike(state, BOARD, Dice(d6=[5]), "plague", "VI", "test")
    assert "plague_captive_spared" in kinds(events) and "Hugh" in state.lords
    assert [e.data["lord"] for e in events if e.kind == "plague_noble"] == ["Henri"]


def test_a_full_tracks_disaster_is_discarded_face_up_from_rules_version_3():
    """2.3 (l.115, Ex l.119): a disaster drawn while the track is full is discarded face up and
    the pile's top is public; a game of rules version 2 discarded it face down, and keeps so."""
    from pbem.games.fief.positions import scenario_state
    from pbem.games.fief_england.rules import RULES
    from pbem.orders.yamlsafe import load
    from test_fief_scenarios import run_step
    position = {"players": ["kirsten", "dave"], "round": 2, "phase": "cards", "disasters_track": ["famine", "storms"],
                "piles": {"events": ["tax", "invaders", "plague"]}}
    mail = {"orders": {"kirsten": "orders:\n  - draw: [events]\n", "dave": "orders: []\n"}, "dice": {"d6": [1, 2, 3]}}
    for version, top, told in ((3, "invaders", "face up: INVADERS"), (2, "face_down", "face down")):
        state = scenario_state({**position, "options": {"rules_version": version}}, "fief_england")
        view = RULES.view(state, "kirsten")
        assert RULES.check_orders(view, "kirsten", load(mail["orders"]["kirsten"])).ok
        after, _ = run_step(RULES, state, {**mail, "expect": {"events": [{"kind": "disaster_drawn", "text": told}]}},
                            mail["dice"])
        assert RULES.view(after, "dave")["piles"]["events_discard_top"] == top
        assert RULES.view(after, "kirsten")["hand"] == ["tax"]


@pytest.mark.parametrize("version, left", [(3, {"man_at_arms": 2, "bombard": 3}),
                                           (2, {"man_at_arms": 2, "bombard": 4})])
def test_an_ambushers_bombards_all_on_the_map_destroy_the_one_left_behind(version, left):
    """Ex 10-5 (l.738), R78: the Bombard left behind is replaced by the ambusher's available
    marker; with none in stock (l.30: 3 a family) it is destroyed. A game of rules version 2 took
    it over anyway (and keeps so)."""
    state = position(["kirsten", "dave"], lords={"Edward": {"family": "kirsten", "at": "Exeter"},
                                                 "William": {"family": "dave", "at": "Exeter"}},
                     units={"Exeter": {"kirsten": {"bombard": 1}, "dave": {"man_at_arms": 2, "bombard": 3}}},
                     towns={"Exeter": {"controller": "dave"}}, hands={"dave": ["ambush"]})
    state.options["rules_version"] = version
    events = opp.ambush(state, BOARD, "dave", {"card": "ambush", "on": "Edward", "by": "William"})
    assert units_in(state, "Exeter", "dave") == left and units_in(state, "Exeter", "kirsten") == {}
    taken = next(e for e in events if e.kind == "engines_taken")
    assert ("destroyed" in taken.text) == (version >= 3)


def test_the_tallage_goes_with_the_title_at_income_faq_l871():
    """FAQ (l.871), R148, rules version 3: the title kept in the family, passed to another
    family's noble, or back on the Titles Deck ("unclaimed": no tax); a Sovereign's Tallage on an
    ungoverned Region goes with the crown. A game of version 2 pays the taxing family only."""
    def played(version: int, lords: dict, lord: str, target: str = "VI"):
        state = position(["george", "dave"], lords=lords)
        state.options["rules_version"] = version
        assert fortune.play_tallage(state, BOARD, "george", lord, target)[0]
        return state

    lords = {"Henri": {"family": "george", "at": "London", "titles": ["south_east"]},
             "Hugh": {"family": "george", "at": "York"}, "Anabel": {"family": "dave", "at": "Oxford"}}
    for holder, paid in (("Hugh", "george"), ("Anabel", "dave")):
        state = played(3, lords, "Henri")
        del state.lords["Henri"]
        state.fief_titles["south_east"] = holder
        assert fortune.tallage_income(state, BOARD) == {paid: {"VI": 8}}
    state = played(3, lords, "Henri")
    state.fief_titles["south_east"] = None          # 4.8: back on the Titles Deck
    assert fortune.tallage_income(state, BOARD) == {}
    state = played(2, lords, "Henri")
    state.fief_titles["south_east"] = "Anabel"      # version 2: the taxing family only
    assert fortune.tallage_income(state, BOARD) == {}
    crown = {"Edward": {"family": "george", "at": "London", "political": "king"},
             "William": {"family": "dave", "at": "Oxford"}}
    state = played(3, crown, "Edward")
    assert fortune.tallage_income(state, BOARD) == {"george": {"VI": 8}}
    state.lords["Edward"].political, state.lords["William"].political = None, "king"   # the crown passed
    assert fortune.tallage_income(state, BOARD) == {"dave": {"VI": 8}}
    assert state.edition_state["crown_tallages"] == ["VI"]
