"""The Invader armies defeated by the players (E 13.3, R28: "Defeated an Invader Army, alone or as
the head of a coalition"), for the Order of the Garter: an army destroyed by a family's army that
attacked it in the Battle Phase (invaders/attacked.py) or that it attacked in Phase 6
(invaders/battle.py). The Invaders' record keeps them, public: ``edition_state["invaders"]
["defeated"] = [{"round", "city", "family", "armies", "lords"}]`` (absent until the first)."""
from __future__ import annotations

from typing import Any

from pbem.games.fief.state import FiefState
from pbem.games.fief_england.invaders.armies import KEY, army_name, record
from pbem.rules.api import Event

DEFEATED = "defeated"


def defeats(state: FiefState, round_: int | None = None) -> list[dict[str, Any]]:
    """13.3, R28: the defeats of Invader armies (this round's only with ``round_``): each ``{"round",
    "city", "family", "armies", "lords"}`` - the family whose army destroyed them and its nobles who
    fought and are still free (the Garter goes to a Lord among them)."""
    done = (state.edition_state.get(KEY) or {}).get(DEFEATED) or []
    return [dict(d) for d in done if round_ is None or d["round"] == round_]


def record_defeat(state: FiefState, city: str, family: str, armies: list[str], lords: list[str]) -> Event:
    entry = {"round": state.round, "city": city, "family": family, "armies": list(armies), "lords": list(lords)}
    record(state).setdefault(DEFEATED, []).append(entry)
    names = " and ".join(army_name(a) for a in armies)
    return Event("invaders_defeated", f"{family} defeats {names} in {city}"
                 + (f" ({', '.join(lords)} fighting)" if lords else "") + " (7.8, 13.3).", data=entry)
