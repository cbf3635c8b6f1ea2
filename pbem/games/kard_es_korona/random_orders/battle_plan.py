"""Random standing battle orders (the `battle:` part of the movement orders; the battle plan's
fields, docs/kard-es-korona.md "Battle orders", and the game's own two): which enemy units the
hits remove first, whom the lord leads, own losses, the Judge Royal's re-roll, the order of
one's battles, changes for one county; in the advanced game when and where to retreat and
whether to pursue (VI); the vassal oath or the escape roll if the lord is defeated (V); the
victorious lord's extra step (III, l.262). Often nothing: the defaults."""
from __future__ import annotations

from typing import Any, Callable

from pbem.games.kard_es_korona.board import load_board
from pbem.games.kard_es_korona.random_orders import draw
from pbem.games.kard_es_korona.state import total
from pbem.games.kard_es_korona.units import UNIT_KINDS
from pbem.rules.rng import Rng

Field = Callable[[dict[str, Any], Rng, list[str]], str]


def write(view: dict[str, Any], player: str, rng: Rng, targets: list[str],
          left: dict[str, dict[str, int]]) -> list[str]:
    """``targets``: the counties of this year's steps; ``left``: the units that stay put."""
    if draw.chance(rng, 35):
        return []
    fields = [f"{key}: {value}" for key, value in _plan(view, rng, targets, county_fields=False).items()]
    if targets and draw.chance(rng, 20):
        changes = {c: _plan(view, rng, targets, county_fields=True) for c in draw.some(rng, targets, 2, 1)}
        parts = [f"{draw.county(rng, c)}: {{{', '.join(f'{k}: {v}' for k, v in plan.items())}}}"
                 for c, plan in changes.items() if plan]
        if parts:
            fields.append(f"counties: {{{', '.join(parts)}}}")
    if draw.chance(rng, 60):
        fields.append(f"if_defeated: {draw.pick(rng, ('oath', 'escape', 'escape', 'Oath', 'elimination'))}")
    extra = _after_victory(view, player, rng, left)
    if extra:
        fields.append(f"after_victory: {extra}")
    return ["battle:"] + [f"  {f}" for f in fields] if fields or draw.chance(rng, 20) else []


def _plan(view: dict[str, Any], rng: Rng, targets: list[str], county_fields: bool) -> dict[str, str]:
    """Some of the plan's fields (``county_fields``: only those a county's changes may hold)."""
    fields: dict[str, Field] = {"priorities": _kinds, "lord_leads": _lord_leads, "losses": _kinds, "reroll": _reroll}
    if view["version"] == "advanced":   # VI. Retreat / Flight
        fields |= {"retreat": _retreat, "retreat_to": _retreat_to, "pursue": _pursue}
    if not county_fields:
        fields["order"] = _order
    return {key: write_field(view, rng, targets) for key, write_field in fields.items() if draw.chance(rng, 30)}


def _kinds(view: dict[str, Any], rng: Rng, targets: list[str]) -> str:
    return draw.flow_list([draw.kind(rng, k) for k in draw.some(rng, UNIT_KINDS, at_least=1)])


def _lord_leads(view: dict[str, Any], rng: Rng, targets: list[str]) -> str:
    return draw.kind(rng, draw.pick(rng, UNIT_KINDS)) if draw.chance(rng, 50) else _kinds(view, rng, targets)


def _reroll(view: dict[str, Any], rng: Rng, targets: list[str]) -> str:
    return "never" if draw.chance(rng, 25) else str(draw.between(rng, 1, 4))


def _retreat(view: dict[str, Any], rng: Rng, targets: list[str]) -> str:
    roll = draw.below(rng, 4)
    if roll < 2:
        return ("never", "always")[roll]
    conditions = {"after_round": lambda: draw.between(rng, 1, 4), "outnumbered": lambda: draw.between(rng, 1, 3),
                  "units_at_most": lambda: draw.between(rng, 0, 3), "always": lambda: draw.pick(rng, ("yes", "no"))}
    chosen = draw.some(rng, list(conditions), at_least=1)
    return "{" + ", ".join(f"{key}: {conditions[key]()}" for key in chosen) + "}"


def _retreat_to(view: dict[str, Any], rng: Rng, targets: list[str]) -> str:
    board = load_board(view["version"])
    near = sorted({n for c in targets for n in board.borders[c]} - set(view["closed"]), key=list(board.counties).index)
    return draw.flow_list([draw.county(rng, c) for c in draw.some(rng, near or list(board.counties)[:3], 3, 1)])


def _pursue(view: dict[str, Any], rng: Rng, targets: list[str]) -> str:
    return draw.pick(rng, ("yes", "no"))


def _order(view: dict[str, Any], rng: Rng, targets: list[str]) -> str:
    return draw.flow_list([draw.county(rng, c) for c in draw.some(rng, targets, at_least=1)]) if targets \
        else draw.flow_list([draw.county(rng, draw.pick(rng, list(load_board(view["version"]).counties)))])


def _after_victory(view: dict[str, Any], player: str, rng: Rng, left: dict[str, dict[str, int]]) -> str | None:
    """III (l.262): some units that stay put join the victorious lord, or he goes to units of his."""
    if view["lords"].get(player) is None or not draw.chance(rng, 25):
        return None
    staying = [c for c, u in left.items() if total(u)]
    mine = [c for c in load_board(view["version"]).counties if view["armies"].get(c, {}).get("owner") == player]
    if staying and draw.chance(rng, 60):
        joining = {c: _few(left[c], rng) for c in draw.some(rng, staying, 2, 1)}
        return f"{{join: {draw.county_units(rng, joining)}}}"
    return f"{{lord_to: {draw.county(rng, draw.pick(rng, mine))}}}" if mine else None


def _few(have: dict[str, int], rng: Rng) -> dict[str, int]:
    kind = draw.pick(rng, [k for k in UNIT_KINDS if have[k]])
    return {kind: draw.between(rng, 1, have[kind])}
