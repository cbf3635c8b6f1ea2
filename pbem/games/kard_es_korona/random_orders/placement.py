"""Random placement orders (III. Placing Units at the Start of the Game): the advanced game's
six bordering counties with at most one castle, the starting army spread over the player's
counties within the castles' limits, the lord with some of his units."""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona.board import Board, load_board
from pbem.games.kard_es_korona.placement import default
from pbem.games.kard_es_korona.random_orders import draw
from pbem.games.kard_es_korona.setup import ADVANCED_COUNTIES, advanced_choice_problem
from pbem.games.kard_es_korona.state import castle_problem, no_units, total
from pbem.games.kard_es_korona.units import STARTING_ARMY, UNIT_KINDS
from pbem.rules.rng import Rng

TRIES = 8


def write(view: dict[str, Any], player: str, rng: Rng) -> list[str]:
    board = load_board(view["version"])
    home = view["home"][player]
    lines = []
    held = board.in_province(home)
    if view["version"] == "advanced":
        held = _six(board, home, rng) or default(view, player)["counties"]
        lines.append(f"counties: {draw.flow_list([draw.county(rng, c) for c in held])}")
    place = _spread(board, view["version"], held, rng)
    lines.append("place:")
    lines += [f"  {draw.county(rng, c)}: {draw.units(rng, u)}" for c, u in place.items()]
    lines.append(f"lord: {draw.county(rng, draw.pick(rng, list(place)))}")
    return lines


def _six(board: Board, home: str, rng: Rng) -> list[str] | None:
    """Six counties of ``home`` grown from a random one through its borders, one castle at most."""
    province = board.in_province(home)
    for _ in range(TRIES):
        chosen = [draw.pick(rng, province)]
        while len(chosen) < ADVANCED_COUNTIES:
            castle = any(board.counties[c].castle for c in chosen)
            around = [n for c in chosen for n in board.borders[c] if n in province and n not in chosen
                      and not (castle and board.counties[n].castle)]
            if not around:
                break
            chosen.append(draw.pick(rng, sorted(set(around), key=province.index)))
        if advanced_choice_problem(board, home, chosen) is None:
            return chosen
    return None


def _spread(board: Board, version: str, held: list[str], rng: Rng) -> dict[str, dict[str, int]]:
    """Every unit of the starting army into one of a few counties, within a castle's limits."""
    army = [k for k in UNIT_KINDS for _ in range(STARTING_ARMY[version][k])]
    rng.shuffle(army, "random orders")
    counties = draw.some(rng, held, at_least=1)
    place = {c: no_units() for c in counties}
    for kind in army:
        fits = [c for c in counties if not board.counties[c].castle
                or castle_problem(version, {**place[c], kind: place[c][kind] + 1}) is None]
        where = draw.pick(rng, fits or [c for c in held if not board.counties[c].castle])
        place.setdefault(where, no_units())[kind] += 1
    return {c: u for c, u in place.items() if total(u)}
