"""The underground card played to move (G.4.2.2, its first case), ordered on a move by mail.

"At the beginning of a step, an army may simultaneously: leave a besieged fortress without
having to cross the besiegers; move to a town affected by a bad weather card or leave it;
pass through without fighting (5.2.3). That army is directly placed in an adjacent town, this
counts as 1 step." By mail the move is written before anything is known, so the card is a
surprise card with a trigger (DESIGN.md "Surprise cards have trigger points"): the move order
names the steps it is played on, or asks for it only where a step would otherwise be stopped.

    underground: Poitiers                        # the step that reaches Poitiers: always
    underground: [Poitiers, Limoges]             # two steps, two cards
    underground: if_needed                       # any land step refused, blocked by bad weather,
                                                 #   or a besieged start the besiegers refuse
    underground: {Poitiers: always, others: if_needed}

Canonical form: {TOWN: "always" | "if_needed", ..., "others": "if_needed"} (``others`` only
when given). Checked here against the path and the player's hand; movement/phase.py decides at each
step whether to play it and moves the army; ``play_card`` takes the card from the hand.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.movement.army import Army
from pbem.games.fief.movement.disasters import bad_weather_blocks
from pbem.games.fief.movement.events import Teller
from pbem.orders.reading import Problems
from pbem.games.fief.state import FiefState
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Event

CARD = "underground"
ALWAYS, IF_NEEDED = "always", "if_needed"
MODES = (ALWAYS, IF_NEEDED)
OTHERS = "others"      # every land step not named (like `others:` in the permission policies)
EXAMPLE = ("write e.g. `underground: Poitiers` (the step reaching Poitiers), `underground: if_needed`, "
           "or `underground: {Poitiers: always, others: if_needed}`")


def mode_for(order: Mapping[str, Any], target: str) -> str | None:
    """How the order plays the card on the land step reaching ``target``: always, if_needed,
    or None (not on this step)."""
    plan = order.get(CARD)
    if not plan:
        return None
    return plan.get(target, plan.get(OTHERS))


def _mode(text: Any) -> str | None:
    word = text.strip().lower().replace(" ", "_").replace("-", "_") if isinstance(text, str) else ""
    return word if word in MODES else None


def land_steps(start: str, path: list[str], seas: tuple[str, ...]) -> list[str]:
    """The towns reached by the land steps of a path (not a naval step to or from a sea, 5.3)."""
    out, here = [], start
    for town in path:
        if town not in seas and here not in seas:
            out.append(town)
        here = town
    return out


def check_underground(item: Mapping[str, Any], start: str, path: list[str], hand: list[str],
                      find_town: Callable[[Any, int | None], str | None], seas: tuple[str, ...],
                      problems: Problems) -> tuple[dict | None, list[int | None]]:
    """The canonical `underground:` of a move, and one line per card it always plays (so the
    caller can count them against the hand). (None, []) after an error. ``seas``: the board's."""
    value, line = item[CARD], line_of(item, CARD)
    if CARD not in hand:
        problems.add(line, "you hold no underground card (G.4.2.2)",
                     "remove `underground:`; your hand: " + (", ".join(hand) or "empty"))
        return None, []
    raw = _entries(value, line, problems)
    if raw is None:
        return None, []
    reached = land_steps(start, path, seas)
    plan: dict[str, str] = {}
    for key, mode_text, where in raw:
        mode = _mode(mode_text)
        if mode is None:
            problems.add(where, f"an underground step is `always` or `if_needed`, not {mode_text!r}", EXAMPLE)
            return None, []
        if isinstance(key, str) and key.strip().lower() == OTHERS:
            if mode != IF_NEEDED:
                problems.add(where, "`others:` takes `if_needed` only",
                             "name the towns where the card is always played")
                return None, []
            if not reached:
                problems.add(where, "this path has no land step for an underground card (G.4.2.2)",
                             "naval steps need no card: they ignore safe passage and bad weather (5.3)")
                return None, []
            plan[OTHERS] = mode
            continue
        town = find_town(key, where)
        if town is None:
            return None, []
        problem = _step_problem(town, start, path, reached, seas)
        if problem:
            problems.add(where, *problem)
            return None, []
        plan[town] = mode
    lines = [line for town, mode in plan.items() if mode == ALWAYS for _ in range(reached.count(town))]
    return plan, lines


def _entries(value: Any, line: int | None, problems: Problems) -> list[tuple[Any, Any, int | None]] | None:
    """(town or `others`, mode, line) for each entry of the three written forms."""
    if isinstance(value, dict):
        if not value:
            problems.add(line, "`underground:` is empty", EXAMPLE)
            return None
        return [(k, v, line_of(value, k) or line) for k, v in value.items()]
    if isinstance(value, str) and _mode(value) == IF_NEEDED:
        return [(OTHERS, IF_NEEDED, line)]
    if isinstance(value, list):
        if not value:
            problems.add(line, "`underground:` is empty", EXAMPLE)
            return None
        out = []
        for i, town in enumerate(value):
            if not isinstance(town, str):
                problems.add(line_of(value, i) or line, "a town of the path is expected here", EXAMPLE)
                return None
            out.append((town, ALWAYS, line_of(value, i) or line))
        return out
    if isinstance(value, str):
        return [(value, ALWAYS, line)]
    problems.add(line, "`underground:` names a town of the path, a list of them, or `if_needed`", EXAMPLE)
    return None


def _step_problem(town: str, start: str, path: list[str], reached: list[str],
                  seas: tuple[str, ...]) -> tuple[str, str] | None:
    if town in reached:
        return None
    if town in seas or town in path:
        return (f"the step to {town} is a naval step (5.3): an underground card moves an army by "
                "road to an adjacent town (G.4.2.2)", "naval steps need no card")
    if town == start:
        return (f"{town} is where the move starts",
                "name the town the underground step reaches: " + (", ".join(reached) or "none on this path"))
    return (f"{town} is not on this path",
            "the towns its land steps reach: " + (", ".join(reached) or "none"))



def play_card(state: FiefState, board: Board, bad_weather: set[int], teller: Teller, army: Army,
              cur: str, target: str, first: bool, why: str) -> bool:
    """Take an underground card from the mover's hand to the events discard pile (G.4.2.2:
    discarded once resolved) and tell everyone (a played card is public); the reason it was
    played is told to the player alone (a refusal is known only to the families in it).
    False, and a private note, if no card is left in hand - an earlier move used it, or it
    was given away in diplomacy - the step then follows the normal rules."""
    fam = army.family
    hand = state.families[fam].hand
    if CARD not in hand:
        teller.private("underground_missing", [fam],
                       f"{army.leader}'s underground card for the step to {target} cannot be played: you hold "
                       f"no underground card any more ({why}); the step follows the normal movement rules.",
                       {"lord": army.leader, "family": fam, "to": target})
        return False
    hand.remove(CARD)
    state.events_discard.append(CARD)
    town = state.towns[cur]
    if not first:
        how = f"passes through {cur} without fighting (5.2.3.2)"
    elif town.besiegers and town.controller == fam:
        how = f"leaves the besieged fortress of {cur} without crossing the besiegers (6.4.2)"
    else:
        how = f"leaves {cur} crossing nobody"
    bad = bad_weather_blocks(board, bad_weather, cur, target)
    weather = f", despite the bad weather on bishopric {bad} (G.2.2)" if bad is not None else ""
    text = (f"{fam} plays an underground card (G.4.2.2): {army.leader}'s army {how} and is placed "
            f"directly in {target}{weather}; 1 step.")
    teller.add([Event("surprise_played", text, data={"player": fam, "card": CARD, "lord": army.leader,
                                                     "from": cur, "to": target})])
    teller.private("trigger_fired", [fam], f"Your underground card was played on {army.leader}'s step to "
                   f"{target}: {why}.", {"player": fam, "card": CARD, "lord": army.leader, "to": target,
                                          "why": why})
    return True
