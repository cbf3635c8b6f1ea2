"""What a random player does at once in any mail (F; G.4 "at any time"; England 2.15, R41):
messages, gifts of deniers (France; England's shillings go by carrier pigeon), a town's control
transferred (5.2.2), surprise and Opportunity cards played at once, England's Scorched Earth
(3.4), hired crossbowmen (11.1) and Excalibur's draw (13.2); now and then a standing policy."""
from __future__ import annotations

from pbem.games.fief.random_orders.borderline import mangled
from pbem.games.fief.surprise.play import at_once as surprise_cards
from pbem.games.fief.random_orders.cards import CORE_PLAYS, FORTUNE, OWN_PLAYS, own_cards
from pbem.games.fief.random_orders.draws import Draws, Item, block, policies_block
from pbem.games.fief.random_orders.england import church_acts
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
        items += [item for item in _england(view, player, draw) if next(iter(item)) in own]
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


def _england(view: JSON, player: str, draw: Draws) -> list[Item]:
    items: list[Item] = []
    nobles = free_lords(view, player)
    if view["phase"] == "purchase" and draw.chance(8):
        mills = [t for t in controlled(view, player) if view["towns"][t].get("mills")]
        if mills:
            items.append({"scorch": draw.some(mills) or mills[:1]})   # 3.4
    sword = (view.get("excalibur") or {}).get("city") if not (view.get("excalibur") or {}).get("carried_by") else None
    men = [n for n in nobles if view["lords"][n]["location"] == sword and not view["lords"][n]["female"]]
    if view["phase"] in ("movement", "battle") and men and draw.chance(50):
        # awaiting fix: `draw_excalibur: [NAME]` (a list) raises TypeError (helper en1): names only
        items.append({"draw_excalibur": draw.pick(men)})
    theirs = [n for p in others(view, player) for n in free_lords(view, p)]
    if nobles and theirs and (view.get("pigeons") or {}).get("left", {}).get(player) and draw.chance(5):
        item: Item = {"pigeon": draw.pick(nobles), "to": draw.pick(theirs)}
        money = view["families"][player].get("deniers", 0)
        hand = list(view.get("hand") or [])
        if money and draw.chance(70) or not hand:
            item["shillings"] = 1 + draw.below(max(money, 1))
        else:
            item["cards"] = [draw.pick(hand)]
        items.append(item)
    if view["phase"] == "purchase":
        items += _crown(view, player, nobles, draw)
    items += _garter(view, player, draw)
    items += church_acts(view, player, draw)
    mercenary = (view.get("church") or {}).get("family_card", {}).get(player) == "mercenary"
    if mercenary and draw.chance(20):
        items.append({"hire": 1 + draw.below(3), "in": draw.pick(list(view["towns"]))})   # 11.1
    return items


def _crown(view: JSON, player: str, nobles: list[str], draw: Draws) -> list[Item]:
    """4.5 King's Will, 4.6 a title handed within the family (the checks say who may)."""
    items: list[Item] = []
    sovereign = any(view["lords"][n]["political"] in ("king", "sovereign_queen") for n in nobles)
    free = [info["name"] for info in view["fiefs"].values() if not info["holder"]]
    if sovereign and free and draw.chance(30):
        anyone = [n for n, lord in view["lords"].items() if lord["location"] and not lord["captive_of"]]
        items.append({"kings_will": draw.pick(free), "to": draw.pick(anyone)})
    titled = [(f, n) for n in nobles for f in view["lords"][n]["fief_titles"]]
    if titled and len(nobles) > 1 and draw.chance(15):
        fief, lord = draw.pick(titled)
        items.append({"hand_title": view["fiefs"][fief]["name"], "to": draw.pick([n for n in nobles if n != lord])})
    return items


def _garter(view: JSON, player: str, draw: Draws) -> list[Item]:
    """13.3: the Sovereign's family gives the Garter to an eligible Lord."""
    garter = (view.get("royal") or {}).get("garter") or {}
    eligible = list(garter.get("eligible") or {})
    # awaiting fix: `garter: [NAME]` or `garter: {x: 1}` raise TypeError (helper en1): names only
    return [{"garter": draw.pick(eligible)}] if eligible and draw.chance(50) else []


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
