"""What every player sees of the Invaders (E 6.0; docs/fief-england.md "What each player
sees"): the armies on the board, their Leaders and Foot Soldiers, their captives, which are in
the supply or gone for good, and what they destroyed - all public, the markers lying on the
board. Nothing of a compass draw or landing die exists before it is made, so nothing about the
Invaders' next moves can be shown."""
from __future__ import annotations

import copy
from typing import Any

from pbem.games.fief.board import Board
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.invaders.armies import KEY, new_record


def invaders_view(state: FiefState, board: Board, player: str | None) -> dict[str, Any]:
    rec = state.edition_state.get(KEY) or new_record()
    armies = {a: {k: copy.deepcopy(x[k]) for k in ("city", "leader", "foot", "captives", "holds", "follows")}
              for a, x in rec["armies"].items()}
    return {"invaders": {"armies": armies, "gone": list(rec["gone"]), "destroyed": copy.deepcopy(rec["destroyed"]),
                         "sent_away": copy.deepcopy(rec.get("sent_away", []))}}
