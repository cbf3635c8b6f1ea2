"""The Invaders phase's orders by mail (E 6.9, 6.10; ruling R81). The Danegeld and the Church's
intervention may happen "at any time during Phase 6" (6.9): by mail each is an order given
before the phase is resolved, acting at the first moment of the phase the noble and the army
stand in the same city — at the phase's start, after a landing, or as an army arrives (before it
attacks). Each order acts at most once; one not used by the phase's end lapses.

    orders:
      - danegeld: Henri      # Henri (free, on the map) pays 5 shillings to the army he meets
        army: 2              # optional: only Invader army 2 (default: the first army he meets)
      - intervene: Godfrey   # a Bishop, Archbishop or Abbess tries the d6 (6.10)
        army: 1              # optional, as above

      - passage: storms      # 10.2: lend the Invaders a PASSAGE (passage.py, R146): `storms` or
        army: 2              #   `tunnels`; optional `army:`, `against:` (tunnels), `by: burgher`

A player who sends nothing pays no Danegeld, asks no intervention and lends no PASSAGE."""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import Board
from pbem.games.fief.orders_common import view_rules_version
from pbem.games.fief.policies import find_player
from pbem.games.fief_england.invaders.armies import numbers
from pbem.games.fief_england.invaders.passage import BURGHER, CARD, USES, Card
from pbem.orders.reading import Problems, check_keys, each_order, fold, suggest, whole_number
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import JSON

VERBS = {"danegeld": "noble", "intervene": "cleric"}
KEYS = {"danegeld": ("danegeld", "army"), "intervene": ("intervene", "army"),
        "passage": ("passage", "army", "against", "by")}
LEND = "passage"     # 10.2, R146: a PASSAGE lent to the Invaders (passage.py)


def empty_orders() -> dict[str, Any]:
    return {"danegeld": [], "intervene": []}


def _cleric(view: JSON, name: str) -> bool:
    """6.10: a Bishop or Archbishop, or an Abbess: the Church's Abbeys as the view keeps them
    (`church.abbeys`, city -> its `abbess`; a game of version 2 looked for them elsewhere and
    found none, R155)."""
    lord = view["lords"][name]
    abbeys = ((view.get("church") or {}).get("abbeys") if view_rules_version(view) >= 3 else view.get("abbeys")) or {}
    return lord.get("bishopric") is not None or any((a or {}).get("abbess") == name for a in abbeys.values())


def check_invader_orders(view: JSON, board: Board, player: str, items: list,
                         problems: Problems, card: Card | None = None) -> tuple[dict, tuple[str, ...]]:
    """``card``: the cards part's PASSAGE, for the `passage:` orders (passage.py, R146)."""
    out = empty_orders()
    mine = {n: lo for n, lo in view["lords"].items() if lo["family"] == player}
    gone = set((view.get("invaders") or {}).get("gone") or [])
    armies = [str(a) for a in range(1, numbers().armies + 1) if str(a) not in gone]
    for item, verb, line in each_order(items, (*VERBS, LEND), problems):
        check_keys(item, KEYS[verb], f"a `{verb}` order", problems)
        if verb == LEND:
            _lend(view, player, item, line, armies, out, problems, card)
            continue
        text = str(item[verb])
        name = next((n for n in mine if fold(n) == fold(text)), None)
        if name is None:
            problems.add(line, f"{text!r} is not a noble of your family", suggest(text, mine) if mine else
                         "your family has no noble in play")
            continue
        if mine[name].get("captive_of"):
            problems.add(line, f"{name} is a captive and cannot {'pay' if verb == 'danegeld' else 'intervene'} "
                         "(6.9, 6.10)", "name a free noble of yours")
            continue
        if not mine[name].get("location"):
            problems.add(line, f"{name} is not on the map", "name a noble of yours standing in a city")
            continue
        if verb == "intervene" and not _cleric(view, name):
            problems.add(line, f"{name} is no Bishop, Archbishop or Abbess: only the Clergy may intervene (6.10)",
                         "name a cleric of your family, or pay a `danegeld:` instead")
            continue
        ok, army = _army(item, line, armies, problems)
        if not ok:
            continue
        order = {VERBS[verb]: name, "army": army}
        if order in out[verb]:
            problems.add(line, f"the same `{verb}` order twice", "give it once")
            continue
        out[verb].append(order)
    notes: tuple[str, ...] = ()
    if not problems and not (out["danegeld"] or out["intervene"] or out.get(LEND)):
        notes = ("you pay no Danegeld and ask no Church intervention this phase",)
    return out, notes


def _army(item: dict, line: int | None, armies: list[str], problems: Problems) -> tuple[bool, str | None]:
    """The optional `army:` of an order: (valid?, the army or None for any)."""
    if "army" not in item:
        return True, None
    number = whole_number(item["army"], line_of(item, "army") or line, "army", problems)
    if number is None:
        return False, None
    if str(number) not in armies:
        problems.add(line_of(item, "army") or line, f"there is no Invader army {number} in the game",
                     "the armies are " + ", ".join(armies) if armies else "no Invader army is left")
        return False, None
    return True, str(number)


def _lend(view: JSON, player: str, item: dict, line: int | None, armies: list[str], out: dict,
          problems: Problems, card: Card | None) -> None:
    """`passage: storms|tunnels` (10.2, R146), checked on the player's view: a PASSAGE to spend
    (the hand's, or `by: burgher`), a known army, `against:` another player (tunnels only)."""
    use = str(item[LEND]).strip().lower()
    if use not in USES:
        problems.add(line, f"`passage: {item[LEND]}` is no use of a PASSAGE lent to the Invaders",
                     "write `passage: storms` (one Move through STORMS) or `passage: tunnels` (no fortress "
                     "penalty when they attack another family's Stronghold or Fortified City)")
        return
    by = str(item.get("by") or CARD).strip().lower()
    if by not in (CARD, BURGHER):
        problems.add(line_of(item, "by") or line, f"`by: {item['by']}` is neither `card` nor `burgher`",
                     suggest(str(item["by"]), [CARD, BURGHER]))
        return
    count, why, fix = card.held(view, player, by) if card else (0, "no PASSAGE can be lent here", "")
    if not count:
        problems.add(line, why, fix)
        return
    if sum(1 for o in out.get(LEND) or [] if o["by"] == by) >= count:
        source = "from your hand" if by == CARD else "by your BURGHER"
        problems.add(line, f"you have {count} PASSAGE play(s) {source}: one order each (10.2)",
                     "remove an order")
        return
    ok, army = _army(item, line, armies, problems)
    if not ok:
        return
    against = None
    if "against" in item:
        others = [p for p in view["turn_order"] if p != player]
        against = find_player(str(item["against"]), others)
        if use != "tunnels":
            problems.add(line_of(item, "against") or line, "`against:` goes with `passage: tunnels` only",
                         "remove `against:`")
            return
        if against is None:
            hint = ("you cannot aid the Invaders against yourself" if find_player(str(item["against"]), [player])
                    else suggest(str(item["against"]), others))
            problems.add(line_of(item, "against") or line, f"`against:` {item['against']!r} is no other player", hint)
            return
    out.setdefault(LEND, []).append({"use": use, "army": army, "against": against, "by": by})


def invader_items(view: dict, orders: dict) -> list[dict]:
    """The canonical orders written back as a mail gives them (the echo)."""
    items = []
    for verb, who in VERBS.items():
        for order in orders.get(verb) or []:
            item: dict[str, Any] = {verb: order[who]}
            if order.get("army"):
                item["army"] = int(order["army"])
            items.append(item)
    for order in orders.get(LEND) or []:
        lend: dict[str, Any] = {LEND: order["use"]}
        lend.update({k: int(order[k]) if k == "army" else order[k] for k in ("army", "against") if order.get(k)})
        if order["by"] != CARD:
            lend["by"] = order["by"]
        items.append(lend)
    return items


def invaders_template(view: JSON, board: Board, player: str, card: Card | None = None) -> str:
    n = numbers()
    lines = ["# Invaders phase (E 6): the Invaders reinforce, land, move by compass draws and attack.",
             f"# You may bribe an army away with a Danegeld of {n.danegeld} shillings (6.9), or have a Bishop,",
             "# Archbishop or Abbess intervene (6.10: d6 1-3 the army leaves for good, 4-6 the cleric",
             "# is slain). Each order acts the first time the noble and the army stand in the same city",
             "# during this phase (at its start, after a landing, or as an army arrives); `army:` is",
             "# optional (default: the first army met). Nothing: no bribe, no intervention.",
             "orders:"]
    mine = [n for n, lo in view["lords"].items() if lo["family"] == player and lo.get("location")
            and not lo.get("captive_of")]
    for name in mine:
        lines.append(f"#  - danegeld: {name}")
        if _cleric(view, name):
            lines.append(f"#  - intervene: {name}")
    if not mine:
        lines.append("#  (no free noble of yours is on the map)")
    if card and (card.held(view, player, CARD)[0] or card.held(view, player, BURGHER)[0]):
        lines += ["#  - passage: storms     # 10.2, R146: lend the Invaders your PASSAGE: one Move through STORMS",
                  "#  - passage: tunnels    #   or no fortress penalty attacking another family (`against:`)"]
    return "\n".join(lines) + "\n"
