"""Random orders for the Fief family (pbem.rules.api.WritesRandomOrders): the body of an order
mail for the open phase, written from a player's view alone with the draws of the rng it is
given, in the order language a player writes (docs/orders-fief-*.md). Each phase's orders are
one module of this package; both editions read the edition through the view (its game, its
board, its cards). Mostly legal, varied (every kind of order of the phase, random counts and
targets, sometimes nothing), now and then past a limit: the property tests of
tests/test_random_orders_fief.py play whole games from them.

At two players (13.7) the mail has a `families:` item for each family ordering now, and its
at-once part names the family it acts for (`family:`)."""
from __future__ import annotations

from typing import Callable

from pbem.games.fief import families as fam
from pbem.games.fief.random_orders.at_once import at_once_part, policies_part
from pbem.games.fief.random_orders.battle import battle_orders
from pbem.games.fief.random_orders.borderline import mangled
from pbem.games.fief.random_orders.cards import draw_orders, play_orders
from pbem.games.fief.random_orders.draws import Draws, Item, block
from pbem.games.fief.random_orders.hear_ye import first_orders, parliament_orders, vote_orders
from pbem.games.fief.random_orders.invaders import invader_orders
from pbem.games.fief.random_orders.movement import movement_orders
from pbem.games.fief.random_orders.purchase import purchase_orders
from pbem.games.fief.random_orders.seen import JSON
from pbem.games.fief.random_orders.setup import setup_orders
from pbem.rules.rng import Rng

Phase = Callable[[JSON, str, Draws], list[Item]]
BY_PHASE: dict[str, Phase] = {
    "setup": setup_orders, "hear_ye": first_orders, "hear_ye_votes": vote_orders,
    "parliament": parliament_orders, "cards": draw_orders, "cards_play": play_orders,
    "purchase": purchase_orders, "movement": movement_orders, "invaders": invader_orders,
    "battle": battle_orders,
}


def random_orders(view: JSON, player: str, rng: Rng) -> str:
    """The mail's body: the orders of each family ordering now, then what is done at once."""
    draw = Draws(rng)
    if not fam.families_apart(view):
        return _family_orders(view, player, draw) + _now(view, player, draw)
    views = _shared_purse([fam.family_view(view, f) for f in view["ordering"]], view["ordering"], draw)
    text = "families:\n" + "".join(fam.indented(_family_orders(v, f, draw), f)
                                   for v, f in zip(views, view["ordering"], strict=True)) if view["ordering"] else ""
    family = draw.pick(view["my_families"])   # 13.7: the family the at-once part acts for
    now = _now(fam.family_view(view, family), family, draw)
    return text + (f"family: {family}\n" + now if now else "")


def _shared_purse(views: list[JSON], families: list[str], draw: Draws) -> list[JSON]:
    """13.7 (l.847): the two families spend from one purse, so each is given a share of it to
    spend (the checks count both families' spending against the one purse, R154)."""
    if len(views) < 2 or views[0]["phase"] != "purchase":
        return views
    left = views[0]["families"][families[0]].get("deniers", 0)
    out = []
    for i, (v, f) in enumerate(zip(views, families, strict=True)):
        share = left if i == len(views) - 1 else draw.below(left + 1)
        left -= share
        out.append(v | {"families": v["families"] | {f: v["families"][f] | {"deniers": share}}})
    return out


def _family_orders(view: JSON, player: str, draw: Draws) -> str:
    write = BY_PHASE.get(view["phase"])
    if write is None or not _orders_now(view, player):
        return ""
    return block("orders", mangled(write(view, player, draw), draw)) + policies_part(view, player, draw)


def _orders_now(view: JSON, player: str) -> bool:
    return not view["families"][player].get("eliminated")


def _now(view: JSON, player: str, draw: Draws) -> str:
    if view["phase"] in ("setup", "over") or view["families"][player].get("eliminated"):
        return ""
    return at_once_part(view, player, draw)
