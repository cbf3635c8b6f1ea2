"""Who may make a cavalcade (5.2.4): knights and lords only, each with a step left — three
steps a round in the D'Arc lord's army (G.4.1.1), two otherwise (5.1.1)."""
from __future__ import annotations

from types import SimpleNamespace

from pbem.games.fief.battle_phase import _no_cavalcade
from pbem.games.fief.state import FiefState, Lord, Pawn


def army_after(steps: int, darc: bool, kinds=("knight",)):
    state = FiefState("france", {}, ["marie", "marc"])
    state.lords["Jeanne"] = Lord("Jeanne", "marie", True, "Tours", political="darc" if darc else None, steps=steps)
    for i, kind in enumerate(kinds):
        state.pawns[f"p{i}"] = Pawn(f"p{i}", kind, "marie", "Tours", steps=steps)
    return state, SimpleNamespace(pawns=[f"p{i}" for i in range(len(kinds))], lords=["Jeanne"])


def test_two_steps_spend_an_ordinary_army_but_not_the_darc_lords():
    state, army = army_after(2, darc=False)
    assert "needs a step left" in _no_cavalcade(state, army, ("marc",))
    state, army = army_after(2, darc=True)
    assert _no_cavalcade(state, army, ("marc",)) is None
    state, army = army_after(3, darc=True)
    assert "needs a step left" in _no_cavalcade(state, army, ("marc",))


def test_only_knights_and_lords_and_only_against_one_family():
    state, army = army_after(0, darc=False, kinds=("knight", "archer"))
    assert "only knights and lords" in _no_cavalcade(state, army, ("marc",))
    state, army = army_after(0, darc=False)
    assert "fights only one family" in _no_cavalcade(state, army, ("marc", "olivier"))
