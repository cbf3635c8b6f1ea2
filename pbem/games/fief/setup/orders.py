"""The starting-town orders of the setup phase (A.5), as mailed:

    orders:
      - start: [Tours, Poitiers, Orléans]   # your preferences, best first

Resolved in turn order from the first player: each player gets their first choice that no
earlier player took; with none left (or none sent), the default town (setup/rules.py).
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import Board
from pbem.games.fief.orders_common import town_name
from pbem.orders.reading import Problems, as_seq, check_keys, verb_of
from pbem.orders.yamlsafe import line_of


def check_setup_orders(view: dict[str, Any], board: Board, items: list, problems: Problems) -> list[str]:
    towns: list[str] = []
    for index, item in enumerate(items):
        line = line_of(items, index)
        if verb_of(item, ("start",), line, problems) is None:
            continue
        check_keys(item, ("start",), "a `start` order", problems)
        if towns:
            problems.add(line, "give one `start:` list only", "put every town in the first list, best first")
            continue
        wishes = item["start"]
        for i, text in enumerate(as_seq(wishes, line_of(item, "start"), "start", problems)):
            where = line_of(wishes, i) if isinstance(wishes, list) else line_of(item, "start")
            town = town_name(board, text, where, problems)
            if town is None:
                continue
            if town in towns:
                problems.add(where, f"{town} is listed twice", "name each town once")
                continue
            towns.append(town)
    return towns
