"""The Movement (5) and Battle (6) Phase orders written back as a player writes them: the
canonical forms of movement/orders.py and battle/orders.py (with captives/ransom.py) turned back into
the order items those checkers read (docs/orders-fief-france-movement.md,
docs/orders-fief-france-battle.md). Nothing is decided here: each shape mirrors its checker.
"""
from __future__ import annotations

from typing import Any

# A move's keys always written; its other keys (lords, captives, leave, pick_up, give_control,
# the edition's card - France's `underground`, England's `passage` - and the edition's yes/no
# keys) are written when they say something (movement/orders.py: _Checker._move).
MOVE_BASE = ("lord", "with", "path", "if_refused")


def movement_items(orders: dict[str, Any]) -> list[dict[str, Any]]:
    items = [_move(move) for move in orders.get("moves") or []]
    if orders.get("land"):
        items.append({"land": orders["land"]})   # 5.3
    return items


def _move(move: dict[str, Any]) -> dict[str, Any]:
    item: dict[str, Any] = {"move": move["lord"]}
    if move.get("with"):
        item["with"] = move["with"]           # {kind: count} or all
    item["path"] = move["path"]
    if move.get("if_refused", "back") != "back":   # back is what a move leaves out (5.2.3.1)
        item["if_refused"] = move["if_refused"]
    item.update((key, value) for key, value in move.items() if key not in MOVE_BASE and value)
    return item


def battle_items(orders: dict[str, Any]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for captive in orders.get("captives") or []:   # 6.3, at the start of the phase
        if captive.get("release"):
            items.append({"release": captive["lord"]})
        else:
            items.append({"transfer": captive["lord"], "to": captive["transfer"]})
    items += [{"attack": b["target"], "in": b["town"]} for b in orders.get("battles") or []]
    items += [{o["verb"]: o["town"], **{k: v for k, v in o.items() if k not in ("verb", "town")}}
              for o in orders.get("own") or []]                      # an edition's own (BattleVerb)
    items += [{"lift": town} for town in orders.get("lifts") or []]    # 6.4.1: lifts are done first
    items += [{"siege": town} for town in orders.get("sieges") or []]
    for plunder in orders.get("plunder") or []:                      # 6.5: mills None = every mill
        item: dict[str, Any] = {"plunder": plunder["town"]}
        if plunder.get("mills") is not None:
            item["mills"] = plunder["mills"]
        item.update({k: v for k, v in plunder.items() if k not in ("town", "mills")})   # an edition's own keys
        items.append(item)
    return items
