"""The ready-to-fill movement order document (5) a report ends with, built from the view.

Sent back unchanged it is valid and means "hold": every order is a comment until the player
removes the `# ` in front of it.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.games.fief.edition import Edition, load_edition
from pbem.games.fief.board import load_board
from pbem.games.fief.movement.events import units_text
from pbem.games.fief.surprise.policies import describe_all_policies


def movement_template(view: dict[str, Any], player: str) -> str:
    board = load_board(view["game"], view.get("options", {}).get("board", "board"))
    units_at: dict[str, Counter] = {}
    for pawn in view.get("my_pawns", []):
        units_at.setdefault(pawn["location"], Counter())[pawn["kind"]] += 1
    mine = [(n, lo) for n, lo in view["lords"].items()
            if lo["family"] == player and lo.get("location") and not lo.get("captive_of")]
    held = {n: lo["location"] for n, lo in view["lords"].items() if lo.get("captive_of") == player}
    edition = load_edition(view["game"])
    steps = edition.steps_per_round   # 5.1.1; G.4.1.1 (France: 3 for the D'Arc lord)
    more = "".join(f" ({b.steps} for the {b.title} lord and those with them)"
                   for b in edition.hooks.title_bonus.values())
    cite = edition.cite_in   # the core's lines cite France's sections: the edition's numbering
    lines = [*map(cite, [
        f"# Movement Phase (5), round {view.get('round')}. Turn order: {', '.join(view.get('turn_order', []))}.",
        f"# Each lord moves once, up to {steps} steps{more}, one {edition.words['town']}",
        f"# per step along a road; a {edition.words['unit']} moves at most {steps} steps a round (5.1.1). Moves are "
        "made",
        f"# in the order written. A {edition.words['town']} held by another family stops you on the road outside it;",
        "# going on through it needs a safe passage from every family there (5.2.3): if refused,",
        "# `if_refused: back` (1 step back, the default), `stay` (on the road; a battle may follow)",
        "# or `cavalcade` (an army of knights and lords only fights its way through now, 5.2.4)."]),
        *(edition.hooks.naval.template if edition.hooks.naval else ()),   # 5.3 (France: the off-shore area)
        *(edition.hooks.movement.template if edition.hooks.movement else ()),   # the edition's own moves
        "# Remove the `# ` in front of the lines you want.",
    ]
    cards = (view.get("hand") or []).count("underground")
    if cards and mine:
        lines += [
            f"# You hold {cards} underground card{'s' if cards > 1 else ''} ({edition.cite('G.4.2.2')}): "
            "`underground: TOWN` plays one on",
            "# the land step reaching TOWN - the army goes there directly, crossing nobody, leaving a",
            "# siege, through bad weather; `underground: if_needed` plays one only on a step that would",
            "# otherwise be refused or blocked. One card a step; a played card is public.",
        ]
    if not mine:
        lines.append("# You have no free lord on the board: nothing can move this phase.")
    lines.append("orders:")
    edition = load_edition(view["game"])
    for name, lord in mine:
        lines += _lord_block(edition, board, name, lord, units_at)
        others = [n for n, lo in mine if lo["location"] == lord["location"] and n != name]
        captives = [n for n, where in held.items() if where == lord["location"]]
        if others:
            lines.append(_key(f"lords: [{', '.join(others)}]", "your lords here who may go along"))
        if captives:
            lines.append(_key(f"captives: [{', '.join(captives)}]", cite("captives you hold here (6.3)")))
        if cards and lord["location"] not in board.seas:
            lines.append(_key("underground: if_needed", cite("or a town of the path (G.4.2.2)")))
    at_sea = sum((units_at.get(sea, Counter()) for sea in board.seas), Counter())   # 5.3
    if at_sea and not any(lo["location"] in board.seas for _, lo in mine):
        lines += [f"  # Your troop at sea ({_units(edition, at_sea)}) must land in a harbor this phase "
                  f"({edition.cite('5.3')}):",
                  f"  # - land: {board.harbors[0]}        # one of: {', '.join(board.harbors)}"]
    lines += ["", "# Standing policies, kept until changed (yours now):"]
    lines += [f"#   {line}" for line in describe_all_policies(view.get("policies") or {}, edition)]
    others = [p for p in view.get("turn_order", []) if p != player]
    lines += map(cite, [
        "# policies:",
        f"#   safe_passage: {{allow: [{others[0] if others else ''}], others: refuse}}"
        "   # who may cross your forces (5.2.3)",
        "#   besieged_may_leave: {allow: [], others: refuse}   # whose besieged army may leave (6.4.2)",
        "#   plague_losses: [man_at_arms, archer, knight, bombard]   # first to die (G.2.1.2)",
        "",
    ])
    return "\n".join(lines)


def _lord_block(edition: Edition, board, name: str, lord: dict, units_at: dict[str, Counter]) -> list[str]:
    where = lord["location"]
    edition = load_edition(board.variant)
    bonus = edition.bonus([lord.get("political")])   # G.4.1.1 (France: D'Arc), 5.1.1
    steps = max(bonus.steps, edition.steps_per_round) if bonus else edition.steps_per_round
    here = units_at.get(where, Counter())
    if where in board.seas:
        roads = "land in a harbor: " + ", ".join(board.harbors)
        example = board.harbors[0]
        place = f"at sea (must land this phase, {edition.cite('5.3')})"
    else:
        nbrs = list(board.neighbours(where))
        naval = edition.hooks.naval   # 5.3
        roads = "roads to " + ", ".join(nbrs) + (naval.from_harbor if naval and board.is_harbor(where) else "")
        example = nbrs[0] if nbrs else where
        place = f"in {where}"
    return [
        f"  # {name} is {place} with {_units(edition, here)} of yours there;",
        f"  #   {roads}.",
        f"  # - move: {name}",
        _key("with: all", "or e.g. `{knight: 1, man_at_arms: 2}`, or `none`"),
        _key(f"path: [{example}]", f"up to {steps} {edition.words['towns']}, one per step"),
        _key("leave: {}", f"e.g. {{TOWN: {{knight: 1}}}} for a {edition.words['town']} passed through"),
        _key("if_refused: back", "back | stay | cavalcade"),
    ]


def _key(text: str, comment: str) -> str:
    return f"  #   {text:<26} # {comment}"


def _units(edition: Edition, counts: Counter) -> str:
    return units_text(edition, {k: n for k, n in sorted(counts.items()) if n})
