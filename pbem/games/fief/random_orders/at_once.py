"""What a random player does at once in any mail (F; G.4 "at any time"; England R41): messages,
gifts where money is public, a town's control transferred (5.2.2), surprise and Opportunity cards
played at once, the edition's own at-once orders (england.py); and now and then a standing
policy (safe passage, coalition, battle plan, France's held surprise cards: surprise.py)."""
from __future__ import annotations

from pbem.games.fief.random_orders.borderline import mangled
from pbem.games.fief.surprise.play import at_once as surprise_cards
from pbem.games.fief.random_orders.cards import CORE_PLAYS, FORTUNE, OWN_PLAYS, own_cards
from pbem.games.fief.random_orders.draws import Draws, Item, block, policies_block
from pbem.games.fief.random_orders.england import own_acts
from pbem.games.fief.random_orders.surprise import surprise_triggers
from pbem.games.fief.random_orders.seen import JSON, controlled, edition_of, england, free_lords, others, present

# Played at once only while the Cards phase's play step is open (England 2.13-2.14, R41)
CARDS_PLAY_ONLY = ("bishop", "archbishop", "abbess")


def at_once_part(view: JSON, player: str, draw: Draws) -> str:
    """The `diplomacy:` and `at_once:` parts of a mail, mostly empty."""
    text = ""
    talk = mangled(_diplomacy(view, player, draw), draw)
    if talk:
        text += block("diplomacy", talk)
    acts = mangled(_acts(view, player, draw), draw)
    if acts:
        text += block("at_once", acts)
    return text


def _diplomacy(view: JSON, player: str, draw: Draws) -> list[Item]:
    items: list[Item] = []
    rest = others(view, player)
    if draw.chance(15):
        items.append({"message": f"{player}: round {view['round']}, we shall see.", "to": "all"})
    if rest:   # a pawn for a private word (England has none); gifts where money is public (England R98: not)
        if view["families"][player].get("diplomacy_pawns", 0) and draw.chance(10):
            items.append({"message": "Between us.", "to": draw.some(rest, 2) or rest[:1]})
        money = view["families"][player].get("deniers", 0)
        if money and edition_of(view).money_public and draw.chance(8):
            items.append({"give": draw.count(money), "to": draw.pick(rest)})
    return items


def _acts(view: JSON, player: str, draw: Draws) -> list[Item]:
    items: list[Item] = []
    shared = [t for t in controlled(view, player) if len(present(view, t)) > 1]
    if shared and draw.chance(10):   # 5.2.2: to a family with forces there
        town = draw.pick(shared)
        items.append({"transfer": town, "to": draw.pick([f for f in present(view, town) if f != player])})
    if view["phase"] != "cards":   # G.4, 2.6: no card at once while the draws are open
        items += _cards(view, player, draw)
    own = edition_of(view).hooks.at_once_verbs   # the edition's own at-once orders (England's)
    if own:
        items += [item for item in own_acts(view, player, draw) if next(iter(item)) in own]
    return items


def _cards(view: JSON, player: str, draw: Draws) -> list[Item]:
    """A card played at once: a surprise card (G.4; the edition's characters) or one of the
    edition's own plays (England's Opportunity cards, R41); never a fortune card, nor an uprising
    (it needs a mail round, G.4.2.1)."""
    kinds = (set(surprise_cards(view["game"])) | set(own_cards(view))) - set(FORTUNE) - {"uprising"}
    if view["phase"] != "cards_play":
        kinds -= set(CARDS_PLAY_ONLY)
    hand = [c for c in view.get("hand") or [] if c in kinds]
    if not hand or not draw.chance(15):
        return []
    card = draw.pick(hand)
    write = (OWN_PLAYS if card in own_cards(view) else CORE_PLAYS)[card]
    item = write(view, player, card, draw)
    return [item] if item is not None else []


def _plan(view: JSON, player: str, draw: Draws) -> Item:
    """A battle plan (docs/orders-fief-france-battle.md; England: `aim_at`, `hire_crossbowmen`)."""
    plan: Item = {"surrender": draw.pick(["never", "always", {"outnumbered": 1 + draw.below(3)},
                                          {"after_round": 1 + draw.below(3)}])}
    if draw.chance(40):
        plan["losses"] = draw.some(["man_at_arms", "archer", "knight"]) or ["man_at_arms"]
    if draw.chance(30):
        plan["stop"] = {"when": {"outnumbered": 1 + draw.below(3)}, "accept": {"outnumbered": 1 + draw.below(3)}}
    if draw.chance(30):
        plan["besiege_if_stopped"] = draw.chance(50)
    rest = others(view, player)
    if rest and draw.chance(20):
        plan["captives_to"] = draw.pick(rest)
    if england(view):
        theirs = [n for p in rest for n in free_lords(view, p)]
        if draw.chance(30):
            plan["aim_at"] = ([draw.pick(theirs)] if theirs and draw.chance(50) else []) + ["invader leader"]
        if (view.get("church") or {}).get("family_card", {}).get(player) == "mercenary" and draw.chance(50):
            plan["hire_crossbowmen"] = 1 + draw.below(3)
    return plan


def policies_part(view: JSON, player: str, draw: Draws) -> str:
    """Now and then a standing policy (kept until changed): safe passage, coalition, a plan."""
    rest = others(view, player)
    policies: Item = {}
    if draw.chance(10):
        policies["safe_passage"] = {"allow": draw.some(rest), "others": draw.pick(["allow", "refuse"])}
    if rest and draw.chance(8):
        policies["coalition"] = {"join": {draw.pick(rest): "anywhere"}, "accept": draw.some(rest) or rest[:1]}
    if draw.chance(8):
        policies["battle_plan"] = _plan(view, player, draw)
    if draw.chance(5):
        policies[draw.pick(["besieged_may_leave", "placement"])] = {"allow": draw.some(rest),
                                                                     "others": draw.pick(["allow", "refuse"])}
    if draw.chance(4):
        policies["plague_losses"] = draw.some(["man_at_arms", "archer", "knight", "bombard"]) or ["knight"]
    if england(view) and draw.chance(5):   # 10.1, R94
        policies["quell_rebellions"] = draw.pick(["never", "pay", "pray", "pay_else_pray"])
    if not england(view) and draw.chance(4):   # G.4.2.1
        policies["calm_uprisings"] = draw.pick(["never", "as_bishop", "also_as_cardinal"])
    if not england(view) and draw.chance(25):
        triggers = surprise_triggers(view, player, draw)
        if triggers:
            policies["surprise"] = triggers
    if draw.chance(5):
        policies["lower_ransom"] = draw.pick(["refuse", {"accept_from": 1 + draw.below(5)}])
    return policies_block(policies) if policies else ""
