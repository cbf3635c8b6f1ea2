"""The computer player's standing battle orders (the `battle:` part; docs/kard-es-korona.md
"Battle orders"):

- the lord leads the cavalry in the field (II: knights he supports remove knights on a 5), the
  infantry in a siege, where every attacker fights on foot (III. Siege);
- a besieger silences the defending archers first (III. Siege, l.252);
- advanced game (VI. Retreat / Flight): retreat when outnumbered three to one, pursue always;
- the lord's extra step after a victory in the open field takes him back to the strongest castle
  of his within reach (III, l.262), out of harm's way;
- if its lord is defeated (III. Elimination or Vassal Oath): the escape roll while it still holds
  two castles and has units next to every county where he may fight (a 6 keeps the game going),
  else the vassal oath."""
from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.games.kard_es_korona.computer.sight import Sight
from pbem.games.kard_es_korona.state import total
from pbem.games.kard_es_korona.units import WARLORD_MOVEMENT_POINTS

if TYPE_CHECKING:
    from pbem.games.kard_es_korona.computer.movement import Step

ESCAPE_CASTLES = 2
OUTNUMBERED = 3


def write(sight: Sight, steps: list["Step"]) -> list[str]:
    board = sight.board
    lines = ["battle:", "  lord_leads: [cavalry, infantry, archers]"]
    sieges = [s.to for s in steps if s.attack and board.counties[s.to].castle]
    if sieges:
        plans = ", ".join(f"{c}: {{priorities: [archers, infantry, cavalry], lord_leads: [infantry, cavalry, archers]}}"
                          for c in sieges)
        lines.append(f"  counties: {{{plans}}}")
    if sight.view["version"] == "advanced":
        lines += [f"  retreat: {{outnumbered: {OUTNUMBERED}}}", "  pursue: yes"]
    lines.append(f"  if_defeated: {_if_defeated(sight, steps)}")
    lord_step = next((s for s in steps if s.lord and s.attack and not board.counties[s.to].castle), None)
    if lord_step is not None:
        refuge = _refuge(sight, lord_step)
        if refuge:
            lines.append(f"  after_victory: {{lord_to: {refuge}}}")
    return lines


def _if_defeated(sight: Sight, steps: list["Step"]) -> str:
    lord = sight.view["lords"].get(sight.player)
    if lord is None:
        return "oath"
    castles = [c for c in sight.mine() if sight.board.counties[c].castle]
    lord_moves = any(s.lord for s in steps)
    places = [s.to for s in steps if s.lord] if lord_moves else [lord]
    staying = {c: total(sight.units(c)) - sum(total(s.sources.get(c, {})) for s in steps) for c in sight.mine()}
    covered = all(any(staying.get(n, 0) > 0 and n != place for n in sight.board.borders[place]) for place in places)
    return "escape" if len(castles) >= ESCAPE_CASTLES and covered else "oath"


def _refuge(sight: Sight, step: "Step") -> str | None:
    """My strongest castle within the lord's 4 points of the county he fights in (not a source)."""
    options = []
    for castle in sight.mine():
        if not sight.board.counties[castle].castle or castle in step.sources:
            continue
        cost = sight.cost(step.to, castle)
        if cost is not None and cost <= WARLORD_MOVEMENT_POINTS:
            options.append((-sight.defence(castle), castle))
    return min(options)[1] if options else None
