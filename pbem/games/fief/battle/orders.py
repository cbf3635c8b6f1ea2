"""The Battle Phase orders (6) as mailed, checked against the player's view (never the state).

    orders:
      - attack: marc          # 6: one battle per town, where you have an army (a free lord and,
                              #    rules version 2, a troop: 5.1); none under bad weather (G.2.2)
        in: Rennes
      - siege: Limoges        # 6.4.1: declare (or continue) a siege at the end of the phase
      - lift: Orleans         # 6.4.1: remove your siege engine marker
      - plunder: Tours        # 6.5: after all battles; `mills: 1` to plunder only some
      - release: Arthur       # 6.3: free your captive (at the start of the phase)
      - transfer: Arthur      # 6.3: hand your captive to a family with forces in their town
        to: marc
    policies:                 # standing (kept until changed), next to those of policies.py
      coalition:              # 6.1: whom I join and whom I accept, per town or anywhere
        join: {marc: anywhere, cedric: [Tours]}
        accept: {marc: anywhere}
      battle_plan: {...}      # battle/plan_orders.py
      lower_ransom: {accept_from: 4}   # 4.1, captives/ransom.py: deniers per captive freed

Canonical orders: {"battles": [{"target", "town"}], "sieges": [town], "lifts": [town],
"plunder": [{"town", "mills"}], "captives": [{"lord", "release": true} | {"lord", "transfer"}],
"policies": {...}}; mills None = every mill there.

What the view cannot settle (the battles fought before, in turn order) is decided at
resolution, where an order made impossible fails with an event (DESIGN.md).
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.captives.ransom import check_captive_order, check_lower_ransom
from pbem.games.fief.movement.disasters import no_battle_for_weather, numbers_with
from pbem.games.fief.orders_common import town_name, view_rules_version
from pbem.orders.reading import Problems, check_keys, each_order, suggest, whole_number
from pbem.games.fief.battle.plan_orders import check_plan
from pbem.games.fief.policies import find_player
from pbem.games.fief.edition import load_edition
from pbem.orders.yamlsafe import line_of

VERBS = ("attack", "siege", "lift", "plunder", "release", "transfer")
KEYS = {"attack": ("attack", "in"), "siege": ("siege",), "lift": ("lift",), "plunder": ("plunder", "mills")}
# The standing policies of issue 4 (battles, and the jailer's answer to a lower ransom, 4.1).
BATTLE_POLICIES = ("coalition", "battle_plan", "lower_ransom")
ANYWHERE = "anywhere"


def empty_orders() -> dict[str, Any]:
    """The default orders (docs/orders-fief-france-battle.md): no battle, no new siege (sieges in
    progress continue while a lord is there), no plunder; standing policies unchanged."""
    return {"battles": [], "sieges": [], "lifts": [], "plunder": [], "captives": [], "policies": {}}


def check_battle_orders(view: dict, board: Board, player: str, items: list, problems: Problems) -> dict:
    out = empty_orders()
    del out["policies"]
    seen_towns: dict[str, int | None] = {}
    rules = load_edition(view["game"]).hooks.battle
    own_verbs = rules.verbs if rules else {}   # an edition's own (England: `attack_invaders:`)
    for item, verb, line in each_order(items, VERBS + tuple(own_verbs), problems):
        if verb in own_verbs:
            _own(view, board, player, item, verb, own_verbs[verb], line, out, problems)
            continue
        if verb in ("release", "transfer"):
            check_captive_order(view, player, verb, item, line, out, problems)
            continue
        own = _own_plunder_keys(view) if verb == "plunder" else {}
        check_keys(item, KEYS[verb] + tuple(own), f"a `{verb}` order", problems)
        where = "in" if verb == "attack" else verb
        town = town_name(board, item[where], line_of(item, where) or line, problems) \
            if where in item else None
        if verb == "attack":
            _attack(view, board, player, item, town, line, seen_towns, out, problems)
        elif town is None:
            continue
        elif verb == "siege":
            _siege(view, player, town, line, out, problems)
        elif verb == "lift":
            if player not in view["towns"][town]["besiegers"]:
                problems.add(line, f"you do not besiege {town}", _cite(view, "lift only a siege you hold (6.4.1)"))
            else:
                out["lifts"].append(town)
        else:
            _plunder(view, player, item, town, line, out, problems, own)
    _engines_left(view, player, out, problems)
    return out


def _own(view: dict, board: Board, me: str, item: dict, verb: str, own: Any, line: int | None, out: dict,
         problems: Problems) -> None:
    check_keys(item, own.keys, f"a `{verb}` order", problems)
    town = town_name(board, item[verb], line_of(item, verb) or line, problems)
    if town is None:
        return
    got = own.check(view, board, me, item, town, line, problems)
    if got is not None:
        out.setdefault("own", []).append({"verb": verb, "town": town, **got})


def _attack(view: dict, board: Board, me: str, item: dict, town: str | None, line: int | None,
            seen: dict, out: dict, problems: Problems) -> None:
    if "in" not in item:
        problems.add(line, "an `attack` order needs `in: TOWN`", "add a line `in: TOWN` under it")
        return
    others = [p for p in view["turn_order"] if p != me]
    target = find_player(item["attack"], others)
    if target is None:
        hint = "you cannot attack yourself" if find_player(item["attack"], [me]) else \
            (suggest(str(item["attack"]), others) if others else "")
        problems.add(line_of(item, "attack"), f"`attack`: no other player {item['attack']!r}", hint)
    if town is None or target is None:
        return
    if town in seen:
        problems.add(line, f"you already declare a battle in {town} (line {seen[town]})",
                     "one battle per town per player (6)")
        return
    forces = view["towns"][town]["forces"]
    mine = forces.get(me) or {}
    since_2 = view_rules_version(view) >= 2
    weather = no_battle_for_weather(board, _effects(view), town) if since_2 else None   # G.2.2 (ruling 36)
    own = load_edition(view["game"]).hooks.weather
    if weather:
        problems.add(line, f"no battle in {town}: {weather}", own.battle_hint if own is not None else
                     "remove this order: the card lies there until the End of Round (7), too late for a good "
                     "weather card (2.6); a siege is still allowed (ruling 36)")
        return
    if not mine.get("lords"):
        problems.add(line, f"you have no free lord in {town}",
                     _cite(view, "a troop cannot declare a battle (6): attack where one of your lords stands"))
        return
    if since_2 and not has_troop(mine.get("units") or {}):   # 5.1, 6 (ruling 37)
        problems.add(line, f"you have no army in {town}: your lords there have no troop",
                     _cite(view, "lords alone do not count as an army (5.1) and you declare a battle where you "
                           "have an army (6): bring a unit pawn other than a bombard"))
        return
    theirs = forces.get(target) or {}
    if not (theirs.get("lords") or theirs.get("units")):
        problems.add(line, f"{target} has no forces in {town}",
                     suggest(town, [t for t, v in view["towns"].items()
                                    if me in v["forces"] and target in v["forces"]]) or
                     f"you share no town with {target}")
        return
    battle = load_edition(view["game"]).hooks.battle
    barred = battle.attack_check(view, me, target, town) if battle and battle.attack_check else None
    if barred:   # an edition's own refusal (England 13.3)
        problems.add(line, barred[0], barred[1])
        return
    seen[town] = line
    out["battles"].append({"target": target, "town": town})


def has_troop(units: dict[str, int]) -> bool:
    """5.1: a family's unit pawns there make a troop, which a lord makes an army. A bombard
    alone does not (docs/fief-france-battle.md, ruling 3: lords with bombards only are "a lord
    without an army")."""
    return any(n > 0 for kind, n in units.items() if kind != "bombard")


def _effects(view: dict) -> list[tuple[str, str]]:
    return [(e["card"], e["target"]) for e in view.get("board_effects") or []]


def may_declare_in(view: dict, me: str, town: str) -> bool:
    """For the order template: a free lord of mine there and, from rules version 2, a troop with
    them (5.1) and no bad weather on the town's bishopric (G.2.2)."""
    here = view["towns"][town]
    mine = here["forces"].get(me) or {}
    if not mine.get("lords"):
        return False
    if view_rules_version(view) < 2:
        return True
    weather = here["bishopric"] in numbers_with(_effects(view), "bad_weather")
    return has_troop(mine.get("units") or {}) and not weather


def _cite(view: dict, text: str) -> str:
    """A hint of the core's (France's sections) in the sections of the view's edition."""
    return load_edition(view["game"]).cite_in(text)


def _siege(view: dict, me: str, town: str, line: int | None, out: dict, problems: Problems) -> None:
    here = view["towns"][town]
    if not here["fortress"]:
        problems.add(line, f"{town} has no fortress to besiege",
                     _cite(view, "a siege needs a stronghold or a city (6.4.1)"))
        return
    if here["controller"] == me:
        problems.add(line, f"you control {town}",
                     _cite(view, "you besiege a fortress controlled by another family (6.4.1)"))
        return
    if not (here["forces"].get(me) or {}).get("lords"):
        problems.add(line, f"you have no free lord in {town}",
                     _cite(view, "a besieger needs at least 1 lord there (6.4.1)"))
        return
    if town not in out["sieges"]:
        out["sieges"].append(town)
        out.setdefault("_siege_lines", {})[town] = line


def _engines_left(view: dict, me: str, out: dict, problems: Problems) -> None:
    """6.4.1: 2 siege engine markers a player, counting the sieges this mail lifts (wherever
    the `lift` is written: lifts are done first)."""
    lines = out.pop("_siege_lines", {})
    held = sorted(t for t, v in view["towns"].items() if me in v["besiegers"] and t not in out["lifts"])
    used = len(held)
    engines = load_edition(view["game"]).siege_engines   # A.1, 6.4.1
    for town in list(out["sieges"]):
        if town in held:
            continue
        used += 1
        if used > engines:
            problems.add(lines.get(town), f"you already besiege {', '.join(held)}" if held else
                         f"you declare more than {engines} sieges",
                         _cite(view, f"every player has only {engines} siege engine markers (6.4.1): "
                               "`lift:` one first"))
            out["sieges"].remove(town)


def _own_plunder_keys(view: dict) -> Mapping[str, Any]:
    own = load_edition(view["game"]).hooks.battle
    return own.plunder_keys if own else {}


def _plunder(view: dict, me: str, item: dict, town: str, line: int | None, out: dict, problems: Problems,
             own: Mapping[str, Any]) -> None:
    extra: dict[str, Any] = {}
    for key, checker in own.items():   # an edition's own keys (England: `abbey:`, 7.10)
        if key in item:
            before = len(problems)
            value = checker(view, me, town, item[key], line_of(item, key) or line, problems)
            if len(problems) > before:
                return
            extra[key] = value
    mills = view["towns"][town]["mills"]
    if not mills and not extra:
        problems.add(line, f"{town} has no mill to plunder", _cite(view, "plunder a town with mills (6.5)"))
        return
    count = None
    if "mills" in item:
        count = whole_number(item["mills"], line_of(item, "mills"), "mills", problems, low=0 if extra else 1)
        if count is None:
            return
        if count > mills:
            problems.add(line_of(item, "mills"), f"{town} has only {mills} mill(s)", f"write `mills: {mills}`")
            return
    if any(p["town"] == town for p in out["plunder"]):
        problems.add(line, f"{town} is plundered twice", "one `plunder` order per town")
        return
    out["plunder"].append({"town": town, "mills": count, **extra})


# -- standing policies ----------------------------------------------------------------------

def check_battle_policies(view: dict, board: Board, me: str, doc: dict, problems: Problems) -> dict:
    """The canonical form of the Battle Phase policies present in a `policies:` mapping."""
    out: dict[str, Any] = {}
    if "coalition" in doc:
        got = _coalition(view, board, me, doc["coalition"], line_of(doc, "coalition"), problems)
        if got is not None:
            out["coalition"] = got
    if "lower_ransom" in doc:
        got = check_lower_ransom(doc["lower_ransom"], line_of(doc, "lower_ransom"), problems,
                                 load_edition(board.variant).coin_plural)
        if got is not None:
            out["lower_ransom"] = got
    if "battle_plan" in doc:
        own = load_edition(board.variant).hooks.battle   # an edition's own plan words (England, E 7)
        got = check_plan(view, me, doc["battle_plan"], line_of(doc, "battle_plan"), problems,
                         extra=own.plan_words if own else None)
        if got is not None:
            out["battle_plan"] = got
    return out


def plan_spending(view: dict, policies: Mapping[str, Any]) -> int:
    """The money the canonical `battle_plan` of a mail's policies may spend as a battle begins (the
    edition's `plan_spends`; England 11.1: crossbowmen hired, R159), 0 without one."""
    own = load_edition(view["game"]).hooks.battle
    plan = policies.get("battle_plan")
    return own.plan_spends(view, plan) if own and own.plan_spends and plan else 0


def _coalition(view: dict, board: Board, me: str, value: Any, line: int | None,
               problems: Problems) -> dict | None:
    example = "write e.g. `coalition: {join: {marc: anywhere}, accept: {marc: [Tours]}}`"
    if not isinstance(value, dict):
        problems.add(line, "`coalition` is a mapping with `join` and/or `accept`", example)
        return None
    before = len(problems)
    out: dict[str, dict[str, Any]] = {"join": {}, "accept": {}}
    others = [p for p in view["turn_order"] if p != me]
    for key, given in value.items():
        where = line_of(value, key)
        if key not in out:
            problems.add(where, f"unknown key `{key}` in `coalition`", suggest(key, ["join", "accept"]))
            continue
        if isinstance(given, list):    # a list of players: anywhere
            given_map = {name: ANYWHERE for name in given}
        elif isinstance(given, dict):
            given_map = given
        elif given is None:
            given_map = {}
        else:
            problems.add(where, f"`{key}` maps players to `anywhere` or a list of towns", example)
            continue
        for name, towns in given_map.items():
            at = line_of(given, name) if isinstance(given, dict) else where
            player = find_player(name, others)
            if player is None:
                problems.add(at, f"`coalition.{key}`: no other player {name!r}",
                             suggest(str(name), others) if others else "")
                continue
            if isinstance(towns, str) and towns.strip().lower() in (ANYWHERE, "any", "everywhere"):
                out[key][player] = ANYWHERE
                continue
            names = towns if isinstance(towns, list) else [towns]
            found = [town_name(board, t, at, problems) for t in names]
            out[key][player] = sorted({t for t in found if t})
    return out if len(problems) == before else None


def coalition_answer(policies: dict, key: str, other: str, town: str) -> bool:
    """Does this family's `coalition` policy say yes to ``other`` in ``town``? The cautious
    default (DESIGN.md): join no one, accept no one."""
    rule = ((policies or {}).get("coalition") or {}).get(key, {}).get(other)
    return rule == ANYWHERE or (isinstance(rule, list) and town in rule)


def join_order(policies: dict) -> list[str]:
    """The players a family would join, in the order its policy names them (the first one that
    leads a side in a battle is the side it asks to join)."""
    return list(((policies or {}).get("coalition") or {}).get("join", {}))


def describe_battle_policies(policies: dict, coins: str) -> list[str]:
    """One line per policy of issue 4, for the report's "standing policies" (defaults named);
    ``coins``: the edition's money in the plural (`money.unit`)."""
    coalition = (policies or {}).get("coalition") or {}
    lines = []
    for key, verb in (("join", "join"), ("accept", "accept")):
        rules = coalition.get(key) or {}
        parts = [f"{p} {'anywhere' if where == ANYWHERE else 'in ' + ', '.join(where)}"
                 for p, where in rules.items()]
        lines.append(f"coalition {key}: " + ("; ".join(parts) if parts else f"{verb} no one"))
    plan = (policies or {}).get("battle_plan")
    lines.append("battle_plan: " + (", ".join(f"{k}: {v}" for k, v in plan.items()) if plan else "the default plan"))
    least = ((policies or {}).get("lower_ransom") or {}).get("accept_from")
    lines.append("lower_ransom: " + (f"accept offers of at least {least} {coins} per captive"
                                     if least is not None else "refuse"))
    return lines
