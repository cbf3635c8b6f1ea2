"""Checking the `diplomacy:` list a player may add to any Fief mail (F; docs/orders-fief-france-diplomacy.md).

Three orders, each an item of the list:
  - give: 3            # deniers, free and public (A.6: the treasury is public)
    to: bob
  - message: "Let us share Anjou."
    to: [bob, carol]   # or `to: all`
  - exchange: [Aliénor]          # the cards you give
    with: bob
    take: [good weather]         # the cards bob gives you (his own order must mirror this)

Done at once when the mail is accepted (diplomacy/at_once.py). A private message (not to all) and an
exchange each cost one diplomacy pawn (F), unless the public diplomacy option is on (I.3: the
pawns are not used). `exchange: []` with `take: []` withdraws one's standing offer.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.games.fief.cards.deck import load_cards
from pbem.games.fief.cards.orders import card_id
from pbem.games.fief.edition import edition_of_view, load_edition
from pbem.orders.reading import Problems, check_keys, suggest, verb_of
from pbem.orders.yamlsafe import line_of

VERBS = ("give", "message", "exchange")
MAX_TEXT = 2000          # characters in one message: a letter, not a book


def public_diplomacy(options: dict) -> bool:
    return bool((options or {}).get("public_diplomacy"))   # I.3


def pays_exchange(turn_order: list[str], a: str, b: str) -> str:
    """Ruling: of the two players exchanging, the first in turn order spends the pawn (H.3)."""
    return a if turn_order.index(a) < turn_order.index(b) else b


def check_diplomacy(view: dict, player: str, given: Any, problems: Problems, key_line: int | None = None) -> dict:
    """The canonical `diplomacy:` list; ``key_line``: the line of its key (a value that is no list
    has none of its own)."""
    out: dict[str, list] = {"give": [], "messages": [], "exchanges": []}
    if given is None:
        return out
    if not isinstance(given, list):
        problems.add(getattr(given, "line", None) or key_line,
                     "`diplomacy:` must be a list, each item starting with `- `",
                     "e.g. `diplomacy:` then `  - give: 3` and `    to: bob`")
        return out
    others = [p for p in view["turn_order"] if p != player]
    for i, item in enumerate(given):
        line = line_of(given, i)
        verb = verb_of(item, VERBS, line, problems)
        if verb == "give" and not load_edition(view["game"]).money_public:
            # A gift is told to everyone (A.6); with secret money it would show a treasury.
            problems.add(line, "money is secret in this game, so it is not given by a public `give:`",
                         "send it with the edition's own order (Fief: England: `at_once:` `- pigeon:`, 2.15)")
        elif verb == "give":
            check_keys(item, ("give", "to"), "a give order", problems)
            _give(item, line, others, out, problems)
        elif verb == "message":
            check_keys(item, ("message", "to"), "a message order", problems)
            _message(item, line, others, out, problems)
        elif verb == "exchange":
            check_keys(item, ("exchange", "with", "take"), "an exchange order", problems)
            _exchange(view, item, line, others, out, problems)
    _afford(view, player, out, getattr(given, "line", None), problems)   # the list as a whole
    return out


def _player(value: Any, line: int | None, others: list[str], problems: Problems) -> str | None:
    if value in others:
        return value
    problems.add(line, f"`{value}` is not another player of this game" if value else "no player named",
                 suggest(value, others) if isinstance(value, str) else "players: " + ", ".join(others))
    return None


def _give(item: dict, line: int | None, others: list[str], out: dict, problems: Problems) -> None:
    text = item.get("give")
    if not isinstance(text, str) or not text.isdigit() or int(text) <= 0:
        problems.add(line_of(item, "give"), f"`give: {text}` must be a whole number of deniers above 0",
                     "e.g. `give: 3` with `to: bob`")
        return
    to = _player(item.get("to"), line_of(item, "to") or line, others, problems)
    if to:
        out["give"].append({"to": to, "deniers": int(text)})


def _message(item: dict, line: int | None, others: list[str], out: dict, problems: Problems) -> None:
    text = item.get("message")
    if not isinstance(text, str) or not text.strip():
        problems.add(line_of(item, "message"), "the message is empty", 'write it after `message:` in quotes')
        return
    if len(text) > MAX_TEXT:
        problems.add(line_of(item, "message"), f"the message has {len(text)} characters, more than {MAX_TEXT}",
                     "shorten it or split it into several messages")
        return
    to = item.get("to")
    if to == "all":
        out["messages"].append({"to": "all", "text": text})
        return
    names = to if isinstance(to, list) else [to]
    found = [p for p in (_player(n, line_of(item, "to") or line, others, problems) for n in names) if p]
    if found and len(found) == len(names):
        out["messages"].append({"to": sorted(set(found), key=others.index), "text": text})


def _cards(view: dict, value: Any, line: int | None, problems: Problems) -> list[str] | None:
    cards = load_cards(view["game"])
    names = value if isinstance(value, list) else [value]
    ids = [card_id(cards, n) for n in names]
    bad = [n for n, c in zip(names, ids, strict=True) if c is None]
    if bad:
        problems.add(line, f"`{bad[0]}` is not a card", "name cards as in your report, e.g. `good weather`")
        return None
    return [c for c in ids if c is not None]   # every one, after the check above


def _exchange(view: dict, item: dict, line: int | None, others: list[str], out: dict,
              problems: Problems) -> None:
    partner = _player(item.get("with"), line_of(item, "with") or line, others, problems)
    give = [] if item.get("exchange") in (None, []) else _cards(view, item.get("exchange"), line, problems)
    take = [] if item.get("take") in (None, []) else _cards(view, item.get("take"), line, problems)
    if partner is None or give is None or take is None:
        return
    if not give and not take:     # withdrawing one's standing offer
        if not any(o["from"] == view["me"] and o["with"] == partner for o in view.get("exchange_offers", [])):
            problems.add(line, f"this exchange moves no card, and you have no exchange offer to {partner} "
                         "to withdraw", "list the cards you give after `exchange:` and those you take after `take:`")
            return
        out["exchanges"].append({"with": partner, "give": [], "take": []})
        return
    if any(e["with"] == partner for e in out["exchanges"]):
        problems.add(line, f"a second exchange with {partner} in one mail", "put all the cards in one order")
        return
    missing = Counter(give) - Counter(view.get("hand") or [])
    if missing:
        problems.add(line, f"you do not hold {', '.join(missing)}", "you may give only cards of your hand")
        return
    # F: "a player's hand cannot exceed 3 cards", so after this exchange too.
    after = len(view.get("hand") or []) - len(give) + len(take)
    limit = edition_of_view(view).hand_limit
    if after > limit:
        problems.add(line, f"you would hold {after} cards after this exchange, more than {limit} (F)",
                     "take fewer cards or give more")
        return
    out["exchanges"].append({"with": partner, "give": give, "take": take})


def pawns_needed(orders: dict, player: str, turn_order: list[str]) -> int:
    private = sum(1 for m in orders["messages"] if m["to"] != "all")
    return private + sum(1 for e in orders["exchanges"] if (e["give"] or e["take"])
                         and pays_exchange(turn_order, player, e["with"]) == player)


def _afford(view: dict, player: str, out: dict, line: int | None, problems: Problems) -> None:
    me = view["families"][player]
    given = sum(g["deniers"] for g in out["give"])
    if given > me["deniers"]:
        problems.add(line, f"you give {given} {load_edition(view['game']).coin_plural} in all but have "
                     f"{me['deniers']}", "give less")
    if public_diplomacy(view.get("options", {})):
        return
    need = pawns_needed(out, player, list(view["turn_order"]))
    edition = load_edition(view["game"])
    if need and not edition.diplomacy_pawns:   # England: a private word goes by carrier pigeon (2.15)
        problems.add(line, f"{edition.title} has no diplomacy pawns: a private message or an exchange goes "
                     f"by carrier pigeon ({edition.cite('F')})",
                     "send the message `to: all` (free), or send a `- pigeon:` under `at_once:`")
    elif need > me["diplomacy_pawns"]:
        problems.add(line, f"these orders need {need} diplomacy pawn(s) (one per private message and per "
                     f"exchange you pay for) but you have {me['diplomacy_pawns']} (F)",
                     "send the message to all (free), or send fewer private messages")


def diplomacy_template(view: dict, player: str) -> str:
    """The commented `diplomacy:` block that ends every Fief order template (F: at any time)."""
    me = view["families"][player]
    others = [p for p in view["turn_order"] if p != player]
    pawns = ("pawns are not used (I.3)" if public_diplomacy(view.get("options", {}))
             else f"you have {me['diplomacy_pawns']} diplomacy pawn(s)")
    example = others[0] if others else "bob"
    edition = load_edition(view["game"])
    if not edition.diplomacy_pawns:   # England: only the word to all here; the rest by pigeon (2.15)
        return (f"# Diplomacy ({edition.cite('F')}), done at once when the judge reads this mail, in any phase: a "
                "message to all\n# players; a private message, money or cards go by carrier pigeon "
                "(`- pigeon:` under `at_once:` below):\n"
                "# diplomacy:\n"
                '#   - message: "..."            # to all players, free\n'
                "#     to: all\n")
    give = (f"#   - give: 2                  # {edition.coin_plural} to another player (free, public)\n"
            f"#     to: {example}\n") if edition.money_public else ""   # secret money is not given in public
    return (f"# Diplomacy (F), done at once when the judge reads this mail, in any phase; {pawns}:\n"
            "# diplomacy:\n"
            + give +
            '#   - message: "..."            # to one or more players (a pawn) or `to: all` (free)\n'
            f"#     to: [{example}]\n"
            "#   - exchange: [good weather]  # cards you give; done when they send the mirror order\n"
            f"#     with: {example}\n"
            "#     take: [tax]               # cards you take (a pawn, paid by the first in turn order)\n")
