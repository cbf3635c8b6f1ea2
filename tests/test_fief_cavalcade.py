"""Who may make a cavalcade (5.2.4): knights and lords only, each with a step left — three
steps a round in the D'Arc lord's army (G.4.1.1), two otherwise (5.1.1)."""
from __future__ import annotations

from pbem.games.fief.battle import phase as battle_phase
from pbem.games.fief.movement.army import Army, StepBudget
from pbem.games.fief.state import FiefState, Lord, Pawn


def army_after(steps: int, darc: bool, kinds=("knight",)):
    """Jeanne leads the army (a D'Arc lord or not), every member having made ``steps`` steps."""
    state = FiefState("fief_france", {}, ["marie", "marc"])
    state.lords["Jeanne"] = Lord("Jeanne", "marie", True, "Tours", political="darc" if darc else None, steps=steps)
    for i, kind in enumerate(kinds):
        state.pawns[f"p{i}"] = Pawn(f"p{i}", kind, "marie", "Tours", steps=steps)
    return state, Army("marie", "Jeanne", ("town", "Tours"), pawns=[f"p{i}" for i in range(len(kinds))])


def _no_cavalcade(state, army, against, budget=None):
    return battle_phase._no_cavalcade(state, army, against, budget or StepBudget(state))


def test_two_steps_spend_an_ordinary_army_but_not_the_darc_lords():
    state, army = army_after(2, darc=False)
    assert "needs a step left" in _no_cavalcade(state, army, ("marc",))
    state, army = army_after(2, darc=True)
    assert _no_cavalcade(state, army, ("marc",)) is None
    state, army = army_after(3, darc=True)
    assert "needs a step left" in _no_cavalcade(state, army, ("marc",))


def test_the_darc_lord_as_a_companion_or_met_earlier_gives_three_steps():
    # G.4.1.1: 3 steps "for her and for every force that joins her for at least 1 step".
    state, army = army_after(2, darc=False)
    state.lords["Blanche"] = Lord("Blanche", "marie", True, "Tours", political="darc", steps=2)
    army.lords.append("Blanche")
    assert _no_cavalcade(state, army, ("marc",)) is None
    state, army = army_after(2, darc=False)
    budget = StepBudget(state)
    budget.joined.update({"L:Jeanne": 3, "P:p0": 3})   # they went with her earlier this round
    assert _no_cavalcade(state, army, ("marc",), budget) is None
    state.lords["Jeanne"].steps = 3
    assert "needs a step left" in _no_cavalcade(state, army, ("marc",), budget)


def test_only_knights_and_lords_and_only_against_one_family():
    state, army = army_after(0, darc=False, kinds=("knight", "archer"))
    assert "only knights and lords" in _no_cavalcade(state, army, ("marc",))
    state, army = army_after(0, darc=False)
    assert "fights only one family" in _no_cavalcade(state, army, ("marc", "olivier"))


def test_lords_alone_make_no_cavalcade_from_rules_version_2():
    """5.1: lords alone do not count as an army; 5.2.4 asks for one (issue 9)."""
    state, army = army_after(0, darc=False, kinds=())
    assert FiefState("fief_france", {}, ["marie"]).rules_version == 1
    assert _no_cavalcade(state, army, ("marc",)) is None            # a game stored before issue 9
    state.options["rules_version"] = 2
    assert "lords alone do not count as an army (5.1)" in _no_cavalcade(state, army, ("marc",))
    state, army = army_after(0, darc=False)
    state.options["rules_version"] = 2
    assert _no_cavalcade(state, army, ("marc",)) is None            # a knight with her: an army
