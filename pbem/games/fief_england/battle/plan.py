"""England's own battle-plan words (E 7.2), beside the core's (pbem/games/fief/battle/plan.py):
the standing orders by which a battle is fought by mail (DESIGN.md "Battle plans").

    battle_plan:
      aim_at: [Henri, invader leader]   # 7.2: archers and crossbowmen aim at the first present
      spoils: destroy                   # 7.2 Winner's Spoils: take (default) or destroy the loser's engines
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.games.fief.battle.plan_orders import plan_data
from pbem.orders.reading import Problems, fold, suggest

LEADER = "invader_leader"          # 7.2: "an opposing Noble or Invading Leader"
SPOILS = ("take", "destroy")       # 7.2 Winner's Spoils, 7.10


@dataclass(frozen=True)
class EnglandPlan:
    aim_at: tuple[str, ...] = ()   # 7.2: nobles (or the Invader Leader) to aim at, the first present
    spoils: str = "take"           # 7.2: the loser's trebuchets and bombards taken over (if the
                                   # stockpile has markers) or destroyed


def england_plan(policies: dict, town: str) -> EnglandPlan:
    data = plan_data(policies, town)
    return EnglandPlan(aim_at=tuple(data.get("aim_at") or ()), spoils=str(data.get("spoils") or "take"))


def check_aim(view: dict, me: str, value: Any, line: int | None, problems: Problems) -> list[str]:
    names = value if isinstance(value, list) else [value]
    known = {fold(n): n for n, lo in view["lords"].items() if lo["family"] != me}
    out: list[str] = []
    for name in names:
        word = fold(str(name))
        if word in (fold("invader leader"), fold(LEADER)):
            out.append(LEADER)
        elif word in known:
            out.append(known[word])
        else:
            problems.add(line, f"`aim_at`: {name!r} is neither another family's noble in play nor "
                         "`invader leader` (7.2: archers aim at an opposing Noble or Invading Leader)",
                         suggest(str(name), list(known.values()) + ["invader leader"]))
    return out


def check_spoils(view: dict, me: str, value: Any, line: int | None, problems: Problems) -> str:
    word = fold(str(value))
    if word not in SPOILS:
        problems.add(line, f"`spoils` is take or destroy, not {value!r} (7.2 Winner's Spoils)",
                     "write `spoils: take` or `spoils: destroy`")
        return "take"
    return word


PLAN_WORDS = {"aim_at": check_aim, "spoils": check_spoils}
