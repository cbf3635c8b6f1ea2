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
when given; ``by``: where the card comes from, when the edition has more than one source).
Checked here against the path and the player's hand; movement/phase.py decides at each step
whether to play it and moves the army; ``play_card`` takes the card from the hand.

One piece of code for every edition: an edition whose card of this kind has another name and
rules (England's PASSAGE, E 10.2: `passage:` on a move, a card or a BURGHER's Secret Routes)
gives its ``MoveCard`` as its ``movement`` hook's ``card``; the core reads the order, counts the
cards and decides at which step to play it the same way, and calls the edition's ``play``.
"""
from __future__ import annotations

from dataclasses import dataclass
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

BY = "by"              # where the card comes from (an edition with several sources: England's BURGHER)


@dataclass(frozen=True)
class MoveCard:
    """The card an edition plays on a step of a move to go where the step would be refused or
    blocked: France's underground card (G.4.2.2), England's PASSAGE (E 10.2)."""

    key: str                 # the move order's key, and the card's id in a hand
    name: str                # the card in the players' words ("underground card", "PASSAGE")
    section: str             # the rulebook section cited
    # (view, player, source) -> (plays the player can make from that source, why none, the fix).
    held: Callable[[Mapping[str, Any], str, str], tuple[int, str, str]]
    # (the phase's run, army, from, to, first step?, why, source) -> True once played (the
    # card spent, the play told); False (the player told why) when it cannot be played now.
    play: Callable[..., bool]
    sources: tuple[str, ...] = ("card",)   # the first is the default of ``by``
    naval: bool = False      # also played on a naval move, named by its landing port (England 10.2)
    # the fix when a path has no step the card plays on
    no_step: str = "naval steps need no card: they ignore safe passage and bad weather (5.3)"

    def example(self) -> str:
        town = "Poitiers" if self.key == CARD else "TOWN"
        return (f"write e.g. `{self.key}: {town}` (the step reaching {town}), `{self.key}: if_needed`, "
                f"or `{self.key}: {{{town}: always, others: if_needed}}`")


def move_card(edition: Any) -> MoveCard:
    """The edition's card for a move: its ``movement`` hook's ``card``, else the underground card."""
    own = edition.hooks.movement
    return own.card if own is not None and own.card is not None else UNDERGROUND


def mode_for(order: Mapping[str, Any], target: str, key: str = CARD) -> str | None:
    """How the order plays the card on the land step reaching ``target``: always, if_needed,
    or None (not on this step)."""
    plan = order.get(key)
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


def check_underground(item: Mapping[str, Any], start: str, path: list[str], view: Mapping[str, Any], player: str,
                      find_town: Callable[[Any, int | None], str | None], seas: tuple[str, ...],
                      problems: Problems, card: MoveCard | None = None) -> tuple[dict | None, list[int | None]]:
    """The canonical `underground:` (the edition's ``card.key``) of a move, and one line per card
    it always plays (so the caller can count them against what the player holds). (None, [])
    after an error. ``seas``: the board's."""
    card = card or UNDERGROUND
    value, line = item[card.key], line_of(item, card.key)
    value, by = _source(card, value, line, problems)
    if by is None:
        return None, []
    held, missing, fix = card.held(view, player, by)
    if not held:
        problems.add(line, missing, fix)
        return None, []
    raw = _entries(card, value, line, problems)
    if raw is None:
        return None, []
    reached = [town for town in path if town not in seas] if card.naval else land_steps(start, path, seas)
    plan: dict[str, str] = {}
    for key, mode_text, where in raw:
        mode = _mode(mode_text)
        if mode is None:
            problems.add(where, f"each step of `{card.key}:` is `always` or `if_needed`, not {mode_text!r}",
                         card.example())
            return None, []
        if isinstance(key, str) and key.strip().lower() == OTHERS:
            if mode != IF_NEEDED:
                problems.add(where, "`others:` takes `if_needed` only",
                             "name the towns where the card is always played")
                return None, []
            if not reached:
                problems.add(where, f"this path has no land step for {_a(card)} ({card.section})", card.no_step)
                return None, []
            plan[OTHERS] = mode
            continue
        town = find_town(key, where)
        if town is None:
            return None, []
        problem = _step_problem(card, town, start, path, reached, seas)
        if problem:
            problems.add(where, *problem)
            return None, []
        plan[town] = mode
    if by != card.sources[0]:
        plan[BY] = by
    lines = [line for town, mode in plan.items() if mode == ALWAYS for _ in range(reached.count(town))]
    return plan, lines


def _a(card: MoveCard) -> str:
    return f"an {card.name}" if card.name[0] in "aeiou" else f"a {card.name}"


def _source(card: MoveCard, value: Any, line: int | None, problems: Problems) -> tuple[Any, str | None]:
    """The written plan without its `by:` entry, and the source it names (the default: the
    first of ``card.sources``); None after an error."""
    if not isinstance(value, dict) or BY not in value:
        return value, card.sources[0]
    word = str(value[BY]).strip().lower()
    if len(card.sources) < 2 or word not in card.sources:
        problems.add(line_of(value, BY) or line, f"`by:` is one of {', '.join(card.sources)}, not {value[BY]!r}"
                     if len(card.sources) > 1 else f"`{card.key}:` takes no `by:`", "remove `by:`")
        return value, None
    rest = {k: v for k, v in value.items() if k != BY}
    return (rest or IF_NEEDED), word


def _entries(card: MoveCard, value: Any, line: int | None,
             problems: Problems) -> list[tuple[Any, Any, int | None]] | None:
    """(town or `others`, mode, line) for each entry of the three written forms."""
    if isinstance(value, dict):
        if not value:
            problems.add(line, f"`{card.key}:` is empty", card.example())
            return None
        return [(k, v, line_of(value, k) or line) for k, v in value.items()]
    if isinstance(value, str) and _mode(value) == IF_NEEDED:
        return [(OTHERS, IF_NEEDED, line)]
    if isinstance(value, list):
        if not value:
            problems.add(line, f"`{card.key}:` is empty", card.example())
            return None
        out = []
        for i, town in enumerate(value):
            if not isinstance(town, str):
                problems.add(line_of(value, i) or line, "a town of the path is expected here", card.example())
                return None
            out.append((town, ALWAYS, line_of(value, i) or line))
        return out
    if isinstance(value, str):
        return [(value, ALWAYS, line)]
    problems.add(line, f"`{card.key}:` names a town of the path, a list of them, or `if_needed`", card.example())
    return None


def _step_problem(card: MoveCard, town: str, start: str, path: list[str], reached: list[str],
                  seas: tuple[str, ...]) -> tuple[str, str] | None:
    if town in reached:
        return None
    if town in seas or town in path:
        return (f"the step to {town} is a naval step (5.3): {_a(card)} moves an army by "
                f"road to an adjacent town ({card.section})", "naval steps need no card")
    if town == start:
        return (f"{town} is where the move starts",
                f"name the town the {card.key} step reaches: " + (", ".join(reached) or "none on this path"))
    return (f"{town} is not on this path",
            "the towns its land steps reach: " + (", ".join(reached) or "none"))



def held_underground(view: Mapping[str, Any], player: str, by: str) -> tuple[int, str, str]:
    """G.4.2.2: the underground cards in the player's hand."""
    hand = list(view.get("hand") or [])
    return (hand.count(CARD), "you hold no underground card (G.4.2.2)",
            "remove `underground:`; your hand: " + (", ".join(hand) or "empty"))


def play_underground(run: Any, army: Army, cur: str, target: str, first: bool, why: str, by: str) -> bool:
    """``MoveCard.play`` of the underground card (the run's state, board and teller)."""
    return play_card(run.state, run.board, run.bad_weather, run.teller, army, cur, target, first, why)


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


UNDERGROUND = MoveCard(CARD, "underground card", "G.4.2.2", held_underground, play_underground)
