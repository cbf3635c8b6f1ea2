"""The computer player's recruitment (III. Collecting Tax Income and Recruitment): first the
ransom of a captive lord (II: 20 garas, or he dies; nothing is recruited until it is paid), then
a reserve kept for an election at the end of this year (IV; election.py), then units in the
castles most threatened (or nearest the enemy) first: infantry for sieges (III. Siege), archers
for the walls, cavalry within the cavalry limit (III; VI: the advanced quota goes to the earlier
players, so only the first in turn order counts on more than one)."""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona.computer.sight import Sight
from pbem.games.kard_es_korona.computer.writing import places_text
from pbem.games.kard_es_korona.economy import BASIC_CAVALRY_TOTAL, RANSOM, castle_takes, price, recruit_places
from pbem.games.kard_es_korona.state import OFFICES, no_units, total

ELECTION_YEARS = {"basic": (3, 6), "advanced": (3, 6, 9)}   # IV: at the end of these years
MIX = ("infantry", "archers", "cavalry", "infantry", "cavalry", "archers")


def write(view: dict[str, Any], player: str) -> list[str]:
    money = view["treasury"][player]
    lines = []
    if player in view["captive"]:
        if money < RANSOM:                   # II: saved for the ransom, or the lord dies
            return ["recruit: {}"]
        lines.append("ransom: yes")
        money -= RANSOM
    money -= reserve(view, player, money)
    recruits = _recruits(view, player, money)
    lines.append(f"recruit: {places_text(recruits)}")
    return lines


def reserve(view: dict[str, Any], player: str, money: int) -> int:
    """IV: garas kept for an election at the end of this year: enough to outbid the richest
    rival at all three offices (election.py), or all it has."""
    due = view["year"] - 1300 in ELECTION_YEARS[view["version"]] or view["election_due"]
    if not due or player not in view["bidders"]:
        return 0
    richest = max((view["treasury"][p] for p in view["bidders"] if p != player), default=0)
    need = len(OFFICES) * (richest + 1)
    return min(need, money)


def _cavalry_allowed(view: dict[str, Any], player: str) -> int:
    if not view["cavalry_limit"]:
        return 99
    if view["version"] == "basic":
        return BASIC_CAVALRY_TOTAL
    first = next(p for p in view["players"][view["players"].index(view["starting"]):] + view["players"]
                 if p not in view["eliminated"])
    return max(1, view["year"] - 1300) if first == player else 1


def _recruits(view: dict[str, Any], player: str, money: int) -> dict[str, dict[str, int]]:
    sight = Sight(view, player)
    cost = price(view, player)
    places = recruit_places(view, player)
    enemies = {c for c in sight.board.counties if sight.hostile(c)}
    places.sort(key=lambda c: (-sight.threat(c) + sight.defence(c), sight.hops(c, enemies), c))
    cavalry = _cavalry_allowed(view, player)
    out: dict[str, dict[str, int]] = {}
    for castle in places:
        here = sight.units(castle)
        add = no_units()
        for kind in MIX * 2:
            if cost[kind] > money or not castle_takes(view, here, add, kind) or (kind == "cavalry" and cavalry <= 0):
                continue
            add[kind] += 1
            money -= cost[kind]
            cavalry -= kind == "cavalry"
        if total(add):
            out[castle] = add
    return out
