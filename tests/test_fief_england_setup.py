"""Fief: England's Game Setup (E Setup l.25-33, 13.6, 13.8; X14): two nobles a family, three of
each gender set aside unseen, a Region and a City each (rolled under 13.6), 5 shillings kept
secret, troops face down; two players set up as four families (13.7: the rest of the two-player
game is tests/test_fief_england_two_players.py)."""
from __future__ import annotations

import json

import pytest

from pbem.games import rules_for
from pbem.games.fief.board import load_board
from pbem.games.fief.cards.deck import load_cards
from pbem.games.fief.state import FiefState
from pbem.rules.rng import Rng

RULES = rules_for("fief_england")
BOARD = load_board("fief_england")
CARDS = load_cards("fief_england")
THREE = ["ann", "bob", "cat"]
FOUR = ["ann", "bob", "cat", "dan"]


def new(players, options=None, seed="s") -> FiefState:
    return FiefState.from_json(RULES.setup(options or {}, players, Rng(seed)))


def start(state: FiefState, wishes: dict[str, list[str]]) -> FiefState:
    orders = {p: {"towns": wishes.get(p, []), "policies": {}} for p in state.players}
    return FiefState.from_json(RULES.resolve(state.to_json(), orders, Rng("r")).state)


@pytest.mark.parametrize("players", [THREE, FOUR])
def test_each_family_is_dealt_a_man_and_a_woman_and_six_nobles_are_set_aside(players) -> None:
    state = new(players)
    for p in players:
        lords = [l for l in state.lords.values() if l.family == p]
        assert sorted(l.female for l in lords) == [False, True]        # Setup (l.31)
        assert all(l.location is None for l in lords)
    aside = state.edition_state["setup"]["set_aside"]
    assert len(aside) == 6 and sum(CARDS.lords[n].female for n in aside) == 3
    assert not set(aside) & set(state.lords) and not set(aside) & set(state.character_pile)
    dealt = 2 * len(players)
    assert len(state.character_pile) == 31 - 6 - dealt                 # 2.2 (l.111): 31 character cards
    assert len(state.events_pile) == 25                                 # 16 fortune + 9 disaster
    assert {f.deniers for f in state.families.values()} == {5}          # l.30
    assert state.phase == "setup"


def test_the_set_aside_cards_are_seen_by_no_one() -> None:
    """l.31: removed "without looking at them": no view, not even its piles' counts, names them."""
    state = new(FOUR)
    aside = state.edition_state["setup"]["set_aside"]
    for viewer in FOUR + [None]:
        text = json.dumps(RULES.view(state.to_json(), viewer))
        assert not any(name in text for name in aside), viewer


def test_in_turn_order_each_takes_a_city_of_a_region_no_one_holds() -> None:
    """X14: one player per Region; a City of a Region already taken is passed over."""
    state = new(THREE, seed="t")
    order = state.turn_order()
    wishes = {order[0]: ["London"], order[1]: ["Oxford", "Norwich"], order[2]: ["Berwick"]}
    after = start(state, wishes)
    cities = {p: next(l.location for l in after.lords.values() if l.family == p) for p in THREE}
    assert cities[order[0]] == "London" and cities[order[1]] == "Norwich" and cities[order[2]] == "Berwick"
    for p, city in cities.items():
        assert all(l.location == city for l in after.lords.values() if l.family == p)   # both nobles
        assert after.towns[city].fortress == "stronghold" and after.towns[city].controller == p
        kinds = sorted(x.kind for x in after.pawns.values() if x.family == p)
        assert kinds == ["knight", "man_at_arms", "man_at_arms", "man_at_arms"]        # X14
    assert (after.round, after.phase) == (1, "cards")                   # 1.0: no Hear Ye in round 1


def test_a_player_without_an_open_choice_gets_the_farthest_open_city() -> None:
    state = new(THREE, seed="t")
    order = state.turn_order()
    after = start(state, {order[0]: ["London"], order[1]: ["Canterbury"]})
    regions = [BOARD.towns[next(l.location for l in after.lords.values() if l.family == p)].fief for p in order]
    assert len(set(regions)) == 3 and regions[0] == "south_east"


def test_random_stronghold_setup_rolls_a_region_each() -> None:
    """13.6: each player's Region is rolled, one player per Region; the City is chosen in it."""
    state = new(FOUR, {"random_stronghold_setup": True}, seed="r")
    rolled = state.edition_state["setup"]["regions"]
    assert sorted(rolled) == sorted(FOUR) and len(set(rolled.values())) == 4
    ann = rolled["ann"]
    view = RULES.view(state.to_json(), "ann")
    assert view["setup"]["region"] == ann
    assert f"You rolled {BOARD.fiefs[ann].name} (13.6)" in RULES.order_template(view, "ann")
    outside = next(t for t in BOARD.towns if BOARD.towns[t].fief != ann)
    check = RULES.check_orders(view, "ann", {"orders": [{"start": [outside]}]})
    assert check.errors and "the Region you rolled (13.6)" in check.errors[0].message
    after = start(state, {})
    for p in FOUR:
        city = next(l.location for l in after.lords.values() if l.family == p)
        assert BOARD.towns[city].fief == rolled[p]


def test_money_is_secret() -> None:
    """FAQ (l.857): shillings are secret: a player sees their own, nobody else's."""
    state = start(new(THREE), {})
    state.families["ann"].deniers = 17
    view = RULES.view(state.to_json(), "bob")
    assert view["families"]["bob"]["deniers"] == 5 and "deniers" not in view["families"]["ann"]
    assert "17" not in json.dumps(view["families"])
    # Income is told to its family alone.
    state.phase = "income"
    events = RULES.resolve(state.to_json(), {}, Rng("i")).events
    told = [e for e in events if e.kind == "income"]
    assert told and all(e.audience.players == (e.data["player"],) for e in told)


def test_no_report_shows_another_familys_money_or_the_set_aside_nobles() -> None:
    """FAQ (l.857), l.31: what bob is mailed (his report, rendered from his view) holds neither
    ann's shillings nor the nobles set aside; ann's own report shows her money."""
    from pbem.judge.render import render
    state = start(new(THREE), {})
    state.families["ann"].deniers = 37
    aside = state.edition_state["setup"]["set_aside"]
    bob = render(RULES.report_template(), view=RULES.view(state.to_json(), "bob"), me="bob")
    ann = render(RULES.report_template(), view=RULES.view(state.to_json(), "ann"), me="ann")
    assert bob.startswith("FIEF: ENGLAND") and "37" not in bob and "? shillings" in bob
    assert not any(name in bob for name in aside)
    assert " 37 shillings" in ann


def test_troops_are_face_down_for_the_others() -> None:
    """4.1: fog of war always: others see how many troops, not which."""
    state = start(new(THREE), {})
    ann_city = next(l.location for l in state.lords.values() if l.family == "ann")
    theirs = RULES.view(state.to_json(), "bob")["towns"][ann_city]["forces"]["ann"]["units"]
    mine = RULES.view(state.to_json(), "ann")["towns"][ann_city]["forces"]["ann"]["units"]
    assert theirs == {"hidden": 4} and mine == {"knight": 1, "man_at_arms": 3}


def test_two_players_set_up_as_four_families() -> None:
    """13.7 (l.842): "set up like a four-Player game", two families a player (they were refused
    before the core named families apart from players)."""
    state = RULES.setup({}, ["ann", "bob"], Rng("x"))
    assert state["players"] == ["ann", "ann-2", "bob", "bob-2"]
    assert state["family_players"] == {"ann": "ann", "ann-2": "ann", "bob": "bob", "bob-2": "bob"}
