"""Standing policies (DESIGN.md, "Standing policies for other people's questions").

At the table a moving player asks the others mid-move: "may I pass?" (5.2.3.1), "may my
besieged army leave?" (6.4.2). By mail nobody can be asked, so each player declares the answer
in advance under the `policies:` key of any mail; it is stored in ``Family.policies`` and kept
until changed. A policy not given keeps its stored value; the default is the cautious answer.

    policies:
      safe_passage: {allow: [enguerand], refuse: [marc], others: refuse}
      besieged_may_leave: {allow: [], others: refuse}
      placement: {allow: [marie], others: refuse}
      plague_losses: [man_at_arms, archer, knight, bombard]

Canonical form (JSON): {"safe_passage": {"allow": [...], "refuse": [...], "others": "refuse"},
"besieged_may_leave": {...}, "plague_losses": [...]} with only the policies the mail gave.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Callable, Mapping

from pbem.games.fief.edition import Edition, load_edition
from pbem.games.fief.orders_common import view_rules_version
from pbem.orders.reading import suggest
from pbem.orders.yamlsafe import YSeq, line_of
from pbem.rules.api import OrderError

# Answers to "may this player's army cross your forces?" (5.2.3.1), "may this player's
# besieged army leave the town you besiege?" (6.4.2) and "may this player's lord come into
# play in a town you control?" (G.1.2, class 4).
PLACEMENT = "placement"
PERMISSION_POLICIES = ("safe_passage", "besieged_may_leave", "new_cardinal",   # new_cardinal: the pope, D.2.3
                       PLACEMENT)
# Which unit pawns go first when an army entering a plagued bishopric loses half its troop
# (G.2.1.2: "the troop owner decides which unit pawns they lose").
LOSS_POLICY = "plague_losses"
POLICY_NAMES = PERMISSION_POLICIES + (LOSS_POLICY,)
ANSWERS = ("allow", "refuse")
# The cautious answers (DESIGN.md): nobody passes, no besieged army leaves; the cheapest pawns
# die first (price order, 4.3), the royal guard last since it cannot be replaced (1.5.5).
DEFAULT_ANSWER = "refuse"
CARDINAL_POLICY = "new_cardinal"


def permission_policies(edition: Edition) -> tuple[str, ...]:
    """The permission policies of ``edition``'s games: `new_cardinal` only where there are
    cardinals (its `cardinals` hook, D.2.3)."""
    return tuple(k for k in PERMISSION_POLICIES if k != CARDINAL_POLICY or edition.hooks.cardinals)


def not_this_edition(key: str, edition: Edition) -> str:
    """Why a core policy is no policy of ``edition``'s games ("" when it is)."""
    if key == CARDINAL_POLICY and not edition.hooks.cardinals:
        return f"{edition.title} has no cardinal, so no pope to answer one"
    return ""


def default_loss_order(edition: Edition) -> tuple[str, ...]:
    """The edition's unit types by price, then its royal guard by Combat Points (France: men-at-arms,
    archers, knights, bombards, the queen's sergeants, the king's knights)."""
    units = sorted(edition.unit_types, key=edition.unit_price)   # stable: the record's order on ties
    guards = sorted(edition.hooks.royal_guard, key=lambda k: edition.hooks.royal_guard[k].combat_points)
    return tuple(units) + tuple(guards)


def find_player(text: Any, players: list[str]) -> str | None:
    if not isinstance(text, str):
        return None
    for p in players:
        if p.lower() == text.strip().lower():
            return p
    return None


# A policy the rules above this module add (surprise/policies.py): (view, player, the value as
# written, its line, the errors to add to) -> its canonical form, or None when it has errors.
PolicyCheck = Callable[[Mapping[str, Any], str, Any, int | None, list[OrderError]], Any]


def check_policies(view: Mapping[str, Any], player: str, doc: Any,
                   more: Mapping[str, PolicyCheck | str] = MappingProxyType({}),
                   line: int | None = None) -> tuple[dict, list[OrderError]]:
    """Check the `policies:` mapping of a mail against the player's view: the canonical form
    of the policies it gives, and the errors (with lines and a fix). ``more``: the policies of
    the rules above, by key (the whole list: surprise/policies.py, check_all_policies), or for
    a key that is no policy of this game the reason why; ``line``: the line of the `policies:`
    key (a value that is no mapping has none of its own)."""
    if doc is None:
        return {}, []
    if not isinstance(doc, dict):
        return {}, [OrderError(getattr(doc, "line", None) or line, "`policies:` must be a mapping of policy names",
                               "write e.g. `policies: {safe_passage: {allow: [marc], others: refuse}}`")]
    players = [p for p in view.get("turn_order", []) if p != player]
    canonical: dict[str, Any] = {}
    errors: list[OrderError] = []
    edition = load_edition(view["game"])
    for key, value in doc.items():
        line = line_of(doc, key)
        check = more.get(key)
        why = check if isinstance(check, str) else not_this_edition(key, edition)
        if why:   # a core policy of another edition's (France's cardinal, its uprisings)
            errors.append(OrderError(line, f"`{key}` is no policy of this game: {why}",
                                     f"remove `{key}:` from your policies"))
        elif key == PLACEMENT and view_rules_version(view) < 2:
            errors.append(OrderError(line, "`placement` (G.1.2: a lord coming into play in a town you control) "
                                     "is not used in this game: it was created under rules version 1, where "
                                     "a town of another family is never offered (ruling 21)",
                                     "remove `placement:` from your policies"))
        elif key in PERMISSION_POLICIES:
            got = _check_permission(key, value, line, players, player, errors)
            if got is not None:
                canonical[key] = got
        elif key == LOSS_POLICY:
            got_order = _check_loss_order(value, line, errors, load_edition(view["game"]))
            if got_order is not None:
                canonical[key] = got_order
        elif check is not None and not isinstance(check, str):   # the rules above's (surprise/policies.py: G.4)
            got_more = check(view, player, value, line, errors)
            if got_more is not None:
                canonical[key] = got_more
        else:
            known = tuple(k for k, c in more.items() if not isinstance(c, str))
            hint = suggest(key, permission_policies(edition) + (LOSS_POLICY,) + known)
            errors.append(OrderError(line, f"unknown policy `{key}`", hint))
    return canonical, errors


def _check_permission(key: str, value: Any, line: int | None, players: list[str], me: str,
                      errors: list[OrderError]) -> dict | None:
    example = f"write e.g. `{key}: {{allow: [{players[0] if players else 'marc'}], others: refuse}}`"
    if isinstance(value, str) and value.strip().lower() in ANSWERS:
        # `safe_passage: allow` is short for "everyone".
        return {"allow": [], "refuse": [], "others": value.strip().lower()}
    if not isinstance(value, dict):
        errors.append(OrderError(line, f"`{key}` needs `allow`, `refuse` and/or `others`", example))
        return None
    result: dict[str, Any] = {"allow": [], "refuse": [], "others": DEFAULT_ANSWER}
    before = len(errors)
    for sub, item in value.items():
        sub_line = line_of(value, sub)
        if sub in ANSWERS:
            names = item if isinstance(item, list) else ([] if item is None else [item])
            for i, name in enumerate(names):
                found = find_player(name, players)
                where = line_of(names, i) if isinstance(names, YSeq) else sub_line
                if found is None:
                    if isinstance(name, str) and name.strip().lower() == me.lower():
                        errors.append(OrderError(where, f"you need no {key} from yourself",
                                                 f"remove {name} from `{sub}`"))
                        continue
                    hint = suggest(str(name), players)
                    errors.append(OrderError(where, f"no player {name!r} in this game", hint))
                elif found in result["allow"] or found in result["refuse"]:
                    errors.append(OrderError(where, f"{found} is named twice in `{key}`",
                                             "name each player in `allow` or `refuse`, once"))
                else:
                    result[sub].append(found)
        elif sub == "others":
            answer = item.strip().lower() if isinstance(item, str) else None
            if answer not in ANSWERS:
                errors.append(OrderError(sub_line, f"`others` must be allow or refuse, not {item!r}",
                                         "write `others: refuse` (the cautious answer) or `others: allow`"))
            else:
                result["others"] = answer
        else:
            hint = suggest(sub, ANSWERS + ("others",))
            errors.append(OrderError(sub_line, f"unknown key `{sub}` in `{key}`", hint))
    if len(errors) > before:
        return None
    result["allow"].sort()
    result["refuse"].sort()
    return result


def _check_loss_order(value: Any, line: int | None, errors: list[OrderError], edition: Edition) -> list[str] | None:
    if not isinstance(value, list) or not value:
        errors.append(OrderError(line, "`plague_losses` is a list of unit kinds, first to die first",
                                 "write e.g. `plague_losses: [man_at_arms, archer, knight, bombard]`"))
        return None
    order: list[str] = []
    for i, word in enumerate(value):
        kind = edition.unit_kind(word)
        where = line_of(value, i)
        if kind is None:
            hint = suggest(str(word), default_loss_order(edition))
            errors.append(OrderError(where, f"unknown unit kind {word!r}", hint))
            return None
        if kind in order:
            errors.append(OrderError(where, f"{kind} is listed twice", "list each kind once"))
            return None
        order.append(kind)
    # Kinds not listed die after the listed ones, in the default order.
    return order + [k for k in default_loss_order(edition) if k not in order]


def merge_policies(stored: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """Standing policies after a mail: each policy given replaces the stored one; the others
    stay as they were (they are kept until changed)."""
    return {**stored, **given}


def permits(policies: Mapping[str, Any], key: str, asker: str) -> bool:
    """Does the family with these policies answer yes to ``asker`` for ``key``?"""
    policy = policies.get(key)
    if not policy:
        return DEFAULT_ANSWER == "allow"
    if asker in policy.get("allow", ()):
        return True
    if asker in policy.get("refuse", ()):
        return False
    return policy.get("others", DEFAULT_ANSWER) == "allow"


def loss_order(policies: Mapping[str, Any], edition: Edition) -> tuple[str, ...]:
    order = policies.get(LOSS_POLICY)
    return tuple(order) if order else default_loss_order(edition)


def describe(policies: Mapping[str, Any], edition: Edition) -> list[str]:
    """One line per policy of this module, for reports and templates (all of them:
    surprise/policies.py, describe_all_policies)."""
    lines = []
    for key in permission_policies(edition):
        p = policies.get(key) or {"allow": [], "refuse": [], "others": DEFAULT_ANSWER}
        parts = []
        if p.get("allow"):
            parts.append("allow " + ", ".join(p["allow"]))
        if p.get("refuse"):
            parts.append("refuse " + ", ".join(p["refuse"]))
        parts.append(f"{p.get('others', DEFAULT_ANSWER)} everyone else")
        lines.append(f"{key}: " + "; ".join(parts))
    lines.append(f"{LOSS_POLICY}: " + ", ".join(loss_order(policies, edition)))
    return lines


__all__ = ["check_policies", "merge_policies", "permits", "loss_order", "describe", "default_loss_order",
           "find_player", "POLICY_NAMES", "PolicyCheck"]
