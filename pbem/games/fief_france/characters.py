"""Fief: France's surprise character cards (G.4.1), the edition's ``characters`` hook: the D'Arc
card (G.4.1.1; what the D'Arc title then gives is the ``title_bonus`` hook) and the cardinal
cards (G.4.1.2, which the pope may refuse, D.2.3). The core plays them at once, puts a card that
took effect on the frieze and discards one that did not (surprise/play.py)."""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.hooks import Character
from pbem.games.fief.state import FiefState
from pbem.games.fief.surprise.play import eligible, pope_refuses
from pbem.rules.api import Event


def darc_problem(lord: Mapping[str, Any]) -> str | None:
    """G.4.1.1: an unmarried female lord who is not the regent queen (nor D'Arc already)."""
    if not lord["female"]:
        return "the D'Arc card goes on a female lord only (G.4.1.1)"
    if lord["spouse"]:
        return "she is married (G.4.1.1: an unmarried female lord only)"
    if lord["political"] == "regent_queen":
        return "she is the regent queen (G.4.1.1)"
    if lord["political"]:
        return f"she holds the {lord['political']} title already"
    return None


def darc(state: FiefState, board: Board, player: str, play: Mapping[str, Any]) -> list[Event] | str:
    lord = eligible(state, play, darc_problem)
    if isinstance(lord, str):
        return lord
    lord.political = "darc"   # G.4.1.1: 3 steps (5.1.1), +1 battle die (6.2.3.1)
    return [Event("darc", f"{lord.name} ({lord.family}) becomes {lord.name} D'Arc (G.4.1.1).",
                  data={"lord": lord.name, "family": lord.family})]


def cardinal_problem(lord: Mapping[str, Any]) -> str | None:
    """G.4.1.2: any bishop in play who is not a cardinal yet."""
    if not lord["bishopric"]:
        return "only a bishop may become a cardinal (G.4.1.2)"
    return "he is a cardinal already" if lord["cardinal"] else None


def cardinal_refused(state: FiefState, player: str, play: Mapping[str, Any]) -> Event | None:
    """D.2.3: the pope (of another family) may refuse a new cardinal: the card cannot be played."""
    refusal = pope_refuses(state, player)
    if refusal is None:
        return None
    return Event("cardinal_refused", f"{player} cannot play the Cardinal card: {refusal} (D.2.3).",
                 data={"player": player, "lord": play["on"]})


def cardinal(state: FiefState, board: Board, player: str, play: Mapping[str, Any]) -> list[Event] | str:
    lord = state.lords.get(play["on"])
    if lord is None or not lord.bishopric or lord.cardinal:
        return f"{play['on']} is no longer a bishop without the cardinal title"
    lord.cardinal = True    # G.4.1.2: even captive, even another family's (who cannot refuse)
    return [Event("cardinal_created", f"{lord.name} ({lord.family}), bishop of "
                  f"{board.bishoprics[lord.bishopric].name}, becomes a cardinal (G.4.1.2).",
                  data={"lord": lord.name, "family": lord.family})]


def _never_refused(state: FiefState, player: str, play: Mapping[str, Any]) -> Event | None:
    return None


CHARACTERS = {"darc": Character("D'Arc", darc_problem, _never_refused, darc),                     # G.4.1.1
              "cardinal": Character("Cardinal", cardinal_problem, cardinal_refused, cardinal)}   # G.4.1.2
