"""Order templates for the Hear Ye, Hear Ye! Phase (1): every order commented out, with this
player's lords, the open ballots and the candidates filled in."""
from __future__ import annotations

from typing import Any


def first_template(view: dict[str, Any], player: str) -> str:
    mine = view["families"][player]["lords"]
    is_pope = any(l["pope"] and l["family"] == player for l in view["lords"].values())
    possible = view["hear_ye"]["possible"]
    lines = ["# Hear Ye, Hear Ye! (1), first mail: marriages, the pope's acts, candidates.",
             "# Default (nothing sent): no marriage, no candidacy"
             + ("; as pope: no excommunication, keep the current one, refuse annulments." if is_pope else "."),
             "# Votes come in a second mail, once the candidates are known.", "orders:"]
    if is_pope:
        lines += ["#  - excommunicate: NAME        # 1 lord; lift the current one first (1 marker)",
                  "#  - lift: NAME                 # lift an excommunication (D.2.3.1)",
                  "#  - annulments: refuse         # or grant: the annulments asked this phase (D.2.3)"]
    lines += [f"#  - marry: {(mine[0] if mine else 'YOUR_LORD'):<19} # happens only if the other family",
              "#    to: THEIR_LORD              # orders the same pair (1.1)",
              "#  - annul: YOUR_MARRIED_LORD    # ask the pope for an annulment (D.2.3)"]
    if possible:
        lines.append("# Ballots this phase: " + ", ".join(possible) + " (1 candidate of yours per ballot;")
        lines.append("# a candidate for a bishopric may also stand for pope, 1.4.1)")
        for ballot in possible:
            lines += ["#  - candidate: YOUR_LORD", f"#    for: {ballot}"]
    else:
        lines.append("# No election can be held this phase (1.3-1.5).")
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
    mine = [c for b in view["hear_ye"]["ballots"] if b["id"] == "pope" for c in b["candidates"]
            if view["lords"][c]["family"] == player]
    if mine:   # 1.4: the new pope may excommunicate at once
        lines += [f"#  - excommunicate: NAME         # done only if {mine[0]} is elected pope",
                  f"#    if_pope: {mine[0]}"]
    return "\n".join(lines) + "\n"
