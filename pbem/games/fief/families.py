"""Families named apart from their players (England 13.7: at two players each player runs two
allied families): the border between the judge, which knows players, and the rules, which know
families (FiefState.family_players; docs/architecture.md "Identity").

Inside the rules every name is a family's. At this border, and only when the state maps families
to players (in every other game nothing here changes anything):

- the players asked for a mail are the players of the families asked (``players_of``);
- a player's mail orders each of their families in its own block (``check_family_orders``):

      families:
        - family: alice
          orders:
            - ...
        - family: alice-2
          orders: []

  and the canonical orders ``{"families": {family: its canonical orders}}`` are split back
  into each family's orders for the resolution (``split_orders``);
- a player's view shows both families as their own (``player_view``) and keeps each family's
  own view (``family_view``), against which that family's orders are checked;
- an event told to a family is told to its player (``to_players``); the winners are players.
"""
from __future__ import annotations

import copy
import json
from typing import Any, Callable, Mapping, Sequence

from pbem.orders.reading import Problems, check_keys, suggest
from pbem.orders.yamlsafe import line_of, sub_map
from pbem.rules.api import Audience, Event, OrderError

FAMILY_KEYS = ("family", "orders", "policies")
# The view's keys that hold the player's, not one family's (family_view leaves them out).
PLAYER_KEYS = ("my_families", "family_views", "ordering")


def players_of(owners: Mapping[str, str], families: Sequence[str]) -> tuple[str, ...]:
    """The players of ``families``, each once, in the families' order."""
    return tuple(dict.fromkeys(owners.get(f, f) for f in families))


def to_players(owners: Mapping[str, str], events: Sequence[Event]) -> tuple[Event, ...]:
    """Events as the judge tells them: one told to a family is told to its player."""
    if not owners:
        return tuple(events)
    out = []
    told: dict[tuple[str, str], set[str]] = {}   # what each player was told already, by kind and facts
    for e in events:
        if e.audience.kind == "players":
            # one fact told to a family in its own words and to the others face down (fog of war)
            # reaches a player once: in the words of their own family, the first told
            key = (e.kind, json.dumps(e.data, sort_keys=True, default=str))
            players = {owners.get(p, p) for p in e.audience.players}
            e = Event(e.kind, e.text, Audience.only(*(players - told.get(key, set()))), e.data, e.said)
            told.setdefault(key, set()).update(players)
        out.append(e)
    return tuple(out)


def split_orders(owners: Mapping[str, str], orders: Mapping[str, Any]) -> dict[str, Any]:
    """The players' canonical orders as each family's (the resolution's keys are families)."""
    if not owners:
        return dict(orders)
    out: dict[str, Any] = {}
    for player, given in orders.items():
        for family, own in ((given or {}).get("families") or {}).items():
            if owners.get(family) == player:   # checked at the mail; a stored game is kept to it
                out[family] = own
    return out


# -- views ------------------------------------------------------------------------------------

def player_view(views: Mapping[str, dict[str, Any]], player: str, ordering: Sequence[str]) -> dict[str, Any]:
    """A player's view of their families (``views``: each family's own view, in seating order):
    the first family's view showing every family of the player as theirs (their shillings, pool,
    troops face up, pawns, offers), with ``my_families``, the families that order in this phase
    (``ordering``) and each family's own view (``family_views``: the keys where it differs)."""
    families = list(views)
    merged = copy.deepcopy(views[families[0]])
    for family in families[1:]:
        own = views[family]
        merged["families"][family] = copy.deepcopy(own["families"][family])
        for town, info in own["towns"].items():
            if family in info["forces"]:
                merged["towns"][town]["forces"][family] = copy.deepcopy(info["forces"][family])
        if family in own["offshore"]["forces"]:
            merged["offshore"]["forces"][family] = copy.deepcopy(own["offshore"]["forces"][family])
        merged["my_pawns"] += copy.deepcopy(own["my_pawns"])
        merged["exchange_offers"] += [o for o in copy.deepcopy(own["exchange_offers"])
                                      if o not in merged["exchange_offers"]]
    merged["me"] = player
    merged["my_families"] = families
    merged["ordering"] = list(ordering)
    merged["family_views"] = {f: {k: copy.deepcopy(v) for k, v in views[f].items()
                                  if k not in merged or merged[k] != v} for f in families}
    return merged


def family_view(view: Mapping[str, Any], family: str) -> dict[str, Any]:
    """One family's own view out of its player's (``player_view``): what that family's checks,
    echo and template read, as in a game where each player runs one family."""
    out = {k: v for k, v in view.items() if k not in PLAYER_KEYS}
    out.update(view["family_views"][family])
    return out


def families_apart(view: Mapping[str, Any]) -> bool:
    """Whether ``view`` is a player's view of several families (``player_view``)."""
    return bool(view.get("my_families"))


# -- a player's mail ----------------------------------------------------------------------------

Check = Callable[[dict, str, Any, Problems], tuple[Any, tuple[str, ...]]]
# (a family's view, its canonical orders) -> the money they leave in the purse, None if they spend none
Purse = Callable[[dict, Any], "int | None"]
# (a family's view, its canonical orders) -> the cards they leave in the hand, a None for each place
# a card they draw will take; None if they take none
Hand = Callable[[dict, Any], "list[str | None] | None"]
PLACES = "hand_places_taken"   # the next family's view: family before -> the cards it draws (R158)
# (a family's view, its canonical orders) -> the money its battle plan may spend as a battle
# begins (England 11.1: crossbowmen hired), after the purchases: kept in the next family's view
RESERVED = "purse_reserved"   # as the money the families before it reserve (13.7, R159)
Reserve = Callable[[dict, Any], int]


def check_family_orders(view: dict, player: str, document: Any, check: Check,
                        problems: Problems, purse: Purse | None = None,
                        hand: Hand | None = None,
                        reserve: Reserve | None = None) -> tuple[dict[str, Any], tuple[str, ...]]:
    """13.7 by mail: a `families:` list, one `- family: NAME` item per family that orders in this
    phase, each with its own `orders:` and `policies:`, checked by ``check`` against that
    family's own view. Errors name the family and say how to fix it. ``purse``: the families
    share one purse (l.847), so each family's orders are checked against what the families
    before it in the mail leave (their turns come in that order too). ``hand``: the same for the
    one hand (l.848: "only one Hand"), so no card is played or discarded by both families.
    ``reserve``: what the plans of the families before it may spend in battle, after every
    purchase (the view's ``purse_reserved``, read by the plan's own checks)."""
    mine, ordering = list(view["my_families"]), list(view["ordering"])
    example = f"e.g. `families:` then `  - family: {ordering[0] if ordering else mine[0]}` and `    orders: [...]`"
    document = document or {}
    if not isinstance(document, dict):
        problems.add(getattr(document, "line", None), "the order document must have a `families:` list", example)
        return {"families": {}}, ()
    check_keys(document, ("families",), "the order document of a player with two families (13.7)", problems)
    for key in ("orders", "policies"):
        if key in document:
            problems.add(line_of(document, key), f"you run two families ({', '.join(mine)}): `{key}:` goes "
                         "under the family it is for", example + " (docs/orders-fief-england.md, \"Two players\")")
    blocks = document.get("families")
    if blocks is None:
        blocks = []
    if not isinstance(blocks, list):
        problems.add(line_of(document, "families"), "`families:` must be a list, one `- family: NAME` item a family",
                     example)
        blocks = []
    out: dict[str, Any] = {}
    notes: list[str] = []
    left: int | None = None   # the purse after the families above, once one of them spent
    held: list[str] | None = None   # the hand after the families above, once one of them took a card
    places: dict[str, int] = {}   # the places in the hand the families above fill with their draws
    reserved = 0   # the money the plans of the families above may spend in battle
    for index in _turn_order(blocks, ordering):   # the purse is spent in the families' turns
        block = blocks[index]
        at = blocks.line_of(index) if hasattr(blocks, "line_of") else None
        if not isinstance(block, dict) or "family" not in block:
            problems.add(at, "each item of `families:` starts with `- family: NAME`, one of yours: "
                         + ", ".join(mine), example)
            continue
        check_keys(block, FAMILY_KEYS, f"the orders of family {block['family']}", problems)
        family = str(block["family"])
        where = line_of(block, "family") or at
        if family not in mine:
            problems.add(where, f"{family} is not one of your families (yours: {', '.join(mine)})",
                         suggest(family, mine))
            continue
        if family in out:
            problems.add(where, f"family {family} is ordered twice", "give each family one item of `families:`")
            continue
        if family not in ordering:
            problems.add(where, f"family {family} has no orders to give in this phase",
                         "remove its item" + (f"; ordering now: {', '.join(ordering)}" if ordering else ""))
            continue
        before = len(problems)
        own = family_view(view, family) if left is None else with_purse(family_view(view, family), mine, left)
        own = own if held is None else {**own, "hand": held}
        own = {**own, PLACES: dict(places)} if places else own
        own = {**own, RESERVED: reserved} if reserved else own
        canonical, said = check(own, family, sub_map(block, lambda k: k != "family"), problems)
        if held is not None:
            _tell_the_hand_taken(problems, before, family_view(view, family).get("hand") or [], held, list(out))
        if len(problems) == before:
            out[family] = canonical
            notes += [f"{family}: {n}" for n in said]
            after = purse(own, canonical) if purse is not None else None
            left = after if after is not None else left
            cards = hand(own, canonical) if hand is not None else None
            if cards is not None:
                held = [c for c in cards if c is not None]
                places.update({family: cards.count(None)} if None in cards else {})
            reserved += reserve(own, canonical) if reserve is not None else 0
    for family in ordering:
        if family not in out and not any(str(b.get("family")) == family for b in blocks if isinstance(b, dict)):
            problems.add(line_of(document, "families") or getattr(document, "line", None),
                         f"your family {family} has orders to give in this phase and the mail gives it none",
                         f"add `  - family: {family}` with its `orders:` (`orders: []` orders nothing)")
    return {"families": out}, tuple(notes)


def _tell_the_hand_taken(problems: Problems, before: int, hand: Sequence[str], held: Sequence[str],
                         earlier: Sequence[str]) -> None:
    """13.7 (R158): a card error of a family checked against what the families before it leave in
    the one hand says which cards those took (the hand errors all begin "you hold no")."""
    taken = list(hand)
    for card in held:
        if card in taken:
            taken.remove(card)
    if not taken:
        return
    why = (f"the orders of {' and '.join(earlier)}, whose turn comes first, take {', '.join(taken)} "
           "from your one hand (13.7)")
    for i in range(before, len(problems)):
        error = problems[i]
        if error.message.startswith("you hold no"):
            problems[i] = OrderError(error.line, error.message, f"{error.hint}; {why}" if error.hint else why)


def _turn_order(blocks: list, ordering: Sequence[str]) -> list[int]:
    """The indexes of a mail's family blocks in the order of the families' turns (``ordering``),
    a block naming no family of this phase after them, as written."""
    def key(index: int) -> int:
        block = blocks[index]
        family = str(block.get("family")) if isinstance(block, dict) else ""
        return list(ordering).index(family) if family in ordering else len(ordering)
    return sorted(range(len(blocks)), key=key)


def with_purse(view: dict, families: Sequence[str], money: int) -> dict:
    """``view`` with the one purse of ``families`` (13.7) holding ``money``."""
    out = dict(view)
    out["families"] = {f: ({**v, "deniers": money} if f in families and "deniers" in v else v)
                       for f, v in view["families"].items()}
    return out


def indented(block: str, family: str) -> str:
    """One family's part of a mail (its orders, echo or template) as an item of `families:`."""
    lines = [f"  - family: {family}"]
    lines += [("    " + line) if line.strip() else "" for line in block.rstrip("\n").split("\n")]
    return "\n".join(lines) + "\n"


def at_once_family(view: dict, document: Any, problems: Problems) -> str | None:
    """13.7: the family a two-player mail's at-once part acts for: its `family:` line, else the
    player's first family."""
    mine = list(view["my_families"])
    if "family" not in document:
        return mine[0]
    family = str(document["family"])
    if family not in mine:
        problems.add(line_of(document, "family"), f"{family} is not one of your families (yours: {', '.join(mine)})",
                     suggest(family, mine))
        return None
    if len(document) == 1:
        problems.add(line_of(document, "family"), "`family:` names the family that does the `at_once:` or "
                     "`diplomacy:` part of the mail, and this mail has none", "remove the line, or add the part")
        return None
    return family
