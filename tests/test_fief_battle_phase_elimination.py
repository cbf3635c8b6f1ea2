"""Titled lord elimination (D.4.2) and the royal guard (1.5.5), shared by plague, battles and
later the cards: pbem/games/fief/hear_ye/elimination.py."""
from __future__ import annotations

from pbem.games.fief.board import load_board
from pbem.games.fief.hear_ye.elimination import capture_lord, eliminate_lord
from pbem.games.fief.positions import build_position

BOARD = load_board("fief_france")


def kinds(state, town, family):
    return sorted(p.kind for p in state.pawns.values() if p.location == town and p.family == family)


def test_titles_go_to_another_lord_of_the_family() -> None:
    state = build_position({"players": ["ann", "bob", "cid"], "lords": {
        "Eric": {"family": "ann", "at": "Rennes", "titles": ["bretagne", "poitou"]},
        "Blanche": {"family": "ann", "at": "Tours", "titles": ["normandie"]}},
        "towns": {"Nantes": {"fortress": "city", "controller": "ann"}}}, "fief_france")
    events = eliminate_lord(state, BOARD, "Eric")
    assert "Eric" not in state.lords and state.character_discard[-1] == "Eric"
    # Blanche can take one more title (2 at most): the more prestigious county first (Poitou),
    # then the barony of Bretagne is vacant.
    assert state.lords["Blanche"].fief_titles == ["normandie", "poitou"]
    assert state.fief_titles["bretagne"] is None and state.governed["bretagne"]
    assert any(e.kind == "title_vacant" and "no lord of the family can take" in e.text for e in events)


def test_last_married_lord_titles_go_to_the_spouse_and_the_city_troop_is_replaced() -> None:
    state = build_position({"players": ["ann", "bob", "cid"], "lords": {
        "Eric": {"family": "ann", "at": "Rennes", "titles": ["bretagne"], "spouse": "Blanche"},
        "Blanche": {"family": "bob", "at": "Lyon", "spouse": "Eric"}},
        "units": {"Nantes": {"ann": {"man_at_arms": 2, "bombard": 1}}, "Lyon": {"bob": {"bombard": 1}}},
        "towns": {"Nantes": {"fortress": "city", "controller": "ann"}}}, "fief_france")
    events = eliminate_lord(state, BOARD, "Eric")
    assert state.lords["Blanche"].fief_titles == ["bretagne"] and state.lords["Blanche"].spouse is None
    # bob's pool has no second bombard: that pawn cannot be replaced and is removed.
    assert kinds(state, "Nantes", "bob") == ["man_at_arms", "man_at_arms"] and kinds(state, "Nantes", "ann") == []
    assert state.towns["Nantes"].controller == "bob"
    told = next(e for e in events if e.kind == "troop_replaced")
    assert told.data == {"town": "Nantes", "from": "ann", "to": "bob", "replaced": 2, "removed": 1}


def test_last_unmarried_lord_leaves_the_titles_vacant() -> None:
    state = build_position({"players": ["ann", "bob", "cid"], "lords": {
        "Eric": {"family": "ann", "at": "Rennes", "titles": ["bretagne"]}},
        "units": {"Nantes": {"ann": {"man_at_arms": 1}}},
        "towns": {"Nantes": {"fortress": "city", "controller": "ann"}}}, "fief_france")
    events = eliminate_lord(state, BOARD, "Eric")
    assert state.fief_titles["bretagne"] is None
    assert any(e.kind == "title_vacant" and "unmarried" in e.text for e in events)
    assert kinds(state, "Nantes", "ann") == ["man_at_arms"]


def test_the_kings_guard_is_replaced_when_he_is_captured() -> None:
    state = build_position({"players": ["ann", "bob", "cid"], "lords": {
        "Eric": {"family": "ann", "at": "Paris", "titles": ["king"]}},
        "units": {"Paris": {"ann": {"kings_knight": 2, "knight": 7}}}}, "fief_france")
    events = capture_lord(state, BOARD, "Eric", "bob")
    assert state.lords["Eric"].captive_of == "bob"
    # 8 knights in the pool, 7 on the board: one guard becomes a knight, the other is removed.
    assert kinds(state, "Paris", "ann") == ["knight"] * 8
    assert events[0].data == {"lord": "Eric", "family": "ann", "replaced": 1, "removed": 1}
    assert capture_lord(state, BOARD, "Eric", "bob") == []   # idempotent


def test_a_spouse_holding_two_titles_passes_the_least_prestigious_on() -> None:
    # D.4.2 then D.1.1: Blanche receives the duchy, holds 3 titles, and passes the barony of
    # Bretagne to Henry, the other lord of her family.
    state = build_position({"players": ["ann", "bob", "cid"], "lords": {
        "Eric": {"family": "ann", "at": "Lyon", "titles": ["bourgogne"], "spouse": "Blanche"},
        "Blanche": {"family": "bob", "at": "Rennes", "titles": ["bretagne", "normandie"], "spouse": "Eric"},
        "Henry": {"family": "bob", "at": "Rouen"}},
        "units": {"Lyon": {"ann": {"knight": 1}}},
        "towns": {"Lyon": {"fortress": "city", "controller": "ann"}}}, "fief_france")
    events = eliminate_lord(state, BOARD, "Eric")
    assert sorted(state.lords["Blanche"].fief_titles) == ["bourgogne", "normandie"]
    assert state.lords["Henry"].fief_titles == ["bretagne"]
    assert kinds(state, "Lyon", "bob") == ["knight"] and state.towns["Lyon"].controller == "bob"
    assert any(e.kind == "title_transmitted" for e in events)
