"""What shields a noble from a danger (E 2.13, 2.12; R72): an Abbey in their city (REBELLION,
PLAGUE, JUSTICE) or an entered retainer's `immune` effect (plague, rebellion, justice, ambush,
assassination, bandits). One function for the parts whose rules strike nobles (the fortune and
Opportunity cards, the disasters, the Bandits)."""
from __future__ import annotations

from pbem.games.fief.state import FiefState
from pbem.games.fief_england import retainers
from pbem.games.fief_england.church import abbeys
from pbem.rules.api import Event


def shielded(state: FiefState, noble: str, danger: str) -> tuple[str, list[Event]] | None:
    """None: ``danger`` strikes ``noble``; else (why not, the events of a retainer used for it).
    ``danger``: plague, rebellion, justice, ambush, assassination or bandits."""
    lord = state.lords.get(noble)
    if lord is None:
        return None
    if abbeys.protected(state, noble, danger):
        return f"{noble} is in the Abbey of {lord.location} (2.13)", []
    if retainers.immune(state, noble, danger):
        card = retainers.retainer_of(state, noble)
        return f"{noble}'s retainer {card.name if card else ''} protects them from {danger} (2.12)", \
            retainers.use(state, noble)
    return None
