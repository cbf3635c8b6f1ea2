"""Fief: France's church titles outside the elections, as the edition's hooks: the cardinals
(D.2.2) and the pope (D.2.3) collecting tithes (G.3.3.2) and cardinals calming uprisings
(G.4.2.1, D.2.2). The bishops' own part (D.2.1) is the core's."""
from __future__ import annotations

from pbem.games.fief.hooks import Calmer
from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief.surprise.uprising import bishop_calms, calm_policy, calmers

CARDINAL_FEE = 3   # D.2.2: a cardinal calms an uprising for 3 deniers, and survives a failure


def tithe_rank(lord: Lord, target: str, number: int, governed: set[int]) -> int | None:
    """G.3.3.2: a tithe is collected by the bishop of the bishopric, else by a cardinal (on a
    governed bishopric, D.2.2), else by the pope (`tithe: all`, the papal tithe, D.2.3)."""
    if target != "all" and lord.bishopric == number:
        return 0                                    # the bishop of that bishopric
    if target != "all" and lord.cardinal and number in governed:
        return 1                                    # a cardinal, on a governed bishopric
    if target == "all" and lord.pope:
        return 2                                    # the papal tithe
    return None


def uprising_calmer(state: FiefState, bishopric: int, raisers: frozenset[str]) -> Calmer | None:
    """G.4.2.1, D.2.1, D.2.2: the bishop of the bishopric, else the first cardinal in turn order
    able to pay 3 deniers, each as his family's `calm_uprisings` policy says."""
    def pays(lord: Lord) -> bool:
        return bool(lord.cardinal and calm_policy(state.families[lord.family].policies)["as_cardinal"]
                    and state.families[lord.family].deniers >= CARDINAL_FEE)

    free = calmers(state, raisers)
    bishop = next((l for l in free if l.bishopric == bishopric), None)
    if state.rules_version >= 2 and bishop is not None and pays(bishop):
        # Rules version 2: a cardinal who is the bishop here pays 3 deniers and survives a
        # failure if his policy lets him calm as a cardinal and he can pay (D.2.2: "if a
        # cardinal cannot, or does not want to spend 3 deniers, he may still attempt ... as a
        # bishop").
        return bishop, CARDINAL_FEE, "cardinal"
    as_bishop = bishop_calms(state, bishopric, raisers)
    if as_bishop is not None:
        return as_bishop
    order = {p: i for i, p in enumerate(state.turn_order())}
    for lord in sorted((l for l in free if l.cardinal), key=lambda l: (order[l.family], l.name)):
        if pays(lord):
            return lord, CARDINAL_FEE, "cardinal"
    return None
