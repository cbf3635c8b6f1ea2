"""The standing policies of a Fief mail written back as a player writes them (the judge's
answer: docs/orders.md "The judge's answers"): the canonical form of policies.py,
battle/orders.py (coalition, lower_ransom, battle_plan) and the `surprise:` triggers
(surprise/triggers.py, surprise/uprising_triggers.py, surprise/phase_start.py), turned back
into the keys those checkers read. Nothing is decided here: each shape mirrors its checker.
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.edition import load_edition
from pbem.games.fief.policies import PERMISSION_POLICIES
from pbem.games.fief.surprise.phase_start import KIND as AT_PHASE_START
from pbem.games.fief.surprise.triggers import UPRISING_KINDS
from pbem.games.fief.surprise.uprising import IN_UPRISING
from pbem.games.fief.surprise.uprising_triggers import BEFORE_MOVE


def policies_document(policies: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """The `policies:` mapping of a mail that gives ``policies`` (canonical), read against
    ``view``; every policy the mail gave is written, even an empty one (`surprise: []` cancels
    the triggers)."""
    out: dict[str, Any] = {}
    for key, value in policies.items():
        if key in PERMISSION_POLICIES:
            out[key] = _permission(value)
        elif key == "calm_uprisings":
            out[key] = _calm(value)
        elif key == "surprise":
            out[key] = [trigger_item(t, view) for t in value]
        elif key == "lower_ransom":   # captives.check_lower_ransom
            out[key] = "refuse" if value.get("accept_from") is None else {"accept_from": value["accept_from"]}
        else:   # plague_losses, coalition, battle_plan: written as their checkers read them
            out[key] = value
    return out


def _permission(value: dict[str, Any]) -> Any:
    # policies._check_permission: `allow`/`refuse` lists of players, `others` the answer
    given = {k: value[k] for k in ("allow", "refuse") if value.get(k)}
    return {**given, "others": value["others"]} if given else value["others"]


def _calm(value: Any) -> Any:
    # surprise/policies.check_calm: a short form kept as written, or the mapping
    if isinstance(value, str):
        return value
    out = {k: value[k] for k in ("as_bishop", "as_cardinal") if k in value}   # as_cardinal: France's
    if value.get("except_raised_by"):   # rules version 2 only (ruling 33): never written empty
        out["except_raised_by"] = value["except_raised_by"]
    return out


def trigger_item(trigger: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """One `surprise:` trigger as a list item."""
    kind, town = trigger["trigger"], trigger.get("town")
    if kind == "at_battle_start":
        return {kind: town, "card": "underground"}
    if kind == "ambush":   # round 0 (the battle's start) is what an ambush leaves out
        return {kind: trigger["lord"], "in": town, **({"round": trigger["round"]} if trigger["round"] else {})}
    if kind == IN_UPRISING:
        return {kind: town}
    if kind in UPRISING_KINDS:
        item: dict[str, Any] = {kind: town}
        if trigger.get("targets"):
            item["targets"] = trigger["targets"]
        if trigger.get("underground"):
            item["underground"] = True
        if trigger.get("cards"):
            item["cards"] = trigger["cards"]
        if kind == BEFORE_MOVE and trigger.get("against"):
            item["against"] = trigger["against"]
        return item
    if kind == AT_PHASE_START:
        item = {kind: trigger["phase"]}
        if trigger.get("round") is not None:
            item["round"] = trigger["round"]
        if "transfer" in trigger:   # control_transfer.check_transfer
            return {**item, "transfer": trigger["transfer"]["town"], "to": trigger["transfer"]["to"]}
        plays = load_edition(view["game"]).hooks.card_plays
        if trigger.get("own") and plays is not None and plays.echo is not None \
                and trigger["play"]["card"] in plays.at_once:   # the edition's own card (England R157)
            return {**item, **plays.echo(view, trigger["play"])}
        return {**item, **surprise_play(trigger["play"], view)}
    raise ValueError(f"unknown surprise trigger {kind!r}")


def surprise_play(play: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """A surprise card played at once (surprise_orders.check_surprise) as the keys of its order."""
    card = play["card"]
    character = load_edition(view["game"]).hooks.characters.get(card)
    if character is not None and character.echo is not None:   # a card reading its own keys (England's)
        return character.echo(view, play)
    if card == "underground":
        item: dict[str, Any] = {"play": card, "free": play["free"][0]}
        if play["free"][1:]:
            item["also"] = play["free"][1:]
        if play.get("town"):
            item["in"] = play["town"]
        return item
    if card == "uprising":
        item = {"play": card, "in": play["town"]}
        if play.get("targets"):
            item["targets"] = play["targets"]
        if play.get("underground"):
            item["underground"] = True
        return item
    item = {"play": card, "on": play["on"]}
    if card == "assassination":
        item["sponsor"] = play["sponsor"]
    return item
