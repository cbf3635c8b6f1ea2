"""What a random player reads in its own view: its lords, its forces, the board it plays on
(public data, named by the view's game and options)."""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import Board, load_board
from pbem.games.fief.cards.deck import CardSet, load_cards
from pbem.games.fief.edition import load_edition, Edition

JSON = dict[str, Any]


def board_of(view: JSON) -> Board:
    return load_board(view["game"], view.get("options", {}).get("board", "board"))


def cards_of(view: JSON) -> CardSet:
    return load_cards(view["game"])


def edition_of(view: JSON) -> Edition:
    return load_edition(view["game"])


def england(view: JSON) -> bool:
    return view["game"] == "fief_england"


def my_lords(view: JSON, player: str) -> list[str]:
    return list(view["families"][player]["lords"])


def free_lords(view: JSON, player: str) -> list[str]:
    """My lords on the board and not captive."""
    return [n for n in my_lords(view, player)
            if view["lords"][n]["location"] and not view["lords"][n]["captive_of"]]


def captives_of_mine(view: JSON, player: str) -> list[str]:
    """Other families' lords my family holds."""
    return [n for n, lord in view["lords"].items() if lord.get("captive_of") == player]


def my_units(view: JSON, player: str, town: str) -> dict[str, int]:
    place = view["towns"].get(town) or {}
    return dict((place.get("forces", {}).get(player) or {}).get("units", {}))


def controlled(view: JSON, player: str) -> list[str]:
    return [t for t, info in view["towns"].items() if info.get("controller") == player]


def others(view: JSON, player: str) -> list[str]:
    return [p for p in view["players"] if p != player and not view["families"][p].get("eliminated")]


def present(view: JSON, town: str) -> list[str]:
    """The families with forces in ``town``."""
    forces = (view["towns"].get(town) or {}).get("forces", {})
    return [f for f, force in forces.items() if force.get("units") or force.get("lords")]


def all_lords(view: JSON) -> list[str]:
    return list(view["lords"])
