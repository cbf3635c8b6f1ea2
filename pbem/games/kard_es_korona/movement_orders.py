"""III. Movement by mail: each player sends his whole list of steps at once, with the standing
decisions his battles need (the battle package reads them):

    steps:
      - to: Pest                                  # one step: into one county,
        from: {Fejér: {infantry: 2, cavalry: 1},  # from one or more counties at once
               Pilis: {archers: 1}}
        lord: yes                                 # the province lord goes along (from where he is)
    battle:                                       # the battle package's plan (battle/orders.py) ...
      priorities: [archers, infantry, cavalry]    # which enemy units your hits remove first
      lord_leads: cavalry                         # the kind the lord's +1 goes to (II)
      if_defeated: oath                           # ... and the game's: oath (vassal oath), escape or
                                                  # elimination
    veto: [Kata]                                  # an overlord forbids these vassals' attacks

The judge plays the lists one step a player in turn order (movement.py). Checked here is what
does not depend on the other players: the counties, the units each county has at the start of
the year (a unit moves once a year), the number of steps, the movement points of the shortest
path on the open board.
"""
from __future__ import annotations

from typing import Any

from pbem.games.kard_es_korona import victory_step
from pbem.games.kard_es_korona.battle import check_battle_plan
from pbem.games.kard_es_korona.board import load_board
from pbem.games.kard_es_korona.routes import cheapest, points
from pbem.games.kard_es_korona.reading import county_name, county_units
from pbem.games.kard_es_korona.state import describe, total
from pbem.games.kard_es_korona.units import UNIT_KINDS
from pbem.orders.reading import Problems, as_seq, check_keys, yes_no
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import OrderCheck

# The game's own keys of the `battle:` part; the rest is the battle package's plan (priorities,
# lord_leads, losses, retreat, retreat_to, pursue, reroll, order, counties), whose defaults
# apply to what a player leaves out (docs/kard-es-korona.md, "Battle orders").
GAME_KEYS = ("if_defeated", "after_victory")
DEFAULT_BATTLE: dict[str, Any] = {"if_defeated": "oath", "after_victory": None}
ADVANCED_KEYS = ("retreat", "retreat_to", "pursue")
MOVE_CHOICES = ("first", "last")   # VI. Traditional Movement Method: the starting player moves first or last
# III. Elimination or Vassal Oath: a lord defeated by a player swears the vassal oath, tries to
# escape (a 6), or his player is simply eliminated (ruling K34).
IF_DEFEATED = ("oath", "escape", "elimination")
IF_DEFEATED_WORDS = {"eliminate": "elimination", "eliminated": "elimination", "vassal oath": "oath"}


def check(view: dict[str, Any], player: str, document: Any) -> OrderCheck:
    board = load_board(view["version"])
    problems = Problems()
    doc = document if isinstance(document, dict) else {}
    check_keys(doc, ("steps", "battle", "veto", "move"), "the movement orders", problems)
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
            dst, src, kind = example_step(view, [c for c, a in view["armies"].items() if a["owner"] == player])
            problems.add(line, "a step is a mapping", f"e.g. `- to: {dst}` with `from: {{{src}: {{{kind}: 1}}}}`")
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
    if lord_moves > 1:   # ruling K23
        problems.add(line_of(doc, "steps"), "the province lord moves in one step a year",
                     "give `lord: yes` to one step only")
    battle = _battle(doc.get("battle"), line_of(doc, "battle"), view, problems)
    veto = [str(v) for v in as_seq(doc["veto"], line_of(doc, "veto"), "veto", problems)] if "veto" in doc else []
    for name in veto:
        if view["vassal_of"].get(name) != player:
            problems.add(line_of(doc, "veto"), f"{name} is not your vassal", "veto only your own vassals (V)")
    move = _move(doc, view, player, problems) if "move" in doc else None
    if problems:
        return OrderCheck(None, tuple(problems))
    notes = () if steps else ("you take no step this year: you pass at once",)
    orders = {"steps": steps, "battle": battle, "veto": veto}
    if move is not None:
        orders["move"] = move
    return OrderCheck(orders, notes=notes)


def _move(doc: Any, view: dict[str, Any], player: str, problems: Problems) -> str | None:
    """`move: first | last`: the starting player's choice in the traditional method (VI, l.360)."""
    line = line_of(doc, "move")
    if view.get("movement_method") != "traditional":
        problems.add(line, "`move:` belongs to the traditional movement method (VI), which this game does not "
                     "play", "leave out `move:`")
        return None
    if player != view["starting"]:
        problems.add(line, f"only the starting player ({view['starting']}) chooses to move first or last (VI)",
                     "leave out `move:`")
        return None
    choice = str(doc["move"]).strip().lower()
    if choice not in MOVE_CHOICES:
        problems.add(line, f"`move:` is `first` or `last`, not {str(doc['move'])[:20]!r}", "write `move: last`")
        return None
    return choice


def _battle(raw: Any, line: int | None, view: dict[str, Any], problems: Problems) -> dict[str, Any]:
    """The `battle:` part: the battle package's plan (battle.check_battle_plan, the one reader of
    its fields) with the game's own keys, `if_defeated:` and `after_victory:`, read here."""
    out: dict[str, Any] = dict(DEFAULT_BATTLE)
    if raw is None:
        return out
    board = load_board(view["version"])
    plan = check_battle_plan(raw, line, problems, board.counties, also=GAME_KEYS)
    if not isinstance(raw, dict):
        return out
    if view["version"] != "advanced":   # VI. Retreat / Flight is the advanced game's
        counties = raw.get("counties")
        for fields in [raw] + (list(counties.values()) if isinstance(counties, dict) else []):
            for key in ADVANCED_KEYS if isinstance(fields, dict) else ():
                if key in fields:
                    problems.add(line_of(fields, key), f"`{key}`: retreat and pursuit are the advanced game's (VI)",
                                 f"leave out `{key}`")
    out.update(plan or {})
    if "if_defeated" in raw:
        choice = str(raw["if_defeated"]).strip().lower()
        choice = IF_DEFEATED_WORDS.get(choice, choice)
        if choice not in IF_DEFEATED:
            problems.add(line_of(raw, "if_defeated"), f"if_defeated is `oath`, `escape` or `elimination`, not "
                         f"{str(raw['if_defeated'])[:30]!r}", "write e.g. `if_defeated: oath`")
        out["if_defeated"] = choice
    if "after_victory" in raw:   # III (l.262): the victorious lord's extra step
        out["after_victory"] = victory_step.parse(raw["after_victory"], line_of(raw, "after_victory"), view, problems)
    return out


def plan_fields(orders: dict[str, Any] | None) -> dict[str, Any]:
    """A player's standing `battle:` orders without the game's own keys: the battle package's
    plan data (battle.plan_for, retreat_choices, battle_choices read it)."""
    return {k: v for k, v in (orders or {}).items() if k not in GAME_KEYS}


def example_step(view: dict[str, Any], mine: list[str]) -> tuple[str, str, str]:
    """A step of the player's own (to, from, unit kind) for the form and the errors: one unit
    from his first county (``mine``) into a neighbour; real counties, never a placeholder."""
    board = load_board(view["version"])
    src = mine[0] if mine else next(c for c in board.counties if c not in view["closed"])
    dst = next((n for n in board.borders[src] if n not in view["closed"]), src)
    here = view["armies"].get(src, {}).get("units", {})
    return dst, src, next((k for k in UNIT_KINDS if here.get(k)), UNIT_KINDS[0])


def _example_step(view: dict[str, Any], mine: list[str]) -> list[str]:
    """The form's example step, commented out, that reads as it stands when uncommented."""
    dst, src, kind = example_step(view, mine)
    return [f"#  - to: {dst}", f"#    from: {{{src}: {{{kind}: 1}}}}", "#    lord: yes"]


def template(view: dict[str, Any], player: str) -> str:
    mine = [c for c, a in view["armies"].items() if a["owner"] == player]
    traditional = view.get("movement_method") == "traditional"
    how = ("each player's whole list and then his battles, one player after the other (VI. Traditional Movement "
           "Method)" if traditional else "one step a player in turn order (III)")
    lines = [f"# Movement of {view['year']}: up to {view['steps_allowed'][player]} steps, played {how}.",
             "# Your units: " + "; ".join(f"{c}: {describe(view['armies'][c]['units'])}" for c in mine),
             "# Cavalry and the lord have 4 movement points, infantry and archers 2; a mountain, a marsh",
             "# or a river crossing costs 2 (3 both). A step into enemy units is an attack (a battle).",
             "steps:",
             *_example_step(view, mine),
             "# Standing decisions for your battles this year (docs/orders-kard-es-korona.md); each may",
             "# be left out: hits remove enemy units by ruling B2, the lord leads his largest kind (B4).",
             "#battle:",
             "#  priorities: [cavalry, archers, infantry]   # enemy units your hits remove first",
             "#  lord_leads: cavalry                        # the kind the lord's +1 goes to",
             "#  if_defeated: oath                          # or escape (a 6), or elimination"]
    if traditional and player == view["starting"]:
        lines += ["# You are the starting player: you move first, or last (the player to your left begins).",
                  "#move: last"]
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
    if orders.get("move"):
        out.append(f"move: {orders['move']}")
    out += battle_echo(orders["battle"])
    if orders["veto"]:
        out.append(f"veto: [{', '.join(orders['veto'])}]")
    return "\n".join(out)


def battle_echo(battle: dict[str, Any]) -> list[str]:
    """The `battle:` part written back in the order language (what _battle reads again)."""
    lines = [f"  {key}: {_flow(value)}" for key, value in battle.items()
             if key != "after_victory" and (value is not None or key == "reroll")]
    if battle.get("after_victory"):
        lines.append(f"  after_victory: {victory_step.echo(battle['after_victory'])}")
    return ["battle:"] + lines


def _flow(value: Any) -> str:
    """A plan value as YAML flow text: lists and mappings inline, yes/no, `never` for no re-roll."""
    if value is None:
        return "never"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return str(value)
