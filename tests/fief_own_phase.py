"""A test edition's own phase, for tests/test_fief_edition.py: France's hooks plus a trivial
round step (no England rule), as an edition like England adds its Invaders phase (6.0-6.13)
through its `phases` hook. Named as the `hooks:` of an edition record by its module path."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.round import Step
from pbem.games.fief.state import FiefState
from pbem.games.fief_france.hooks import HOOKS as FRANCE
from pbem.rules.api import Event
from pbem.rules.rng import Rng


def muster(state: FiefState, board: Board, orders: Mapping[str, Any], rng: Rng) -> list[Event]:
    return [Event("muster", f"Round {state.round}: the families muster (the test edition's own phase).",
                  data={"round": state.round})]


MUSTER = Step("muster", "Muster (a test edition's phase)", "nothing to order but policies", True, muster)
HOOKS = replace(FRANCE, phases=(MUSTER,))
