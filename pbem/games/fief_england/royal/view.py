"""What every player sees of the royal family and the Garter (13.1, 13.3: all public - the
markers lie on the board and the cards): each guarded noble's markers, the Prince of Wales, the
Garter's holders, the Lords eligible and whether this round's Garter was given."""
from __future__ import annotations

from typing import Any

from pbem.games.fief.state import FiefState
from pbem.games.fief_england.royal import garter, guard
from pbem.games.fief_england.royal.succession import PRINCE


def royal_view(state: FiefState) -> dict[str, Any]:
    guards = {name: {"kind": given["kind"], "count": len(guard.guard_of(state, name))}
              for name, given in guard.guards(state).items()}
    prince = next((n for n, l in state.lords.items() if l.political == PRINCE), None)
    return {"guards": guards, "prince_of_wales": prince, "garter": garter.view(state)}


def view_part(state: FiefState) -> dict[str, Any]:
    """England's `view_parts` entry: ``royal``."""
    return {guard.KEY: royal_view(state)}
