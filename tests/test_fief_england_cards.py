"""England's character cards, the Church, the retainers and the relics (E 2.12-2.14, 3.1, 3.2,
4.8, 11.1, 11.2, 12.0; rulings R3, R18, R36, R48, R49, R70-R80): each card, each error, each
ruling, and the leak tests of the relics' places and of the hands Mata swaps."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from pbem.games.fief.board import load_board
from pbem.games.fief.state import Family, FiefState, Lord, Town
from pbem.games.fief_england import card_data, hired, retainers
from pbem.games.fief_england.elections import ELECTIONS
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
          6: {"name": "Chaplain", "uses": "always", "effects": [{"effect": "votes", "votes": 1}]},
          7: {"name": "Envoy", "uses": "per_round", "effects": [{"effect": "votes", "votes": 1, "in": "election"}]},
          8: {"name": "Bodyguard", "uses": "always", "effects": [{"effect": "immune", "to": "rebellion"}]}}
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
    events = clergy.reshuffle_if_due(st, rng)   # R71: before the next draw, with the seeded generator
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


# -- Abbesses and Abbeys (2.13, 3.1, R18, R72) ------------------------------------------------------------

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
    st.lords["Hugh"].fief_titles = ["north"]
    st.lords["Henri"].location = "Oxford"       # the King visiting: 3, once (R18)
    st.lords["Henri"].political, st.lords["Henri"].fief_titles = "king", ["midlands"]
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


# -- Retainers (2.12, R48, R70) ---------------------------------------------------------------------------

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
    assert retainers.describe(retainers.retainer_of(st, "Godfrey")) == \
        "Retainer 2 (no ability in this game: its card's text is not known)"


def test_a_retainer_is_described_in_words_not_ids() -> None:
    """2.12 (l.204): Mata's ability, in its card data's words, and how often it is used."""
    st = state(LORDS)
    link(st, "Godfrey", 1)
    assert retainers.describe(retainers.retainer_of(st, "Godfrey")) == (
        "Mata (once a round, then spent until the End of Round: Exchange one card of your choice from your Hand "
        "with one card drawn at random from another Player's Hand (Mata, 2.12).)")


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


def test_a_retainers_election_votes_are_spent_once_cast_for_a_candidate(entered) -> None:
    """2.12, 9.1: the Envoy's vote (per round) counts in the Sovereign's election, then he is Spent
    until the End of Round; the Chaplain (always) is not; a DECOY alone casts nothing."""
    st = state(LORDS)
    link(st, "Hugh", 7)      # Envoy: per_round, +1 vote in elections
    link(st, "Godfrey", 6)   # Chaplain: always, +1 vote in both
    assert ELECTIONS.after(st, "sovereign", {"bob": {"votes": {"sovereign": {"decoy": "Godfrey"}}}}) == []
    assert retainers.vote_bonus(st, "bob", "election") == 1
    events = ELECTIONS.after(st, "sovereign", {"bob": {"votes": {"sovereign": {"for": "Godfrey"}}},
                                               "ann": {"votes": {"sovereign": {"for": "Godfrey"}}}})
    assert "Envoy is Spent" in texts(events) and "Chaplain" not in texts(events)
    assert retainers.vote_bonus(st, "bob", "election") == 0 and retainers.vote_bonus(st, "ann", "election") == 1


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


# -- MERCENARY CROSSBOWMEN and BURGHER (11.1, 11.2, R77) -----------------------------------------------------

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
    st.lords["Hugh"].fief_titles = ["north"]
    hired.place(st, "bob", "burgher")
    assert hired.burgher_votes(st, "bob") == 3 and hired.card_on(st, "bob") == "burgher_1"   # R77
    st.lords["Henri"].fief_titles = ["midlands"]
    hired.place(st, "cid", "burgher")
    assert hired.burgher_votes(st, "cid") == 5
    st.lords["Godfrey"].fief_titles = ["south_west"]
    assert "both BURGHER cards" in hired.place(st, "ann", "burgher")
    st.lords["Hugh"].fief_titles = []   # 11.2: "and remain in play"
    assert "no titled Lord" in texts(hired.burghers_check(st)) and hired.burgher_votes(st, "bob") == 0


def test_a_new_card_replaces_the_one_on_the_space() -> None:
    st = state(LORDS)
    st.lords["Godfrey"].fief_titles = ["south_west"]
    hired.place(st, "ann", "mercenary")
    hired.hire(st, "ann", 1, "Exeter")
    events = hired.place(st, "ann", "burgher")
    assert "discarded (replaced)" in texts(events) and hired.card_on(st, "ann") == "burgher_1"
    assert not st.pawns and st.character_discard == ["mercenary"]


# -- Relics (12.0-12.4, R10, R36, R74, R75) -------------------------------------------------------------------

def placed(lords: dict | None = None, seed: str = "relics") -> FiefState:
    st = state(lords or LORDS)
    relics.place_at_setup(st, board(), Rng(seed))
    return st


def relic_at(st: FiefState, city: str) -> str:
    return next(r for r, i in st.edition_state["relics"]["relics"].items() if i["city"] == city)


def abbess_with_yorks_relic(st: FiefState) -> str:
    """Lucia, Abbess of an Abbey in Oxford, reveals York's relic there (12.0) and carries it."""
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    st.lords["Lucia"].location = "York"
    relics.discover(st, board(), "Lucia")
    return relics.held_by(st, "Lucia")[0]


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
        assert f"\"{relic_id}\"" not in seen and relic_name not in seen   # the id as a JSON string
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
    relic = abbess_with_yorks_relic(st)
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
    relic = abbess_with_yorks_relic(st)
    st.lords["Henri"].location, st.lords["Henri"].political = "York", "king"
    events = relics.give(st, "ann", relic, "Lucia", "Henri")
    assert "Relic marker (1 VP) is theirs" in texts(events)
    assert relics.relic_vp(st, "ann") == 1 and relics.relic_vp(st, "cid") == 0
    assert st.edition_state["relics"]["vp_marker"] == "ann"   # what England's victory count reads


def test_a_lost_holders_relic_lies_where_they_fell_and_invaders_remove_relics() -> None:
    st = placed()
    relic = abbess_with_yorks_relic(st)
    assert "lies in York" in texts(relics.holder_lost(st, "Lucia", "York"))
    assert relics.held_by(st, "Lucia") == [] and relics.where(st, relic) == "York"
    hidden = relic_at(st, "Norwich")
    events = relics.invaders_take(st, "Norwich")   # R10: revealed and removed
    assert relics.name(hidden) in texts(events) and hidden not in st.edition_state["relics"]["relics"]


def test_a_pillaged_abbeys_relics_go_to_the_pillager() -> None:
    st = placed()
    relic = abbess_with_yorks_relic(st)
    st.lords["Lucia"].location = "Oxford"
    relics.leave(st, "ann", relic, "Lucia")
    assert "takes" in texts(relics.pillaged(st, "Oxford", "Hugh")) and relics.held_by(st, "Hugh") == [relic]


# -- death (4.8) and pillage (7.10) ------------------------------------------------------------------

def test_4_8_a_dead_noble_takes_retainer_title_and_heresy_with_them() -> None:
    from pbem.games.fief_england.church.death import church_after_death
    st = placed()
    link(st, "Lucia", 1)
    relic = abbess_with_yorks_relic(st)
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


# -- the relics' powers (12.1-12.4, R75) -----------------------------------------------------------------

def carrying(st: FiefState, noble: str, relic: str) -> None:
    st.edition_state["relics"]["relics"][relic].update(holder=noble, city=None, face_up=True)


def test_12_1_the_grail_protects_the_side_its_carrier_defends_with() -> None:
    from pbem.games.fief_england.church.relic_powers import grail_defends
    st = placed()
    carrying(st, "Hugh", "holy_grail")
    assert grail_defends(st, ["Alienor", "Hugh"]) and not grail_defends(st, ["Godfrey"])


def test_12_2_the_chasuble_moves_storms_from_sea_iii_to_ii_or_iv() -> None:
    # 12.2 Ex (l.792): "From Sea Region III a STORMS Card can be moved to Sea Region II or IV."
    from pbem.games.fief.state import BoardEffect
    from pbem.games.fief_england.church.relic_powers import move_storms
    st = placed()
    st.board_effects = [BoardEffect("storms", "III")]
    assert "no noble of your family carries" in move_storms(st, board(), "ann", "III", "IV")
    carrying(st, "Godfrey", "chasuble")
    assert "does not touch Sea III" in move_storms(st, board(), "ann", "III", "VI")
    assert "no STORMS card lies on Sea I" in move_storms(st, board(), "ann", "I", "II")
    events = move_storms(st, board(), "ann", "III", "II")
    assert "from Sea III to Sea II (12.2)" in texts(events) and st.board_effects[0].target == "II"
    assert "moved this round already" in move_storms(st, board(), "ann", "II", "III")
    st.round += 1
    assert not isinstance(move_storms(st, board(), "ann", "II", "III"), str)   # a new round


def test_12_4_the_shinbone_discards_famine_in_its_carriers_district() -> None:
    from pbem.games.fief.state import BoardEffect
    from pbem.games.fief_england.church.relic_powers import district_regions, shinbone_discard
    st = placed()
    carrying(st, "Hugh", "shinbone")   # in York: the Archbishopric of York is the Marches and the North
    assert district_regions(board(), "York") == ["III", "IV"]
    st.board_effects = [BoardEffect("famine", "III"), BoardEffect("famine", "IV"), BoardEffect("famine", "V")]
    assert "no noble of your family carries" in shinbone_discard(st, board(), "ann")
    events = shinbone_discard(st, board(), "bob")
    assert "FAMINE on Sea III, Sea IV" in texts(events)
    assert [e.target for e in st.board_effects] == ["V"] and st.events_discard == ["famine", "famine"]
    assert "no FAMINE card lies" in shinbone_discard(st, board(), "bob")


# -- by mail: the Cards phase's `play:` orders and the at-once orders -------------------------------------------

def rules():
    from pbem.games import rules_for
    return rules_for("fief_england")


def mail(st: FiefState | dict, player: str, text: str):
    from pbem.orders.yamlsafe import load
    js = st.to_json() if isinstance(st, FiefState) else st
    return rules().check_orders(rules().view(js, player), player, load(text))


def refused(st: FiefState | dict, player: str, text: str) -> str:
    result = mail(st, player, text)
    assert not result.ok
    return " | ".join(str(e) for e in result.errors)


def play(st: FiefState, player: str, text: str) -> tuple[dict, list[Event]]:
    js = st.to_json()
    result = mail(js, player, text)
    assert result.ok, result.errors
    r = rules()
    orders = {p: r.default_orders(r.view(js, p), p) for p in r.phase(js).deciders}
    orders[player] = result.orders
    res = r.resolve(js, orders, Rng("play"))
    return res.state, list(res.events)


def at_once(st: FiefState | dict, player: str, text: str, seed: str = "now") -> tuple[dict, list[Event]]:
    from pbem.orders.yamlsafe import load
    js = st.to_json() if isinstance(st, FiefState) else st
    r = rules()
    check = r.check_at_once(r.view(js, player), player, load(text))
    assert check.ok, check.errors
    res = r.act(js, player, check.orders, Rng(seed))
    return res.state, list(res.events)


def at_once_refused(st: FiefState, player: str, text: str) -> str:
    from pbem.orders.yamlsafe import load
    js = st.to_json()
    check = rules().check_at_once(rules().view(js, player), player, load(text))
    assert not check.ok
    return " | ".join(str(e) for e in check.errors)


def holding(*cards: str, player: str = "ann", **more) -> FiefState:
    st = state(LORDS, **more)
    st.families[player].hand = list(cards)
    return st


def test_by_mail_a_bishop_and_an_abbess_in_the_cards_phase() -> None:
    st = holding("archbishop", "abbess")
    new, events = play(st, "ann", "orders:\n  - play: archbishop\n    on: Godfrey\n    district: Exeter\n"
                                  "  - play: abbess\n    on: Lucia\n    in: Oxford\n    abbey: Autumn\n")
    assert "Godfrey is Archbishop of Exeter (2.14)" in texts(events)
    assert "Abbess of Abbey of the Autumn" in texts(events)
    assert new["families"]["ann"]["hand"] == [] and new["lords"]["Godfrey"]["bishopric"] == district("Exeter")
    view = rules().view(new, "bob")["church"]
    assert view["clergy"]["archbishops"] == ["Godfrey"] and view["abbeys"]["Oxford"]["abbess"] == "Lucia"


@pytest.mark.parametrize("text, why", [
    ("  - play: bishop\n    on: Godfrey\n", "name the district"),
    ("  - play: bishop\n    on: Godfrey\n    district: Paris\n", "there is no district 'Paris'"),
    ("  - play: bishop\n    on: Lucia\n    district: York\n", "nobleman only"),
    ("  - play: bishop\n    on: Hugh\n    district: York\n", "Hugh is of bob's family"),
    ("  - play: bishop\n    district: York\n", "name the noble"),
    ("  - play: bishop\n    on: Godfrey\n    district: York\n    in: York\n", "in"),
    ("  - play: abbess\n    on: Lucia\n", "name the city of the new Abbey"),
    ("  - play: abbess\n    on: Godfrey\n    in: Oxford\n", "noblewoman only"),
    ("  - play: abbess\n    on: Lucia\n    in: Oxford\n    abbey: Winter\n", "there is no Abbey 'Winter'"),
])
def test_by_mail_clear_errors_naming_the_card_and_the_fix(text: str, why: str) -> None:
    st = holding("bishop", "abbess")
    assert why in refused(st, "ann", "orders:\n" + text)


def test_by_mail_a_district_with_a_cleric_and_a_fortified_city_are_refused() -> None:
    st = holding("bishop", "abbess")
    st.lords["Hugh"].bishopric = district("York")
    st.towns["Oxford"].fortress = "city"
    assert "has a cleric already, Hugh" in refused(st, "ann", "orders:\n  - play: bishop\n    on: Godfrey\n"
                                                              "    district: York\n")
    assert "Oxford has a city already" in refused(st, "ann", "orders:\n  - play: abbess\n    on: Lucia\n"
                                                           "    in: Oxford\n")


def test_a_clerics_card_is_played_in_the_cards_phase_only() -> None:
    st = holding("bishop", phase="movement")
    assert "played in the Cards phase (2.6), not at once" in at_once_refused(
        st, "ann", "at_once:\n  - play: bishop\n    on: Godfrey\n    district: York\n")


def test_a_card_that_can_no_longer_take_effect_stays_in_hand() -> None:
    st = holding("bishop")
    st.families["bob"].hand = ["bishop"]
    js = st.to_json()
    r = rules()
    orders = {p: r.default_orders(r.view(js, p), p) for p in r.phase(js).deciders}
    orders["ann"] = mail(js, "ann", "orders:\n  - play: bishop\n    on: Godfrey\n    district: York\n").orders
    orders["bob"] = mail(js, "bob", "orders:\n  - play: bishop\n    on: Hugh\n    district: York\n").orders
    new = r.resolve(js, orders, Rng("x"))
    assert "cannot play the BISHOP card" in texts(list(new.events))
    assert new.state["families"]["bob"]["hand"] == ["bishop"]   # ann played first (turn order)


def test_by_mail_mercenaries_at_once_and_hired_into_a_city() -> None:
    st = holding("mercenary")
    new, events = at_once(st, "ann", "at_once:\n  - play: mercenary\n")   # at any time (11.0, R41)
    assert "French Mercenary Crossbowmen" in texts(events)
    new, events = at_once(new, "ann", "at_once:\n  - hire: 2\n    in: Oxford\n")
    assert "hires 2 mercenary crossbowmen into Oxford" in texts(events)
    assert new["families"]["ann"]["deniers"] == 6
    assert "only 1 crossbowmen lie" in at_once_refused(FiefState.from_json(new), "ann",
                                                       "at_once:\n  - hire: 2\n    in: Oxford\n")
    assert "no MERCENARY card" in at_once_refused(st, "bob", "at_once:\n  - hire: 1\n    in: York\n")
    assert "'Paris' is not a city" in at_once_refused(FiefState.from_json(new), "ann",
                                                      "at_once:\n  - hire: 1\n    in: Paris\n")


def test_by_mail_a_burgher_needs_a_titled_lord() -> None:
    st = holding("burgher")
    assert "titled Lord" in refused(st, "ann", "orders:\n  - play: burgher\n")
    st.lords["Godfrey"].fief_titles = ["south_west"]
    new, events = play(st, "ann", "orders:\n  - play: burgher\n")
    assert "BURGHER (3 votes)" in texts(events) and new["edition_state"]["family_card"] == {"ann": "burgher_1"}


def test_by_mail_mata_and_its_secrets() -> None:
    st = holding("tax", player="bob")
    link(st, "Alienor", 1)
    st.families["cid"].hand = ["justice"]
    new, events = at_once(st, "bob", "at_once:\n  - swap_card: tax\n    by: Alienor\n    with: cid\n")
    assert new["families"]["bob"]["hand"] == ["justice"] and new["families"]["cid"]["hand"] == ["tax"]
    for other in ("ann",):
        seen = [e for e in events if e.audience.sees(other)]
        assert seen and "justice" not in json.dumps([e.text for e in seen] + [e.data for e in seen])
        assert "tax" not in json.dumps([e.text for e in seen] + [e.data for e in seen])
    assert rules().view(new, "ann")["church"]["retainers"]["Alienor"]["spent"] is True
    assert "Spent until the End of Round" in at_once_refused(FiefState.from_json(new), "bob",
                                                             "at_once:\n  - swap_card: justice\n    by: Alienor\n"
                                                             "    with: cid\n")
    st.families["ann"].hand = ["passage"]
    assert "cannot exchange cards" in at_once_refused(st, "ann", "at_once:\n  - swap_card: passage\n    by: Lucia\n"
                                                                 "    with: cid\n")


def test_by_mail_retainers_change_hands_in_the_cards_phase() -> None:
    st = state(LORDS)
    link(st, "Godfrey", 1)
    new, events = at_once(st, "ann", "at_once:\n  - give_retainer: Godfrey\n    to: Lucia\n")
    assert new["edition_state"]["retainers"]["of"] == {"Lucia": 1}
    new, events = at_once(new, "ann", "at_once:\n  - give_retainer: Lucia\n    to: Hugh\n    price: 2\n")
    assert "accepts with `accept_retainer: Lucia`" in texts(events)
    assert rules().view(new, "cid")["church"]["retainer_offers"] == []   # the two families only
    new, events = at_once(new, "bob", "at_once:\n  - accept_retainer: Lucia\n")
    assert new["edition_state"]["retainers"]["of"] == {"Hugh": 1}
    st.phase = "movement"
    assert "in the Cards phase (2.12)" in at_once_refused(st, "ann", "at_once:\n  - give_retainer: Godfrey\n"
                                                                     "    to: Lucia\n")


def test_a_noble_card_played_draws_a_retainer() -> None:
    st = holding("Joan")
    retainers.shuffle_deck(st, Rng("d"))
    st.towns["Oxford"].controller = "ann"
    new, events = play(st, "ann", "orders:\n  - play: Joan\n    in: Oxford\n")
    assert "Joan draws the retainer" in texts(events) and "Joan" in new["edition_state"]["retainers"]["of"]


def test_by_mail_relics_given_left_taken_and_the_chasuble() -> None:
    from pbem.games.fief.state import BoardEffect
    st = placed()
    carrying(st, "Godfrey", "chasuble")
    st.lords["Lucia"].location = "Exeter"
    new, events = at_once(st, "ann", "at_once:\n  - give_relic: Chasuble of Thomas Becket\n    to: Lucia\n")
    assert "gives The Chasuble of Thomas Becket to Lucia" in texts(events)
    new, events = at_once(new, "ann", "at_once:\n  - leave_relic: chasuble\n")
    new, events = at_once(new, "ann", "at_once:\n  - take_relic: chasuble\n    by: Godfrey\n")
    assert new["edition_state"]["relics"]["relics"]["chasuble"]["holder"] == "Godfrey"
    st = FiefState.from_json(new)
    st.board_effects = [BoardEffect("storms", "III")]
    new, events = at_once(st, "ann", "at_once:\n  - chasuble: III\n    to: IV\n")
    assert new["board_effects"][0]["target"] == "IV"
    assert "no STORMS card lies on Sea I" in at_once_refused(st, "ann", "at_once:\n  - chasuble: I\n    to: II\n")
    assert "there is no relic" in at_once_refused(st, "ann", "at_once:\n  - leave_relic: Excalibur\n")


def test_r36_leak_no_players_view_tells_which_relic_lies_where() -> None:
    st = placed()
    js = st.to_json()
    for player in PLAYERS:
        seen = json.dumps(rules().view(js, player)["church"])
        assert not any(f"\"{r}\"" in seen for r in card_data.england_cards().relics)   # ids as JSON strings
        assert not any(n in seen for n in card_data.england_cards().relics.values())


def test_a_dead_clerics_title_through_the_cores_elimination() -> None:
    from pbem.games.fief.hear_ye.elimination import eliminate_lord
    st = state(LORDS)
    clergy.appoint(st, board(), "ann", "bishop", "Godfrey", district("Exeter"))
    link(st, "Godfrey", 1)
    events = eliminate_lord(st, board(), "Godfrey")
    assert {"cleric_title_discarded", "retainer_removed"} <= {e.kind for e in events}
    assert st.character_discard == ["bishop"] and st.edition_state["church"]["reshuffle"] is True


# -- Income: the Abbeys, the retainers, the Tithe (3.0-3.2, R18) ---------------------------------------------

def test_church_income_adds_abbeys_and_income_retainers(entered) -> None:
    from pbem.games.fief_england.church.income import church_income
    st = state(LORDS)
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    link(st, "Hugh", 2)   # Steward: +2 shillings every round
    income, used = church_income(st, board(), bonus=lambda c: 0)
    assert dict(income["ann"])["Abbey of the Autumn"] == 2 and ("retainers", 2) in income["bob"]
    assert used == []   # `always`: never Spent


def test_a_mills_share_under_an_abbey_and_a_tithe() -> None:
    from pbem.games.fief_england.church.income import mill_share, tithe_collectors
    from pbem.games.fief.state import BoardEffect
    b = board()
    st = state(LORDS)
    clergy.appoint(st, b, "bob", "archbishop", "Hugh", district("Norwich"))
    st.board_effects = [BoardEffect("tithe", str(district("Norwich")), "bob", "Hugh")]
    collectors = tithe_collectors(st)
    assert collectors == {district("Norwich"): "bob"}
    norwich = b.bishoprics[district("Norwich")].towns
    assert mill_share(st, b, norwich[0], "cid", 3, collectors) == [("bob", 3, "tithe")]
    abbeys.found(st, b, "cid", "Estrid", norwich[0])
    assert mill_share(st, b, norwich[0], "ann", 2, collectors) == [("cid", 3, "abbey's mill")]   # not tithed
    near = next(c for c in norwich if b.adjacent(c, norwich[0]))
    assert mill_share(st, b, near, "ann", 2, collectors) == [("bob", 2, "tithe"), ("ann", 1, "abbey bonus")]
    assert mill_share(st, b, near, "ann", 0, collectors) == []   # FAMINE: the Mill produces nothing
    st.lords["Hugh"].bishopric = None   # FAQ l.866: a dead or removed cleric's Tithe is not collected
    assert tithe_collectors(st) == {}


def test_2_8_a_tithe_needs_the_districts_own_cleric_and_a_treasure() -> None:
    from pbem.games.fief_england.church.income import play_tithe
    b = board()
    st = state(LORDS)
    spent: list[tuple[str, str]] = []
    def treasure(s, family, action):
        spent.append((family, action))
        return None if len(spent) < 3 else "both of your Treasure markers already lie on played cards"
    clergy.appoint(st, b, "ann", "archbishop", "Godfrey", district("Exeter"))
    assert "is not the Bishop or Archbishop of Norwich" in play_tithe(st, b, "ann", "Godfrey", district("Norwich"),
                                                                        treasure)
    assert "not a noble of your family" in play_tithe(st, b, "bob", "Godfrey", district("Exeter"), treasure)
    events = play_tithe(st, b, "ann", "Godfrey", district("Exeter"), treasure)
    assert "Archbishop of Exeter, tithes his district" in texts(events) and spent == [("ann", "tax_tithe")]
    assert "already this round" in play_tithe(st, b, "ann", "Godfrey", district("Exeter"), treasure)


def test_r55_a_cleric_reveals_his_cathedrals_relic_when_appointed_there_or_by_order() -> None:
    st = placed()
    st.families["ann"].hand = ["bishop"]
    st.lords["Godfrey"].location = "Norwich"
    relic = relic_at(st, "Norwich")
    new, events = play(st, "ann", "orders:\n  - play: bishop\n    on: Godfrey\n    district: Norwich\n")
    assert new["edition_state"]["relics"]["relics"][relic]["holder"] == "Godfrey"
    st = placed()
    clergy.appoint(st, board(), "bob", "bishop", "Hugh", district("Canterbury"))
    st.lords["Hugh"].location = "Canterbury"
    relic = relic_at(st, "Canterbury")
    new, events = at_once(st, "bob", "at_once:\n  - reveal_relic: Hugh\n")
    assert relics.name(relic) in texts(events)
    st.lords["Godfrey"].location = "York"
    assert "no relic lies face down in Oxford" in at_once_refused(st, "ann", "at_once:\n  - reveal_relic: Lucia\n")
    new, events = at_once(st, "ann", "at_once:\n  - reveal_relic: Godfrey\n")
    assert "may not reveal a relic where they stand" in texts(events)
    assert new["edition_state"]["relics"]["relics"][relic_at(st, "York")]["face_up"] is False


# -- through the phases: setup, the draws, Income, the election, the End of Round ---------------------------

def resolved(st: FiefState, seed: str = "phase") -> tuple[dict, list[Event]]:
    js = st.to_json()
    r = rules()
    orders = {p: r.default_orders(r.view(js, p), p) for p in r.phase(js).deciders}
    res = r.resolve(js, orders, Rng(seed))
    return res.state, list(res.events)


def test_setup_deals_a_retainer_to_each_noble_and_lays_the_relics_face_down() -> None:
    js = rules().setup({}, PLAYERS, Rng("setup"))
    st = FiefState.from_json(js)
    assert sorted(retainers.linked(st)) == sorted(st.lords) and retainers.deck_size(st) == 23 - len(st.lords)
    assert len(st.edition_state["relics"]["relics"]) == 4
    for player in PLAYERS:   # R36: no view names a face-down relic
        seen = json.dumps(rules().view(js, player))
        assert not any(n in seen for n in card_data.england_cards().relics.values())


def test_income_adds_the_abbeys_and_the_retainers(entered) -> None:
    st = state(LORDS, phase="income")
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    st.towns["Oxford"].controller = "ann"
    link(st, "Hugh", 2)   # Steward: +2 a round
    new, events = resolved(st)
    ann = next(e for e in events if e.kind == "income" and e.data["player"] == "ann")
    assert "Abbey of the Autumn 2" in ann.text and "Lucia visiting (Abbey of the Autumn) 2" in ann.text
    assert ann.audience.sees("ann") and not ann.audience.sees("bob")   # shillings are secret
    bob = next(e for e in events if e.kind == "income" and e.data["player"] == "bob")
    assert "retainers 2" in bob.text and bob.data["extra"] == [["retainers", 2]]


def test_the_end_of_round_turns_retainers_up_and_brings_crossbowmen_home() -> None:
    st = state(LORDS, phase="end_of_round")
    link(st, "Alienor", 1)
    st.edition_state["retainers"]["spent"] = [1]
    hired.place(st, "ann", "mercenary")
    hired.hire(st, "ann", 2, "Oxford")
    new, events = resolved(st)
    assert new["edition_state"]["retainers"]["spent"] == [] and "crossbowmen_return" in {e.kind for e in events}
    assert not new["pawns"] and new["edition_state"]["mercenaries"]["mercenary_1"]["on_card"] == 3


def test_r52_the_draw_reshuffles_the_character_deck_after_a_clerics_death() -> None:
    st = state(LORDS, phase="cards", character_pile=["Joan"], character_discard=["bishop"])
    st.edition_state["church"] = {"archbishops": [], "abbesses": {}, "destroyed": {}, "reshuffle": True}
    new, events = resolved(st)
    assert "character_deck_reshuffled" in {e.kind for e in events}
    assert sorted(new["character_pile"]) == ["Joan", "bishop"] and new["character_discard"] == []
    assert new["edition_state"]["church"]["reshuffle"] is False


def test_the_sovereigns_election_counts_a_votes_retainer(entered) -> None:
    from pbem.games.fief_england.elections import weights
    st = state(LORDS)
    st.lords["Hugh"].fief_titles = ["north"]
    link(st, "Hugh", 6)   # Chaplain: +1 vote in both
    assert weights(st, board(), "sovereign", set())[0]["bob"] == 2


def test_a_view_never_changes_the_state_it_is_built_from() -> None:
    st = state(LORDS)
    st.edition_state["heresy"] = "Hugh"   # an England state already holding something of its own
    js = st.to_json()
    before = json.dumps(js, sort_keys=True)
    for player in [*PLAYERS, None]:
        rules().view(js, player)
    assert json.dumps(js, sort_keys=True) == before


def test_by_mail_a_destroyed_abbey_is_rebuilt_in_the_purchase_phase() -> None:
    st = state(LORDS, phase="battle")
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    abbeys.destroy(st, "Oxford", "pillaged")
    assert "rebuilt in the Purchase phase" in at_once_refused(st, "ann", "at_once:\n  - rebuild_abbey: Autumn\n"
                                                                     "    in: York\n")
    st.phase, st.round = "purchase", 3
    assert "not a destroyed Abbey" in at_once_refused(st, "ann", "at_once:\n  - rebuild_abbey: Spring\n    in: York\n")
    new, events = at_once(st, "ann", "at_once:\n  - rebuild_abbey: Autumn\n    in: York\n")
    assert "rebuilds Abbey of the Autumn in York, free of charge" in texts(events)
    assert new["edition_state"]["abbeys"]["York"]["abbess"] == "Lucia"


def test_a_captive_drops_the_relics_they_carried_where_they_were_taken() -> None:
    from pbem.games.fief.hear_ye.elimination import capture_lord
    st = placed()
    relic = abbess_with_yorks_relic(st)
    events = capture_lord(st, board(), "Lucia", "bob")
    assert "lies in York" in texts(events) and relics.holder_of(st, relic) is None
    st.lords["Hugh"].location = "York"
    assert not isinstance(relics.pick_up(st, "bob", relic, "Hugh"), str)   # 12.0: recovered there


def test_12_3_the_skull_saves_a_chosen_noble_once_a_game() -> None:
    from pbem.games.fief.hear_ye.elimination import eliminate_lord
    st = placed()
    carrying(st, "Godfrey", "skull")
    st.lords["Lucia"].fief_titles = ["midlands"]
    new, events = at_once(st, "ann", "at_once:\n  - skull: family\n")
    assert events[0].audience.sees("ann") and not events[0].audience.sees("bob")   # the choice is ann's secret
    assert rules().view(new, "ann")["church"]["skull_choice"] == ["family"]
    assert rules().view(new, "bob")["church"]["skull_choice"] == []
    st = FiefState.from_json(new)
    events = eliminate_lord(st, board(), "Lucia")
    assert "rises again in Oxford and keeps every title" in texts(events)
    assert "Lucia" in st.lords and st.lords["Lucia"].fief_titles == ["midlands"]
    assert "lord_eliminated" in {e.kind for e in eliminate_lord(st, board(), "Lucia")}   # once a game
    assert "Lucia" not in st.lords


def test_the_skull_saves_only_whom_its_controller_chose() -> None:
    from pbem.games.fief.hear_ye.elimination import eliminate_lord
    st = placed()
    carrying(st, "Godfrey", "skull")
    new, _ = at_once(st, "ann", "at_once:\n  - skull: [Henri]\n")   # another family's noble may be chosen
    st = FiefState.from_json(new)
    assert "lord_eliminated" in {e.kind for e in eliminate_lord(st, board(), "Lucia")}
    assert "skull_used" in {e.kind for e in eliminate_lord(st, board(), "Henri")}
    assert "'Merlin' is not a noble in play" in at_once_refused(st, "ann", "at_once:\n  - skull: [Merlin]\n")


def test_hired_crossbowmen_have_words_in_the_reports() -> None:
    from pbem.games.fief.edition import load_edition
    england = load_edition("fief_england")
    assert england.unit_text("crossbowman", 1) == "1 crossbowman"
    assert england.unit_text("crossbowman", 3) == "3 crossbowmen"


def test_one_function_says_what_shields_a_noble(entered) -> None:
    from pbem.games.fief_england.church.protection import shielded
    st = state(LORDS)
    abbeys.found(st, board(), "ann", "Lucia", "Oxford")
    link(st, "Hugh", 5)   # Physician: once, immune to plague
    assert "in the Abbey of Oxford" in shielded(st, "Lucia", "justice")[0]
    assert shielded(st, "Lucia", "ambush") is None and shielded(st, "Hugh", "rebellion") is None
    why, used = shielded(st, "Hugh", "plague")
    assert "Physician protects them from plague" in why and used[0].kind == "retainer_used_up"
    assert shielded(st, "Hugh", "plague") is None   # `once`: gone


def test_income_gives_the_abbeys_mill_to_its_abbess_untithed_and_the_bonus_next_door() -> None:
    st = state(LORDS, phase="income")
    b = board()
    clergy.appoint(st, b, "bob", "bishop", "Hugh", district("Norwich"))
    norwich = list(b.bishoprics[district("Norwich")].towns)
    near = next(c for c in norwich if b.adjacent(c, norwich[0]))
    abbeys.found(st, b, "cid", "Estrid", norwich[0])
    for city in (norwich[0], near):
        st.towns[city].mills, st.towns[city].controller = 1, "ann"
    st.families["bob"].hand = ["tax"]
    from pbem.games.fief.state import BoardEffect
    st.board_effects = [BoardEffect("tithe", str(district("Norwich")), "bob", "Hugh")]
    new, events = resolved(st)
    income = {e.data["player"]: e.data for e in events if e.kind == "income"}
    assert income["cid"]["mills"] == 3                      # the Abbey's city's Mill: 2 + 1, to its Abbess
    assert income["bob"]["tithe"] == {str(district("Norwich")): 2}   # the other Mill's 2, tithed
    assert income["ann"]["mills"] == 1                      # its +1 from the Abbey next door stays (R18)


def test_a_retainer_immune_to_the_plague_or_a_rebellion_spares_its_noble(entered) -> None:
    """2.12 with the vocabulary's `immune` (the Church part's one shield, church.protection): Hugh's
    Physician (once, immune to plague) spares him the plague's d6 and is removed; Alienor beside
    him rolls. A REBELLION that leaves no troop slays every noble but one immune to it (10.1)."""
    from pbem.games.fief_england import disasters
    from pbem.games.fief_england.opportunity.rebellion import _no_captives
    from pbem.games.fief_england.regions import region_of
    from test_fief_england_game import FixedD6
    st = state(LORDS)
    link(st, "Hugh", 5)   # Physician: once, immune to plague
    events = disasters.plague(st, board(), FixedD6([1]), region_of(board(), "York"))
    assert "Hugh" in st.lords and "Alienor" not in st.lords   # her 1 kills her; he did not roll
    assert "plague_immune" in [e.kind for e in events] and "used and removed from the game" in texts(events)
    st = state(LORDS)
    link(st, "Hugh", 8)   # Bodyguard: always, immune to rebellion
    events = _no_captives(st, board(), "York")
    assert "Hugh" in st.lords and "Alienor" not in st.lords
    assert "rebellion_immune" in [e.kind for e in events]
