"""Kard és Korona's computer player (pbem.rules.api.PlaysAsComputer): the body of an order mail
for the open phase, in the order language (docs/orders-kard-es-korona.md), written from the
player's view alone and played to win (docs/kard-es-korona.md, "Computer player"). One module a
kind of decision:

    sight        reading the view: who stands where, the ways, threats, strengths
    odds         an attack's chance, the battle fought a few times on its own dice
    placement    the starting army and the lord (III)
    recruitment  the ransom, the election reserve, units in the threatened castles (III; II; IV)
    garrison     what each county keeps; targets: what a county is worth
    movement     the steps: the lord's safety, attacks, sieges, conquests, reinforcements
    battle_plan  the `battle:` part: the lord's kind, retreat, the oath or the escape (III; VI)
    election     the bids and the Palatine's ties (IV)

Deterministic: its only chance is the ``Rng`` handed in (for its trial battles); it never gives
garas away (I) and never vetoes its vassals' battles (V)."""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona.computer import election, movement, placement, recruitment
from pbem.rules.rng import Rng


def computer_orders(view: dict[str, Any], player: str, rng: Rng) -> str:
    step = view["step"]
    if step == "placement":
        lines = placement.write(view, player)
    elif step == "recruitment":
        lines = recruitment.write(view, player)
    elif step == "movement":
        lines = movement.write(view, player, rng)
    elif step.startswith("election-"):
        lines = election.write(view, player)
    else:   # a phase without orders
        lines = []
    return "\n".join(lines) + "\n" if lines else ""
