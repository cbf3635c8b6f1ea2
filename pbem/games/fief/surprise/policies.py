"""The standing policies of the surprise cards (G.4), and the whole `policies:` mapping of a
mail: the base policies of policies.py (safe passage, plague losses, ...) with these.

    policies:
      calm_uprisings: {as_bishop: yes, as_cardinal: no}   # G.4.2.1: may my bishop / cardinal calm
      surprise: [...]                                      # G.4: cards held for a trigger (triggers.py)

The phases' order checkers (round.py, movement/orders.py) and the reports (views.py,
movement/template.py) use ``check_all_policies`` and ``describe_all_policies``.
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.edition import Edition, load_edition
from pbem.games.fief.orders_common import view_rules_version
from pbem.games.fief.policies import PolicyCheck, check_policies, describe, find_player
from pbem.games.fief.surprise.triggers import check_triggers, describe_triggers
from pbem.games.fief.surprise.uprising import CALM_CHOICES, CALM_POLICY
from pbem.orders.reading import Problems, as_seq, suggest, yes_no
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import OrderError


CALM_KEYS = ("as_bishop", "as_cardinal", "except_raised_by")
CALM_EXAMPLE = "write e.g. `calm_uprisings: {as_bishop: yes, as_cardinal: yes, except_raised_by: [marc]}`"
CALM_EXAMPLE_BISHOP = "write e.g. `calm_uprisings: {as_bishop: yes, except_raised_by: [marc]}`"


def check_calm(value: Any, line: int | None, players: list[str], version: int,
               errors: list[OrderError], cardinals: bool) -> Any:
    """`calm_uprisings` (G.4.2.1, D.2.1, D.2.2): a short form (never, as_bishop,
    also_as_cardinal), kept as written, or the mapping {as_bishop: yes|no, as_cardinal: yes|no,
    except_raised_by: [players]}; `except_raised_by` acts from rules version 2 (ruling 33).
    ``cardinals``: the edition has cardinals (its `cardinals` hook); without them the
    `as_cardinal` words are unknown."""
    choices = CALM_CHOICES if cardinals else tuple(c for c in CALM_CHOICES if "cardinal" not in c)
    keys = CALM_KEYS if cardinals else tuple(k for k in CALM_KEYS if k != "as_cardinal")
    if isinstance(value, str):
        answer = value.strip().lower()
        if answer in choices:
            return answer
    if not isinstance(value, dict):
        errors.append(OrderError(line, f"`calm_uprisings` is one of {', '.join(choices)} or a mapping, "
                                 f"not {value!r}", CALM_EXAMPLE if cardinals else CALM_EXAMPLE_BISHOP))
        return None
    result: dict[str, Any] = {"as_bishop": False, **({"as_cardinal": False} if cardinals else {}),
                              "except_raised_by": []}
    problems = Problems()
    for sub, item in value.items():
        sub_line = line_of(value, sub)
        if sub in ("as_bishop", "as_cardinal") and sub in keys:
            result[sub] = bool(yes_no(value, sub, problems))
        elif sub == "except_raised_by" and version < 2:
            problems.add(sub_line, "`except_raised_by` is not used in this game: it was created under rules "
                         "version 1, where a bishop's calming does not look at who raised the uprising "
                         "(ruling 33)", "remove `except_raised_by:` (`as_bishop` and `as_cardinal` still work)")
        elif sub == "except_raised_by":
            for name in as_seq(item, sub_line, sub, problems):
                found = find_player(name, players)
                if found is None:
                    problems.add(sub_line, f"no other player {name!r} in this game", suggest(str(name), players))
                elif found not in result[sub]:
                    result[sub].append(found)
        else:
            problems.add(sub_line, f"unknown key `{sub}` in `calm_uprisings`", suggest(sub, keys))
    if problems:
        errors.extend(problems)
        return None
    result["except_raised_by"].sort()
    return result


def describe_calm(policies: Mapping[str, Any]) -> str:
    value = policies.get("calm_uprisings") or "never"
    if isinstance(value, str):
        return f"calm_uprisings: {value}"
    parts = [f"as_bishop {'yes' if value['as_bishop'] else 'no'}"]
    if "as_cardinal" in value:   # an edition with cardinals (its `cardinals` hook)
        parts.append(f"as_cardinal {'yes (3 deniers an attempt)' if value['as_cardinal'] else 'no'}")
    if value.get("except_raised_by"):
        parts.append("never against " + ", ".join(value["except_raised_by"]))
    return "calm_uprisings: " + "; ".join(parts)


def _calm(view: Mapping[str, Any], player: str, value: Any, line: int | None, errors: list[OrderError]) -> Any:
    players = [p for p in view.get("turn_order", []) if p != player]
    return check_calm(value, line, players, view_rules_version(view), errors,
                      load_edition(view["game"]).hooks.cardinals)


def _triggers(view: Mapping[str, Any], player: str, value: Any, line: int | None, errors: list[OrderError]) -> Any:
    return check_triggers(dict(view), player, value, line, errors)


SURPRISE_POLICIES: dict[str, PolicyCheck] = {"surprise": _triggers, CALM_POLICY: _calm}


def check_all_policies(view: Mapping[str, Any], player: str, doc: Any,
                       line: int | None = None) -> tuple[dict, list[OrderError]]:
    """The `policies:` mapping of a mail, checked against the player's view (policies.check_policies
    with the surprise policies and the edition's own, its `policies` hook); ``line``: its key's."""
    edition = load_edition(view["game"])
    surprise: dict[str, PolicyCheck | str] = {**SURPRISE_POLICIES}
    if not calms_uprisings(edition):
        surprise[CALM_POLICY] = f"{edition.title} has no UPRISING card to calm"
    return check_policies(view, player, doc, {**surprise, **edition.hooks.policies}, line)


def calms_uprisings(edition: Edition) -> bool:
    """Whether ``edition``'s games have the core's UPRISING card (G.4.2.1) and so its `calm_uprisings`
    policy: an edition playing its own cards (England's REBELLION, quelled as its own policy
    says, 10.1) has neither."""
    return edition.hooks.card_plays is None


def describe_all_policies(policies: Mapping[str, Any], edition: Edition) -> list[str]:
    """One line per standing policy, for reports and templates."""
    calm = [describe_calm(policies)] if calms_uprisings(edition) else []   # G.4.2.1
    return describe(policies, edition) + calm + describe_triggers(policies)   # G.4
