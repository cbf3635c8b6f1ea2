"""The cheapest way between counties and a moving group's movement points (II. Cavalry,
Infantry, Archers; II. Natural Obstacles; III. Movement into an Empty County)."""
from __future__ import annotations

from typing import Callable

from pbem.games.kard_es_korona.board import Board
from pbem.games.kard_es_korona.units import MOVEMENT_POINTS, UNIT_KINDS, WARLORD_MOVEMENT_POINTS


def cheapest(board: Board, src: str, dst: str, passable: Callable[[str], bool]) -> int | None:
    """Movement points of the cheapest way from ``src`` into ``dst`` through counties for which
    ``passable(county)`` holds (the target need not be passable), or None (Dijkstra)."""
    best = {src: 0}
    todo = [(0, src)]
    while todo:
        todo.sort()
        cost, here = todo.pop(0)
        if here == dst:
            return cost
        if cost > best.get(here, 99) or (here != src and not passable(here)):
            continue
        for nxt in board.borders[here]:
            c = cost + board.step_cost(here, nxt)
            if c < best.get(nxt, 99) and c <= WARLORD_MOVEMENT_POINTS:
                best[nxt] = c
                todo.append((c, nxt))
    return None


def points(units: dict[str, int], lord: bool) -> int:
    """The movement points of a moving group: its slowest member's (II)."""
    kinds = [MOVEMENT_POINTS[k] for k in UNIT_KINDS if units.get(k)]
    return min(kinds + ([WARLORD_MOVEMENT_POINTS] if lord else []))


def entry(board: Board, src: str, dst: str, passable: Callable[[str], bool]) -> str | None:
    """The county from which a cheapest way from ``src`` steps into ``dst``: the county an army
    "came directly into the battle" from (III. Siege, l.254; VI. Retreat / Flight). ``src``
    itself when it borders ``dst`` on a cheapest way, else the first such neighbour in board
    order; None when ``dst`` cannot be reached."""
    best = cheapest(board, src, dst, passable)
    if best is None:
        return None
    if dst in board.borders[src] and board.step_cost(src, dst) == best:
        return src
    for near in sorted(board.borders[dst]):
        if near != src and passable(near):
            cost = cheapest(board, src, near, passable)
            if cost is not None and cost + board.step_cost(near, dst) == best:
                return near
    return None
