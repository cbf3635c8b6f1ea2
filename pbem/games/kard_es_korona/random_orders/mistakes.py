"""Now and then one mistake in a random mail, as players make them: a misspelt county, a count
written in words, a brace left open, an order the phase does not know. The judge must refuse such a mail with an
error naming the line (docs/orders.md), never raise; the property tests count the refusals."""
from __future__ import annotations

import re
from typing import Any

from pbem.games.kard_es_korona.board import load_board
from pbem.games.kard_es_korona.random_orders import draw
from pbem.rules.rng import Rng

PERCENT = 4
_COUNT = re.compile(r": (\d+)([,}])")


def maybe(view: dict[str, Any], lines: list[str], rng: Rng) -> list[str]:
    if not draw.chance(rng, PERCENT):
        return lines
    lines = list(lines)
    roll = draw.below(rng, 4)
    counties = [c for c in load_board(view["version"]).counties if any(c in line for line in lines)]
    counted = [i for i, line in enumerate(lines) if _COUNT.search(line)]
    if roll == 0 and counties:
        county = draw.pick(rng, counties)
        at = next(i for i, line in enumerate(lines) if county in line)
        lines[at] = lines[at].replace(county, county + "vár", 1)
    elif roll == 1 and counted:
        at = draw.pick(rng, counted)
        lines[at] = _COUNT.sub(lambda m: ": " + ("two" if m.group(1) == "2" else "several") + m.group(2),
                               lines[at], count=1)
    elif roll == 2 and any("}" in line for line in lines):   # a brace left open: not YAML at all
        at = draw.pick(rng, [i for i, line in enumerate(lines) if "}" in line])
        lines[at] = lines[at][:lines[at].rindex("}")] + lines[at][lines[at].rindex("}") + 1:]
    else:
        lines.insert(len(lines) if draw.chance(rng, 50) else 0, "orderz: yes")
    return lines
