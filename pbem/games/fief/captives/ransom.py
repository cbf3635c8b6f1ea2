"""Captive lords (6.3) between battles, and the jailer's answer to a lower ransom (4.1).

A captive stays with their jailer's forces; the jailer carries them like a unit pawn
(movement orders, `captives:`), may hand them to another family that has forces in the same
town (`- transfer: LORD` + `to: PLAYER`) or release them (`- release: LORD`). A captive whose
jailer has no forces left where they stand is released (6.3: "if the forces that hold them
captive are eliminated"). A released lord comes into play again (G.1.2).

By mail the Battle Phase orders `release` and `transfer` are done at the start of the phase,
in turn order, before any battle (the player ordered them from the position in their view).

The jailer's standing policy `lower_ransom: {accept_from: N}` accepts an offer of a lower
ransom (purchase orders, `- offer: 8` + `for: [Arthur, Aliénor]`) when it pays at least N
deniers per captive freed; the default refuses every lower offer (the cautious answer).
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.orders.reading import Problems, check_keys, fold, suggest, whole_number
from pbem.games.fief.policies import find_player
from pbem.games.fief.state import FiefState
from pbem.games.fief.hear_ye.titles import come_into_play
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Event

VERBS = ("release", "transfer")
KEYS = {"release": ("release",), "transfer": ("transfer", "to")}


# -- orders -------------------------------------------------------------------------------------

def my_captive(view: dict, me: str, text: Any, line: int | None, problems: Problems) -> str | None:
    held = [n for n, lo in view["lords"].items() if lo.get("captive_of") == me]
    found = next((n for n in held if fold(n) == fold(str(text))), None)
    if found is None:
        problems.add(line, f"{text!r} is not a captive of your family",
                     suggest(str(text), held) if held else "you hold no captive")
    return found


def check_captive_order(view: dict, me: str, verb: str, item: dict, line: int | None,
                        out: dict, problems: Problems) -> None:
    check_keys(item, KEYS[verb], f"a `{verb}` order", problems)
    lord = my_captive(view, me, item[verb], line_of(item, verb) or line, problems)
    if lord is None:
        return
    if any(o["lord"] == lord for o in out["captives"]):
        problems.add(line, f"{lord} has an order already", "one `release` or `transfer` per captive")
        return
    if verb == "release":
        out["captives"].append({"release": True, "lord": lord})
        return
    if "to" not in item:
        problems.add(line, "a `transfer` needs `to: PLAYER`", "add `to: PLAYER` under it")
        return
    others = [p for p in view["turn_order"] if p != me]
    to = find_player(item["to"], others)
    town = view["lords"][lord]["location"]
    if to is None:
        problems.add(line_of(item, "to"), f"`to`: no other player {item['to']!r}",
                     suggest(str(item["to"]), others) if others else "")
        return
    theirs = view["towns"].get(town, {}).get("forces", {}).get(to) or {}
    if not (theirs.get("lords") or theirs.get("units")):
        problems.add(line_of(item, "to"), f"{to} has no forces in {town}, where {lord} stands",
                     "a captive goes only to a family with forces in the same town (6.3)")
        return
    out["captives"].append({"transfer": to, "lord": lord})


# -- resolution -----------------------------------------------------------------------------------

def resolve_captive_orders(state: FiefState, board: Board, orders: Mapping[str, Any]) -> list[Event]:
    events: list[Event] = []
    for player in state.turn_order():
        for order in (orders.get(player) or {}).get("captives") or []:
            events += _captive_order(state, board, player, order)
    return events


def _captive_order(state: FiefState, board: Board, player: str, order: dict) -> list[Event]:
    name = order["lord"]
    lord = state.lords.get(name)
    if lord is None or lord.captive_of != player:
        return [Event("captive_order_failed", f"{player}'s order about {name} fails: {name} is no longer "
                      f"their captive (6.3).", data={"player": player, "lord": name})]
    if order.get("release"):
        return [Event("captive_released", f"{player} releases {name} (6.3).",
                      data={"lord": name, "jailer": player, "town": lord.location})] + \
            come_into_play(state, board, name)
    to = order["transfer"]
    if to not in forces_families(state, lord.location):
        return [Event("captive_order_failed", f"{player} cannot hand {name} to {to}: {to} has no forces "
                      f"in {lord.location} (6.3).", data={"player": player, "lord": name, "to": to})]
    lord.captive_of = to
    return [Event("captive_transferred", f"{player} hands their captive {name} over to {to} in "
                  f"{lord.location} (6.3).", data={"lord": name, "from": player, "to": to, "town": lord.location})]


def forces_families(state: FiefState, town: str | None) -> set[str]:
    """Families with forces in the town: a unit pawn or a free lord (captives are not forces)."""
    out = {p.family for p in state.pawns.values() if p.location == town}
    return out | {lo.family for lo in state.lords.values() if lo.location == town and not lo.captive_of}


def release_unheld(state: FiefState, board: Board) -> list[Event]:
    """6.3: a captive is released "if the forces that hold them captive are eliminated, even if
    another family is present" - here: when their jailer has no forces where they stand."""
    present: dict[str | None, set[str]] = {}
    for p in state.pawns.values():
        present.setdefault(p.location, set()).add(p.family)
    for lo in state.lords.values():
        if not lo.captive_of:
            present.setdefault(lo.location, set()).add(lo.family)
    events: list[Event] = []
    # a captor that is no family (England's Invaders, 6.7) keeps its captives by its own rules
    for lo in [lo for lo in state.lords.values() if lo.captive_of in state.families]:
        if lo.captive_of not in present.get(lo.location, ()):
            jailer = lo.captive_of
            events.append(Event("captive_released", f"{lo.name} is released: {jailer} has no forces left in "
                                f"{lo.location} to hold them (6.3).",
                                data={"lord": lo.name, "jailer": jailer, "town": lo.location}))
            events += come_into_play(state, board, lo.name)
    return events


# -- the lower ransom policy (4.1) ----------------------------------------------------------------

def check_lower_ransom(value: Any, line: int | None, problems: Problems, coins: str) -> dict | None:
    """`lower_ransom: {accept_from: N}` (``coins``, the edition's money, per captive freed) or
    `lower_ransom: refuse`."""
    if isinstance(value, str) and value.strip().lower() == "refuse":
        return {"accept_from": None}
    if not isinstance(value, dict) or set(value) != {"accept_from"}:
        problems.add(line, f"`lower_ransom` is `refuse` or `{{accept_from: N}}` ({coins} per captive freed)",
                     "write e.g. `lower_ransom: {accept_from: 4}`")
        return None
    number = whole_number(value["accept_from"], line_of(value, "accept_from") or line, "accept_from",
                          problems, low=0)
    return None if number is None else {"accept_from": number}


def accepts_offer(policies: Mapping[str, Any], amount: int, captives: int) -> bool:
    least = ((policies or {}).get("lower_ransom") or {}).get("accept_from")
    return least is not None and amount >= least * captives
