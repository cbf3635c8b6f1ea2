"""3.3 Invaders Present: while Invaders are anywhere in England, every player's income total is
halved, rounded up (Ex 3.3: the Marches' 8 shillings become 4, Wales' 7 become 4). England's
``income_total`` hook (pbem/games/fief/hooks.py). Scorched earth's shillings come after income
and are not halved (R26)."""
from __future__ import annotations

from pbem.games.fief.state import FiefState
from pbem.games.fief_england.invaders.armies import present


def halved_income(state: FiefState, family: str, total: int) -> tuple[int, str | None]:
    if not present(state) or not total:
        return total, None
    return -(-total // 2), f"halved from {total}, rounded up: Invaders are in England (3.3)"
