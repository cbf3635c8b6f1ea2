"""Surprise cards held for a trigger (G.4, DESIGN.md "Surprise cards have trigger points"):
standing conditional orders kept with the policies until they fire or are replaced.

    policies:
      surprise:
        - at_battle_start: Tours     # a battle starts in Tours, your family on the attacking side:
          card: underground          #   no Fortress penalty for the attacker (G.4.2.2)
        - ambush: Henry              # a battle starts in Tours with a lord of yours in it:
          in: Tours                  #   Henry becomes your captive (G.4.2.5)
          round: 1                   #   optional: 0 (default) at the start, N at battle round N
        - uprising_at_battle_start: Nantes   # G.4.2.1 (surprise/uprising_triggers.py), and
                                             #   uprising_when_taxed, uprising_on_famine,
                                             #   uprising_before_move
        - underground_in_uprising: Nantes    # G.4.2.2 (surprise/uprising_triggers.py)
        - at_phase_start: movement           # G.4, 5.2.2 (surprise/phase_start.py)
          play: assassination
          on: Charles

`surprise: []` cancels them all. A trigger fires only if the card is still in your hand and
only when it changes something (an underground when the attacker would suffer a Fortress
penalty; an ambush when its lord is in the battle); it is then removed and the card
discarded (H.2: even if the effect then fails). The others stay until they fire.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from pbem.games.fief.battle.engine import opening_dice
from pbem.games.fief.battle.plan import Ambush, BattleSetup
from pbem.games.fief.board import Board
from pbem.games.fief.edition import load_edition
from pbem.games.fief.hook_records import StandingTriggers
from pbem.orders.reading import Problems, fold, suggest
from pbem.games.fief.hear_ye.elimination import captive_markers_left
from pbem.games.fief.battle.siege import has_free_lord
from pbem.games.fief.state import FiefState
from pbem.games.fief.surprise.phase_start import check_phase_start, describe as describe_phase_start
from pbem.games.fief.surprise.standing import KEY, lacks_card, spend_trigger
from pbem.games.fief.surprise.uprising_triggers import (UPRISINGS, check_underground_trigger, check_uprising_trigger,
                                                        describe_uprising)
from pbem.rules.api import Event, OrderError
from pbem.orders.yamlsafe import line_of

TRIGGERS = {"at_battle_start": "underground", "ambush": "ambush"}   # trigger -> the card it plays
# More triggers, each checked (and fired) by its own module:
# surprise/uprising_triggers.py (G.4.2.1, G.4.2.2) and surprise/phase_start.py (G.4, 5.2.2).
UPRISING_KINDS = tuple(UPRISINGS)   # when taxed, on famine, before a move, at a battle's start
KINDS = ("at_battle_start", "ambush") + UPRISING_KINDS + ("underground_in_uprising", "at_phase_start")
EXAMPLE = "write e.g. `surprise: [{at_battle_start: Tours, card: underground}, {ambush: Henry, in: Tours}]`"


def check_triggers(view: dict, player: str, value: Any, line: int | None, errors: list[OrderError]) -> list | None:
    if value is None:
        return []
    if not isinstance(value, list):
        errors.append(OrderError(line, "`surprise:` is a list of triggers", EXAMPLE))
        return None
    out = []
    for i, item in enumerate(value):
        where = line_of(value, i) or line
        kinds = [k for k in KINDS if isinstance(item, dict) and k in item]
        if len(kinds) != 1:
            errors.append(OrderError(where, "a surprise trigger starts with one of " + ", ".join(
                f"`{k}:`" for k in KINDS) + ("" if not kinds else f", not {len(kinds)}"), EXAMPLE))
            continue
        offered = standing_triggers(view)
        if offered is not None and kinds[0] not in offered.kinds:   # an edition's own set (England R157)
            errors.append(OrderError(where, f"`{kinds[0]}:` is not a standing trigger of "
                                     f"{load_edition(view['game']).title}", offered.offered))
            continue
        problems = Problems()
        trigger = _check_one(view, player, kinds[0], item, where, problems)
        errors.extend(problems)
        if trigger is not None and not problems:
            out.append(trigger)
    return out


def standing_triggers(view: Mapping[str, Any]) -> StandingTriggers | None:
    """The triggers the game's edition offers (its `standing_triggers` hook), or None: all of KINDS."""
    hook = load_edition(view["game"]).hooks.standing_triggers
    return hook(view) if hook is not None else None


def _check_one(view: dict, player: str, kind: str, item: dict, where, problems: Problems) -> dict | None:
    if kind == "at_phase_start":
        return check_phase_start(view, player, item, where, problems)
    if kind in UPRISING_KINDS + ("underground_in_uprising",):
        town = _town(view, item[kind], where, problems, kind)
        if town is None:
            return None
        if kind == "underground_in_uprising":
            return check_underground_trigger(view, player, item, town, where, problems)
        return check_uprising_trigger(view, player, item, town, where, problems, kind)
    allowed = {"at_battle_start": ("at_battle_start", "card"), "ambush": ("ambush", "in", "round")}[kind]
    extra = [k for k in item if k not in allowed]
    if extra:
        problems.add(where, f"unknown key `{extra[0]}` in a `{kind}` trigger", "its keys: " + ", ".join(allowed))
        return None
    card = TRIGGERS[kind]
    if kind == "at_battle_start" and fold(str(item.get("card"))) != card:
        problems.add(where, "`at_battle_start:` plays an underground card (G.4.2.2)", "write `card: underground`")
        return None
    if lacks_card(view, card, where, problems):
        return None
    town = _town(view, item.get("at_battle_start" if kind == "at_battle_start" else "in"), where, problems)
    if town is None:
        return None
    trigger: dict[str, Any] = {"trigger": kind, "town": town}
    if kind == "ambush":
        lord = next((n for n in view["lords"] if fold(n) == fold(str(item["ambush"]))), None)
        rnd = str(item.get("round", "0"))
        if lord is None or view["lords"][lord]["family"] == player:
            problems.add(where, f"{item['ambush']!r} is not another family's lord in play",
                         "name the lord to take captive (G.4.2.5)")
            return None
        if not rnd.isdigit():
            problems.add(where, f"`round:` is a battle round number, not {rnd!r}",
                         "write 0 (the start of the battle) or 1, 2, ...")
            return None
        trigger.update(lord=lord, round=int(rnd))
    return trigger


def _town(view: dict, text: Any, where, problems: Problems, kind: str | None = None) -> str | None:
    if isinstance(text, list) and kind:   # an uprising happens in a town (G.4.2.1)
        example = ", then ".join(f"`- {kind}: {t}`" for t in text[:2])
        problems.add(where, "a trigger names one town, not a list", f"write one trigger per town: {example}")
        return None
    town = next((t for t in view["towns"] if fold(t) == fold(str(text))), None)
    if town is None:
        problems.add(where, f"there is no town {text!r}", suggest(str(text), view["towns"]))
    return town


def fire_battle_triggers(state: FiefState, board: Board, setup: BattleSetup) -> tuple[BattleSetup, list[Event]]:
    """Triggers of a battle starting in ``setup.town``, in turn order (H.3)."""
    events: list[Event] = []
    for player in state.turn_order():
        family = state.families[player]
        for trigger in list(family.policies.get(KEY) or []):
            if trigger["trigger"] not in TRIGGERS:
                continue   # the uprising and phase-start triggers fire elsewhere
            if trigger["town"] != setup.town or TRIGGERS[trigger["trigger"]] not in family.hand:
                continue
            if trigger["trigger"] == "at_battle_start":
                if setup.underground or player not in setup.attacker_side:
                    continue
                helped = replace(setup, underground=True)
                if opening_dice(state, board, helped) == opening_dice(state, board, setup):
                    continue   # no Fortress penalty to ignore: the card stays in hand
                setup = helped
                text = (f"{player} plays an underground card at the start of the battle in {setup.town}: "
                        "the attacker ignores the Fortress penalty (G.4.2.2).")
            else:
                lord = state.lords.get(trigger["lord"])
                sides = setup.attacker_side + setup.defender_side
                # G.4.2.5: the target fights in this battle (its family on a side) and the player
                # has a lord in it; else the card would be spent for nothing: it waits.
                if (lord is None or lord.location != setup.town or lord.captive_of or lord.family not in sides
                        or player not in sides or not has_free_lord(state, player, setup.town)
                        or not captive_markers_left(state)):   # B, 6.3: no marker to take a captive with
                    continue
                setup = replace(setup, ambushes=setup.ambushes + (Ambush(player, lord.name, trigger["round"]),))
                text = (f"{player} plays the ambush card in the battle of {setup.town}, against {lord.name} "
                        f"(G.4.2.5).")
            card = TRIGGERS[trigger["trigger"]]
            events.append(Event("surprise_played", text, data={"player": player, "card": card, "town": setup.town}))
            # H.2: the card is discarded even if its effect then fails.
            events.append(spend_trigger(state, player, trigger, card, f"{card} in {setup.town}"))
    return setup, events


def describe_triggers(policies: Mapping[str, Any]) -> list[str]:
    out = []
    for t in policies.get(KEY) or []:
        if t["trigger"] == "at_battle_start":
            out.append(f"surprise: underground at the start of a battle you attack in {t['town']}")
        elif t["trigger"] in UPRISING_KINDS:
            out.append(describe_uprising(t))
        elif t["trigger"] == "underground_in_uprising":
            out.append(f"surprise: underground against the Fortress penalty of an uprising in {t['town']}")
        elif t["trigger"] == "at_phase_start":
            out.append(describe_phase_start(t))
        else:
            out.append(f"surprise: ambush on {t['lord']} in a battle in {t['town']} (round {t['round']})")
    return out
