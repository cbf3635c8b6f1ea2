"""What a county is worth taking to the computer player (II. Castles: 3 garas a year and the
castle count of V.IV; II. Regions: a whole region; III: a county's garas; II: an enemy lord
beaten is a rival out of the game or a vassal)."""
from __future__ import annotations

from pbem.games.kard_es_korona.computer.sight import Sight

CASTLE = 6.0
COUNTY = 1.5
REGION = 3.0
LORD = 12.0
OWN_EMPTY = 0.8       # my own county left without units: its income back


def worth(sight: Sight, county: str) -> float:
    view, board = sight.view, sight.board
    spot = board.counties[county]
    owner = view["owner"].get(county)
    if owner == sight.player:
        return CASTLE if spot.castle else OWN_EMPTY
    value = CASTLE if spot.castle else COUNTY
    province = [c for c in board.in_province(spot.province) if c not in view["closed"]]
    missing = [c for c in province if view["owner"].get(c) != sight.player]
    if missing == [county]:
        value += REGION
    lord = sight.lord_at(county)
    if lord is not None and lord != sight.player and lord in sight.enemies():
        value += LORD
    return value
