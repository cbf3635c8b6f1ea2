"""The Purchase Phase orders (4) as mailed, checked against the player's view.

    orders:
      - ransom: Baudoin          # 4.1: ransoms are paid by themselves; this only says where
        place: Tours             #      the freed lord comes into play (G.1.2)
      - offer: 8                 # 4.1: a lower ransom for captives held by one jailer; the
        for: [Arthur, Aliénor]   #      jailer's `lower_ransom` policy accepts or refuses it
      - build: stronghold        # 4.2: 10 deniers, a town you control without a fortress
        in: Poitiers
      - build: mill              # 4.2: 3 deniers each, 2 per town at most
        in: Tours
        count: 1
      - buy: knight              # 4.3: man-at-arms 1, archer 2, knight 3, bombard 4 deniers
        count: 2
        in: Tours
      - title: Bretagne          # 4.4: 2 deniers per town of the fief
        lord: Quentin
        city: Nantes             # optional: the stronghold that becomes the fief's city
        heir: Aliénor            # optional: who takes a title passed on (D.1.1)
        only_if_offered: yes     # optional: take it only if the king offers it (free, 4.4)
      - offer_title: Bretagne    # 4.4: the king (or regent queen) offers 1 ungoverned fief
        to: marie                #      title a round to a player able to purchase it
      - cardinal: Arthur         # 4.5: the cardinal title for sale, 5 deniers, on any bishop

Orders are done in the order written; each is checked as if those above it had been done.
The king's `offer_title` is read first, before anyone's purchases (purchase/titles.py).
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import Board
from pbem.orders.reading import Problems, check_keys, each_order, fold, suggest, whole_number, yes_no
from pbem.games.fief.orders_common import town_name
from pbem.games.fief.purchase.ledger import Ledger, describe
from pbem.games.fief.edition import load_edition
from pbem.orders.yamlsafe import line_of

VERBS = ("ransom", "offer", "build", "buy", "title", "offer_title", "cardinal")
KEYS = {"ransom": ("ransom", "place"), "offer": ("offer", "for"), "build": ("build", "in", "count"),
        "buy": ("buy", "in", "count"), "title": ("title", "lord", "city", "heir", "only_if_offered"),
        "offer_title": ("offer_title", "to"), "cardinal": ("cardinal",)}
RESOLUTION_ONLY = ("deniers", "offered")   # a title's price and offer, settled when it resolves

def check_purchase_orders(view: dict[str, Any], board: Board, items: list,
                          problems: Problems) -> tuple[list[dict], int]:
    """The canonical orders, and the deniers the player would have left after them."""
    parsed: list[tuple[dict, Any]] = []
    own = load_edition(view["game"]).hooks.purchase_verbs   # an edition's own orders (England: 7.9)
    for item, verb, line in each_order(items, VERBS + tuple(own), problems):
        check_keys(item, own[verb].keys if verb in own else KEYS[verb], f"a `{verb}` order", problems)
        before = len(problems)
        order = own[verb].read(view, board, item, problems) if verb in own else _parse(verb, item, view, board,
                                                                                          problems)
        if order is not None and len(problems) == before:
            parsed.append((order, line))
    ledger = _opened(view, board)
    done: dict[int, dict] = {}
    # 4.4: the king's offer is read before the purchases, as at resolution (a stable sort).
    for index, (order, line) in sorted(enumerate(parsed), key=lambda p: "offer_title" not in p[1][0]):
        failure = ledger.try_order(order)
        if failure:
            what = describe(order, ledger.edition, fiefs=ledger.view.get("fiefs", {}))[3:]
            problems.add(line, f"cannot {what}: {failure.message}", failure.hint)
            continue
        done[index] = {k: v for k, v in order.items() if k not in RESOLUTION_ONLY}
    return [done[i] for i in sorted(done)], ledger.deniers


def _opened(view: dict[str, Any], board: Board) -> Ledger:
    """The family's ledger as its mail is checked: its view, the forced ransoms paid (4.1)."""
    ledger = Ledger.from_view(view, board)
    ledger.offers_known = False   # another family's offer (4.4) is known only at resolution
    ledger.ransoms()   # 4.1 comes first: the deniers left after the forced ransoms
    return ledger


def deniers_after(view: dict[str, Any], board: Board, orders: list[dict]) -> int:
    """The deniers left after the ransoms and the canonical ``orders`` (accepted against
    ``view``): at two players (England 13.7) what a family leaves in the purse it shares with
    the next family of the same mail, whose orders are checked against it."""
    ledger = _opened(view, board)
    for order in sorted(orders, key=lambda o: "offer_title" not in o):   # 4.4: the offer first, as above
        ledger.try_order(dict(order))
    return ledger.deniers


def _lord_name(view: dict, text: Any, line, problems: Problems, me: str) -> str | None:
    mine = [n for n, l in view["lords"].items() if l["family"] == me]
    found = next((n for n in mine if fold(n) == fold(str(text))), None)
    if found is None:
        problems.add(line, f"{text!r} is not a lord of your family", suggest(str(text), mine) if mine else "")
    return found


WHAT = {"ransom": "the captive lord's name", "offer": "the amount offered", "build": "stronghold or mill",
        "buy": "a unit type (man_at_arms, archer, knight, bombard)", "title": "the fief's name",
        "offer_title": "the fief's name", "cardinal": "the bishop's name"}
# (a title's example is a fief of the game's own board)
EXAMPLE = {"ransom": "LORD", "offer": "8", "build": "mill", "buy": "knight", "cardinal": "BISHOP"}


def _parse(verb: str, item: dict, view: dict, board: Board, problems: Problems) -> dict | None:
    me = view["me"]
    if item[verb] is None or isinstance(item[verb], (list, dict)):
        example = board.fief_example() if verb in ("title", "offer_title") else EXAMPLE[verb]
        problems.add(line_of(item, verb), f"`{verb}:` must be followed by {WHAT[verb]}",
                     f"e.g. `- {verb}: {example}`")   # a fief of this game's board
        return None
    if verb == "ransom":
        lord = _lord_name(view, item["ransom"], line_of(item, "ransom"), problems, me)
        place = town_name(board, item["place"], line_of(item, "place"), problems) if "place" in item else None
        return {"ransom": lord, "place": place} if lord else None
    if verb == "offer":
        amount = whole_number(item["offer"], line_of(item, "offer"), "offer", problems, low=0)
        if "for" not in item:
            problems.add(line_of(item, "offer"), "say for which captives: add `for: [LORD, ...]`")
            return None
        names = item["for"] if isinstance(item["for"], list) else [item["for"]]
        lords = [_lord_name(view, n, line_of(item, "for"), problems, me) for n in names]
        if amount is None or not all(lords):
            return None
        return {"offer": amount, "for": list(dict.fromkeys(lords))}
    if verb in ("build", "buy"):
        if "in" not in item:
            problems.add(line_of(item, verb), f"say in which town: add `in: TOWN` under `{verb}:`")
            return None
        town = town_name(board, item["in"], line_of(item, "in"), problems)
        count = whole_number(item["count"], line_of(item, "count"), "count", problems) if "count" in item else 1
        what = fold(str(item[verb] or ""))
        if verb == "build":
            if what not in ("stronghold", "mill", "mills"):
                problems.add(line_of(item, "build"), f"you cannot build {item[verb]!r}",
                             "build a stronghold or a mill (4.2); units are bought with `buy:`")
                return None
            kind: str | None = "mill" if what.startswith("mill") else "stronghold"
            if kind == "stronghold" and count != 1:
                problems.add(line_of(item, "count"), "a town holds one stronghold: leave out `count:`")
                return None
            order: dict[str, Any] = {"build": kind, "town": town}
            if kind == "mill":
                order["count"] = count
            return order if town and count else None
        edition = load_edition(view["game"])
        kind = edition.unit_kind(what)   # the record's `units:` words (4.3)
        if kind not in edition.unit_types:
            problems.add(line_of(item, "buy"), f"{item[verb]!r} is not a unit type",
                         suggest(str(item[verb]), load_edition(view["game"]).unit_types)
                         + " (strongholds and mills: `build:`)")
            return None
        return {"buy": kind, "count": count, "town": town} if town and count else None
    if verb == "cardinal":
        return _cardinal(item, view, problems)
    fief = board.find_fief(str(item[verb] or ""))
    if fief is None:
        problems.add(line_of(item, verb), f"{item[verb]!r} is not a fief", suggest(str(item[verb]), board.fiefs))
        return None
    if verb == "offer_title":
        return _offer_title(fief, item, view, problems)
    if "lord" not in item:
        problems.add(line_of(item, "title"), "say which lord takes the title: add `lord: NAME`")
        return None
    lord = _lord_name(view, item["lord"], line_of(item, "lord"), problems, me)
    city = town_name(board, item["city"], line_of(item, "city"), problems) if "city" in item else None
    heir = _lord_name(view, item["heir"], line_of(item, "heir"), problems, me) if "heir" in item else None
    only = yes_no(item, "only_if_offered", problems,
                  "`yes`: take the title only if the king offers it, for nothing (4.4)")
    if only is None:
        return None
    order = {"title": fief, "lord": lord, "city": city, "heir": heir}
    if only:
        order["only_if_offered"] = True
    return order if lord else None


def _offer_title(fief: str, item: dict, view: dict, problems: Problems) -> dict | None:
    """4.4: `- offer_title: FIEF` + `to: PLAYER` (the king's family, or the regent queen's)."""
    if "to" not in item:
        problems.add(line_of(item, "offer_title"), "say to which player: add `to: PLAYER`",
                     "the player whose `title:` order takes it")
        return None
    players = view["players"]
    to = next((p for p in players if fold(p) == fold(str(item["to"]))), None)
    if to is None:
        problems.add(line_of(item, "to"), f"{item['to']!r} is not a player of this game",
                     suggest(str(item["to"]), players))
        return None
    return {"offer_title": fief, "to": to}


def _cardinal(item: dict, view: dict, problems: Problems) -> dict | None:
    """4.5: `- cardinal: LORD`, any bishop in play, of any family (G.4.1.2); only in an edition
    with cardinals (its `cardinals` hook)."""
    if not load_edition(view["game"]).hooks.cardinals:
        problems.add(line_of(item, "cardinal"), "there is no cardinal title for sale in this game (4.5 is not "
                     "among its rules)", "remove the `cardinal:` order")
        return None
    lords = list(view["lords"])
    name = next((n for n in lords if fold(n) == fold(str(item["cardinal"]))), None)
    if name is None:
        problems.add(line_of(item, "cardinal"), f"no lord {item['cardinal']!r} is in play",
                     suggest(str(item["cardinal"]), lords) if lords else "")
        return None
    return {"cardinal": name}
