"""What the computer player leaves standing in each of its counties (II. Castles; III): a
castle keeps enough against the enemy units that could reach it this year (archers and infantry
first: they hold walls), at least two; the lord's county at least two (II: he may not be left
alone); an open county one unit for its income (III). The rest is free to move."""
from __future__ import annotations

from pbem.games.kard_es_korona.computer.sight import Sight
from pbem.games.kard_es_korona.state import no_units, total

KEEP_ORDER = ("archers", "infantry", "cavalry")
MARGIN = 1.1


def keep(sight: Sight, county: str, lord_stays: bool) -> dict[str, int]:
    have = sight.units(county)
    spot = sight.board.counties[county]
    least = 2 if spot.castle or lord_stays else 1
    need = sight.threat(county) * MARGIN
    kept = no_units()
    for kind in KEEP_ORDER * 8:
        if kept[kind] >= have[kind]:
            continue
        if total(kept) >= least and sight.defence(county, kept) >= need:
            break
        kept[kind] += 1
    return kept


def spare(sight: Sight, lord_moves: bool) -> dict[str, dict[str, int]]:
    """County -> the units that may move this year."""
    lord = sight.view["lords"].get(sight.player)
    out = {}
    for county in sight.mine():
        kept = keep(sight, county, county == lord and not lord_moves)
        have = sight.units(county)
        out[county] = {k: have[k] - kept[k] for k in have}
    return out
