"""Random orders for Kard és Korona (pbem.rules.api.WritesRandomOrders): the body of an order
mail for the open phase, in the order language (docs/orders-kard-es-korona.md), written from
the player's view alone with draws from the ``Rng`` only. One module a phase's kind of orders:

    placement     counties (advanced), the starting army, the lord (III)
    recruitment   units in the castles, the ransom (III; II)
    movement      the steps, attacks and sieges, the veto (III; V); battle_plan: `battle:`
    election      the bid, the Palatine's tie choice (IV)

Besides the phase's orders, sometimes a gift of garas done at once (`give:`, I), never during
an election (IV). Mostly legal, varied (counts, targets, spellings, sometimes nothing); now and
then one mistake (mistakes.py), which the judge must refuse with the line named. The start of
the computer players; the property tests' players (tests/test_random_orders_kek.py).
"""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona.random_orders import draw, election, mistakes, movement, placement, recruitment
from pbem.rules.rng import Rng

GIFT_PERCENT = 8
MAX_GIFT = 6


def random_orders(view: dict[str, Any], player: str, rng: Rng) -> str:
    step = view["step"]
    gifts = _gifts(view, player, rng) if not step.startswith("election-") else {}
    money = view["treasury"][player] - sum(gifts.values())
    if step == "placement":
        lines = placement.write(view, player, rng)
    elif step == "recruitment":
        lines = recruitment.write(view, player, rng, money)
    elif step == "movement":
        lines = movement.write(view, player, rng)
    elif step.startswith("election-"):
        lines = election.write(view, player, rng)
    else:   # a phase without orders: nothing to write
        lines = []
    if gifts:
        lines.append("give: {" + ", ".join(f"{draw.name(p)}: {n}" for p, n in gifts.items()) + "}")
    lines = mistakes.maybe(view, lines, rng)
    return "\n".join(lines) + "\n" if lines else ""


def _gifts(view: dict[str, Any], player: str, rng: Rng) -> dict[str, int]:
    """I: garas handed to one or two other players at once (as a price or a pledge)."""
    money = view["treasury"][player]
    others = [p for p in view["players"] if p != player and p not in view["eliminated"]]
    if money < 1 or not others or not draw.chance(rng, GIFT_PERCENT):
        return {}
    out: dict[str, int] = {}
    for other in draw.some(rng, others, 2, 1):
        if money - sum(out.values()) >= 1:
            out[other] = draw.between(rng, 1, min(MAX_GIFT, money - sum(out.values())))
    return out
