"""Words for the battle reports (battle/engine.py): pawns and losses in plain English, reusing the
movement reports' names for unit kinds."""
from __future__ import annotations

from pbem.games.fief.edition import edition_of
from pbem.games.fief.battle.forces import kinds_count
from pbem.games.fief.battle.losses import Losses
from pbem.games.fief.movement.events import units_text
from pbem.games.fief.state import FiefState

__all__ = ["units_text", "losses_text"]


def losses_text(state: FiefState, losses: Losses) -> str:
    """Called before the losses are applied (the pawns are still in the state)."""
    parts = []
    if losses.pawns:
        parts.append(units_text(edition_of(state), dict(sorted(kinds_count(state, losses.pawns).items()))))
    if losses.lords:
        parts.append("the lord" + ("s " if len(losses.lords) > 1 else " ") + ", ".join(losses.lords))
    out = " and ".join(parts) or "nothing"
    if losses.wasted:
        out += f" ({losses.wasted} {'hit has' if losses.wasted == 1 else 'hits have'} no effect)"
    return out
