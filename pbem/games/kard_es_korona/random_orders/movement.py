"""Random movement orders (III. Movement): a list of steps, each into one county from one or
more counties at once, with the units those counties held at the start of the year (each
unit moves once), within their movement points on the open board; the lord in one step at
most, mostly with an escort left where he stands; an overlord's veto of some vassals. A step
into others' units is an attack (a battle, a siege of a castle). The `battle:` part is
battle_plan's."""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona.board import Board, load_board
from pbem.games.kard_es_korona.random_orders import battle_plan, draw
from pbem.games.kard_es_korona.routes import cheapest, points
from pbem.games.kard_es_korona.state import no_units, total
from pbem.games.kard_es_korona.units import UNIT_KINDS, WARLORD_MOVEMENT_POINTS
from pbem.rules.rng import Rng

# A step's units may set out from any county within their movement points, not only one bordering
# the target (the raid from a distance, l.248): any step may turn into an attack from afar.


def write(view: dict[str, Any], player: str, rng: Rng) -> list[str]:
    board = load_board(view["version"])
    left = {c: dict(view["armies"][c]["units"]) for c in board.counties
            if view["armies"].get(c, {}).get("owner") == player}
    lord = view["lords"].get(player)
    steps: list[dict[str, Any]] = []
    allowed = view["steps_allowed"][player]
    for _ in range(0 if draw.chance(rng, 10) else draw.between(rng, 1, allowed)):
        step = _step(board, view, left, lord if not any(s["lord"] for s in steps) else None, rng)
        if step is not None:
            steps.append(step)
    lines = _steps_text(steps, rng)
    lines += battle_plan.write(view, player, rng, [s["to"] for s in steps], left)
    vassals = [p for p in view["players"] if view["vassal_of"].get(p) == player]
    if vassals and draw.chance(rng, 50):
        lines.append(f"veto: {draw.flow_list([draw.name(v) for v in draw.some(rng, vassals, at_least=1)])}")
    if view.get("movement_method") == "traditional" and player == view.get("starting") and draw.chance(rng, 40):
        lines.append(f"move: {draw.pick(rng, ('last', 'first', 'Last'))}")   # VI (l.360): the starting player's choice
    return lines


def _steps_text(steps: list[dict[str, Any]], rng: Rng) -> list[str]:
    if not steps:
        return ["steps: []"] if draw.chance(rng, 70) else []
    lines = ["steps:"]
    for step in steps:
        lines.append(f"  - to: {draw.county(rng, step['to'])}")
        if step["from"]:
            lines.append(f"    from: {draw.county_units(rng, step['from'])}")
        if step["lord"]:
            lines.append(f"    lord: {draw.pick(rng, ('yes', 'yes', 'true'))}")
        elif draw.chance(rng, 5):
            lines.append("    lord: no")
    return lines


def _step(board: Board, view: dict[str, Any], left: dict[str, dict[str, int]], lord: str | None,
          rng: Rng) -> dict[str, Any] | None:
    """One step from the units still free this year (``left``, taken out of it), or None."""
    ready = [c for c, u in left.items() if total(u)]
    if not ready:
        return None
    first = draw.pick(rng, ready)
    reach = _reach(board, view, first)
    if not reach:
        return None
    to = draw.pick(rng, list(reach))
    with_lord = lord is not None and draw.chance(rng, 35) and _lord_reaches(board, view, lord, to)
    sources = {first: reach[to]} | {c: cost for c in ready if c not in (first, to) and draw.chance(rng, 25)
                                    and (cost := _cost(board, view, c, to)) is not None}
    moving = {}
    for src, cost in sources.items():
        keep = 1 if src == lord and not with_lord and draw.chance(rng, 90) else 0   # II: the lord's escort
        units = _some_units(left[src], cost, keep, rng)
        if total(units):
            moving[src] = units
            for kind in UNIT_KINDS:
                left[src][kind] -= units[kind]
    if not moving and not (with_lord and to in left):
        return None
    return {"to": to, "from": moving, "lord": with_lord}


def _reach(board: Board, view: dict[str, Any], src: str) -> dict[str, int]:
    """The counties a step from ``src`` may go into, with the way's cost (as the check finds it)."""
    near = set(board.borders[src])
    for _ in range(WARLORD_MOVEMENT_POINTS - 1):
        near |= {n for c in near for n in board.borders[c]}
    out = {}
    for county in board.counties:
        if county in near and county != src and (cost := _cost(board, view, src, county)) is not None:
            out[county] = cost
    return out


def _lord_reaches(board: Board, view: dict[str, Any], lord: str, to: str) -> bool:
    """The lord goes with a step from up to his 4 movement points away (II): he is no unit's
    source, so a distant lord is no attack from a distance."""
    cost = cheapest(board, lord, to, lambda c: c not in view["closed"]) if lord != to else None
    return cost is not None and cost <= WARLORD_MOVEMENT_POINTS


def _cost(board: Board, view: dict[str, Any], src: str, to: str) -> int | None:
    if to in view["closed"] or src == to:
        return None
    return cheapest(board, src, to, lambda c: c not in view["closed"])


def _some_units(have: dict[str, int], cost: int, keep: int, rng: Rng) -> dict[str, int]:
    """Some of ``have`` that can pay ``cost`` movement points, leaving ``keep`` behind."""
    kinds = [k for k in UNIT_KINDS if have[k] and points({k: 1}, False) >= cost]
    out = no_units()
    room = min(total({k: have[k] for k in kinds}), total(have) - keep)
    for kind in draw.some(rng, kinds, at_least=1):
        n = draw.between(rng, 1, min(have[kind], room)) if room > 0 else 0
        out[kind] = n
        room -= n
    return out
