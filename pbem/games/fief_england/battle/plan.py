"""England's own battle-plan words (E 7.2), beside the core's (pbem/games/fief/battle/plan.py):
the standing orders by which a battle is fought by mail (DESIGN.md "Battle plans").

    battle_plan:
      losses: [crossbowman, man_at_arms]   # 7.5: kinds lost first among equal choices
      aim_at: [Henri, invader leader]   # 7.2: archers and crossbowmen aim at the first present
      spoils: destroy                   # 7.2 Winner's Spoils: take (default) or destroy the loser's engines
      tunnels: yes                      # 10.2: attacking a fortress, play PASSAGE against its penalty
      withdraw: {when: {outnumbered: 2}, to: York}   # 7.8, 10.2: as defender, play PASSAGE and leave
      destroy_engines: {outnumbered: 3}   # 7.2 Tactical Destruction: your own, at the end of a round
      hire_crossbowmen: 3               # 11.1, R41: from your MERCENARY card as each battle begins
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.games.fief.battle.plan import NEVER, Condition, condition_from_data
from pbem.games.fief.battle.plan_orders import check_condition, check_loss_kinds, plan_data
from pbem.games.fief.edition import load_edition
from pbem.orders.reading import Problems, fold, suggest

LEADER = "invader_leader"          # 7.2: "an opposing Noble or Invading Leader"
SPOILS = ("take", "destroy")       # 7.2 Winner's Spoils, 7.10


@dataclass(frozen=True)
class EnglandPlan:
    losses: tuple[str, ...] = ()   # 7.5: kinds lost first among the choices using as many hits
    aim_at: tuple[str, ...] = ()   # 7.2: nobles (or the Invader Leader) to aim at, the first present
    spoils: str = "take"           # 7.2: the loser's trebuchets and bombards taken over (if the
                                   # stockpile has markers) or destroyed
    tunnels: bool = False          # 10.2: as attacker of a fortress, play PASSAGE: no melee penalty
    withdraw: Condition = NEVER    # 7.8: as defender, play PASSAGE at the end of a roll when it holds
    withdraw_to: str | None = None  # the adjacent city to withdraw to (None: R76)
    destroy_engines: Condition = NEVER   # 7.2: destroy one's own engines at the end of a round
    hire_crossbowmen: int = 0      # 11.1, R41: crossbowmen hired at the start of the battle (battle/hire.py)


def england_plan(policies: dict, town: str) -> EnglandPlan:
    data = plan_data(policies, town)
    withdraw = data.get("withdraw") or {}
    return EnglandPlan(losses=tuple(data.get("losses") or ()), aim_at=tuple(data.get("aim_at") or ()),
                       spoils=str(data.get("spoils") or "take"),
                       tunnels=bool(data.get("tunnels")), withdraw=condition_from_data(withdraw.get("when")),
                       withdraw_to=withdraw.get("to"),
                       destroy_engines=condition_from_data(data.get("destroy_engines")),
                       hire_crossbowmen=int(data.get("hire_crossbowmen") or 0))


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


# 7.5: the kinds a player's side loses by choice (England's troops and royal guard; engines take
# no hit, Invaders are no player's).
LOSS_KINDS = ("man_at_arms", "archer", "crossbowman", "knight", "royal_man_at_arms", "royal_knight")
_GUARD_WORDS = {"royal knight": "royal_knight", "royal knights": "royal_knight",
                "royal man at arms": "royal_man_at_arms", "royal men at arms": "royal_man_at_arms",
                "crossbowmen": "crossbowman", "crossbowman": "crossbowman"}


def check_losses(view: dict, me: str, value: Any, line: int | None, problems: Problems) -> list[str]:
    """England's `losses`: its kinds (crossbowmen and the royal guard too), by id, name or plural."""
    edition = load_edition("fief_england")
    return check_loss_kinds(lambda word: _GUARD_WORDS.get(fold(str(word))) or edition.unit_kind(word), value,
                            line, problems, LOSS_KINDS, "a side chooses to lose (7.5)",
                            "trebuchets and bombards take no hit")


def check_spoils(view: dict, me: str, value: Any, line: int | None, problems: Problems) -> str:
    word = fold(str(value))
    if word not in SPOILS:
        problems.add(line, f"`spoils` is take or destroy, not {value!r} (7.2 Winner's Spoils)",
                     "write `spoils: take` or `spoils: destroy`")
        return "take"
    return word


def check_tunnels(view: dict, me: str, value: Any, line: int | None, problems: Problems) -> bool:
    word = fold(str(value))
    if word not in ("yes", "no", "true", "false"):
        problems.add(line, f"`tunnels` is yes or no, not {value!r}", "write `tunnels: yes` or `tunnels: no`")
    return word in ("yes", "true")


def check_withdraw(view: dict, me: str, value: Any, line: int | None, problems: Problems) -> dict:
    example = "write e.g. `withdraw: {when: {outnumbered: 2}, to: York}` (`to` may be left out)"
    if not isinstance(value, dict) or "when" not in value:
        problems.add(line, "`withdraw` is a mapping with `when` (and `to`, an adjacent city)", example)
        return {}
    out: dict[str, Any] = {"when": check_condition(value["when"], line, "withdraw.when", problems)}
    for key in value:
        if key not in ("when", "to"):
            problems.add(line, f"unknown key `{key}` in `withdraw`", suggest(str(key), ["when", "to"]))
    if value.get("to") is not None:
        city = next((t for t in view["towns"] if fold(t) == fold(str(value["to"]))), None)
        if city is None:
            problems.add(line, f"`withdraw.to`: there is no city called {value['to']!r}",
                         suggest(str(value["to"]), view["towns"]))
        out["to"] = city
    return out


def check_destroy(view: dict, me: str, value: Any, line: int | None, problems: Problems) -> Any:
    return check_condition(value, line, "destroy_engines", problems)


def refused(why: str):
    """A core plan field this edition has no use for: refused by name, never silently ignored."""
    def check(view: dict, me: str, value: Any, line: int | None, problems: Problems) -> None:
        problems.add(line, f"this battle-plan field is not one of Fief: England's: {why}", "remove it")
    return check


# France's plan fields with no meaning in England, each with what England has instead.
NOT_ENGLANDS = {
    "scorched_earth": refused("`scorched_earth` is France's (6.2.1); England's is destroying one's own "
                              "mills after Income (3.4)"),
    "adjusted_shooting": refused("`adjusted_shooting` is France's option I.1; England's archers aim with "
                                 "`aim_at` (7.2)"),
    "adjusted_target": refused("`adjusted_target` is France's option I.1; England's archers aim with "
                               "`aim_at` (7.2)"),
    "take_captives": refused("`take_captives`: a beaten side's nobles are always taken (7.6); free a "
                             "captive with a `release:` order"),
}

PLAN_WORDS = {**NOT_ENGLANDS, "losses": check_losses, "aim_at": check_aim, "spoils": check_spoils,
              "tunnels": check_tunnels, "withdraw": check_withdraw, "destroy_engines": check_destroy}
