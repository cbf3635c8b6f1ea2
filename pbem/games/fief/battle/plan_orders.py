"""Checking a mailed battle plan (DESIGN.md "Battle plans instead of round-by-round choices")
against the player's view, with line numbers, into the plain data battle_plan.plan_from_data
builds a BattlePlan from. Used by battle/orders.py for the `battle_plan:` standing policy.

    battle_plan:
      losses: [man_at_arms, archer, knight]     # 6.2.3.4: kinds lost first among equal choices
      surrender: {outnumbered: 3}               # never | always | {after_round, cp_at_most, outnumbered}
      stop: {when: {after_round: 2}, accept: {outnumbered: 2}}
      besiege_if_stopped: yes                   # 6.4.1 example 1
      captives_to: marc                         # 6.2: who detains the captives my side takes
      towns:                                    # per-town overrides, field by field
        Tours: {surrender: never}
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.battle.plan import LOSS_KINDS, BattlePlan, plan_from_data
from pbem.orders.reading import Problems, suggest, whole_number, fold
from pbem.games.fief.edition import Edition, load_edition
from pbem.games.fief.policies import find_player
from pbem.orders.yamlsafe import line_of

CONDITION_KEYS = ("always", "after_round", "cp_at_most", "outnumbered")
BOOL_FIELDS = ("own_losses_last", "besiege_if_stopped", "take_captives", "scorched_earth",
               "adjusted_shooting")
PLAYER_FIELDS = ("captives_to", "control_to")
LORD_FIELDS = ("lords_first", "adjusted_target")
PLAN_FIELDS = ("losses", "surrender", "stop", "switch", "continue_fighting") + BOOL_FIELDS \
    + PLAYER_FIELDS + LORD_FIELDS
YES, NO = ("yes", "true", "on"), ("no", "false", "off")


def check_plan(view: dict, me: str, value: Any, line: int | None, problems: Problems,
               allow_towns: bool = True) -> dict | None:
    """The canonical plan data (JSON) of a `battle_plan:` mapping, or None after an error."""
    if not isinstance(value, dict):
        problems.add(line, "`battle_plan` must be a mapping of plan fields",
                     "write e.g. `battle_plan: {losses: [man_at_arms, archer, knight], surrender: never}`")
        return None
    before = len(problems)
    out: dict[str, Any] = {}
    for key, item in value.items():
        where = line_of(value, key)
        if key == "towns" and allow_towns:
            towns = _towns(view, me, item, where, problems)
            if towns is not None:
                out["towns"] = towns
        elif key == "losses":
            out[key] = _losses(load_edition(view["game"]), item, where, problems)
        elif key == "surrender":
            out[key] = _condition(item, where, "surrender", problems)
        elif key in ("stop", "switch", "continue_fighting"):
            out[key] = _nested(view, me, key, item, where, problems)
        elif key in BOOL_FIELDS:
            out[key] = _yes_no(item, where, key, problems)
        elif key in PLAYER_FIELDS:
            out[key] = _player(view, item, where, key, problems)
        elif key in LORD_FIELDS:
            out[key] = _lords(view, me, key, item, where, problems)
        else:
            keys = PLAN_FIELDS + (("towns",) if allow_towns else ())
            problems.add(where, f"unknown battle plan field `{key}`", suggest(key, keys))
    if len(problems) > before:
        return None
    try:   # the engine's own builder must accept what we pass on (a bug otherwise)
        plan_from_data({k: v for k, v in out.items() if k != "towns"})
    except ValueError as exc:
        problems.add(line, f"battle plan: {exc}")
        return None
    return out


def plan_for(policies: dict, town: str) -> BattlePlan:
    """A family's plan for a battle in ``town``: the standing plan, with that town's override
    laid over it field by field."""
    data = dict((policies or {}).get("battle_plan") or {})
    towns = data.pop("towns", None) or {}
    data.update(towns.get(town) or {})
    return plan_from_data(data)


def _towns(view: dict, me: str, item: Any, line: int | None, problems: Problems) -> dict | None:
    if not isinstance(item, dict):
        problems.add(line, "`towns` maps a town to the plan fields that change there",
                     "write e.g. `towns: {Tours: {surrender: never}}`")
        return None
    out = {}
    for name, fields in item.items():
        where = line_of(item, name)
        town = _town(view, name)
        if town is None:
            problems.add(where, f"there is no town called {name!r}", suggest(str(name), view["towns"]))
            continue
        plan = check_plan(view, me, fields, where, problems, allow_towns=False)
        if plan is not None:
            out[town] = plan
    return out


def _town(view: dict, text: Any) -> str | None:
    if not isinstance(text, str):
        return None
    return next((t for t in view["towns"] if fold(t) == fold(text)), None)


def _losses(edition: Edition, item: Any, line: int | None, problems: Problems) -> list[str]:
    if not isinstance(item, list) or not item:
        problems.add(line, "`losses` is a list of unit kinds, lost first to last",
                     "write e.g. `losses: [man_at_arms, archer, knight]`")
        return []
    out: list[str] = []
    for i, word in enumerate(item):
        kind = edition.unit_kind(word)
        where = line_of(item, i)
        if kind not in LOSS_KINDS:
            problems.add(where, f"{word!r} is not a kind a leader chooses to lose (6.2.3.4)",
                         f"use {', '.join(LOSS_KINDS)} (a bombard takes no hit)")
        elif kind in out:
            problems.add(where, f"{kind} is listed twice in `losses`", "list each kind once")
        else:
            out.append(kind)
    return out


def _condition(item: Any, line: int | None, what: str, problems: Problems) -> Any:
    if isinstance(item, str) and item.strip().lower() in ("never", "always"):
        return item.strip().lower()
    if isinstance(item, str) and item.strip().lower() in YES + NO:
        return "always" if item.strip().lower() in YES else "never"
    example = f"write `{what}: never`, `{what}: always` or e.g. `{what}: {{outnumbered: 3, after_round: 2}}`"
    if not isinstance(item, dict) or not item:
        problems.add(line, f"`{what}` is never, always, or a mapping of conditions", example)
        return "never"
    out: dict[str, Any] = {}
    for key, value in item.items():
        where = line_of(item, key)
        if key == "always":
            out[key] = _yes_no(value, where, key, problems)
        elif key in CONDITION_KEYS:
            number = whole_number(value, where, key, problems, low=0 if key == "cp_at_most" else 1)
            if number is not None:
                out[key] = number
        else:
            problems.add(where, f"unknown condition `{key}` in `{what}`", suggest(key, CONDITION_KEYS))
    return out


def _nested(view: dict, me: str, key: str, item: Any, line: int | None, problems: Problems) -> dict:
    allowed = {"stop": ("when", "accept"), "switch": ("when", "accept"),
               "continue_fighting": ("until",)}[key]
    if not isinstance(item, dict):
        problems.add(line, f"`{key}` is a mapping with {' and '.join(allowed)}",
                     f"write e.g. `{key}: {{{allowed[0]}: {{after_round: 2}}}}`")
        return {}
    out: dict[str, Any] = {}
    for sub, value in item.items():
        where = line_of(item, sub)
        if sub not in allowed:
            problems.add(where, f"unknown key `{sub}` in `{key}`", suggest(sub, allowed))
        elif key == "switch" and sub == "accept":
            names = value if isinstance(value, list) else ([] if value is None else [value])
            out[sub] = [p for p in (_player(view, n, where, "switch.accept", problems) for n in names) if p]
        else:
            out[sub] = _condition(value, where, f"{key}.{sub}", problems)
    return out


def _yes_no(item: Any, line: int | None, what: str, problems: Problems) -> bool:
    word = item.strip().lower() if isinstance(item, str) else ""
    if word not in YES + NO:
        problems.add(line, f"`{what}` is yes or no, not {item!r}", f"write `{what}: yes` or `{what}: no`")
        return False
    return word in YES


def _player(view: dict, item: Any, line: int | None, what: str, problems: Problems) -> str | None:
    found = find_player(item, list(view["turn_order"]))
    if found is None:
        problems.add(line, f"`{what}`: no player {item!r} in this game",
                     suggest(str(item), view["turn_order"]))
    return found


def _lords(view: dict, me: str, key: str, item: Any, line: int | None, problems: Problems) -> list[str]:
    names = item if isinstance(item, list) else ([] if item is None else [item])
    known = {fold(n): n for n in view["lords"]}
    out = []
    for i, name in enumerate(names):
        where = line_of(names, i) or line
        lord = known.get(fold(str(name)))
        own = key == "lords_first"
        if lord is None or (view["lords"][lord]["family"] == me) != own:
            wanted = [n for n, lo in view["lords"].items() if (lo["family"] == me) == own]
            whose = "one of your lords" if own else "another family's lord"
            problems.add(where, f"`{key}`: {name!r} is not {whose} in play",
                         suggest(str(name), wanted) if wanted else "no such lord is in play")
        else:
            out.append(lord)
    return out
