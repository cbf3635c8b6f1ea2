"""Fief: England on the Fief core (issue 11, the foundation): its edition record read by the core
with England's own keys declared and checked by its hooks, its board and cards read by its own
loaders into the core's Board and CardSet and held to the rulebook's facts, the registry line, and
the hooks of titles, tiebreak and a dead noble's card."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from pbem.games import rules_for
from pbem.games.fief.board import BoardError, load_board
from pbem.games.fief.cards.deck import CardError, load_cards
from pbem.games.fief.edition import EditionError, load_edition, load_edition_file
from pbem.games.fief.hear_ye.elimination import eliminate_lord
from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief_england.board_loader import EnglandBoard, load_england_board
from pbem.games.fief_england.cards import load_england_cards
from pbem.games.fief_england.facts import ENGLAND
from pbem.games.fief_england.hooks import tiebreak, title_points, family_points
from pbem.paths import games_dir

FOLDER = games_dir() / "fief_england"
RAW = yaml.safe_load((FOLDER / "edition.yaml").read_text(encoding="utf-8"))
BOARD = yaml.safe_load((FOLDER / "board.yaml").read_text(encoding="utf-8"))
CARDS = yaml.safe_load((FOLDER / "cards.yaml").read_text(encoding="utf-8"))


# -- the edition record ----------------------------------------------------------------------------
def test_the_core_reads_englands_numbers() -> None:
    e = load_edition("fief_england")
    assert (e.min_players, e.max_players, e.families_of(2), e.families_of(3)) == (2, 4, 2, 1)   # 13.7
    assert (e.starting_money, e.money_public, e.money_unit) == (5, False, "shilling")            # l.30, FAQ
    assert e.units["trebuchet"].price == 5 and e.units["bombard"].price == 3                     # 4.0
    assert e.unit_text("trebuchet", 2) == "2 trebuchets" and e.unit_text("man_at_arms", 1) == "1 man-at-arms"
    assert (e.mills_per_town, e.buildings_per_town, e.lords_per_family) == (1, 1, 3)             # 4.2, 2.2
    assert (e.hand_limit, e.draws, e.character_draws) == (3, 2, 1)                              # 2.0
    assert e.two_player_cards == {"hand_limit": 5, "draws": 4, "character_draws": 2}            # 13.7
    assert (e.deck.characters, e.deck.lords, e.deck.retainers) == (31, 20, 23)
    assert e.deck.other_characters == {"abbess": 3, "bishop": 2, "archbishop": 2, "mercenary": 2, "burgher": 2}
    assert (e.victory.from_round, e.victory.last_round, e.victory.marriage_players) == (5, 7, (2, 4))
    assert not e.may_marry(3) and e.may_marry(4)                                                 # 13.8
    assert e.captive_markers is None and e.diplomacy_pawns == 0 and "cardinal_title" not in e.prices
    assert e.always_fog_of_war and e.fog({})                                                     # 4.1
    assert "invaders" in e.round


def test_englands_own_keys_are_kept_checked_for_its_modules() -> None:
    extra = load_edition("fief_england").extra
    assert extra["invaders"]["danegeld"] == 5 and extra["invaders"]["church_intervention_leaves"] == [1, 2, 3]
    assert extra["dice"]["battle_dice_by_strength"] == {1: 1, 7: 2, 13: 3}
    assert extra["supply.abbeys"] == 3 and extra["prices.royal_tax"] == 12
    assert extra["start.nobles_set_aside"] == {"male": 3, "female": 3}
    assert extra["victory.tiebreak"] == ["garter", "sovereign", "duke", "count", "baron"]
    # France declares none: its record has none.
    assert load_edition("fief_france").extra == {}


def broken(tmp_path: Path, change, *expected: str) -> str:
    data = copy.deepcopy(RAW)
    change(data)
    path = tmp_path / "edition.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(EditionError) as err:
        load_edition_file(path, "fief_england")
    text = str(err.value)
    assert str(path) in text
    for part in expected:
        assert part in text, text
    return text


def test_an_own_key_of_the_wrong_shape_is_refused(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["invaders"].update(danegeld="five"), "`invaders.danegeld`",
           "must be a whole number, not the text 'five'")
    broken(tmp_path, lambda d: d["dice"].update(plague_death=3), "`dice.plague_death`", "must be a list")
    broken(tmp_path, lambda d: d["invaders"].pop("moves"), "`invaders.moves`", "missing")
    broken(tmp_path, lambda d: d["victory"].update(tiebreak=["garter", "dukes"]), "`victory.tiebreak`",
           "'dukes' is not one of garter, sovereign, duke, count, baron", "did you mean `duke`?")


def test_a_key_neither_the_core_nor_the_hooks_know_is_refused(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["supply"].update(abbbeys=3), "`supply.abbbeys`", "unknown key",
           "did you mean `abbeys`?")
    broken(tmp_path, lambda d: d.update(dragons={"count": 1}), "`dragons`", "unknown key")


def test_france_refuses_englands_keys(tmp_path: Path) -> None:
    """The same key France's hooks do not declare is refused there."""
    data = yaml.safe_load((games_dir() / "fief_france" / "edition.yaml").read_text(encoding="utf-8"))
    data["supply"]["abbeys"] = 3
    path = tmp_path / "edition.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(EditionError, match="`supply.abbeys`: unknown key"):
        load_edition_file(path, "fief_france")


def test_families_per_player_names_every_count(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["players"]["families_per_player"].pop(4), "`players.families_per_player`",
           "every player count")


def test_a_unit_needs_its_words(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["units"]["trebuchet"].pop("plural"), "`units.trebuchet.plural`", "missing")
    broken(tmp_path, lambda d: d["units"]["trebuchet"].update(letter="K"), "`units`", "share a map letter")


# -- the board -------------------------------------------------------------------------------------
def test_the_regions_are_the_fiefs_and_the_districts_the_bishoprics() -> None:
    board = EnglandBoard.of(load_board("fief_england"))
    assert len(board.towns) == 18 and len(board.fiefs) == 6
    assert board.fiefs["marches"].towns == ("Berwick", "Durham") and board.fiefs["marches"].rank == "barony"
    assert board.fiefs["marches"].title_price == 4                                   # 4.3 example (l.311)
    assert {f.rank for f in board.fiefs.values()} == {"barony", "county", "duchy"}
    assert board.bishoprics[2].chief_town == "York"
    assert set(board.bishoprics[2].towns) == set(board.fiefs["marches"].towns + board.fiefs["north"].towns)
    assert board.harbors == ("Plymouth", "Cardiff", "Berwick", "Whitby", "King's Lynn", "London")
    assert board.seas == tuple(f"Sea {n}" for n in ("I", "II", "III", "IV", "V", "VI"))
    assert board.road_towards("King's Lynn", "N") == "Lincoln" and board.road_towards("King's Lynn", "S") is None
    assert board.regions["III"] == "marches" and board.sea_of["marches"] == "Sea III"
    assert board.relic_cities == ("Exeter", "York", "Norwich", "Canterbury")
    assert board.to_json()["seas"]["Sea III"] == {"region": "marches", "touches": ["Sea II", "Sea IV"]}


@pytest.mark.parametrize("break_it, expected", [
    (lambda b: next(c for c in b["cities"] if c["name"] == "Durham").update(region="IV"),
     "has 1 cities"),
    (lambda b: b["roads"].remove(next(r for r in b["roads"] if r["between"] == ["Oxford", "London"])),
     "the road Oxford - London is missing"),
    (lambda b: next(r for r in b["roads"] if r["between"] == ["King's Lynn", "Lincoln"])["directions"].update(
        {"Lincoln": "N"}), "opposite compass points"),
    (lambda b: b["sea_adjacency"].pop(0), "Sea II and Sea III must touch"),
    (lambda b: next(c for c in b["cities"] if c["name"] == "Whitby").update(port=False), "harbor towns"),
])
def test_a_board_that_breaks_a_fact_is_refused(break_it, expected: str) -> None:
    data = copy.deepcopy(BOARD)
    break_it(data)
    with pytest.raises(BoardError, match=expected):
        load_england_board(data, "board.yaml", ENGLAND, "fief_england")


def test_the_cards_are_read_and_counted() -> None:
    cards = load_cards("fief_england")
    assert len(cards.lords) == 20 and sum(c.female for c in cards.lords.values()) == 10
    assert cards.disaster == {"plague": 2, "storms": 2, "famine": 2, "invaders": 3}
    assert len(cards.event_cards()) == 25 and len(cards.character_cards()) == 31
    data = copy.deepcopy(CARDS)
    data["character_deck"]["burgher"].pop()
    with pytest.raises(CardError, match="deck.other_characters"):
        load_england_cards(data, "cards.yaml", "fief_england")


# -- registered ------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [["ann", "bob", "cat"], ["ann", "bob", "cat", "dan"]])
def test_registered_set_up_and_asking_for_its_first_phase(players) -> None:
    from pbem.rules.rng import Rng
    rules = rules_for("fief_england")
    state = rules.setup({}, players, Rng("seed"))
    phase = rules.phase(state)
    assert phase.id == "setup/starting-towns" and set(phase.deciders) == set(players)
    template = rules.order_template(rules.view(state, "ann"), "ann")
    assert "VI Duchy of the South East: London, Canterbury, Oxford, Winchester" in template


# -- the hooks of titles -----------------------------------------------------------------------------
def england_state(**lords: dict) -> FiefState:
    state = FiefState(variant="fief_england", options={}, players=["ann", "bob", "cat"])
    for name, fields in lords.items():
        state.lords[name] = Lord(name=name, location="York", **fields)
    return state


def test_the_sovereign_is_worth_no_vp_and_the_relic_marker_one() -> None:
    """8.1, FAQ (l.865), R2; 12.0: the Relic VP marker is its family's."""
    state = england_state(Henri={"family": "ann", "female": False, "political": "king", "fief_titles": ["wales"]})
    assert title_points(state, state.lords["Henri"]) == 0
    state.edition_state["relics"] = {"vp_marker": "bob"}
    assert (family_points(state, "bob"), family_points(state, "ann")) == (1, 0)


def test_ex_8_2_the_garter_beats_the_king() -> None:
    """8.5, Ex 8-2, R44: Garter > Sovereign > Duchies > Counties > Baronies."""
    state = england_state(
        A={"family": "ann", "female": False, "fief_titles": ["midlands", "north"]},
        B={"family": "bob", "female": False, "political": "king", "fief_titles": ["south_west"]},
        B2={"family": "bob", "female": True, "fief_titles": ["wales"]},
        C={"family": "cat", "female": False, "fief_titles": ["south_east"]})
    state.edition_state["garter"] = ["A"]
    keys = {p: tiebreak(state, (p,), {}) for p in state.players}
    assert sorted(state.players, key=keys.get, reverse=True) == ["ann", "bob", "cat"]


def test_a_dead_nobles_card_leaves_the_game() -> None:
    """4.8, FAQ: the card is removed from the game, not discarded."""
    board = load_board("fief_england")
    state = england_state(Edward={"family": "ann", "female": False})
    eliminate_lord(state, board, "Edward")
    assert "Edward" not in state.character_discard
    assert state.edition_state["setup"]["out_of_game"] == ["Edward"]
