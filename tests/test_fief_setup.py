"""Game Setup (A) for Fief: France: families, piles, first lords, first player, and the
starting towns chosen by mail (A.5) or by the lord drawn (I.4)."""
from __future__ import annotations

import pytest

from pbem.games.fief.board import load_board
from pbem.games.fief.cards.deck import load_cards
from pbem.games.fief_france.rules import RULES
from pbem.games.fief.setup.rules import default_start
from pbem.games.fief.state import FiefState
from pbem.orders.yamlsafe import load
from pbem.rules.rng import Rng

PLAYERS = ["ann", "bob", "cid", "dee"]


def new(options=None, players=PLAYERS, seed="s1") -> dict:
    return RULES.setup(options or {}, players, Rng(seed))


def test_setup_families_piles_and_first_lords() -> None:
    st = FiefState.from_json(new())
    assert st.phase == "setup" and st.round == 0
    assert all(f.deniers == 5 for f in st.families.values())            # A.6
    assert sorted(l.family for l in st.lords.values()) == sorted(PLAYERS)  # one lord each (A.2)
    cards = load_cards("fief_france")
    assert all(name in cards.lords for name in st.lords)                # never a Cardinal or D'Arc
    assert len(st.character_pile) == 22 - 4
    assert st.character_pile.count("cardinal") == 3 and st.character_pile.count("darc") == 1
    assert len(st.events_pile) == 35
    assert all(l.location is None for l in st.lords.values())
    assert RULES.phase(new()).id == "setup/starting-towns"
    assert set(RULES.phase(new()).deciders) == set(PLAYERS)


def test_setup_is_seeded() -> None:
    assert new(seed="a") == new(seed="a")
    firsts = {FiefState.from_json(new(seed=str(i))).first_player for i in range(20)}
    assert len(firsts) > 1     # the first player comes from the dice


def test_player_count() -> None:
    with pytest.raises(ValueError, match="3 to 6 players"):
        new(players=["ann", "bob"])
    with pytest.raises(ValueError, match="3 to 6 players"):
        new(players=[f"p{i}" for i in range(7)])


def check(state: dict, player: str, text: str):
    return RULES.check_orders(RULES.view(state, player), player, load(text))


def test_starting_town_orders_checked() -> None:
    state = new()
    ok = check(state, "ann", "orders:\n  - start: [orleans, La Rochelle]\n")
    assert ok.ok and ok.orders["towns"] == ["Orléans", "La Rochelle"]
    one = check(state, "ann", "orders:\n  - start: Tours\n")
    assert one.orders["towns"] == ["Tours"]
    bad = check(state, "ann", "orders:\n  - start: [Tours, Lutece, tours]\n  - begin: Lyon\n")
    text = " | ".join(map(str, bad.errors))
    assert "line 2: there is no town called 'Lutece'" in text
    assert "Tours is listed twice" in text
    assert "line 3: `begin` is not an order of this phase" in text
    unknown = check(state, "ann", "order:\n  - start: [Tours]\n")
    assert "unknown key `order`" in str(unknown.errors[0]) and "did you mean `orders`" in str(unknown.errors[0])
    empty = check(state, "ann", "orders:\n")
    assert empty.ok and empty.notes


def test_starting_towns_resolved_in_turn_order() -> None:
    state = new()
    st = FiefState.from_json(state)
    order = st.turn_order()
    orders = {order[0]: {"towns": ["Tours"]}, order[1]: {"towns": ["Tours", "Lyon"]},
              order[2]: {"towns": ["Tours", "Lyon"]}}   # order[3] sends nothing
    result = RULES.resolve(state, orders, Rng("r"))
    after = FiefState.from_json(result.state)
    starts = {l.family: l.location for l in after.lords.values()}
    assert starts[order[0]] == "Tours" and starts[order[1]] == "Lyon"
    board = load_board("fief_france")
    assert starts[order[2]] == default_start(st, board, ["Tours", "Lyon"])
    assert starts[order[3]] == default_start(st, board, ["Tours", "Lyon", starts[order[2]]])
    assert len(set(starts.values())) == 4
    for player, town in starts.items():
        here = after.towns[town]
        assert here.fortress == "stronghold" and here.controller == player
        kinds = sorted(p.kind for p in after.pawns.values() if p.family == player)
        assert kinds == ["knight", "man_at_arms", "man_at_arms", "man_at_arms"]     # A.5
    assert RULES.phase(result.state).id == "round-1/cards-draw"    # Hear Ye is skipped on round 1
    texts = [e.text for e in result.events]
    assert any("default: every town they chose was taken" in t for t in texts)
    assert any("default: they chose no town" in t for t in texts)


def test_default_start_is_far_from_taken_towns() -> None:
    board = load_board("fief_france")
    st = FiefState.from_json(new())
    town = default_start(st, board, ["Paris"])
    assert board.distances("Paris")[town] == max(board.distances("Paris").values())


def test_mandatory_placement() -> None:
    state = new({"mandatory_placement": True})
    st = FiefState.from_json(state)
    cards = load_cards("fief_france")
    for lord in st.lords.values():
        assert lord.location == cards.lords[lord.name].start                # I.4 table
        assert st.towns[lord.location].fortress == "stronghold"
    assert RULES.phase(state).id == "round-1/cards-draw"


def test_options_listed() -> None:
    names = {o.name: o for o in RULES.options()}
    assert set(names) == {"fog_of_war", "mandatory_placement", "adjusted_shooting", "board", "public_diplomacy",
                          "beginners"}
    assert names["beginners"].default is False and "2.5" in names["beginners"].help   # off unless asked
    assert names["adjusted_shooting"].default is False and names["adjusted_shooting"].parse("yes") is True
    assert names["board"].parse("board") == "board"
    with pytest.raises(ValueError):
        names["board"].parse("../../etc/passwd")
