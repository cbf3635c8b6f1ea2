"""What the Movement Phase (5) asks of the rules above it, which round.py hands in: the
battle rules fight a cavalcade (5.2.4: battle/phase.py, resolve_cavalcade), the surprise rules
fire the uprisings waiting for a lord to leave a town (5.2.1, G.4.2.1:
surprise/uprising_triggers.py, fire_before_move).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from pbem.games.fief.board import Board
from pbem.games.fief.movement.army import Army, StepBudget
from pbem.games.fief.state import FiefState
from pbem.rules.api import Event
from pbem.rules.rng import Rng


@dataclass(frozen=True)
class CavalcadeRequest:
    """What the battle rules need to fight a cavalcade (5.2.4) against one crossed family."""

    army: Army
    against: tuple[str, ...]   # the families refusing the passage
    town: str                  # the town being passed through (or left)
    road: tuple[str, str]      # the road the army wants to take
    budget: StepBudget         # the steps made this round: every member needs one left (5.1.1)
    # The refusing families' forces the army has to cross (presence members "P:id" / "L:name"):
    # those in the town (or besieging it) and those on the road.
    crossed: tuple[str, ...] = ()


@dataclass(frozen=True)
class CavalcadeResult:
    won: bool                  # the army may continue (a lord still leads it)
    events: tuple[Event, ...] = ()


CavalcadeResolver = Callable[[FiefState, Board, CavalcadeRequest, Rng], CavalcadeResult]
# 5.2.1, G.4.2.1: a lord of ``mover`` is about to leave ``town``, the moment the standing
# `uprising_before_move` triggers fire (surprise/uprising_triggers.py: fire_before_move, handed in
# by round.py): (state, board, rng, town, mover, lord, away) -> events; ``away()``: the pawn ids
# and lord names whose location names a town but who stand on a road to it.
BeforeMove = Callable[[FiefState, Board, Rng, str, str, str, Callable[[], frozenset[str]]], list[Event]]
