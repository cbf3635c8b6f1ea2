"""Ready-to-fill order documents (without the mail envelope) for the setup and purchase
phases; the report ends with one. Built from the player's view only."""
from __future__ import annotations

from typing import Any

from pbem.games.fief.board import Board, example_town
from pbem.games.fief.purchase.ledger import Ledger
from pbem.games.fief.edition import load_edition
from pbem.games.fief.purchase.titles import cardinal_target_problem, privilege_lord


def setup_template(view: dict[str, Any], board: Board) -> str:
    me = view["me"]
    lord = next((n for n, l in view["lords"].items() if l["family"] == me), "your lord")
    order = view["turn_order"]
    lines = [
        "# Setup (A.5): choose your starting town. Your lord "
        f"{lord} starts there with a stronghold, 1 knight and 3 men-at-arms.",
        f"# Choices are settled in turn order: {', '.join(order)}. You get the first town of your",
        "# list that no earlier player took; list several, best first. With none left you get the",
        "# empty town farthest by road from the towns already taken.",
        "# Towns by fief:",
    ]
    for fief in board.fiefs.values():
        lines.append(f"#   {fief.name}: {', '.join(fief.towns)}")
    lines += ["orders:", "  - start: [Tours, Poitiers, Orléans]   # edit: your towns, best first", ""]
    return "\n".join(lines)


def purchase_template(view: dict[str, Any], board: Board) -> str:
    me = view["me"]
    ledger = Ledger.from_view(view, board)
    paid = ledger.ransoms()
    fam = view["families"][me]
    edition = load_edition(view["game"])
    coins = edition.coins   # the edition's money (`money.unit`)
    lines = [f"# Purchase Phase (4). You have {coins(fam['deniers'])}."]
    for lord, value, jailer in paid:
        lines.append(f"# Ransom ({edition.cite('4.1')}): {coins(value)} go to {jailer} to free {lord} first; "
                     "add `- ransom: NAME` with `place: TOWN` to choose where the lord comes back.")
    for lord, value, _jailer in ledger.unpaid(paid):
        lines.append(f"# Ransom ({edition.cite('4.1')}): you cannot pay the {coins(value)} to free {lord}.")
    if paid:
        lines.append(f"# After ransoms you have {coins(ledger.deniers)} to spend.")
    held = sorted({jailer for _lord, _value, jailer in paid + ledger.unpaid(paid)})
    for jailer in held:
        names = [n for n, l in view["lords"].items() if l["family"] == me and l["captive_of"] == jailer]
        lines.append(f"# A lower ransom may be offered to {jailer} ({edition.cite('4.1')}), who may refuse it:")
        lines.append(f"#   - offer: 1\n#     for: [{', '.join(names)}]")
    mine = [t for t, v in view["towns"].items() if v["controller"] == me]
    places = ledger.placement_towns()
    pool = ", ".join(f"{n} {edition.unit_word(k, n)}" for k, n in fam["pool"].items())
    prices = ", ".join(f"{u.name} {u.price}" for u in edition.units.values())
    town, a_town = edition.words["towns"], edition.words["town"]
    lines += [
        "# Orders are done in the order written; delete the lines you do not want.",
        f"# {town.capitalize()} you control: {', '.join(mine) or 'none'}.",
        f"# Units ({edition.cite('4.3')}), price each: {prices}. At most {edition.new_units_per_town} new "
        f"{edition.words['unit']}s per {a_town} this phase.",
        f"#   You may place them in: {', '.join(places) or 'nowhere (no free lord, no fortress held)'}.",
        f"#   Left in your pool: {pool}.",
        f"# Stronghold (4.2): {coins(edition.price('stronghold'))}, in a {a_town} you control without a fortress.",
        f"# Mill (4.2): {coins(edition.price('mill'))}, in a {a_town} you control, {edition.mills_per_town} per "
        f"{a_town} at most.",
        f"# Fief title ({edition.cite('4.4')}): {coins(edition.price('title_per_town'))} per {a_town}; you must "
        f"control every {a_town} of the fief and",
        f"#   have a stronghold there, which becomes the fief's {edition.words['fortified_city']}.",
    ]
    for fief in board.fiefs.values():
        if not view["fiefs"][fief.id]["governed"] and all(view["towns"][t]["controller"] == me for t in fief.towns):
            lines.append(f"#   You may buy: {fief.name} ({coins(fief.title_price)}).")
    lines += _title_lines(view, me, board)
    example = places[0] if places else (mine[0] if mine else example_town(board.towns))
    lord = next((n for n, l in view["lords"].items() if l["family"] == me), "NAME")
    lines += [
        "# Remove the `# ` in front of the orders you want; sent as it is, you buy nothing.",
        "orders:",
        f"#  - buy: man_at_arms      # {' | '.join(f'`{u}`' for u in edition.units)}",
        "#    count: 1",
        f"#    in: {example}",
        "#  - build: mill           # or: stronghold",
        f"#    in: {mine[0] if mine else example}",
        f"#  - title: {board.fief_example():<15}# a fief you hold every {a_town} of",
        f"#    lord: {lord}",
    ]
    if edition.hooks.privileged:   # 4.4: an edition whose king offers titles (France)
        lines.append("#    only_if_offered: no   # yes: only if the king offers it to you, for nothing (4.4)")
    for verb in edition.hooks.purchase_verbs.values():   # an edition's own orders (England: 7.9)
        lines += verb.template(view, board)
    return "\n".join(lines + [""])


def _title_lines(view: dict[str, Any], me: str, board: Board) -> list[str]:
    """The king's privilege (4.4) and the cardinal title for sale (4.5), where they apply."""
    lines = []
    king = privilege_lord(view["lords"], load_edition(view["game"]).hooks.privileged)
    if king and not view["king_offer_used"]:
        family = view["lords"][king]["family"]
        lines.append(f"# The king's privilege (4.4): {king} ({family}) may offer 1 ungoverned fief title this")
        lines.append("#   round, free, to a player able to purchase it (every town controlled, a stronghold).")
        if family == me:
            lines += [f"#   - offer_title: {board.fief_example()}",
                      "#     to: PLAYER      # the player whose `title:` order takes it"]
        else:
            lines.append("#   Offered to you, your `title:` order for it costs nothing; add `only_if_offered: yes`")
            lines.append("#   to take it only as a gift.")
    sale = view["cardinal_title"]
    bishops = [n for n, l in view["lords"].items() if not cardinal_target_problem(l)]
    if sale and sale["for_sale"] and bishops:
        lines.append(f"# Cardinal title (4.5): {sale['price']} deniers, for any bishop in play (any family): "
                     f"{', '.join(bishops)}.")
        lines.append("#   A pope of another family may refuse it (his `new_cardinal` policy).")
        lines.append(f"#   - cardinal: {bishops[0]}")
    return lines
