"""England's character cards, the Church, the retainers and the relics (E 2.12-2.14, 3.1, 3.2,
4.8, 11.1, 11.2, 12.0; rulings R3, R18, R36, R48, R49, R51-R58): each card, each error, each
ruling, and the leak tests of the relics' places and of the hands Mata swaps."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from pbem.games.fief.board import load_board
from pbem.games.fief.state import Family, FiefState, Lord, Town
from pbem.games.fief_england import card_data, hired, retainers
from pbem.games.fief_england.church import abbeys, clergy, relics
from pbem.rules.api import Event
from pbem.rules.rng import Rng

PLAYERS = ["ann", "bob", "cid"]


def board():
    return load_board("fief_england")


def district(name: str) -> int:
    found = clergy.district_named(board(), name)
    assert found is not None
    return found


def state(lords: dict | None = None, money: int = 10, **more) -> FiefState:
    """A hand-built England position: ``lords`` maps a noble to (family, female, city, extra)."""
    st = FiefState(variant="fief_england", options={}, players=list(PLAYERS), round=2, phase="cards_play",
                   families={p: Family(p, deniers=money) for p in PLAYERS},
                   towns={t: Town(t) for t in board().towns})
    for name, (family, female, city, *extra) in (lords or {}).items():
        st.lords[name] = Lord(name, family, female, city, **(extra[0] if extra else {}))
    for key, value in more.items():
        setattr(st, key, value)
    return st


LORDS = {"Godfrey": ("ann", False, "Exeter"), "Lucia": ("ann", True, "Oxford"),
         "Hugh": ("bob", False, "York"), "Alienor": ("bob", True, "York"),
         "Henri": ("cid", False, "Norwich"), "Estrid": ("cid", True, "Norwich")}


def texts(events: list[Event]) -> str:
    return " | ".join(e.text for e in events)


@pytest.fixture
def entered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A game master's entries in cards.yaml (docs/fief-england.md "Retainers"): a copy of the
    shipped file with retainers 2-6 entered, read instead of the shipped one."""
    data = yaml.safe_load((Path(__file__).parent.parent / "games/fief_england/cards.yaml").read_text())
    gm = {2: {"name": "Steward", "uses": "always", "effects": [{"effect": "income", "shillings": 2}]},
          3: {"name": "Herald", "uses": "per_round", "effects": [{"effect": "votes", "votes": 2, "in": "parliament"}]},
          4: {"name": "Guide", "uses": "per_round", "effects": [{"effect": "extra_moves", "moves": 1}]},
          5: {"name": "Physician", "uses": "once", "effects": [{"effect": "immune", "to": "plague"}]},
          6: {"name": "Chaplain", "uses": "always", "effects": [{"effect": "votes", "votes": 1}]}}
    for card in data["retainers"]["cards"]:
        if card["id"] in gm:
            card.update(gm[card["id"]], entered=True)
    folder = tmp_path / "fief_england"
    folder.mkdir()
    (folder / "cards.yaml").write_text(yaml.safe_dump(data))
    card_data.england_cards.cache_clear()
    monkeypatch.setattr(card_data, "games_dir", lambda: tmp_path)
    yield
    card_data.england_cards.cache_clear()


def link(st: FiefState, noble: str, rid: int) -> None:
    st.edition_state.setdefault("retainers", {"deck": [], "of": {}, "spent": []})["of"][noble] = rid


# -- card data ----------------------------------------------------------------------------------------

def test_the_shipped_cards_are_read() -> None:
    cards = card_data.england_cards()
    assert cards.abbeys[0] == "Abbey of the Autumn" and len(cards.abbeys) == 3
    assert cards.burghers == (3, 5) and [n for n, _ in cards.mercenaries][0].startswith("French")
    assert cards.retainers[1].name == "Mata" and cards.retainers[1].uses == "per_round"
    assert not cards.retainers[2].entered and cards.retainers[2].effects == ()


def test_an_entered_effect_outside_the_vocabulary_is_refused_naming_it() -> None:
    assert "positive whole number" in card_data.effect_problem({"effect": "income", "shillings": 0})
    assert "one of plague" in card_data.effect_problem({"effect": "immune", "to": "dragons"})
    assert "not an effect of the vocabulary" in card_data.effect_problem({"effect": "fly"})
    assert card_data.effect_problem({"effect": "votes", "votes": 2, "in": "parliament"}) is None


# -- Bishops and Archbishops (2.14, R3, R49) ------------------------------------------------------------

def test_a_bishop_card_makes_a_bishop_of_the_named_district() -> None:
    st = state(LORDS)
    events = clergy.appoint(st, board(), "ann", "bishop", "Godfrey", district("Canterbury"))
    assert not isinstance(events, str)
    assert st.lords["Godfrey"].bishopric == district("Canterbury")
    assert clergy.rank_of(st, "Godfrey") == "bishop" and clergy.cleric_votes(st, "Godfrey") == 1
    assert "Bishop of Canterbury (2.14)" in texts(events)


def test_2_14_godfrey_archbishop_of_exeter_has_two_votes() -> None:
    # 2.14 Ex (l.236): "Godfrey is appointed Archbishop of Exeter" - R3: the card gives the rank.
    st = state(LORDS)
    events = clergy.appoint(st, board(), "ann", "archbishop", "Godfrey", district("Exeter"))
    assert "Archbishop of Exeter" in texts(events)
    assert clergy.rank_of(st, "Godfrey") == "archbishop" and clergy.cleric_votes(st, "Godfrey") == 2
    assert st.edition_state["church"]["archbishops"] == ["Godfrey"]


@pytest.mark.parametrize("who, extra, why", [
    ("Lucia", {}, "nobleman only"),
    ("Godfrey", {"spouse": "Estrid"}, "he is married"),
    ("Godfrey", {"captive_of": "bob"}, "captive of bob"),
])
def test_who_may_not_be_a_cleric(who: str, extra: dict, why: str) -> None:
    st = state(LORDS)
    for key, value in extra.items():
        setattr(st.lords[who], key, value)
    assert why in clergy.appoint(st, board(), "ann", "bishop", who, district("York"))


def test_only_ones_own_family_or_an_allys_noble() -> None:
    st = state(LORDS)
    assert "is not of your family" in clergy.appoint(st, board(), "ann", "bishop", "Hugh", district("York"))
    st.lords["Lucia"].spouse, st.lords["Henri"].spouse = "Henri", "Lucia"   # ann and cid allied (9.0)
    assert not isinstance(clergy.appoint(st, board(), "ann", "bishop", "Godfrey", district("York")), str)
    st.lords["Godfrey"].bishopric = None
    assert "he is married" in clergy.appoint(st, board(), "ann", "bishop", "Henri", district("York"))
    st.lords["Hugh"].spouse = None
    assert "is not of your family" in clergy.appoint(st, board(), "ann", "bishop", "Hugh", district("York"))


def test_r49_one_cleric_a_district_and_one_title_a_noble() -> None:
    st = state(LORDS)
    clergy.appoint(st, board(), "bob", "bishop", "Hugh", district("York"))
    assert "has a cleric already, Hugh" in clergy.appoint(st, board(), "ann", "archbishop", "Godfrey",
                                                            district("York"))
    assert "Bishop already" in clergy.appoint(st, board(), "bob", "bishop", "Hugh", district("Norwich"))


def test_an_archbishop_card_replaces_a_bishops_who_keeps_his_district() -> None:
    st = state(LORDS)
    clergy.appoint(st, board(), "bob", "bishop", "Hugh", district("York"))
    assert "keeps his district" in clergy.appoint(st, board(), "bob", "archbishop", "Hugh", district("Exeter"))
    events = clergy.appoint(st, board(), "bob", "archbishop", "Hugh", district("York"))
    assert "BISHOP card is discarded" in texts(events)
    assert st.character_discard == ["bishop"] and clergy.rank_of(st, "Hugh") == "archbishop"
    assert "Archbishop already" in clergy.appoint(st, board(), "bob", "archbishop", "Hugh", district("York"))


def test_4_8_a_dead_clerics_card_is_discarded_and_the_deck_reshuffled() -> None:
    st = state(LORDS, character_pile=["Joan", "abbess", "Robert"], character_discard=["Matilda"])
    clergy.appoint(st, board(), "ann", "archbishop", "Godfrey", district("Exeter"))
    dead = st.lords.pop("Godfrey")
    events = clergy.cleric_died(st, dead)
    assert "ARCHBISHOP card is discarded" in texts(events)
    assert st.character_discard == ["Matilda", "archbishop"] and st.edition_state["church"]["archbishops"] == []
    rng = Rng("reshuffle")
    events = clergy.reshuffle_if_due(st, rng)   # R52: before the next draw, with the seeded generator
    assert "reshuffled (4.8)" in texts(events)
    assert sorted(st.character_pile) == ["Joan", "Matilda", "Robert", "abbess", "archbishop"]
    assert st.character_discard == [] and clergy.reshuffle_if_due(st, rng) == []


def test_2_8_kirstens_tithe_eleven_shillings() -> None:
    # 2.8 Ex (l.184): the Archbishop of Exeter tithes the South West's 3 mills (Dave's, with GOOD
    # WEATHER: 9) and Wales's 1 mill (George's: 2): 11 shillings; Dave and George get nothing.
    b = board()
    number = district("Exeter")
    south_west = [c for c in b.bishoprics[number].towns if b.towns[c].fief == b.towns["Exeter"].fief]
    wales = [c for c in b.bishoprics[number].towns if c not in south_west]
    mills = {c: ("dave", 1) for c in south_west} | {wales[0]: ("george", 1)}
    total, lost = clergy.tithe(b, number, mills, exempt=lambda c: False,
                               bonus=lambda c: 1 if c in south_west else 0, per_mill=2)
    assert (total, lost) == (11, {"dave": 9, "george": 2})


def test_abbeys_and_their_mills_are_not_tithed() -> None:
    b = board()
    number = district("Exeter")
    cities = b.bishoprics[number].towns
    mills = {c: ("dave", 1) for c in cities}
    total, lost = clergy.tithe(b, number, mills, exempt=lambda c: c == cities[0], bonus=lambda c: 0, per_mill=2)
    assert total == 2 * (len(cities) - 1) and lost == {"dave": total}


def test_the_tithe_is_collected_in_the_clerics_own_district_only() -> None:
    st = state(LORDS)
    clergy.appoint(st, board(), "ann", "bishop", "Godfrey", district("Norwich"))
    godfrey = st.lords["Godfrey"]
    assert clergy.tithe_rank(godfrey, str(district("Norwich")), district("Norwich"), set()) == 0
    assert clergy.tithe_rank(godfrey, str(district("York")), district("York"), set()) is None
    assert clergy.tithe_collector(st, district("Norwich")) is godfrey
    assert clergy.tithe_collector(st, district("York")) is None


# -- Abbesses and Abbeys (2.13, 3.1, R18, R53) ------------------------------------------------------------

def test_2_13_lucia_abbess_of_the_autumn() -> None:
    # 2.13 Ex (l.213): "Lucia is appointed Abbess of the Autumn".
    st = state(LORDS)
    events = abbeys.found(st, board(), "ann", "Lucia", "Oxford", "Abbey of the Autumn")
    assert "she is Abbess of Abbey of the Autumn, an Abbey founded in Oxford (2.13)" in texts(events)
    assert abbeys.abbey_in(st, "Oxford") == "Abbey of the Autumn" and abbeys.is_abbess(st, "Lucia")
    assert st.edition_state["abbeys"]["Oxford"] == {"abbey": "Abbey of the Autumn", "abbess": "Lucia", "royal": False}
    # 2.13: "An Abbess can manage several Abbeys" - the next free tile by default.
    abbeys.found(st, board(), "ann", "Lucia", "Bristol")
    assert abbeys.abbeys_of(st, "Lucia") == ["Abbey of the Autumn", "Abbey of the Spring"]


@pytest.mark.parametrize("noble, city, setup, why", [
    ("Godfrey", "Oxford", {}, "noblewoman only"),
    ("Lucia", "Oxford", {"spouse": "Henri"}, "she is married"),
    ("Alienor", "Oxford", {}, "is not of your family"),
    ("Lucia", "Exeter", {"fortress": "stronghold"}, "has a Stronghold already"),
    ("Lucia", "Exeter", {"fortress": "city"}, "has a Fortified City already"),
    ("Lucia", "York", {"controller": "bob"}, "controlled by bob"),
])
def test_where_and_on_whom_an_abbey_may_not_be_founded(noble: str, city: str, setup: dict, why: str) -> None:
    st = state(LORDS)
    if "spouse" in setup:
        st.lords[noble].spouse = setup["spouse"]
    if "fortress" in setup:
        st.towns[city].fortress = setup["fortress"]
    if "controller" in setup:
        st.towns[city].controller = setup["controller"]
    assert why in abbeys.found(st, board(), "ann", noble, city)


def test_one_building_a_city_and_three_abbey_tiles() -> None:
    st = state(LORDS)
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    assert "has an Abbey already" in abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    abbeys.found(st, board(), "ann", "Lucia", "Bristol")
    abbeys.found(st, board(), "ann", "Lucia", "Plymouth")
    assert "every Abbey tile is in play" in abbeys.found(st, board(), "ann", "Lucia", "London")


def test_a_royal_familys_abbess_founds_the_royal_abbey() -> None:
    st = state(LORDS)
    st.lords["Lucia"].political = "sovereign_queen"
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    assert st.edition_state["abbeys"]["Oxford"]["royal"] is True


def test_r53_the_abbey_protects_every_noble_in_its_city_from_rebellion_plague_justice() -> None:
    st = state(LORDS)
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    st.lords["Hugh"].location = "Oxford"
    for danger in ("rebellion", "plague", "justice"):
        assert abbeys.protected(st, "Lucia", danger) and abbeys.protected(st, "Hugh", danger)
    assert not abbeys.protected(st, "Lucia", "assassination")
    assert not abbeys.protected(st, "Godfrey", "plague")


def test_3_1_abbey_income_r18() -> None:
    st = state(LORDS)
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    st.lords["Hugh"].location = "Oxford"        # a Lord visiting: 2
    st.lords["Hugh"].fief_titles = ["iv"]
    st.lords["Henri"].location = "Oxford"       # the King visiting: 3, once (R18)
    st.lords["Henri"].political, st.lords["Henri"].fief_titles = "king", ["v"]
    st.lords["Estrid"].location = "Oxford"      # a noble without title: nothing
    income = abbeys.abbey_income(st, board(), bonus=lambda c: 1, relics_at=lambda c: 2, excalibur_at="Oxford")
    parts = dict(income["ann"])
    assert parts["Abbey of the Autumn"] == 3                      # 2 (3.0) + 1 fortune bonus (2.7, R9)
    assert parts["Lucia visiting (Abbey of the Autumn)"] == 2    # the Abbess herself
    assert parts["Hugh visiting (Abbey of the Autumn)"] == 2
    assert parts["Henri visiting, royal (Abbey of the Autumn)"] == 3
    assert parts["2 relic(s) (Abbey of the Autumn)"] == 6 and parts["Excalibur (Abbey of the Autumn)"] == 3
    assert not any("Estrid" in what for what in parts) and list(income) == ["ann"]


def test_a_besieged_abbey_earns_nothing_and_a_dead_abbesss_goes_to_the_controller() -> None:
    st = state(LORDS)
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    st.towns["Oxford"].besiegers = {"bob": 1}
    assert abbeys.abbey_income(st, board(), lambda c: 0, lambda c: 0, None) == {}
    st.towns["Oxford"].besiegers = {}
    st.towns["Oxford"].controller = "cid"
    events = abbeys.abbess_died(st, st.lords.pop("Lucia"))
    assert "ABBESS card is discarded, the Abbey stays" in texts(events)
    assert st.character_discard == ["abbess"] and st.edition_state["church"]["reshuffle"] is True
    assert list(abbeys.abbey_income(st, board(), lambda c: 0, lambda c: 0, None)) == ["cid"]


def test_the_abbey_mill_bonus_and_its_receiver() -> None:
    st = state(LORDS)
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    b = board()
    near = b.neighbours("Oxford")[0]
    far = next(c for c in b.towns if c != "Oxford" and not b.adjacent(c, "Oxford"))
    assert abbeys.mill_bonus(st, b, "Oxford") == 1 and abbeys.mill_bonus(st, b, near) == 1
    assert abbeys.mill_bonus(st, b, far) == 0
    assert abbeys.mill_receiver(st, b, "Oxford", "bob") == "ann"   # R18: the Abbess takes the city's mill
    assert abbeys.mill_receiver(st, b, near, "bob") == "bob"
    assert abbeys.tithe_exempt(st, "Oxford") and not abbeys.tithe_exempt(st, near)


def test_a_destroyed_abbey_is_rebuilt_free_in_the_next_purchase_phase() -> None:
    st = state(LORDS)
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    st.phase = "battle"
    events = abbeys.destroy(st, "Oxford", "pillaged")
    assert "may rebuild it in the next Purchase phase" in texts(events)
    assert abbeys.abbey_in(st, "Oxford") is None and abbeys.is_abbess(st, "Lucia")
    st.phase = "purchase"
    assert "only in the Purchase phase after" in abbeys.rebuild(st, "ann", "Abbey of the Autumn", "London")
    st.round = 3
    assert "not a noble of your family" in abbeys.rebuild(st, "bob", "Abbey of the Autumn", "London")
    st.towns["London"].fortress = "stronghold"
    assert "has a Stronghold already" in abbeys.rebuild(st, "ann", "Abbey of the Autumn", "London")
    events = abbeys.rebuild(st, "ann", "Abbey of the Autumn", "York")   # any city (2.13)
    assert "rebuilds Abbey of the Autumn in York, free of charge" in texts(events)
    assert st.families["ann"].deniers == 10 and abbeys.abbey_in(st, "York") == "Abbey of the Autumn"


# -- Retainers (2.12, R48, R51) ---------------------------------------------------------------------------

def test_each_new_noble_draws_a_retainer_linked_to_them() -> None:
    st = state(LORDS)
    retainers.shuffle_deck(st, Rng("deck"))
    assert sorted(st.edition_state["retainers"]["deck"]) == list(range(1, 24))
    events = retainers.draw_for(st, "Godfrey")
    rid = st.edition_state["retainers"]["of"]["Godfrey"]
    assert retainers.retainer_of(st, "Godfrey").id == rid and retainers.deck_size(st) == 22
    assert events[0].audience.sees("bob")   # face up beside the noble (l.202): public
    assert retainers.draw_for(st, "Godfrey") == []   # 2.12: a noble has one


def test_r48_an_empty_deck_gives_none_and_a_dead_nobles_retainer_leaves_the_game() -> None:
    st = state(LORDS)
    link(st, "Godfrey", 1)
    assert "Retainer Deck is empty" in texts(retainers.draw_for(st, "Hugh"))
    assert "Mata is removed from the game" in texts(retainers.remove_with(st, "Godfrey"))
    assert st.edition_state["retainers"] == {"deck": [], "of": {}, "spent": []}


def test_an_unentered_retainer_does_nothing() -> None:
    st = state(LORDS)
    link(st, "Godfrey", 2)
    assert retainers.ability(st, "Godfrey", "income") == [] and retainers.income_bonus(st, "ann") == (0, [])
    assert "ability not entered" in retainers.describe(retainers.retainer_of(st, "Godfrey"))


def test_given_exchanged_or_sold_in_the_cards_phase() -> None:
    st = state(LORDS)
    link(st, "Godfrey", 1)
    link(st, "Hugh", 7)
    assert "already has the retainer" in retainers.transfer(st, "Godfrey", "Hugh")
    assert "has no retainer" in retainers.transfer(st, "Lucia", "Estrid")
    events = retainers.transfer(st, "Godfrey", "Hugh", swap=True)
    assert "exchange their retainers" in texts(events)
    assert retainers.linked(st) == {"Hugh": 1, "Godfrey": 7}
    events = retainers.transfer(st, "Hugh", "Estrid", price=3)   # sold: cid pays bob 3
    assert st.families["cid"].deniers == 7 and st.families["bob"].deniers == 13
    sold = next(e for e in events if e.kind == "retainer_sold")
    assert sold.audience.sees("bob") and sold.audience.sees("cid") and not sold.audience.sees("ann")


def test_another_familys_noble_accepts_an_offer_first() -> None:
    st = state(LORDS)
    link(st, "Godfrey", 1)
    events = retainers.offer(st, "ann", "Godfrey", "Hugh", swap=False, price=2)
    assert not events[0].audience.sees("cid") and retainers.linked(st) == {"Godfrey": 1}
    assert retainers.offers_view(st, "cid") == [] and len(retainers.offers_view(st, "bob")) == 1
    assert "no retainer offer" in retainers.accept(st, "cid", "Godfrey")
    retainers.accept(st, "bob", "Godfrey")
    assert retainers.linked(st) == {"Hugh": 1} and st.families["ann"].deniers == 12


def test_spent_until_the_end_of_round_or_used_once(entered) -> None:
    st = state(LORDS)
    link(st, "Godfrey", 4)   # Guide: per_round, 1 extra move
    link(st, "Hugh", 5)      # Physician: once, immune to plague
    assert retainers.extra_moves(st, "Godfrey") == 1
    assert "Spent" in texts(retainers.use(st, "Godfrey"))
    assert retainers.extra_moves(st, "Godfrey") == 0 and retainers.is_spent(st, "Godfrey")
    assert "turned face up (8.0)" in texts(retainers.end_of_round(st))
    assert retainers.extra_moves(st, "Godfrey") == 1
    assert retainers.immune(st, "Hugh", "plague") and not retainers.immune(st, "Hugh", "rebellion")
    assert "used and removed from the game" in texts(retainers.use(st, "Hugh"))
    assert retainers.retainer_of(st, "Hugh") is None


def test_a_game_masters_income_and_votes_entries_apply(entered) -> None:
    st = state(LORDS)
    link(st, "Godfrey", 2)   # Steward: always, +2 shillings
    link(st, "Lucia", 3)     # Herald: per_round, +2 votes in parliament
    link(st, "Hugh", 6)      # Chaplain: always, +1 vote in both
    assert retainers.income_bonus(st, "ann") == (2, [])
    assert retainers.vote_bonus(st, "ann", "parliament") == 2 and retainers.vote_bonus(st, "ann", "election") == 0
    assert retainers.vote_bonus(st, "bob", "election") == 1
    assert "Herald is Spent" in texts(retainers.use_votes(st, "ann", "parliament"))
    assert retainers.vote_bonus(st, "ann", "parliament") == 0
    st.lords["Hugh"].captive_of = "cid"   # 9.1: a captive's votes do not count
    assert retainers.vote_bonus(st, "bob", "election") == 0


def test_2_12_mata_swaps_a_chosen_card_for_a_random_one() -> None:
    # 2.12 Ex (l.204): "Once per Round, you may exchange a Card of your choice from your Hand with a
    # randomly drawn Card from another Player's Hand."
    st = state(LORDS)
    link(st, "Alienor", 1)
    st.families["bob"].hand = ["tax"]
    st.families["cid"].hand = ["justice", "passage"]
    events = retainers.swap_hand_card(st, "bob", "Alienor", "tax", "cid", Rng("mata"))
    took = next(e for e in events if e.audience.sees("bob") and not e.audience.sees("cid")).data["took"]
    assert took in ("justice", "passage") and st.families["bob"].hand == [took]
    assert sorted(st.families["cid"].hand) == sorted(["tax", *({"justice", "passage"} - {took})])
    public = [e for e in events if e.audience.sees("ann")]
    assert public and not any(c in json.dumps([e.text for e in public] + [e.data for e in public])
                              for c in ("tax", "justice", "passage"))   # the cards are the two players' secret
    assert "Spent until the End of Round" in retainers.swap_hand_card(st, "bob", "Alienor", took, "cid", Rng("x"))


def test_mata_errors() -> None:
    st = state(LORDS)
    link(st, "Alienor", 1)
    link(st, "Lucia", 2)
    st.families["bob"].hand = ["tax"]
    assert "not a noble of your family" in retainers.swap_problem(st, "ann", "Alienor", "tax", "cid")
    assert "cannot exchange cards" in retainers.swap_problem(st, "ann", "Lucia", "tax", "cid")
    assert "you hold no 'ambush' card" in retainers.swap_problem(st, "bob", "Alienor", "ambush", "cid")
    assert "cid holds no card" in retainers.swap_problem(st, "bob", "Alienor", "tax", "cid")
    assert "not another player" in retainers.swap_problem(st, "bob", "Alienor", "tax", "bob")


# -- MERCENARY CROSSBOWMEN and BURGHER (11.1, 11.2, R58) -----------------------------------------------------

def test_11_1_crossbowmen_hired_at_two_shillings_and_back_on_the_card_at_round_end() -> None:
    st = state(LORDS)
    events = hired.place(st, "ann", "mercenary")
    assert "French Mercenary Crossbowmen" in texts(events) and hired.available(st, "ann") == 3
    assert "only 3 crossbowmen" in hired.hire(st, "ann", 4, "Oxford")
    events = hired.hire(st, "ann", 2, "Oxford")
    assert "hires 2 mercenary crossbowmen into Oxford" in texts(events)
    assert "shilling" not in texts(events)   # what was paid is the hirer's secret (FAQ l.857)
    assert st.families["ann"].deniers == 6 and hired.available(st, "ann") == 1
    crossbowmen = [p for p in st.pawns.values() if p.kind == "crossbowman"]
    assert len(crossbowmen) == 2 and {p.location for p in crossbowmen} == {"Oxford"}
    del st.pawns[crossbowmen[0].id]          # one defeated in battle: to the stockpile
    events = hired.end_of_round(st)
    assert "1 of ann's crossbowmen return" in texts(events) and hired.available(st, "ann") == 2
    assert not any(p.kind == "crossbowman" for p in st.pawns.values())


def test_a_mercenary_card_whose_three_fall_is_discarded_and_money_limits_hiring() -> None:
    st = state(LORDS, money=5)
    hired.place(st, "ann", "mercenary")
    assert "cost 6 shillings" in hired.hire(st, "ann", 3, "Oxford")
    st.families["ann"].deniers = 6
    hired.hire(st, "ann", 3, "Oxford")
    st.pawns.clear()
    events = hired.end_of_round(st)
    assert "card is discarded" in texts(events) and hired.card_on(st, "ann") is None
    assert st.character_discard == ["mercenary"]


def test_r41_hiring_in_the_middle_of_a_battle_for_the_battle_rules() -> None:
    st = state(LORDS, money=3)
    hired.place(st, "ann", "mercenary")
    events = hired.hire_in_battle(st, "ann", 3, "Oxford")   # the plan wants 3; 3 shillings pay for 1
    assert events[0].data["count"] == 1 and st.families["ann"].deniers == 1
    assert hired.hire_in_battle(st, "bob", 2, "York") == []   # no card: nothing


def test_11_2_a_burgher_needs_a_titled_lord_and_adds_its_votes() -> None:
    st = state(LORDS)
    assert "titled Lord" in hired.place(st, "bob", "burgher")
    st.lords["Hugh"].fief_titles = ["iv"]
    hired.place(st, "bob", "burgher")
    assert hired.burgher_votes(st, "bob") == 3 and hired.card_on(st, "bob") == "burgher_1"   # R58
    st.lords["Henri"].fief_titles = ["v"]
    hired.place(st, "cid", "burgher")
    assert hired.burgher_votes(st, "cid") == 5
    st.lords["Godfrey"].fief_titles = ["i"]
    assert "both BURGHER cards" in hired.place(st, "ann", "burgher")
    st.lords["Hugh"].fief_titles = []   # 11.2: "and remain in play"
    assert "no titled Lord" in texts(hired.burghers_check(st)) and hired.burgher_votes(st, "bob") == 0


def test_a_new_card_replaces_the_one_on_the_space() -> None:
    st = state(LORDS)
    st.lords["Godfrey"].fief_titles = ["i"]
    hired.place(st, "ann", "mercenary")
    hired.hire(st, "ann", 1, "Exeter")
    events = hired.place(st, "ann", "burgher")
    assert "discarded (replaced)" in texts(events) and hired.card_on(st, "ann") == "burgher_1"
    assert not st.pawns and st.character_discard == ["mercenary"]


# -- Relics (12.0-12.4, R10, R36, R55, R56) -------------------------------------------------------------------

def placed(lords: dict | None = None, seed: str = "relics") -> FiefState:
    st = state(lords or LORDS)
    relics.place_at_setup(st, board(), Rng(seed))
    return st


def relic_at(st: FiefState, city: str) -> str:
    return next(r for r, i in st.edition_state["relics"]["relics"].items() if i["city"] == city)


def test_r36_one_relic_face_down_on_each_cathedral_city_at_random() -> None:
    cathedrals = sorted(b.chief_town for b in board().bishoprics.values())
    layouts = set()
    for seed in ("a", "b", "c", "d", "e", "f"):
        st = placed(seed=seed)
        where = {r: i["city"] for r, i in st.edition_state["relics"]["relics"].items()}
        assert sorted(where.values()) == cathedrals and sorted(where) == sorted(card_data.england_cards().relics)
        assert not any(i["face_up"] for i in st.edition_state["relics"]["relics"].values())
        layouts.add(tuple(sorted(where.items())))
    assert len(layouts) > 1   # the seeded generator decides


def test_r36_leak_which_relic_lies_where_is_in_no_view_nor_event() -> None:
    st = placed()
    events = relics.place_at_setup(st, board(), Rng("relics"))
    seen = json.dumps(relics.relics_view(st)) + json.dumps([e.text for e in events] + [e.data for e in events])
    for relic_id, relic_name in card_data.england_cards().relics.items():
        assert relic_id not in seen and relic_name not in seen
    assert relics.relics_view(st)["face_down_in"] == sorted(b.chief_town for b in board().bishoprics.values())


def test_12_0_a_bishop_reveals_his_own_cathedrals_relic_only() -> None:
    st = placed()
    clergy.appoint(st, board(), "ann", "bishop", "Godfrey", district("Norwich"))
    st.lords["Godfrey"].location = "York"
    assert relics.discover(st, board(), "Godfrey") == []           # not his district's cathedral
    st.lords["Godfrey"].location = "Norwich"
    relic = relic_at(st, "Norwich")
    events = relics.discover(st, board(), "Godfrey")
    assert relics.name(relic) in texts(events) and relics.held_by(st, "Godfrey") == [relic]
    assert relics.relics_view(st)["face_up"][relics.name(relic)] == {"carried_by": "Godfrey", "lies_in": None}
    assert "Norwich" not in relics.relics_view(st)["face_down_in"]


def test_12_0_an_abbess_reveals_in_any_cathedral_city_and_a_plain_noble_never() -> None:
    st = placed()
    st.lords["Estrid"].location = "York"
    assert relics.discover_all(st, board()) == []
    abbeys.found(st, board(), "cid", "Estrid", "Norwich")
    st.lords["Estrid"].location = "York"
    relic = relic_at(st, "York")
    assert "reveals the relic of York" in texts(relics.discover_all(st, board()))
    assert relics.held_by(st, "Estrid") == [relic]


def test_relics_move_with_their_noble_are_given_left_and_picked_up() -> None:
    st = placed()
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    st.lords["Lucia"].location = "York"
    relic = relic_at(st, "York")
    relics.discover(st, board(), "Lucia")
    st.lords["Lucia"].location = "Oxford"
    assert relics.where(st, relic) == "Oxford" and relics.present_in(st, "Oxford") == 1
    assert "is not in Oxford" in relics.give(st, "ann", relic, "Lucia", "Hugh")
    assert "does not carry" in relics.give(st, "bob", relic, "Hugh", "Lucia")
    relics.leave(st, "ann", relic, "Lucia")       # left in her Abbey: 3 a round (3.1)
    assert relics.holder_of(st, relic) is None and relics.present_in(st, "Oxford") == 1
    st.lords["Hugh"].location = "Oxford"
    assert "picks up" in texts(relics.pick_up(st, "bob", relic, "Hugh"))
    assert "does not lie face up" in relics.pick_up(st, "ann", relic, "Lucia")


def test_the_first_relic_given_to_the_sovereign_earns_the_relic_marker() -> None:
    st = placed()
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    st.lords["Lucia"].location = "York"
    relics.discover(st, board(), "Lucia")
    st.lords["Henri"].location, st.lords["Henri"].political = "York", "king"
    relic = relics.held_by(st, "Lucia")[0]
    events = relics.give(st, "ann", relic, "Lucia", "Henri")
    assert "Relic marker (1 VP) is theirs" in texts(events)
    assert relics.relic_vp(st, "ann") == 1 and relics.relic_vp(st, "cid") == 0
    assert st.edition_state["relics"]["vp_marker"] == "ann"   # what England's victory count reads


def test_a_lost_holders_relic_lies_where_they_fell_and_invaders_remove_relics() -> None:
    st = placed()
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    st.lords["Lucia"].location = "York"
    relics.discover(st, board(), "Lucia")
    relic = relics.held_by(st, "Lucia")[0]
    assert "lies in York" in texts(relics.holder_lost(st, "Lucia", "York"))
    assert relics.held_by(st, "Lucia") == [] and relics.where(st, relic) == "York"
    hidden = relic_at(st, "Norwich")
    events = relics.invaders_take(st, "Norwich")   # R10: revealed and removed
    assert relics.name(hidden) in texts(events) and hidden not in st.edition_state["relics"]["relics"]


def test_a_pillaged_abbeys_relics_go_to_the_pillager() -> None:
    st = placed()
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    st.lords["Lucia"].location = "York"
    relics.discover(st, board(), "Lucia")
    relic = relics.held_by(st, "Lucia")[0]
    st.lords["Lucia"].location = "Oxford"
    relics.leave(st, "ann", relic, "Lucia")
    assert "takes" in texts(relics.pillaged(st, "Oxford", "Hugh")) and relics.held_by(st, "Hugh") == [relic]


# -- death (4.8) and pillage (7.10) ------------------------------------------------------------------

def test_4_8_a_dead_noble_takes_retainer_title_and_heresy_with_them() -> None:
    from pbem.games.fief_england.church.death import church_after_death
    st = placed()
    link(st, "Lucia", 1)
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    st.lords["Lucia"].location = "York"
    relics.discover(st, board(), "Lucia")
    relic = relics.held_by(st, "Lucia")[0]
    st.edition_state["heresy"] = "Lucia"
    events = church_after_death(st, st.lords.pop("Lucia"))
    assert {"retainer_removed", "abbess_title_discarded", "relic_dropped"} <= {e.kind for e in events}
    assert relics.where(st, relic) == "York" and "heresy" not in st.edition_state
    assert abbeys.abbey_in(st, "Oxford") == "Abbey of the Autumn"   # "An associated Abbey ... remains"


def test_7_10_pillaging_an_abbey() -> None:
    from pbem.games.fief_england.church.pillage import pillage_abbey
    st = placed()
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    assert "not in Oxford" in pillage_abbey(st, "bob", "Hugh", "Oxford")
    st.lords["Hugh"].location = "Oxford"
    st.lords["Godfrey"].location = "York"
    assert "no Abbey stands in York" in pillage_abbey(st, "ann", "Godfrey", "York")
    st.edition_state["heresy"] = "Henri"
    events = pillage_abbey(st, "bob", "Hugh", "Oxford")
    assert abbeys.abbey_in(st, "Oxford") is None and st.families["bob"].deniers == 20
    assert st.edition_state["heresy"] == "Hugh" and "taken from Henri" in texts(events)
    money = next(e for e in events if e.kind == "pillage_shillings")
    assert money.audience.sees("bob") and not money.audience.sees("ann")   # shillings are secret
