"""Surprise cards held for a trigger (G.4, DESIGN.md "Surprise cards have trigger points"):
standing conditional orders kept with the policies until they fire or are replaced.

    policies:
      surprise:
        - at_battle_start: Tours     # a battle starts in Tours, your family on the attacking side:
          card: underground          #   no Fortress penalty for the attacker (G.4.2.2)
        - ambush: Henry              # a battle starts in Tours with a lord of yours in it:
          in: Tours                  #   Henry becomes your captive (G.4.2.5)
          round: 1                   #   optional: 0 (default) at the start, N at battle round N

`surprise: []` cancels them all. A trigger fires only if the card is still in your hand and
only when it changes something (an underground when the attacker would suffer a Fortress
penalty; an ambush when its lord is in the battle); it is then removed and the card
discarded (H.2: even if the effect then fails). The others stay until they fire.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from pbem.games.fief.battle import opening_dice
from pbem.games.fief.battle_plan import Ambush, BattleSetup
from pbem.games.fief.board import Board, fold
from pbem.games.fief.state import FiefState
from pbem.rules.api import Audience, Event, OrderError
from pbem.orders.yamlsafe import line_of

KEY = "surprise"
TRIGGERS = {"at_battle_start": "underground", "ambush": "ambush"}   # trigger -> the card it plays
EXAMPLE = "write e.g. `surprise: [{at_battle_start: Tours, card: underground}, {ambush: Henry, in: Tours}]`"


def check_triggers(view: dict, player: str, value: Any, line: int | None, errors: list[OrderError]) -> list | None:
    if value is None:
        return []
    if not isinstance(value, list):
        errors.append(OrderError(line, "`surprise:` is a list of triggers", EXAMPLE))
        return None
    hand = view.get("hand") or []
    out = []
    for i, item in enumerate(value):
        where = line_of(value, i) or line
        kind = next((k for k in TRIGGERS if isinstance(item, dict) and k in item), None)
        if kind is None:
            errors.append(OrderError(where, "a surprise trigger is `at_battle_start:` or `ambush:` "
                                     "(uprising is not offered yet)", EXAMPLE))
            continue
        allowed = {"at_battle_start": ("at_battle_start", "card"), "ambush": ("ambush", "in", "round")}[kind]
        extra = [k for k in item if k not in allowed]
        if extra:
            errors.append(OrderError(where, f"unknown key `{extra[0]}` in a `{kind}` trigger",
                                     "its keys: " + ", ".join(allowed)))
            continue
        card = TRIGGERS[kind]
        if kind == "at_battle_start" and fold(str(item.get("card"))) != card:
            errors.append(OrderError(where, "`at_battle_start:` plays an underground card (G.4.2.2)",
                                     "write `card: underground`"))
            continue
        if card not in hand:
            errors.append(OrderError(where, f"you hold no {card} card for this trigger",
                                     "your hand: " + (", ".join(hand) or "empty")))
            continue
        town = _town(view, item.get("at_battle_start" if kind == "at_battle_start" else "in"), where, errors)
        if town is None:
            continue
        trigger = {"trigger": kind, "town": town}
        if kind == "ambush":
            lord = next((n for n in view["lords"] if fold(n) == fold(str(item["ambush"]))), None)
            rnd = str(item.get("round", "0"))
            if lord is None or view["lords"][lord]["family"] == player:
                errors.append(OrderError(where, f"{item['ambush']!r} is not another family's lord in play",
                                         "name the lord to take captive (G.4.2.5)"))
                continue
            if not rnd.isdigit():
                errors.append(OrderError(where, f"`round:` is a battle round number, not {rnd!r}",
                                         "write 0 (the start of the battle) or 1, 2, ..."))
                continue
            trigger.update(lord=lord, round=int(rnd))
        out.append(trigger)
    return out


def _town(view: dict, text: Any, where, errors: list[OrderError]) -> str | None:
    town = next((t for t in view["towns"] if fold(t) == fold(str(text))), None)
    if town is None:
        errors.append(OrderError(where, f"there is no town {text!r}", "write the battle's town, e.g. Tours"))
    return town


def fire_battle_triggers(state: FiefState, board: Board, setup: BattleSetup) -> tuple[BattleSetup, list[Event]]:
    """Triggers of a battle starting in ``setup.town``, in turn order (H.3)."""
    events: list[Event] = []
    for player in state.turn_order():
        family = state.families[player]
        for trigger in list(family.policies.get(KEY) or []):
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
                if (player not in setup.attacker_side + setup.defender_side or lord is None
                        or lord.location != setup.town or lord.captive_of):
                    continue
                setup = replace(setup, ambushes=setup.ambushes + (Ambush(player, lord.name, trigger["round"]),))
                text = (f"{player} plays the ambush card in the battle of {setup.town}, against {lord.name} "
                        f"(G.4.2.5).")
            card = TRIGGERS[trigger["trigger"]]
            family.hand.remove(card)
            state.events_discard.append(card)          # H.2: discarded even if the effect fails
            family.policies[KEY] = [t for t in family.policies[KEY] if t is not trigger]
            events.append(Event("surprise_played", text, data={"player": player, "card": card, "town": setup.town}))
            events.append(Event("trigger_fired", f"Your surprise trigger fired: {card} in {setup.town}.",
                                Audience.only(player), {"player": player, "trigger": trigger}))
    return setup, events


def describe_triggers(policies: dict) -> list[str]:
    out = []
    for t in policies.get(KEY) or []:
        if t["trigger"] == "at_battle_start":
            out.append(f"surprise: underground at the start of a battle you attack in {t['town']}")
        else:
            out.append(f"surprise: ambush on {t['lord']} in a battle in {t['town']} (round {t['round']})")
    return out
