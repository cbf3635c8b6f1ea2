"""France's surprise cards held for later (G.4, `policies: surprise:`): an ambush in a battle, an
underground card at a battle's start, uprisings when a tax is collected, a famine strikes, a lord
leaves a town or a battle starts, and a card (or a town's control) at a phase's start."""
from __future__ import annotations

from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import JSON, board_of, controlled, my_lords, others, present

PHASES = ("hear_ye", "hear_ye_votes", "cards_play", "income", "purchase", "movement", "battle", "end_of_round")


def surprise_triggers(view: JSON, player: str, draw: Draws) -> list[Item]:
    hand = list(view.get("hand") or [])
    towns = list(board_of(view).towns)
    theirs = [n for p in others(view, player) for n in my_lords(view, p) if view["lords"][n]["location"]]
    items: list[Item] = []
    if "ambush" in hand and theirs and draw.chance(50):
        lord = draw.pick(theirs)
        items.append({"ambush": lord, "in": view["lords"][lord]["location"]})
    if "underground" in hand and draw.chance(30):
        items.append({"at_battle_start": draw.pick(towns), "card": "underground"})
    if "uprising" in hand and draw.chance(50):
        trigger = draw.pick(["uprising_when_taxed", "uprising_on_famine", "uprising_before_move",
                             "uprising_at_battle_start"])
        item: Item = {trigger: draw.pick(towns)}
        if trigger == "uprising_before_move" and draw.chance(50) and others(view, player):
            item["against"] = [draw.pick(others(view, player))]
        items.append(item)
    if "underground" in hand and draw.chance(15):
        items.append({"underground_in_uprising": draw.pick(towns)})
    shared = [t for t in controlled(view, player) if len(present(view, t)) > 1]
    if shared and draw.chance(20):
        town = draw.pick(shared)
        items.append({"at_phase_start": draw.pick(PHASES), "transfer": town,
                      "to": draw.pick([f for f in present(view, town) if f != player])})
    if "assassination" in hand and theirs and draw.chance(30):
        mine = [n for n in my_lords(view, player) if view["lords"][n]["location"]]
        if mine:
            items.append({"at_phase_start": draw.pick(PHASES), "play": "assassination",
                          "on": draw.pick(theirs), "sponsor": draw.pick(mine)})
    return items
