"""The ready-to-fill Battle Phase order document (6) a report ends with, built from the view.

Sent back unchanged it is valid and means "no battle, no new siege, no plunder" (sieges in
progress continue while a lord is there): every order is a comment until the player removes
the `# ` in front of it.
"""
from __future__ import annotations

from typing import Any

from pbem.games.fief.battle.orders import describe_battle_policies, may_declare_in
from pbem.games.fief.board import example_town
from pbem.games.fief.edition import load_edition


def battle_template(view: dict[str, Any], player: str) -> str:
    towns = view["towns"]
    edition = load_edition(view["game"])
    lines = [
        f"# Battle Phase (6), round {view.get('round')}. Turn order: {', '.join(view.get('turn_order', []))}.",
        "# In turn order each player's battles are fought one by one, each to its end (6); one",
        f"# battle per {edition.words['town']}, where you have an army: a lord with a troop (5.1: lords alone are no",
        "# army; a troop cannot declare a battle), and none under bad weather (G.2.2).",
        f"# Then sieges ({edition.cite('6.4.1')}: a siege in progress continues while your lord is there) and",
        f"# plunder ({edition.cite('6.5')}: {edition.coins(edition.income['plunder_per_mill'])} a mill, in a "
        f"non-besieged {edition.words['town']} you control or one you besiege).",
        "# Remove the `# ` in front of the lines you want.",
        "orders:",
    ]
    for name, town in towns.items():
        forces = town["forces"]
        if not (forces.get(player) or {}).get("lords"):
            continue
        for other, theirs in forces.items():
            if other != player and (theirs.get("lords") or theirs.get("units")) and may_declare_in(view, player, name):
                lines += [f"  # - attack: {other}", f"  #   in: {name}"]
        if town["fortress"] and town["controller"] not in (None, player) and player not in town["besiegers"]:
            lines.append(f"  # - siege: {name}        # held by {town['controller']} (6.4.1)")
    head = len(lines)
    rules = load_edition(view["game"]).hooks.battle
    own = [line for verb in (rules.verbs if rules else {}).values()   # an edition's own (England: the Invaders),
           for line in verb.template(view, player)]                   # cited in its own numbering already
    for name, town in towns.items():
        if player in town["besiegers"]:
            lines.append(f"  # - lift: {name}         # you besiege it (siege engine at {town['besiegers'][player]})")
        if town["mills"] and (player in town["besiegers"] or
                              (town["controller"] == player and not town["besiegers"])):
            lines.append(f"  # - plunder: {name}      # {town['mills']} mill(s)")
    for name, lord in view["lords"].items():
        if lord.get("captive_of") == player:
            lines += [f"  # - release: {name}      # your captive in {lord['location']} (6.3)",
                      f"  # - transfer: {name}     # to a family with forces in {lord['location']}",
                      "  #   to: PLAYER"]
    policies = view.get("policies") or {}
    others = [p for p in view.get("turn_order", []) if p != player]
    example = others[0] if others else "marc"
    town = example_town(towns)
    lines += [
        "",
        "# Standing policies, kept until changed. Yours now:",
        *(f"#   {line}" for line in describe_battle_policies(policies, edition.coin_plural)),
        "# policies:",
        f"#   coalition:                 # {edition.cite('6.1')}: whom you join, whom you accept; "
        f"`anywhere` or [{edition.words['towns']}]",
        f"#     join: {{{example}: anywhere}}",
        f"#     accept: {{{example}: anywhere}}",
        f"#   battle_plan:               # {edition.words['battle_plan_doc']}",
        "#     losses: [man_at_arms, archer, knight]   # lost first among equal choices (6.2.3.4)",
        "#     surrender: never         # or `{outnumbered: 3}`, `{cp_at_most: 2}`, `{after_round: 2}`",
        "#     stop: {when: {outnumbered: 2}, accept: {outnumbered: 2}}   # " + edition.cite("6.2.3.5"),
        "#     besiege_if_stopped: no   # a stopped attack becomes a siege (6.4.1 example 1)",
        f"#     captives_to: {example:<11} # who detains the captives your side takes (6); default you",
        f"#     towns: {{{town}: {{surrender: never}}}}" + " " * max(1, 11 - len(town))
        + f"# per-{edition.words['town']} changes",
    ]
    # the sections cited, in the edition's numbering (`sections:`; France's own: unchanged)
    core = edition.cite_in("\n".join(lines[:head])) + "\n"
    rest = edition.cite_in("\n".join(lines[head:] + _surprise_lines(view, player)))
    return core + "\n".join(own) + ("\n" if own else "") + rest + "\n"


# The battle cards (G.4) and the trigger each is held with (surprise/triggers.py).
BATTLE_TRIGGERS = {"ambush": "ambush", "underground": "at_battle_start", "uprising": "uprising_at_battle_start"}


def _surprise_lines(view: dict[str, Any], player: str) -> list[str]:
    """The standing triggers (G.4, surprise/triggers.py) for the battle cards the player holds:
    sent with this mail they fire in this phase's battles. `surprise:` goes under `policies:`
    and replaces the whole list kept so far (docs/orders-fief-france-cards.md)."""
    hand = view.get("hand") or []
    hook = load_edition(view["game"]).hooks.standing_triggers
    offered = hook(view) if hook is not None else None   # an edition's own set (England R157)
    cards = [c for c, kind in BATTLE_TRIGGERS.items()
             if c in hand and (offered is None or kind in offered.kinds)]
    if not cards:
        return []
    mine = [lo["location"] for lo in view["lords"].values()
            if lo["family"] == player and lo.get("location") in view["towns"] and not lo.get("captive_of")]
    town = mine[0] if mine else next(iter(view["towns"]))
    foe = next((n for n, lo in view["lords"].items() if lo["family"] != player and lo.get("location") == town),
               next((n for n, lo in view["lords"].items() if lo["family"] != player), None))
    lines = ["#   surprise:                  # your surprise cards for a battle (G.4), kept until they fire"]
    if "ambush" in cards and foe:
        lines += [f"#     - ambush: {foe}", f"#       in: {town:<17} # {foe} becomes your captive at the start "
                  "of a battle there (G.4.2.5)"]
    if "underground" in cards:
        lines += [f"#     - at_battle_start: {town}", "#       card: underground     # your attack there ignores "
                  "the Fortress penalty (G.4.2.2)"]
    if "uprising" in cards:
        lines.append(f"#     - uprising_at_battle_start: {town}   # an uprising before a battle there (G.4.2.1)")
    return lines
