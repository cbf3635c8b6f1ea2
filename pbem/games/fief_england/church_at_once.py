"""England's at-once orders of the Church, the retainers, the relics and the crossbowmen (R41:
"at any time" is done when the judge reads the mail; the hooks' ``at_once_verbs``). In a mail:

    at_once:
      - hire: 2                  # MERCENARY crossbowmen from your card, 2 shillings each (11.1)
        in: Oxford               #   any city
      - swap_card: tax           # Mata (2.12): a card of your hand ...
        by: Alienor              #   the noble whose retainer does it (once a round)
        with: bob                #   ... for one drawn at random from this player's hand
      - give_retainer: Alienor   # the Cards phase only (2.12): this noble's retainer ...
        to: Hugh                 #   ... to another noble; another family's accepts it first
        price: 2                 #   optional: sold (or `exchange: yes`: the two swap theirs)
      - accept_retainer: Alienor # accept the retainer another family offered to your noble
      - give_relic: Holy Grail   # 12.0: a relic your noble carries ...
        to: Hugh                 #   ... to another noble in the same city
      - leave_relic: Holy Grail  # 12.0: left where its carrier stands (an Abbey: 3 a round)
      - take_relic: Holy Grail   # 12.0: picked up where it lies face up ...
        by: Lucia                #   ... by your noble there
      - reveal_relic: Godfrey    # 12.0, R74: your Bishop in his cathedral city, or Abbess in any
      - rebuild_abbey: Autumn    # 2.13: in the Purchase phase after its destruction, free, by
        in: York                 #   its Abbess, in any city without a Building
      - chasuble: III            # 12.2: the STORMS card on Sea III ...
        to: IV                   #   ... moved to a contiguous Sea (once a round per card)
      - skull: [Godfrey, Lucia]  # 12.3, R80: the nobles the Skull saves from death while you
                                 #   control it (`family`: all yours; `[]`: none), once a game
      - shinbone: famine         # 12.4: discard the FAMINE cards of your carrier's District
"""
from __future__ import annotations

from typing import Any, Callable

from pbem.games.fief.board import Board
from pbem.games.fief.cards.orders import card_id
from pbem.games.fief.cards.deck import load_cards
from pbem.games.fief.edition import load_edition
from pbem.games.fief.hooks import AtOnceVerb
from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief_england import hired, mercenary_loans, retainers
from pbem.games.fief_england.card_data import england_cards
from pbem.games.fief_england.church import abbeys, relic_powers, relics
from pbem.games.fief_england.regions import regions_of
from pbem.orders.reading import Problems, as_seq, check_keys, fold, suggest, whole_number, yes_no
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng

CARDS_PHASE = ("cards_play",)   # 2.12: retainers change hands in Phase 2, step D
_NOWHERE = Lord("", "", False, None)


def _name(view: dict, text: Any, choices: list[str], what: str, line: int | None, problems: Problems) -> str | None:
    found = next((c for c in choices if fold(c) == fold(str(text))), None)
    if found is None:
        problems.add(line, f"{text!r} is not {what}", suggest(str(text), choices) or "")
    return found


def _mine(view: dict, player: str) -> list[str]:
    return [n for n, lo in view["lords"].items() if lo["family"] == player]


def _void(player: str, what: str, why: str) -> list[Event]:
    return [Event("order_void", f"Your {what} order is void: {why}.", Audience.only(player),
                  {"player": player, "order": what})]


def _done(player: str, what: str, result: list[Event] | str) -> list[Event]:
    return _void(player, what, result) if isinstance(result, str) else result


# -- hire (11.1) --------------------------------------------------------------------------------------

def check_hire(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    check_keys(item, ("hire", "in"), "a hire order", problems)
    count = whole_number(item["hire"], line_of(item, "hire") or line, "hire", problems)
    if count is None:
        return None
    if "in" not in item:
        problems.add(line, "say where the crossbowmen go", "add e.g. `in: Oxford`")
        return None
    city = _name(view, item["in"], list(view["towns"]), "a city", line_of(item, "in"), problems)
    can, left = hired.hirable_in_view(view, player)   # the family's own card and those lent to it
    money = view["families"][player].get("deniers", 0)
    each = int(load_edition(view["game"]).extra["hired_units"][hired.UNIT]["price"])   # 11.1
    why = ("you have no MERCENARY card on your family board (11.1)" if not can
           else f"only {left} crossbowmen lie on your MERCENARY card (11.1)" if count > left
           else f"{count} crossbowmen cost {count * each} shillings (11.1: {each} each); you have {money}"
           if money < count * each else None)
    if why:
        problems.add(line_of(item, "hire") or line, why)
        return None
    return None if city is None else {"count": count, "in": city}


def act_hire(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    return _done(player, "hire", hired.hire(state, player, order["count"], order["in"]))


# -- Mata (2.12) ----------------------------------------------------------------------------------------

def check_swap(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    check_keys(item, ("swap_card", "by", "with"), "a swap_card order", problems)
    card = card_id(load_cards(view["game"]), item["swap_card"])
    if card is None or card not in (view.get("hand") or []):
        problems.add(line_of(item, "swap_card") or line, f"you hold no {item['swap_card']!r} card",
                     "your hand: " + (", ".join(view.get("hand") or []) or "empty"))
        return None
    if "by" not in item or "with" not in item:
        problems.add(line, "say which noble's retainer swaps (`by:`) and with which player (`with:`)",
                     "write e.g. `by: Alienor` and `with: bob`")
        return None
    noble = _name(view, item["by"], _mine(view, player), "a noble of your family", line_of(item, "by"), problems)
    owners = view.get("family_players") or {}   # 13.7: a player's two families hold one hand
    other = _name(view, item["with"], [p for p in view["players"] if owners.get(p, p) != owners.get(player, player)],
                  "another player", line_of(item, "with"), problems)
    if noble is None or other is None:
        return None
    mine = (view.get("church") or {}).get("retainers", {}).get(noble)
    if mine is None or "swap_hand_card" not in mine.get("effects", ()):
        problems.add(line_of(item, "by"), f"{noble}'s retainer cannot exchange cards (2.12: only a retainer with "
                     "Mata's ability does)")
        return None
    if mine["spent"]:
        problems.add(line_of(item, "by"), f"{noble}'s retainer {mine['name']} is Spent until the End of Round "
                     "(2.12: once per Round)")
        return None
    return {"card": card, "by": noble, "with": other}


def act_swap(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    return _done(player, "swap_card", retainers.swap_hand_card(state, player, order["by"], order["card"],
                                                               order["with"], rng))


# -- retainers change hands (2.12) ------------------------------------------------------------------------

def check_give_retainer(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    check_keys(item, ("give_retainer", "to", "price", "exchange"), "a give_retainer order", problems)
    if view["phase"] not in CARDS_PHASE:
        problems.add(line, "retainers are given, exchanged or sold in the Cards phase (2.12)",
                     "send it while round-N/cards-play is open")
        return None
    giver = _name(view, item["give_retainer"], _mine(view, player), "a noble of your family",
                  line_of(item, "give_retainer") or line, problems)
    if "to" not in item:
        problems.add(line, "say to which noble (`to:`)", "write e.g. `to: Hugh`")
        return None
    receiver = _name(view, item["to"], list(view["lords"]), "a noble in play", line_of(item, "to"), problems)
    price = whole_number(item["price"], line_of(item, "price"), "price", problems) if "price" in item else 0
    swap = bool(yes_no(item, "exchange", problems))
    if giver is None or receiver is None or price is None:
        return None
    if swap and price:
        problems.add(line, "an exchange has no price (2.12)", "leave out `price:` or `exchange:`")
        return None
    return {"giver": giver, "receiver": receiver, "price": price, "swap": swap}


def act_give_retainer(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    receiver = state.lords.get(order["receiver"])
    if receiver is not None and receiver.family == player and not order["price"]:   # within the family
        return _done(player, "give_retainer", retainers.transfer(state, order["giver"], order["receiver"],
                                                                 order["swap"]))
    return _done(player, "give_retainer", retainers.offer(state, player, order["giver"], order["receiver"],
                                                          order["swap"], order["price"]))


def check_accept_retainer(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    check_keys(item, ("accept_retainer",), "an accept_retainer order", problems)
    offers = (view.get("church") or {}).get("retainer_offers", [])
    giver = next((o["giver"] for o in offers if fold(o["giver"]) == fold(str(item["accept_retainer"]))
                  and view["lords"].get(o["receiver"], {}).get("family") == player), None)
    if giver is None:
        problems.add(line, f"no retainer offer of {item['accept_retainer']!r} to a noble of yours is waiting",
                     "offers waiting: " + (", ".join(o["giver"] for o in offers) or "none"))
        return None
    return {"giver": giver}


def act_accept_retainer(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    return _done(player, "accept_retainer", retainers.accept(state, player, order["giver"]))


# -- relics (12.0) ----------------------------------------------------------------------------------------

def _relic(view: dict, text: Any, line: int | None, problems: Problems) -> str | None:
    """A relic by its printed name, with or without "The" (`Holy Grail`), or its id (`holy_grail`)."""
    names = {name: rid for rid, name in england_cards().relics.items()}
    want = fold(str(text)).replace("_", " ")
    found = next((r for n, r in names.items()
                  if want in (fold(n), fold(n.removeprefix("The ")), fold(r).replace("_", " "))), None)
    if found is None:
        problems.add(line, f"there is no relic {text!r}", suggest(str(text), list(names)))
    return found


def _relic_check(verb: str, keys: tuple[str, ...], who: str | None) -> Callable[..., dict | None]:
    def check(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
        check_keys(item, (verb, *keys), f"a {verb} order", problems)
        relic = _relic(view, item[verb], line_of(item, verb) or line, problems)
        order: dict[str, Any] = {"relic": relic}
        for key in keys:
            if key not in item:
                problems.add(line, f"`{key}:` is missing", f"write e.g. `{key}: Hugh`")
                return None
            choices = _mine(view, player) if key == who else list(view["lords"])
            order[key] = _name(view, item[key], choices, "a noble of your family" if key == who else "a noble in play",
                               line_of(item, key), problems)
        return None if relic is None or None in order.values() else order
    return check


def act_give_relic(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    giver = relics.holder_of(state, order["relic"]) or ""
    return _done(player, "give_relic", relics.give(state, player, order["relic"], giver, order["to"]))


def act_leave_relic(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    carrier = relics.holder_of(state, order["relic"]) or ""
    return _done(player, "leave_relic", relics.leave(state, player, order["relic"], carrier))


def check_reveal(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    check_keys(item, ("reveal_relic",), "a reveal_relic order", problems)
    noble = _name(view, item["reveal_relic"], _mine(view, player), "a noble of your family",
                  line_of(item, "reveal_relic") or line, problems)
    if noble is None:
        return None
    where = view["lords"][noble]["location"]
    if where not in (view.get("church") or {}).get("relics", {}).get("face_down_in", []):
        problems.add(line, f"no relic lies face down in {where}, where {noble} stands (12.0)",
                     "face-down relics: " + ", ".join((view.get("church") or {}).get("relics", {})
                                                      .get("face_down_in", [])))
        return None
    return {"noble": noble}


def act_reveal(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    noble = order["noble"]
    if not relics.may_reveal(state, board, noble, (state.lords.get(noble) or _NOWHERE).location or ""):
        return _void(player, "reveal_relic", f"{noble} may not reveal a relic where they stand (12.0: a Bishop or "
                     "Archbishop in his own district's cathedral city, an Abbess in any)")
    return relics.discover(state, board, noble) or _void(player, "reveal_relic", "no relic lies face down there")


def check_rebuild(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    check_keys(item, ("rebuild_abbey", "in"), "a rebuild_abbey order", problems)
    if view["phase"] != "purchase":
        problems.add(line, "an Abbey is rebuilt in the Purchase phase (2.13)", "send it while round-N/purchase is open")
        return None
    destroyed = list((view.get("church") or {}).get("clergy", {}).get("destroyed", {}))
    abbey = next((a for a in destroyed if fold(str(item["rebuild_abbey"])) in (fold(a), fold(a.rsplit(" ", 1)[-1]))),
                 None)
    if abbey is None:
        problems.add(line_of(item, "rebuild_abbey") or line, f"{item['rebuild_abbey']!r} is not a destroyed Abbey "
                     "its Abbess may rebuild", "destroyed: " + (", ".join(destroyed) or "none"))
        return None
    if "in" not in item:
        problems.add(line, "say in which city (`in:`)", "write e.g. `in: York`")
        return None
    city = _name(view, item["in"], list(view["towns"]), "a city", line_of(item, "in"), problems)
    return None if city is None else {"abbey": abbey, "in": city}


def act_rebuild(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    return _done(player, "rebuild_abbey", abbeys.rebuild(state, player, order["abbey"], order["in"]))


def act_take_relic(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    return _done(player, "take_relic", relics.pick_up(state, player, order["relic"], order["by"]))


# -- the relics' powers (12.2, 12.4) ---------------------------------------------------------------------

NUMERALS = ("I", "II", "III", "IV", "V", "VI")


def _sea(text: Any, line: int | None, problems: Problems) -> str | None:
    """A Sea by its numeral or its name: `III`, `Sea III`, `3`."""
    words = str(text).split() if text is not None else []
    word = words[-1].upper() if words else ""   # an empty text names no Sea
    if word.isdigit() and 1 <= int(word) <= len(NUMERALS):
        word = NUMERALS[int(word) - 1]
    if word not in NUMERALS:
        problems.add(line, f"{text!r} is not a Sea", "write its numeral, e.g. `III` (Sea III)")
        return None
    return word


def check_chasuble(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    check_keys(item, ("chasuble", "to"), "a chasuble order", problems)
    frm = _sea(item["chasuble"], line_of(item, "chasuble") or line, problems)
    if "to" not in item:
        problems.add(line, "say to which Sea the STORMS card goes (`to:`)", "write e.g. `to: IV`")
        return None
    to = _sea(item["to"], line_of(item, "to"), problems)
    if frm is None or to is None:
        return None
    if frm not in regions_of(((e["card"], e["target"]) for e in view.get("board_effects") or []), "storms"):
        problems.add(line_of(item, "chasuble") or line, f"no STORMS card lies on Sea {frm}")
        return None
    return {"from": frm, "to": to}


def act_chasuble(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    return _done(player, "chasuble", relic_powers.move_storms(state, board, player, order["from"], order["to"]))


def check_shinbone(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    check_keys(item, ("shinbone",), "a shinbone order", problems)
    if fold(str(item["shinbone"])) != "famine":
        problems.add(line, "the Shinbone discards FAMINE cards (12.4)", "write `shinbone: famine`")
        return None
    return {}


def act_shinbone(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    return _done(player, "shinbone", relic_powers.shinbone_discard(state, board, player))


def check_skull(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    check_keys(item, ("skull",), "a skull order", problems)
    given = item["skull"]
    if isinstance(given, str) and fold(given) == relic_powers.FAMILY:
        return {"nobles": [relic_powers.FAMILY]}
    names = []
    for text in as_seq(given, line_of(item, "skull") or line, "skull", problems) if given is not None else []:
        found = _name(view, text, list(view["lords"]), "a noble in play", line_of(item, "skull") or line, problems)
        if found is None:
            return None
        names.append(found)
    return {"nobles": names}


def act_skull(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    return relic_powers.choose_skull(state, player, order["nobles"])


VERBS = {
    "hire": AtOnceVerb(check_hire, act_hire, (("- hire: N", "MERCENARY crossbowmen, 2 shillings each (11.1)"),
                                              ("  in: CITY", ""))),
    "swap_card": AtOnceVerb(check_swap, act_swap, (("- swap_card: CARD", "Mata's exchange (2.12)"),
                                                   ("  by: NOBLE", ""), ("  with: PLAYER", ""))),
    "give_retainer": AtOnceVerb(check_give_retainer, act_give_retainer,
                                (("- give_retainer: NOBLE", "in the Cards phase (2.12)"), ("  to: NOBLE", "")),
                                CARDS_PHASE),
    "accept_retainer": AtOnceVerb(check_accept_retainer, act_accept_retainer),
    "give_relic": AtOnceVerb(_relic_check("give_relic", ("to",), None), act_give_relic,
                             (("- give_relic: RELIC", "to a noble in the same city (12.0)"), ("  to: NOBLE", ""))),
    "leave_relic": AtOnceVerb(_relic_check("leave_relic", (), None), act_leave_relic),
    "take_relic": AtOnceVerb(_relic_check("take_relic", ("by",), "by"), act_take_relic),
    "reveal_relic": AtOnceVerb(check_reveal, act_reveal, (("- reveal_relic: NOBLE", "your cleric there (12.0)"),)),
    "rebuild_abbey": AtOnceVerb(check_rebuild, act_rebuild, (("- rebuild_abbey: ABBEY", "2.13, Purchase phase"),
                                                              ("  in: CITY", "")), ("purchase",)),
    "chasuble": AtOnceVerb(check_chasuble, act_chasuble, (("- chasuble: SEA", "move a STORMS card (12.2)"),
                                                          ("  to: SEA", ""))),
    "skull": AtOnceVerb(check_skull, act_skull, (("- skull: [NOBLE, ...]", "saved from death once (12.3)"),)),
    "shinbone": AtOnceVerb(check_shinbone, act_shinbone, (("- shinbone: famine", "12.4"),)),
    **mercenary_loans.VERBS,   # 11.1: crossbowmen lent or rented to another family
}
