"""The Invader armies defeated by the players (E 7.8, 13.3): told to everyone when a family's army
destroys the Invaders it attacked in the Battle Phase (invaders/attacked.py) or that attacked it in
Phase 6 (invaders/battle.py). The deed itself, for the Order of the Garter (13.3, R28: "Defeated an
Invader Army, alone or as the head of a coalition"), is recorded per army destroyed where the
Invaders' losses are applied (invaders/battle.py `_apply`, the royal part's
`garter.invaders_defeated`), one record for both phases."""
from __future__ import annotations

from typing import Sequence

from pbem.games.fief_england.invaders.armies import army_name
from pbem.rules.api import Event


def defeat_told(city: str, family: str, armies: list[str], lords: list[str], round_: int,
                allies: Sequence[str] = ()) -> Event:
    """7.8: the public event of a family's victory over the Invaders in ``city`` (``allies``: the
    other families of the coalition it heads, R145)."""
    names = " and ".join(army_name(a) for a in armies)
    head = f", heading a coalition with {' and '.join(allies)}," if allies else ""
    return Event("invaders_defeated", f"{family}{head} defeats {names} in {city}"
                 + (f" ({', '.join(lords)} fighting)" if lords else "") + " (7.8, 13.3).",
                 data={"round": round_, "city": city, "family": family, "armies": list(armies), "lords": list(lords),
                       **({"coalition": [family, *allies]} if allies else {})})
