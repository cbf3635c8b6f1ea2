"""The computer player's starting army (III. Placing Units at the Start of the Game): one unit in
each of a few open counties for their income (III: a county yields only where a unit stands),
the rest in the castles (II. Castles: 7 at most, the half rule in the advanced game), the main
castle nearest the castles to take first, the lord there with the strongest garrison. In the
advanced game the six counties grow around the castle nearest the province's other castles,
which neutral squads will hold (III)."""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona.computer.sight import Sight
from pbem.games.kard_es_korona.computer.writing import units_text
from pbem.games.kard_es_korona.placement import _around, default
from pbem.games.kard_es_korona.state import CASTLE_LIMIT, castle_problem, no_units
from pbem.games.kard_es_korona.units import STARTING_ARMY

SINGLES_LEAVE = 8       # the units kept together for the castles (and a strike force)


def write(view: dict[str, Any], player: str) -> list[str]:
    sight = Sight(view, player)
    board = sight.board
    home = board.in_province(view["home"][player])
    targets = {c for c in board.castles() if c not in home and c not in view["closed"]}
    lines = []
    if view["version"] == "advanced":
        held = _six(sight, home, targets) or default(view, player)["counties"]
        lines.append("counties: [" + ", ".join(held) + "]")
        targets |= {c for c in home if board.counties[c].castle and c not in held}
    else:
        held = home
    castles = sorted((c for c in held if board.counties[c].castle), key=lambda c: (sight.hops(c, targets), c))
    opens = sorted((c for c in held if not board.counties[c].castle), key=lambda c: (sight.hops(c, targets), c))
    place = _spread(view["version"], castles, opens)
    lines.append("place:")
    lines += [f"  {c}: {units_text(u)}" for c, u in place.items() if sum(u.values())]
    lines.append(f"lord: {castles[0] if castles else next(iter(place))}")
    return lines


def _six(sight: Sight, home: list[str], targets: set[str]) -> list[str] | None:
    """The castle (and its five nearest open counties) nearest the province's other castles
    (None when no castle has five open counties around it: the default choice is taken)."""
    board = sight.board
    castles = [c for c in home if board.counties[c].castle]
    options = [(c, _around(board, c, home)) for c in castles]
    options = [(c, six) for c, six in options if six]
    others = lambda c: {o for o in castles if o != c} | targets   # noqa: E731
    if not options:
        return None
    return min(options, key=lambda o: (sight.hops(o[0], others(o[0])), o[0]))[1]


def _spread(version: str, castles: list[str], opens: list[str]) -> dict[str, dict[str, int]]:
    army = dict(STARTING_ARMY[version])
    place = {c: no_units() for c in castles + opens}
    singles = opens[:max(0, sum(army.values()) - SINGLES_LEAVE)]
    for i, county in enumerate(reversed(singles)):         # the farthest counties get the singles first
        kind = "infantry" if i % 2 == 0 and army["infantry"] > 2 else "archers"
        kind = kind if army[kind] else "infantry"
        place[county][kind] += 1
        army[kind] -= 1
    shares = [CASTLE_LIMIT, 3] if len(castles) > 1 else [CASTLE_LIMIT]
    if version == "basic" and len(castles) > 1:
        shares = [5, 3]
    for castle, share in zip(castles, shares, strict=False):
        for kind in ("cavalry", "infantry", "archers") * CASTLE_LIMIT:
            here = place[castle]
            if sum(here.values()) >= share or not army[kind]:
                continue
            if castle_problem(version, {**here, kind: here[kind] + 1}) is None:
                here[kind] += 1
                army[kind] -= 1
    stage = opens[0] if opens else castles[0]
    for kind, n in army.items():                           # the rest: the open county nearest the targets
        place[stage][kind] += n
    return place
