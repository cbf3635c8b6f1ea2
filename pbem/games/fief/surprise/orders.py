"""Checking surprise cards played "at once" in the cards-play sub-phase (G.4, DESIGN.md
"Surprise cards have trigger points"; docs/orders-fief-france-cards.md).

round-N/cards-play:
    - play: D'Arc
      on: Mireille                 # an unmarried female lord, not the regent queen (G.4.1.1)
    - play: cardinal
      on: François                 # a bishop (G.4.1.2); the pope's `new_cardinal` policy decides
    - play: assassination
      on: Charles                  # another family's lord (G.4.2.3)
      sponsor: Quentin             # your lord who gets the assassin marker (left out: your only lord;
                                   #   B: 2 markers - with both on others, one who bears one already)
    - play: justice
      on: Henry                    # a lord with an assassin marker (G.4.2.4), not a captive (6.3)
    - play: uprising
      in: Nantes                   # a town under a famine or another player's tax (G.4.2.1)
      targets: [marc, olivier]     #   optional: the families hit, in order (default: the others
                                   #   present in turn order, yours last)
      underground: yes             #   optional: also play an underground card to ignore the
                                   #   Fortress penalty (G.4.2.2)
    - play: underground
      free: Blanche                # a captive lord escapes (G.4.2.2)
      also: [Arthur]               #   optional: other captives of the same jailer in that town
      in: Tours                    #   optional: the wanted town (G.1.2)

The state is checked again when the card is carried out (surprise/play.py): an earlier play may
have changed it.
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import Board
from pbem.orders.reading import Problems, as_seq, check_keys, fold, suggest, yes_no
from pbem.games.fief.orders_common import town_name, view_rules_version
from pbem.games.fief.edition import load_edition
from pbem.games.fief.surprise.play import assassin_marker_problem, at_once, justice_problem
from pbem.games.fief.surprise.uprising import uprising_grounds
from pbem.orders.yamlsafe import line_of


def check_surprise(view: dict, board: Board, player: str, card: str, item: dict, line,
                   problems: Problems) -> dict | None:
    lords = view["lords"]
    if card == "uprising":
        check_keys(item, ("play", "in", "targets", "underground"), "an uprising card", problems)
        return _uprising(view, board, player, item, line, problems)
    if card == "underground":
        check_keys(item, ("play", "free", "also", "in"), "an underground card", problems)
        return _underground(view, board, item, line, problems)
    character = load_edition(view["game"]).hooks.characters.get(card)   # G.4.1 (France: D'Arc, cardinal)
    if character is not None and character.read is not None:   # an edition's card reading its own keys
        return character.read(view, board, player, card, item, line, problems)
    keys = ("play", "on", "sponsor") if card == "assassination" else ("play", "on")
    check_keys(item, keys, f"a {at_once(view['game'])[card]} card", problems)
    target = _lord(lords, item.get("on"), line_of(item, "on") or line, "`on:` the target lord", problems)
    if target is None:
        return None
    info = lords[target]
    why = None
    if character is not None:
        why = character.problem(info)
    elif card == "justice":
        why = justice_problem(info, view_rules_version(view), load_edition(view["game"]).hooks)
    elif info["family"] == player:
        why = "the assassination card never targets a lord of your own family (G.4.2.3)"
    if why:
        hint = (f"keep the card until {target} is free (ransom, release, escape: 6.3), or name another lord"
                if card == "justice" and info["captive_of"] else "")
        problems.add(line_of(item, "on") or line, f"{target}: {why}", hint)
        return None
    play: dict[str, Any] = {"card": card, "on": target}
    if card == "assassination":
        sponsor = _sponsor(view, player, item, line, problems)
        if sponsor is None:
            return None
        marker = assassin_marker_problem(({"name": n, **lo} for n, lo in lords.items()), target, lords[sponsor]) \
            if view_rules_version(view) >= 2 else None
        if marker:
            problems.add(line_of(item, "sponsor") or line, marker,
                         "choose as sponsor a lord of yours who bears an assassin marker already, or play the "
                         "card once a marked lord has left play")
            return None
        play["sponsor"] = sponsor
    return play


def _lord(lords: dict, text: Any, line, what: str, problems: Problems) -> str | None:
    if text is None:
        problems.add(line, f"name {what}", "write e.g. `on: Mireille`")
        return None
    name = next((n for n in lords if fold(n) == fold(str(text))), None)
    if name is None:
        problems.add(line, f"no lord {text!r} is in play", suggest(str(text), list(lords)))
    return name


def _sponsor(view: dict, player: str, item: dict, line, problems: Problems) -> str | None:
    mine = [n for n, l in view["lords"].items() if l["family"] == player]
    if not mine:   # G.4.2.3: "you must have a lord in play to play that card"
        problems.add(line, "you need a lord in play to play the assassination card (G.4.2.3)")
        return None
    if "sponsor" not in item:
        if len(mine) == 1:
            return mine[0]
        problems.add(line, f"say which of your lords is the sponsor: {', '.join(mine)}", "add `sponsor: NAME`")
        return None
    name = next((n for n in mine if fold(n) == fold(str(item["sponsor"]))), None)
    if name is None:
        problems.add(line_of(item, "sponsor"), f"{item['sponsor']!r} is not a lord of your family",
                     suggest(str(item["sponsor"]), mine))
    return name


def _underground(view: dict, board: Board, item: dict, line, problems: Problems) -> dict | None:
    lords = view["lords"]
    name = _lord(lords, item.get("free"), line_of(item, "free") or line, "`free:` the captive lord", problems)
    if name is None:
        return None
    first = lords[name]
    if not first["captive_of"]:
        problems.add(line_of(item, "free"), f"{name} is not captive (G.4.2.2)",
                     "the captives: " + (", ".join(n for n, l in lords.items() if l["captive_of"]) or "none"))
        return None
    freed = [name]
    also = as_seq(item["also"], line_of(item, "also"), "also", problems) if "also" in item else []
    for text in also:
        other = _lord(lords, text, line_of(item, "also"), "the lord", problems)
        if other is None or other in freed:
            continue
        o = lords[other]
        if o["captive_of"] != first["captive_of"] or o["location"] != first["location"]:
            problems.add(line_of(item, "also"), f"{other} is not a captive of {first['captive_of']} in "
                         f"{first['location']} (G.4.2.2: the same jailer, the same town)")
            continue
        freed.append(other)
    town = town_name(board, item["in"], line_of(item, "in"), problems) if "in" in item else None
    return {"card": "underground", "free": freed, "town": town}


def _uprising(view: dict, board: Board, player: str, item: dict, line, problems: Problems) -> dict | None:
    if "in" not in item:
        problems.add(line, "an uprising card needs `in: TOWN`", "write e.g. `in: Nantes`")
        return None
    town = town_name(board, item["in"], line_of(item, "in"), problems)
    if town is None:
        return None
    info = view["towns"][town]
    governed = {int(n) for n, b in view["bishoprics"].items() if b.get("bishop")}
    effects = [(e["card"], e["target"], e.get("player")) for e in view.get("board_effects") or []]
    why = uprising_grounds(effects, info["fief"], int(info["bishopric"]), governed, player)
    if why:
        problems.add(line_of(item, "in"), f"no uprising in {town}: {why}",
                     f"a tax card played later this step is not on the board yet: set the standing trigger "
                     f"`uprising_when_taxed: {town}` (under `policies: surprise:`), which fires when the "
                     "Income Phase collects it; for a famine still to come, `uprising_on_famine:`")
        return None
    targets = uprising_targets(view, item, problems)
    underground = yes_no(item, "underground", problems)
    if underground is None:
        return None
    return {"card": "uprising", "town": town, "targets": targets, "underground": underground}


def uprising_targets(view: dict, item: dict, problems: Problems, key: str = "targets") -> list[str]:
    """`targets:` the families an uprising hits, in order (G.4.2.1: the roller chooses); with
    ``key``, another list of players (`against:`)."""
    targets: list[str] = []
    given = as_seq(item[key], line_of(item, key), key, problems) if key in item else []
    for text in given:
        found = next((p for p in view["players"] if fold(p) == fold(str(text))), None)
        if found is None:
            problems.add(line_of(item, key), f"no player {text!r} in this game", suggest(str(text), view["players"]))
        elif found not in targets:
            targets.append(found)
    return targets


