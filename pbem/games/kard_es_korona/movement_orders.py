"""III. Movement by mail: each player sends his whole list of steps at once, with the standing
decisions his battles need (the battle module reads them):

    steps:
      - to: Pest                                  # one step: into one county,
        from: {Fejér: {infantry: 2, cavalry: 1},  # from one or more counties at once
               Pilis: {archers: 1}}
        lord: yes                                 # the province lord goes along (from where he is)
    battle:
      priorities: [archers, infantry, cavalry]    # which enemy units your hits remove first
      lord_leads: cavalry                         # the kind the lord's +1 goes to (II)
      if_defeated: oath                           # oath (vassal oath) or escape (a 6 to escape)
    veto: [Kata]                                  # an overlord forbids these vassals' attacks

The judge plays the lists one step a player in turn order (movement.py). Checked here is what
does not depend on the other players: the counties, the units each county has at the start of
the year (a unit moves once a year), the number of steps, the movement points of the shortest
path on the open board.
"""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona import victory_step
from pbem.games.kard_es_korona.board import load_board
from pbem.games.kard_es_korona.routes import cheapest, points
from pbem.games.kard_es_korona.reading import county_name, county_units
from pbem.games.kard_es_korona.state import describe, total
from pbem.games.kard_es_korona.units import UNIT_KINDS, kind_of
from pbem.orders.reading import Problems, as_seq, check_keys, whole_number, yes_no
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import OrderCheck

DEFAULT_BATTLE = {"priorities": ["archers", "infantry", "cavalry"], "lord_leads": "cavalry", "if_defeated": "oath",
                  "after_victory": None, "retreat_at": 0}


def check(view: dict[str, Any], player: str, document: Any) -> OrderCheck:
    board = load_board(view["version"])
    problems = Problems()
    doc = document if isinstance(document, dict) else {}
    check_keys(doc, ("steps", "battle", "veto"), "the movement orders", problems)
    raw_steps = doc.get("steps") or []
    if not isinstance(raw_steps, list):
        problems.add(line_of(doc, "steps"), "`steps:` is a list, each step starting with `- to:`")
        raw_steps = []
    allowed = view["steps_allowed"][player]
    if len(raw_steps) > allowed:
        problems.add(line_of(doc, "steps"), f"you may take {allowed} steps this year, not {len(raw_steps)} "
                     "(castles held + 2, at most 6: III)", "drop the last steps")
    open_counties = [c for c in board.counties if c not in view["closed"]]
    taken: dict[str, dict[str, int]] = {}
    lord_moves = 0
    steps = []
    for index, item in enumerate(raw_steps):
        line = line_of(raw_steps, index)
        if not isinstance(item, dict):
            problems.add(line, "a step is a mapping: `- to: COUNTY` with `from: {COUNTY: {infantry: 1}}`")
            continue
        check_keys(item, ("to", "from", "lord"), "a step", problems)
        to = county_name(item.get("to"), open_counties, line_of(item, "to") or line, problems)
        lord = bool(yes_no(item, "lord", problems)) if "lord" in item else False
        sources: dict[str, dict[str, int]] = {}
        for src, units, where in county_units(item.get("from"), open_counties, line_of(item, "from") or line,
                                              "from", "{Fejér: {infantry: 2}}", problems):
            if total(units):
                sources[src] = units
                have = view["armies"].get(src)
                mine = have["units"] if have and have["owner"] == player else {}
                used = taken.setdefault(src, {k: 0 for k in UNIT_KINDS})
                for kind in UNIT_KINDS:
                    used[kind] += units[kind]
                if any(used[k] > mine.get(k, 0) for k in UNIT_KINDS):
                    problems.add(where, f"you have {describe(mine)} in {src} at the start of the year; your steps "
                                 f"move {describe(used)} from it", "a unit moves once a year (III. Suggestion)")
                if to and to != src:
                    cost = cheapest(board, src, to, lambda c: c not in view["closed"])
                    if cost is None or cost > points(units, False):
                        problems.add(where, f"{describe(units)} cannot reach {to} from {src}: "
                                     f"{points(units, False)} movement points, the way costs "
                                     f"{'more than 4' if cost is None else cost}",
                                     "mountains, marshes and rivers cost 2 (II. Natural Obstacles)")
                elif to == src:
                    problems.add(where, f"a step from {src} into {src} goes nowhere")
        if lord:
            lord_moves += 1
            if view["lords"].get(player) is None:
                problems.add(line_of(item, "lord"), "your province lord is not on the board")
        if to and not sources and not lord:
            problems.add(line, f"the step into {to} moves nothing", "add `from:` or `lord: yes`")
        if to:
            steps.append({"to": to, "from": sources, "lord": lord})
    if lord_moves > 1:
        problems.add(line_of(doc, "steps"), "the province lord moves in one step a year",
                     "give `lord: yes` to one step only")
    battle = _battle(doc.get("battle"), line_of(doc, "battle"), view, problems)
    veto = [str(v) for v in as_seq(doc["veto"], line_of(doc, "veto"), "veto", problems)] if "veto" in doc else []
    for name in veto:
        if view["vassal_of"].get(name) != player:
            problems.add(line_of(doc, "veto"), f"{name} is not your vassal", "veto only your own vassals (V)")
    if problems:
        return OrderCheck(None, tuple(problems))
    notes = () if steps else ("you take no step this year: you pass at once",)
    return OrderCheck({"steps": steps, "battle": battle, "veto": veto}, notes=notes)


def _battle(raw: Any, line: int | None, view: dict[str, Any], problems: Problems) -> dict[str, Any]:
    out: dict[str, Any] = dict(DEFAULT_BATTLE)
    if raw is None:
        return out
    if not isinstance(raw, dict):
        problems.add(line, "`battle:` holds priorities, lord_leads, if_defeated, retreat_at and after_victory")
        return out
    check_keys(raw, DEFAULT_BATTLE, "battle", problems)
    if "priorities" in raw:
        kinds = [kind_of(str(k)) for k in as_seq(raw["priorities"], line_of(raw, "priorities"), "priorities",
                                                 problems)]
        if None in kinds or sorted(k for k in kinds if k) != sorted(UNIT_KINDS):
            problems.add(line_of(raw, "priorities"), "priorities list each kind once",
                         "e.g. `priorities: [archers, infantry, cavalry]`")
        else:
            out["priorities"] = kinds
    if "lord_leads" in raw:
        kind = kind_of(str(raw["lord_leads"]))
        if kind is None:
            problems.add(line_of(raw, "lord_leads"), f"no unit kind {raw['lord_leads']!r}",
                         "one of cavalry, infantry, archers")
        out["lord_leads"] = kind
    if "if_defeated" in raw:
        choice = str(raw["if_defeated"]).strip().lower()
        if choice not in ("oath", "escape"):
            problems.add(line_of(raw, "if_defeated"), "if_defeated is `oath` or `escape`")
        out["if_defeated"] = choice
    if "retreat_at" in raw:   # VI. Retreat / Flight: after a complete round that leaves this many or fewer
        if view["version"] != "advanced":
            problems.add(line_of(raw, "retreat_at"), "retreat is the advanced game's (VI)", "leave out retreat_at")
        out["retreat_at"] = whole_number(raw["retreat_at"], line_of(raw, "retreat_at"), "retreat_at", problems,
                                         low=0) or 0
    if "after_victory" in raw:   # III (l.262): the victorious lord's extra step
        out["after_victory"] = victory_step.parse(raw["after_victory"], line_of(raw, "after_victory"), view, problems)
    return out


def template(view: dict[str, Any], player: str) -> str:
    mine = [c for c, a in view["armies"].items() if a["owner"] == player]
    lines = [f"# Movement of {view['year']}: up to {view['steps_allowed'][player]} steps, played one step a "
             "player in turn order (III).",
             "# Your units: " + "; ".join(f"{c}: {describe(view['armies'][c]['units'])}" for c in mine),
             "# Cavalry and the lord have 4 movement points, infantry and archers 2; a mountain, a marsh",
             "# or a river crossing costs 2 (3 both). A step into enemy units is an attack (a battle).",
             "steps:",
             "#  - to: COUNTY",
             "#    from: {COUNTY: {infantry: 1}}",
             "#    lord: yes",
             "battle:",
             "  priorities: [archers, infantry, cavalry]",
             "  lord_leads: cavalry",
             "  if_defeated: oath"]
    return "\n".join(lines) + "\n"


def echo(orders: dict[str, Any]) -> str:
    out = ["steps:" if orders["steps"] else "steps: []"]
    for step in orders["steps"]:
        out.append(f"  - to: {step['to']}")
        if step["from"]:
            parts = ", ".join(f"{c}: {{{', '.join(f'{k}: {n}' for k, n in u.items() if n)}}}"
                              for c, u in step["from"].items())
            out.append(f"    from: {{{parts}}}")
        if step["lord"]:
            out.append("    lord: yes")
    b = orders["battle"]
    out += ["battle:", f"  priorities: [{', '.join(b['priorities'])}]", f"  lord_leads: {b['lord_leads']}",
            f"  if_defeated: {b['if_defeated']}"]
    if b.get("retreat_at"):
        out.append(f"  retreat_at: {b['retreat_at']}")
    if b.get("after_victory"):
        out.append(f"  after_victory: {victory_step.echo(b['after_victory'])}")
    if orders["veto"]:
        out.append(f"veto: [{', '.join(orders['veto'])}]")
    return "\n".join(out)
