"""The Battle Phase (6; England 7): attack a rival beside my army when I am the stronger by what
I see (fog of war: estimated), a fortress beside me besieged (6.4; England 7.9); never a
friend (a family married into mine, 1.1.2; my other family, 13.7). Captives are kept for their
ransoms (4.1)."""
from __future__ import annotations

from pbem.games.fief.computer.sight import defence, enemies_at, strength
from pbem.games.fief.computer.mail import Mail
from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import JSON, free_lords

ODDS = 1.2      # attack with a fifth more than the estimated defence


def battle_choices(view: JSON, player: str, draw: Draws, mail: Mail) -> list[list[Item]]:
    choices: list[list[Item]] = []
    towns = sorted({view["lords"][n]["location"] for n in free_lords(view, player)} & set(view["towns"]))
    for town in towns:
        info = view["towns"][town]
        mine = strength(view, town, player)
        for rival in sorted(enemies_at(view, town, player), key=lambda f: strength(view, town, f)):
            inside = info.get("fortress") and info.get("controller") == rival
            if inside:
                choices.append([{"siege": town}])
            elif mine >= ODDS * defence(view, town, rival):
                choices.append([{"attack": rival, "in": town}])
    return choices
