"""Order templates for the Hear Ye, Hear Ye! Phase (1): every order commented out, with this
player's lords, the open ballots and the candidates filled in."""
from __future__ import annotations

from typing import Any

from pbem.games.fief.edition import load_edition


def first_template(view: dict[str, Any], player: str) -> str:
    mine = view["families"][player]["lords"]
    possible = view["hear_ye"]["possible"]
    own = load_edition(view["game"]).hooks.hear_ye_orders   # France: the pope's acts, annulments
    default, before, after = own.template_first(view, player) if own else ("", [], [])
    lines = [f"# Hear Ye, Hear Ye! (1), first mail: marriages, {own.heading + ', ' if own else ''}candidates.",
             f"# Default (nothing sent): no marriage, no candidacy{default}.",
             "# Votes come in a second mail, once the candidates are known.", "orders:"]
    lines += before
    lines += [f"#  - marry: {(mine[0] if mine else 'YOUR_LORD'):<19} # happens only if the other family",
              f"#    to: THEIR_LORD              # orders the same pair ({load_edition(view['game']).cite('1.1')})"]
    lines += after
    if possible:
        lines.append("# Ballots this phase: " + ", ".join(possible) + " (1 candidate of yours per ballot;")
        lines.append("# a candidate for a bishopric may also stand for pope, 1.4.1)")
        for ballot in possible:
            lines += ["#  - candidate: YOUR_LORD", f"#    for: {ballot}"]
    else:
        lines.append(f"# No election can be held this phase ({load_edition(view['game']).cite('1.3-1.5')}).")
    lines.append("# Your lords: " + ", ".join(mine))
    return "\n".join(lines) + "\n"


def votes_template(view: dict[str, Any], player: str) -> str:
    lines = ["# Hear Ye, Hear Ye! (1), second mail: your sealed votes, revealed all together.",
             "# Per ballot: `for:` gives all your votes to a candidate, `decoy:` gives none (1.2).",
             "# Default (nothing sent): you abstain.", "orders:"]
    for ballot in view["hear_ye"]["ballots"]:
        lines += [f"#  - vote: {ballot['id']}", f"#    for: {ballot['candidates'][0]}",
                  f"#    decoy: {ballot['candidates'][-1]}",
                  "#    # candidates: " + ", ".join(ballot["candidates"])]
    own = load_edition(view["game"]).hooks.hear_ye_orders   # France: the new pope's act (1.4)
    lines += own.template_votes(view, player) if own else []
    return "\n".join(lines) + "\n"
