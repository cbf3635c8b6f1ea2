"""Reading a player's battle plan from an order mail (the `battle:` part) into plain data, with
line-numbered errors; ``plan_for`` turns that data into the BattlePlan of one battle.

    battle:
      priorities: [archers, cavalry, infantry]   # enemy units my hits remove first
      lord_leads: [cavalry, infantry]        # the weapon type my warlord gives +1: first present
      retreat: {after_round: 1, outnumbered: 2}   # advanced: never (default) | always | conditions
      retreat_to: [Bihar, Zaránd]            # advanced: where to, first possible
      pursue: yes                            # advanced: strike at a fleeing enemy (default yes)
      losses: [archers, infantry, cavalry]   # my own units lost first when the choice is mine
      reroll: 2                              # Judge Royal: re-roll a roll of 2+ dice with no hit; never;
                                             # or {dice: 3, hits_at_most: 1}: a roll that hit too
      order: [Bihar, Nógrád]                 # which of my battles to fight first when my turn comes
      counties:                              # per-county changes, field by field
        Bihar: {priorities: [cavalry], retreat: never}

Every field may be left out (docs/kard-es-korona.md, "Battles", gives the defaults). Weapon
types are written as every order writes them (units.KIND_WORDS).
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from pbem.games.kard_es_korona.battle.kinds import KINDS, kind_of
from pbem.games.kard_es_korona.battle.model import BattlePlan, plan_from_data
from pbem.orders.reading import Problems, check_keys, fold, suggest, whole_number
from pbem.orders.yamlsafe import line_of, sub_map

KIND_LISTS = ("priorities", "lord_leads", "losses")
RETREAT_KEYS = ("always", "after_round", "outnumbered", "units_at_most")
COUNTY_FIELDS = KIND_LISTS + ("retreat", "retreat_to", "pursue", "reroll")
FIELDS = COUNTY_FIELDS + ("order", "counties")
_YES = {"yes": True, "true": True, "on": True, "no": False, "false": False, "off": False}


def check_battle_plan(value: Any, line: int | None, problems: Problems,
                      counties: Iterable[str] = (), also: Iterable[str] = ()) -> dict | None:
    """The canonical data of a `battle:` mapping (names as the board spells them), or None after
    an error (each one added to ``problems``). ``counties``: the board's county names.
    ``also``: keys of the same mapping that the caller reads itself (e.g. the game's
    `if_defeated:`); they are accepted and left out of the result."""
    if isinstance(value, dict) and also:
        value = sub_map(value, lambda key: key not in set(also))
    return _fields(value, line, problems, list(counties), FIELDS + tuple(also), "battle")


def plan_for(data: Mapping[str, Any] | None, county: str) -> BattlePlan:
    """A player's BattlePlan for a battle in ``county``: the standing plan with that county's
    changes laid over it, field by field."""
    return plan_from_data(plan_data_for(data, county))


def plan_data_for(data: Mapping[str, Any] | None, county: str) -> dict:
    """The JSON of plan_for's BattlePlan (what model.plan_from_data reads: a BattleSide's
    `plan:` in model.battle_from_data)."""
    return {k: v for k, v in _for_county(data, county).items() if k != "retreat_to"}


def retreat_choices(data: Mapping[str, Any] | None, county: str) -> list[str]:
    """Where the player wants to retreat from ``county``, first choice first (the caller keeps
    the first the board allows, VI "Retreat / Flight")."""
    return list(_for_county(data, county).get("retreat_to", []))


def battle_choices(data: Mapping[str, Any] | None) -> list[str]:
    """The player's `order:` of his own battles (counties), for order.battle_order."""
    return list((data or {}).get("order", []))


def _for_county(data: Mapping[str, Any] | None, county: str) -> dict:
    merged = {k: v for k, v in (data or {}).items() if k not in ("order", "counties")}
    merged.update(((data or {}).get("counties") or {}).get(county) or {})
    return merged


def _fields(value: Any, line: int | None, problems: Problems, counties: list[str], allowed: tuple[str, ...],
            where: str) -> dict | None:
    if not isinstance(value, dict):
        problems.add(line, f"`{where}` must be a mapping of battle plan fields",
                     "write e.g. `battle: {priorities: [archers, cavalry, infantry]}`")
        return None
    before = len(problems)
    check_keys(value, allowed, f"`{where}`", problems)
    out: dict[str, Any] = {}
    for key, item in value.items():
        at = line_of(value, key) or line
        if key in KIND_LISTS:
            out[key] = _kinds(item, at, key, problems)
        elif key == "retreat":
            out[key] = _retreat(item, at, problems)
        elif key in ("retreat_to", "order"):
            out[key] = _county_list(item, at, key, counties, problems)
        elif key == "pursue":
            out[key] = _yes_no(item, at, key, problems)
        elif key == "reroll":
            out[key] = _reroll(item, at, problems)
        elif key == "counties":
            out[key] = _counties(item, at, counties, problems)
    return out if len(problems) == before else None


def _kinds(item: Any, line: int | None, what: str, problems: Problems) -> list[str]:
    items = item if isinstance(item, list) else [item]
    if item is None or not items:
        problems.add(line, f"`{what}` is a list of weapon types", f"write e.g. `{what}: [archers, cavalry, infantry]`")
        return []
    out: list[str] = []
    for i, word in enumerate(items):
        at = line_of(items, i) or line
        kind = kind_of(word)
        if kind is None:
            problems.add(at, f"`{what}`: {word!r} is not a weapon type", suggest(str(word), KINDS))
        elif kind in out:
            problems.add(at, f"`{what}`: {kind} is listed twice", "list each weapon type once")
        else:
            out.append(kind)
    return out


def _retreat(item: Any, line: int | None, problems: Problems) -> Any:
    example = "write `retreat: never`, `retreat: always` or e.g. `retreat: {after_round: 1, outnumbered: 2}`"
    if isinstance(item, str) and fold(item) in ("never", "always", "no", "yes"):
        return "always" if fold(item) in ("always", "yes") else "never"
    if not isinstance(item, dict) or not item:
        problems.add(line, "`retreat` is never, always, or a mapping of conditions", example)
        return "never"
    check_keys(item, RETREAT_KEYS, "`retreat`", problems)
    out: dict[str, Any] = {}
    for key, value in item.items():
        at = line_of(item, key) or line
        if key == "always":
            out[key] = _yes_no(value, at, "retreat.always", problems)
        elif key in RETREAT_KEYS:
            number = whole_number(value, at, key, problems, low=0 if key == "units_at_most" else 1)
            if number is not None:
                out[key] = number
    return out


def _county_list(item: Any, line: int | None, what: str, counties: list[str], problems: Problems) -> list[str]:
    items = item if isinstance(item, list) else [item]
    out = []
    for i, name in enumerate(items):
        county = _county(name, counties)
        if county is None:
            problems.add(line_of(items, i) or line, f"`{what}`: there is no county called {name!r}",
                         suggest(str(name), counties) if counties else "name a county of the board")
        elif county not in out:
            out.append(county)
    return out


def _county(name: Any, counties: list[str]) -> str | None:
    if not isinstance(name, str):
        return None
    return next((c for c in counties if fold(c) == fold(name)), None)


def _counties(item: Any, line: int | None, counties: list[str], problems: Problems) -> dict:
    if not isinstance(item, dict) or not item:
        problems.add(line, "`counties` maps a county to the plan fields that change there",
                     "write e.g. `counties: {Bihar: {retreat: never}}`")
        return {}
    out = {}
    for name, fields in item.items():
        at = line_of(item, name) or line
        county = _county(name, counties)
        if county is None:
            problems.add(at, f"`counties`: there is no county called {name!r}",
                         suggest(str(name), counties) if counties else "name a county of the board")
            continue
        plan = _fields(fields, at, problems, counties, COUNTY_FIELDS, f"counties: {county}")
        if plan is not None:
            out[county] = plan
    return out


def _yes_no(item: Any, line: int | None, what: str, problems: Problems) -> bool:
    answer = _YES.get(fold(item)) if isinstance(item, str) else None
    if answer is None:
        problems.add(line, f"`{what}` is yes or no, not {item!r}", f"write `{what}: yes` or `{what}: no`")
        return False
    return answer


REROLL_KEYS = ("dice", "hits_at_most")


def _reroll(item: Any, line: int | None, problems: Problems) -> int | dict | None:
    """`never`, N (a roll of N+ dice with no hit), or {dice: N, hits_at_most: H} (a roll of N+
    dice that hit at most H times: IV "Judge Royal", l.294, all its dice are rolled again)."""
    if isinstance(item, str) and fold(item) in ("never", "no"):
        return None
    if not isinstance(item, dict):
        return whole_number(item, line, "reroll", problems)
    check_keys(item, REROLL_KEYS, "`reroll`", problems)
    if "dice" not in item:
        problems.add(line, "`reroll` as a mapping needs `dice`, the fewest dice of a roll to re-roll",
                     "write e.g. `reroll: {dice: 3, hits_at_most: 1}`")
        return None
    dice = whole_number(item["dice"], line_of(item, "dice") or line, "reroll.dice", problems)
    hits = whole_number(item.get("hits_at_most", 0), line_of(item, "hits_at_most") or line, "reroll.hits_at_most",
                        problems, low=0)
    return {"dice": dice, "hits_at_most": hits} if dice is not None and hits is not None else None
