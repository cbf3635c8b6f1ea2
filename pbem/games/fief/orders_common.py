"""Reading a Fief order document: what is Fief's own beside the shared helpers of
pbem.orders.reading (a town of the board, a card's name, the rules version a view shows)."""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import Board
from pbem.orders.reading import Problems, fold, suggest
from pbem.rules.api import RULES_VERSION_KEY


def view_rules_version(view: Any) -> int:
    """The rules version of the game a view shows (FiefState.rules_version): 1 for a game stored
    before versions were recorded. Orders are checked by the rules their game is played by."""
    return int((view.get("options") or {}).get(RULES_VERSION_KEY, 1))


def card_word(text: Any) -> str | None:
    """A card kind as written (`good weather`, `D'Arc`, `Assassination`) -> its id's form
    (good_weather, darc, assassination), or None for what is not text."""
    if not isinstance(text, str):
        return None
    return fold(text).replace(" ", "_").replace("-", "_").replace("'", "")


def town_name(board: Board, text: Any, line: int | None, problems: Problems) -> str | None:
    if not isinstance(text, str):
        problems.add(line, "a town name is expected here", "write the town's name, e.g. Tours")
        return None
    town = board.find_town(text)
    if town is None:
        problems.add(line, f"there is no town called {text!r}", suggest(text, board.towns))
    return town
