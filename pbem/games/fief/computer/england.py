"""England's own phases: Parliament (9.2-9.3), convened by the Sovereign's family for its
taxes, voted for when the Crown is mine or a friend's, against otherwise; the Invaders phase
(6.9-6.10) is left to the armies (nothing is paid to them)."""
from __future__ import annotations

from pbem.games.fief.computer.sight import allies
from pbem.games.fief.computer.mail import Mail
from pbem.games.fief.random_orders.draws import Draws, Item
from pbem.games.fief.random_orders.seen import JSON

CROWN = ("king", "sovereign_queen")


def parliament_choices(view: JSON, player: str, draw: Draws, mail: Mail) -> list[list[Item]]:
    crown = {lord["family"] for lord in view["lords"].values() if lord["political"] in CROWN}
    friends = allies(view, player) | {player}
    choices: list[list[Item]] = []
    if player in crown:
        choices.append([{"convene": True}])
    burgher = (view.get("church") or {}).get("family_card", {}).get(player) == "burgher"
    vote: Item = {"vote": "for" if crown & friends else "against"}
    choices.append([{**vote, "burgher": True}, vote] if burgher else [vote])
    return choices


def invader_choices(view: JSON, player: str, draw: Draws, mail: Mail) -> list[list[Item]]:
    return []
