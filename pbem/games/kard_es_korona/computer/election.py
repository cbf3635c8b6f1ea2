"""The computer player's bids (IV. Election of Officials). Every office won in one election wins
the game (V.II), and the losers forfeit their bids, so it bids for the crown: a third of its
treasury for the Judge Royal, half of what is left for the Lord High Treasurer, all of it for the
Palatine once the first two are its own. Recruitment keeps a reserve for this (recruitment.py):
three times the richest rival's treasury (which outbids him at every office), or all it has. A rival
who holds the offices bid for so far is kept from the crown the same way (half, then all). As
Palatine it decides ties for itself (IV. Palatine)."""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona.computer.writing import names_text
from pbem.games.kard_es_korona.state import OFFICES


def write(view: dict[str, Any], player: str) -> list[str]:
    lines = []
    if player in view["bidders"]:
        lines.append(f"bid: {bid(view, player)}")
    if view["offices"]["palatine"] == player:
        lines.append(f"if_tied: {names_text([player])}")
    return lines


def bid(view: dict[str, Any], player: str) -> int:
    office = view["office"]
    money = view["treasury"][player]
    before = [view["offices"][o] for o in OFFICES[:OFFICES.index(office)]]
    last = office == OFFICES[-1]
    if not before:
        return money // 3
    if all(holder == player for holder in before):
        return money if last else money // 2                 # V.II: the crown is in reach
    if len(set(before)) == 1 and before[0] is not None:
        return money if last else money // 2                 # V.II: keep a rival from the crown
    return money // 4
