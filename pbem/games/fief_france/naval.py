"""Fief: France's naval steps (5.3), the edition's ``naval`` hook: one off-shore area (the board's
one sea, ``offshore``, 5.3.1) joined to every harbor town (5.3.2). A naval step goes from a
harbor to the area, where the move ends, or from the area to a harbor; forces at sea since
before the Movement Phase must land (the core's movement lands them, movement/naval.py). The
disasters without the dice icon strike the area (2.5; the ``disaster_target`` hook).
"""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.hooks import DisasterStrike, Naval, die_names_a_bishopric
from pbem.games.fief.state import FiefState
from pbem.rules.rng import Rng

OFFSHORE = "offshore"   # 5.3.1: "a single zone in which all forces traveling by sea are placed" (board.yaml)


def disaster_target(state: FiefState, board: Board, name: str, dice_icon: bool, rng: Rng) -> DisasterStrike:
    """2.5: "If there is a dice icon on a disaster card, the first player rolls the D6 to determine
    which bishopric is affected by this disaster. A 6 means a false alarm" (the core's rule, France
    having 5 bishoprics); "If there is no dice icon on the disaster card, this means the card
    affects the offshore area" (ruling 41)."""
    if dice_icon:
        return die_names_a_bishopric(state, board, name, dice_icon, rng)
    return DisasterStrike(OFFSHORE, OFFSHORE, "it has no dice icon: ", "the offshore area", {"offshore": True})


def path_step(board: Board, here: str, town: str, index: int, length: int, start: str) -> tuple[str, str] | None:
    """5.3: a step of a movement mail's path to or from the off-shore area."""
    if town == OFFSHORE:
        if here == OFFSHORE:
            return ("the army is already offshore", "name a harbor town to land in")
        if start == OFFSHORE:
            return ("forces at sea since before this phase must land (5.3); they cannot go back to sea "
                    "this round", "end the path in a town")
        if not board.is_harbor(here):
            return (f"{here} is not a harbor town: a naval step leaves from a harbor (5.3)",
                    "harbors: " + ", ".join(board.harbors))
        if index != length - 1:
            return ("the movement of an army ends as soon as it enters the offshore area (5.3)",
                    "make `offshore` the last step of the path")
        return None
    if not board.is_harbor(town):
        return (f"{town} is not a harbor town: from the offshore area an army lands in a harbor (5.3)",
                "harbors: " + ", ".join(board.harbors))
    return None


def blocked(board: Board, cavalcade: bool, here: str, town: str) -> str | None:
    """5.3: a naval step as it is made: not after a cavalcade, and only from or to a harbor."""
    if cavalcade:
        return "an army that made a cavalcade cannot make a naval step (5.3)"
    if not board.is_harbor(here if town == OFFSHORE else town):
        return f"{town if here == OFFSHORE else here} is not a harbor town (5.3)"
    return None


NAVAL = Naval(path_step=path_step, blocked=blocked,
              template=("# Naval step (5.3): harbor <-> `offshore`; the move ends at sea; forces at sea must land",
                        "# next round."),
              from_harbor=", or `offshore` (harbor)")
