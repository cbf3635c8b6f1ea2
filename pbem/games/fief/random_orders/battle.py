"""The Battle Phase (6; England 7): battles where I have a lord beside another family's forces,
sieges of fortresses I stand by, lifts, plunder of mills, captives released or handed over;
England's attack on the Invaders (7.0, 6.8), its Abbey pillage (2.13) and trebuchets (7.9)."""
from __future__ import annotations

from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import JSON, captives_of_mine, england, free_lords, my_units, present


def battle_orders(view: JSON, player: str, draw: Draws) -> list[Item]:
    items: list[Item] = []
    towns = sorted({view["lords"][n]["location"] for n in free_lords(view, player)} & set(view["towns"]))
    for town in draw.some(towns, 2):
        items += _at(view, player, town, draw)
    for town, info in view["towns"].items():   # 6.5: plunder where the mills are
        if info.get("mills") and info.get("controller") == player and draw.chance(30):
            items.append({"plunder": town, "mills": 1 + draw.below(info["mills"])})
    for captive in captives_of_mine(view, player):
        if draw.chance(10):
            items.append({"release": captive})
        elif draw.chance(10):
            where = view["lords"][captive]["location"]
            takers = [f for f in present(view, where) if f != player] if where in view["towns"] else []
            if takers:
                items.append({"transfer": captive, "to": draw.pick(takers)})
    return items


def _at(view: JSON, player: str, town: str, draw: Draws) -> list[Item]:
    info = view["towns"][town]
    enemies = [f for f in present(view, town) if f != player]
    items: list[Item] = []
    troop = any(n for k, n in my_units(view, player, town).items() if k not in ("bombard", "trebuchet"))
    if enemies and (troop or draw.chance(10)) and draw.chance(70):
        items.append({"attack": draw.pick(enemies), "in": town})
    if info.get("fortress") and info.get("controller") not in (player, None) and draw.chance(50):
        items.append({"siege": town})
    if player in (info.get("besiegers") or {}) and draw.chance(20):
        items.append({"lift": town})
    if england(view):
        armies = [a for a, army in (view.get("invaders") or {}).get("armies", {}).items() if army.get("city") == town]
        if armies and draw.chance(60):
            items.append({"attack_invaders": town})
        if player in (info.get("besiegers") or {}) and draw.chance(15):
            items.append({"construct": town})
    return items
