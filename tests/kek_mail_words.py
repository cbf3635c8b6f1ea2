"""What no mail of Kard és Korona may tell a player: the game's internal ids, JSON, unfilled
placeholders, and the words of Fief (its money, towns, fiefs and France's titles)."""
from __future__ import annotations

import re

from pbem.games.kard_es_korona import events

# A phase id ("1303/election-judge_royal") is how the judge names a phase to every game's
# players (the subject, the envelope's `phase:`): it is read out before the rest is checked.
PHASE_ID = re.compile(r"\b(?:\d{4}|setup)/[a-z_-]+\b")
INTERNAL = [
    (re.compile(r"\bneutral-[A-Z]{3}\b"), "an owner id (neutral-XXX)"),
    (re.compile(r"\b(?:ERD|DEL|SZL|PAN|FEL|TIS|KIR)\b"), "a province id"),
    (re.compile(r"\b(?:" + "|".join(events.cards()) + r")\b"), "an event card id"),
    (re.compile(r"\b(?:judge_royal|lord_attack_bonus|both_destroyed|warlord_alone|defenders_volley)\b"),
     "an internal name"),
]
JSON = [(re.compile(r"\{\s*\"|\"\s*:\s*[\[{\"\d]|\bnull\b|\btrue\b|\bfalse\b"), "JSON")]
PLACEHOLDERS = [(re.compile(r"\{\{|\{%|%\}|\bNone\b|\bUndefined\b|\b(?:NAME|COUNTY|TOWN|CITY|CARD|REGION|"
                            r"PLAYER|NUMBER|CASTLE)\b"), "an unfilled placeholder")]
FIEF = [(re.compile(r"\b(?:deniers?|shillings?|towns?|fiefs?|cardinals?|pope|bishops?|abbess|barons?|viscounts?|"
                    r"marquis|dukes?|duchess|countess|France|England|French|English)\b", re.IGNORECASE),
         "Fief's vocabulary")]
RULES = INTERNAL + JSON + PLACEHOLDERS + FIEF


def problems(text: str) -> list[str]:
    """Each forbidden thing in ``text``, with the line it stands in."""
    out = []
    for line in text.splitlines():
        bare = PHASE_ID.sub("PHASE", line) if "PHASE" not in line else line
        for pattern, what in RULES:
            found = pattern.search(bare)
            if found:
                out.append(f"{what} {found.group(0)!r} in: {line.strip()}")
    return out
