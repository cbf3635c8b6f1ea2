"""Random recruitment orders (III. Collecting Tax Income and Recruitment): a few units in some
of the castles the player may recruit in, within his treasury (the Palatine's prices), the
castles' limits and the cavalry limit; the ransom when his lord is captive and he can pay."""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona.economy import (BASIC_CAVALRY_TOTAL, RANSOM, castle_takes, price,
                                               recruit_places)
from pbem.games.kard_es_korona.random_orders import draw
from pbem.games.kard_es_korona.state import no_units, total
from pbem.games.kard_es_korona.units import UNIT_KINDS
from pbem.rules.rng import Rng


def write(view: dict[str, Any], player: str, rng: Rng, money: int) -> list[str]:
    """``money``: what the treasury holds once this mail's gifts are made."""
    lines = []
    if player in view["captive"] and money >= RANSOM and draw.chance(rng, 85):
        lines.append("ransom: yes")
        money -= RANSOM
    recruits = _recruits(view, player, rng, money)
    if recruits or draw.chance(rng, 50):
        lines.append(f"recruit: {draw.county_units(rng, recruits)}")
    return lines


def _recruits(view: dict[str, Any], player: str, rng: Rng, money: int) -> dict[str, dict[str, int]]:
    cost = price(view, player)
    limit = view["cavalry_limit"]
    cavalry_left = BASIC_CAVALRY_TOTAL if view["version"] == "basic" else 99
    out = {}
    for castle in draw.some(rng, recruit_places(view, player)):
        here = dict(view["armies"].get(castle, {"units": no_units()})["units"])
        add = no_units()
        for _ in range(draw.between(rng, 1, 5)):
            kind = draw.pick(rng, UNIT_KINDS)
            over = limit and kind == "cavalry" and cavalry_left <= 0
            if cost[kind] > money or over or not castle_takes(view, here, add, kind):
                continue
            add[kind] += 1
            money -= cost[kind]
            cavalry_left -= kind == "cavalry"
        if total(add):
            out[castle] = add
    return out
