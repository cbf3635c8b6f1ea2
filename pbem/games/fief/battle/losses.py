"""Applying the losses (6.2.3.4): the leader's choice, made by rule and by the leader's plan.

The rule: "Each leader chooses which pawns from their side they eliminate, ensuring to lose as
much CP as possible to match the amount of Hit received", knights need 3 hits (less has no
effect), lords are eliminated only once every unit pawn other than bombards of the side is gone,
1 hit each. Since every pawn needs exactly as many hits as it is worth in CP (battle/forces.py combat_points),
the choice is: use as many of the hits as possible. Among the choices that do, the leader's
plan decides: its `losses` kinds first, then (by default) confederates' pawns before the
leader's own. A bombard left without a unit pawn or lord of its family is eliminated (4.3).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pbem.games.fief.battle.forces import Side, combat_points, fighters
from pbem.games.fief.battle.plan import LOSS_KINDS, BattlePlan
from pbem.games.fief.state import FiefState


@dataclass
class Losses:
    pawns: list[str] = field(default_factory=list)   # pawn ids to eliminate
    lords: list[str] = field(default_factory=list)   # lords to eliminate
    wasted: int = 0                                   # hits with no effect (6.2.3.4)

    def cp(self, state: FiefState) -> int:
        """CP these losses remove (lords: 6.2.3.1, an untitled woman is worth 0)."""
        pawns = sum(combat_points(state, state.pawns[p].kind) for p in self.pawns)
        return pawns + sum(1 for n in self.lords if not state.lords[n].female or state.lords[n].titled)


def kind_order(plan: BattlePlan) -> list[str]:
    """The plan's kinds, then the kinds it does not name in LOSS_KINDS order."""
    named = [k for k in dict.fromkeys(plan.losses)]
    return named + [k for k in LOSS_KINDS if k not in named]


def family_order(side: Side, plan: BattlePlan) -> list[str]:
    confederates = side.families[1:]
    return confederates + [side.leader] if plan.own_losses_last else [side.leader] + confederates


def _pawn_key(pid: str) -> tuple[int, str]:
    return len(pid), pid     # "p9" before "p10": the order pawns came into play


def choose_losses(state: FiefState, side: Side, hits: int, plan: BattlePlan) -> Losses:
    """The losses ``side`` takes from ``hits`` (6.2.3.4), chosen with its leader's ``plan``."""
    kinds = kind_order(plan)
    kind_rank = {k: i for i, k in enumerate(kinds)}
    fam_rank = {f: i for i, f in enumerate(family_order(side, plan))}

    def key(pid: str) -> tuple:
        pawn = state.pawns[pid]
        return kind_rank[pawn.kind], fam_rank.get(pawn.family, len(fam_rank)), _pawn_key(pid)

    pool = fighters(state, side)
    ones = sorted((p for p in pool if combat_points(state, state.pawns[p].kind) == 1), key=key)
    threes = sorted((p for p in pool if combat_points(state, state.pawns[p].kind) == 3), key=key)
    best: tuple[int, list[int]] | None = None
    chosen: list[str] = []
    for j in range(min(len(threes), hits // 3) + 1):
        n1 = min(len(ones), hits - 3 * j)
        picked = threes[:j] + ones[:n1]
        counts = [0] * len(kinds)
        for pid in picked:
            counts[kind_rank[state.pawns[pid].kind]] += 1
        score = (n1 + 3 * j, counts)      # most hits used; then most of the preferred kinds
        if best is None or score > best:
            best, chosen = score, picked
    used = best[0] if best else 0
    losses = Losses(pawns=chosen)
    left = hits - used
    if len(chosen) == len(pool) and left > 0:
        # Every unit pawn but bombards is gone: the remaining hits fall on lords, 1 each.
        order = lord_order(state, side, plan)
        losses.lords = order[:left]
        left -= len(losses.lords)
    losses.wasted = left
    return losses


def lord_order(state: FiefState, side: Side, plan: BattlePlan) -> list[str]:
    """Lords in the order they are lost: the plan's `lords_first`, then (Rulings) confederates'
    before the leader's, fewest titles first, then by name."""
    fam_rank = {f: i for i, f in enumerate(family_order(side, plan))}
    first = [n for n in plan.lords_first if n in side.lords]
    rest = sorted((n for n in side.lords if n not in first),
                  key=lambda n: (fam_rank.get(state.lords[n].family, len(fam_rank)),
                                 state.lords[n].title_count(), n))
    return first + rest


def lone_bombards(state: FiefState, town: str, families: list[str]) -> list[str]:
    """4.3, 6.2.3.4: bombards of these families in ``town`` with no unit pawn nor lord (not
    captive) of their family beside them. One pass over pawns and lords."""
    wanted = set(families)
    bombards: dict[str, list[str]] = {}
    company: set[str] = set()
    for pawn in state.pawns.values():
        if pawn.location == town and pawn.family in wanted:
            if pawn.kind == "bombard":
                bombards.setdefault(pawn.family, []).append(pawn.id)
            else:
                company.add(pawn.family)
    for lord in state.lords.values():
        if lord.location == town and not lord.captive_of:
            company.add(lord.family)
    return [pid for fam, pids in bombards.items() if fam not in company for pid in pids]
