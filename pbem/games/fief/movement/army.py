"""An army on the move (5.1): a lord, the lords and captives going with them, and unit pawns.

Holds what one lord's move is carrying, and how far each member may still go:
every lord and unit pawn moves at most the edition's steps a round, even through different lords
(5.1.1); more with a lord whose title gives a bonus (the edition's ``title_bonus`` hook; France:
3 with the D'Arc lord, for her and for every force that joins her for at least 1 step,
G.4.1.1). Royal guard pawns never leave their lord's army (1.5.5).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pbem.games.fief.movement.presence import Place, Presence
from pbem.games.fief.edition import edition_of
from pbem.games.fief.state import FiefState, Pawn


@dataclass
class Army:
    family: str
    leader: str
    place: Place
    lords: list[str] = field(default_factory=list)      # companions (not the leader), 5.1.1
    captives: list[str] = field(default_factory=list)   # carried like unit pawns (6.3)
    pawns: list[str] = field(default_factory=list)      # pawn ids
    came_from: str | None = None   # the town left by the last step (where `back` goes)
    steps: int = 0                 # steps made in this move
    naval: bool = False            # made a naval step (no cavalcade then, 5.3)
    cavalcade: bool = False        # made a cavalcade (no naval step then, 5.3) - battle issue
    underground: bool = False      # the last step was made by an underground card (G.4.2.2)

    def all_lords(self) -> list[str]:
        return [self.leader] + self.lords

    def carried_lords(self) -> list[str]:
        return self.all_lords() + self.captives


class StepBudget:
    """Steps made this round by lords and pawns live in the state (Lord.steps, Pawn.steps);
    this remembers who joined an army with a bonus of steps (G.4.1.1: whoever joins the D'Arc
    lord for a step keeps her 3 steps for the round)."""

    def __init__(self, state: FiefState):
        self.state = state
        self.edition = edition_of(state)
        self.joined: dict[str, int] = {}   # member -> the bonus steps of the army it joined

    def army_steps(self, army: Army) -> int | None:
        """G.4.1.1: the steps a round of an army with a lord whose title gives a bonus, or None."""
        bonus = self.edition.bonus(self.state.lords[n].political for n in army.all_lords() if n in self.state.lords)
        return bonus.steps if bonus else None

    def limit(self, member: str, army_steps: int | None) -> int:
        limits = [self.edition.steps_per_round, army_steps or 0, self.joined.get(member, 0)]   # 5.1.1
        if member.startswith("L:"):
            bonus = self.edition.bonus([self.state.lords[member[2:]].political])
            limits.append(bonus.steps if bonus else 0)
        return max(limits)

    def made(self, member: str) -> int:
        if member.startswith("L:"):
            return self.state.lords[member[2:]].steps
        return self.state.pawns[member[2:]].steps

    def can_step(self, member: str, army_steps: int | None) -> bool:
        return self.made(member) < self.limit(member, army_steps)

    def step(self, member: str, army_steps: int | None) -> None:
        if member.startswith("L:"):
            self.state.lords[member[2:]].steps += 1
        else:
            self.state.pawns[member[2:]].steps += 1
        if army_steps:
            self.joined[member] = max(army_steps, self.joined.get(member, 0))


def guard_follows(state: FiefState, pawn: Pawn, lords: list[str]) -> bool:
    """A royal guard pawn goes only with the army of a lord it serves (1.5.5; France: the king's,
    the queen's; the edition's `guard_serves` hook names the lord a pawn serves, England 13.1)."""
    hooks = edition_of(state).hooks
    guard = hooks.royal_guard.get(pawn.kind)
    if guard is None:
        return False
    if hooks.guard_serves is not None:
        return any(hooks.guard_serves(state, pawn, n) for n in lords if n in state.lords)
    return any(state.lords[n].political in guard.titles for n in lords if n in state.lords)


def pick_pawns(state: FiefState, presence: Presence, budget: StepBudget, place: Place, family: str,
               wanted: dict | str, army_steps: int | None, exclude: set[str]) -> tuple[list[str], dict[str, int]]:
    """Pawns of ``family`` at ``place`` for a `with`/`pick_up` request ("all" or kind -> count),
    those with the most steps left first. Returns (pawn ids, shortfall by kind)."""
    free: dict[str, list[str]] = {}
    for member in presence.members_at(place, family):
        if not member.startswith("P:") or member[2:] in exclude:
            continue
        pawn = state.pawns[member[2:]]
        if pawn.kind in budget.edition.hooks.royal_guard or not budget.can_step(member, army_steps):
            continue
        free.setdefault(pawn.kind, []).append(pawn.id)
    for ids in free.values():
        ids.sort(key=lambda pid: (state.pawns[pid].steps, _num(pid)))
    if isinstance(wanted, str):   # "all"
        return [pid for kind in sorted(free) for pid in free[kind]], {}
    taken: list[str] = []
    short: dict[str, int] = {}
    for kind, count in wanted.items():
        have = free.get(kind, [])
        taken += have[:count]
        if len(have) < count:
            short[kind] = count - len(have)
    return taken, short


def _num(pid: str) -> int:
    digits = "".join(c for c in pid if c.isdigit())
    return int(digits) if digits else 0
