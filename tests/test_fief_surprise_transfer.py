"""Transferring the control of a town (5.2.2), a surprise effect: surprise/control_transfer.py's two
pure functions, and the `at_phase_start` trigger that carries a transfer."""
from __future__ import annotations

from pbem.games.fief.board import load_board
from pbem.games.fief.surprise.control_transfer import check_transfer, transfer_control
from pbem.games.fief_france.rules import RULES
from pbem.orders.reading import Problems
from pbem.games.fief.positions import build_position
from pbem.games.fief.state import FiefState
from pbem.orders.yamlsafe import load
from pbem.rules.rng import Rng

from fief_support import check, errors

PLAYERS = ["ann", "bob", "cid"]
BOARD = load_board("fief_france")


def position(phase: str = "purchase", tours: dict | None = None, units: dict | None = None, **more) -> dict:
    lords = {"Henry": {"family": "ann", "at": "Tours", "titles": ["poitou"]},
             "Charles": {"family": "bob", "at": "Tours"}, "Arthur": {"family": "cid", "at": "Lyon"}}
    return build_position({"players": PLAYERS, "phase": phase, "lords": lords,
                           "units": units or {"Tours": {"ann": {"knight": 1}, "bob": {"man_at_arms": 1}},
                                              "Lyon": {"cid": {"knight": 1}}},
                           "towns": {"Tours": {"controller": "ann", **(tours or {})}}, **more}, "fief_france").to_json()


def checked(state: dict, player: str, text: str) -> tuple[dict | None, str]:
    problems = Problems()
    got = check_transfer(RULES.view(state, player), player, load(text)[0], problems)
    return got, " | ".join(str(p) for p in problems)


def test_check_transfer_against_the_players_view() -> None:
    state = position()
    assert checked(state, "ann", "- transfer: tours\n  to: BOB\n") == ({"town": "Tours", "to": "bob"}, "")
    assert "line 1: you do not control Lyon (its controller: cid)" in checked(state, "ann",
                                                                              "- transfer: Lyon\n  to: cid\n")[1]
    assert "there is no town called 'Tuors' (did you mean `Tours`?)" in checked(state, "ann",
                                                                               "- transfer: Tuors\n  to: bob\n")[1]
    assert "line 2: cid has no forces in Tours (5.2.2: control goes to a present family) (present there: bob)" \
        in checked(state, "ann", "- transfer: Tours\n  to: cid\n")[1]
    assert "you control Tours already" in checked(state, "ann", "- transfer: Tours\n  to: ann\n")[1]
    assert "no player 'zed' in this game" in checked(state, "ann", "- transfer: Tours\n  to: zed\n")[1]
    assert "name the family receiving the control" in checked(state, "ann", "- transfer: Tours\n")[1]
    assert "unknown key `lord`" in checked(state, "ann", "- transfer: Tours\n  to: bob\n  lord: Charles\n")[1]
    assert "you do not control Tours (its controller: ann)" in checked(state, "bob",
                                                                       "- transfer: Tours\n  to: ann\n")[1]


def test_transfer_control_puts_the_receiver_on_the_town_space() -> None:
    st = FiefState.from_json(position())
    events = transfer_control(st, BOARD, "ann", {"town": "Tours", "to": "bob"})
    assert [e.kind for e in events] == ["control_transferred", "town_control"]
    assert st.towns["Tours"].controller == "bob" and st.towns["Tours"].arrivals[0] == "bob"
    assert "ann" in st.towns["Tours"].arrivals                     # next to the town space
    void = transfer_control(st, BOARD, "ann", {"town": "Tours", "to": "bob"})   # checked again
    assert [e.kind for e in void] == ["transfer_void"] and "ann no longer controls Tours" in void[0].text


def test_a_city_brings_its_fief_title() -> None:
    st = FiefState.from_json(position(tours={"fortress": "city"}))
    events = transfer_control(st, BOARD, "ann", {"town": "Tours", "to": "bob"})
    title = next(e for e in events if e.kind == "fief_title")
    assert "Charles (bob) now holds the title of the County of Poitou" in title.text
    assert st.fief_titles["poitou"] == "Charles" and st.lords["Henry"].fief_titles == []


def test_a_besieged_town_may_be_transferred_and_a_receiving_besieger_ends_its_siege() -> None:
    units = {"Tours": {"ann": {"knight": 1}, "bob": {"man_at_arms": 1}, "cid": {"knight": 1}}}
    base = position(tours={"fortress": "stronghold", "besieged_by": {"bob": 1, "cid": 1}}, units=units)
    st = FiefState.from_json(base)
    transfer_control(st, BOARD, "ann", {"town": "Tours", "to": "bob"})
    assert st.towns["Tours"].controller == "bob" and dict(st.towns["Tours"].besiegers) == {"cid": 1}


def test_a_transfer_at_a_phase_start_checked_then_fired() -> None:
    state = position()
    text = "policies:\n  surprise:\n    - at_phase_start: movement\n      transfer: Tours\n      to: bob\n"
    got = check(state, "ann", text)
    trigger = {"trigger": "at_phase_start", "phase": "movement", "round": None,
               "transfer": {"town": "Tours", "to": "bob"}}
    assert got.ok and got.orders["policies"]["surprise"] == [trigger]
    assert "line 4: you do not control Lyon" in errors(
        state, "ann", text.replace("Tours", "Lyon"))
    assert check(state, "ann", text.replace("movement", "hear_ye_votes")).ok   # 5.2.2: to swing a ballot
    state = position(policies={"ann": {"surprise": [trigger]}})
    res = RULES.resolve(state, {p: RULES.default_orders(RULES.view(state, p), p)
                                for p in RULES.phase(state).deciders}, Rng("t"))
    assert RULES.phase(res.state).id == "round-1/movement"
    assert "control_transferred" in [e.kind for e in res.events]
    assert res.state["towns"]["Tours"]["controller"] == "bob"
    assert res.state["families"]["ann"]["policies"]["surprise"] == []
    assert "surprise: transfer Tours to bob at the start of movement" in "\n".join(
        RULES.view(state, "ann")["policies_text"])
    assert "transfer" not in repr(RULES.view(state, "bob")["policies"])
