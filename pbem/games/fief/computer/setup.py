"""Setup (A.5; England X14, 13.6): the starting towns, best first. A good start is a town of a
small fief (its title needs every town of it, 4.4) with roads to take the rest, away from the
towns already taken; England's in the Region rolled for me."""
from __future__ import annotations

from pbem.games.fief.computer.sight import reach
from pbem.games.fief.computer.mail import Mail
from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import JSON, board_of


def setup_choices(view: JSON, player: str, draw: Draws, mail: Mail) -> list[list[Item]]:
    board = board_of(view)
    rolled = (view.get("setup") or {}).get("region")   # England 13.6: the Region rolled for me
    taken = {t for t, info in view["towns"].items() if info.get("controller") or info.get("forces")}
    towns = [t for t in board.towns if t not in taken and (not rolled or board.towns[t].fief == rolled)]
    if not towns:
        return []
    jitter = {t: draw.below(100) for t in towns}

    def worth(town: str) -> tuple:
        fief = board.fiefs[board.towns[town].fief] if board.towns[town].fief in board.fiefs else None
        size = len(fief.towns) if fief else 9
        near = reach(board, town, 2)
        crowded = sum(1 for t in near if t in taken)
        return (crowded, size, -len(near), jitter[town], town)

    best = sorted(towns, key=worth)[:4]
    return [[{"start": best}, {"start": best[:1]}]]
