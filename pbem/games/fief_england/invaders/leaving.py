"""6.9 Invaders leave England. Alone in a Port: an army moving from an inland city to a Port City
with no Troops in it leaves England at once (no Move needed) and its captives are released
there; if Troops hold the port the army fights them, and leaves once it has destroyed them all.
It goes back to the Invaders' supply and may land again (R13). The Danegeld is danegeld.py."""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.invaders.armies import army_name, record
from pbem.games.fief_england.invaders.captives import release_all
from pbem.games.fief_england.invaders.leaders import gone_for_good
from pbem.rules.api import Event


def leave_england(state: FiefState, army_id: str, why: str, board: Board | None = None) -> list[Event]:
    """The army (and the Foot Soldiers following its Leader) goes home: back to the supply, from
    which it may land again (R13), or out of the game for good if it has no Leader to land with.
    ``board``: its captives are placed as 7.6 says (a Danegeld, the Church: R156), not left at
    the port it sails from (6.9's Alone in a Port)."""
    rec = record(state)
    army = rec["armies"][army_id]
    city = army["city"]
    events = [Event("invaders_leave", f"{army_name(army_id)} leaves England from {city}: {why}.",
                    data={"army": army_id, "city": city, "why": why})]
    for follower in [a for a, x in rec["armies"].items() if x["follows"] == army_id and x["city"] == city]:
        events += gone_for_good(state, follower)      # its Leader is gone: it cannot land again
    events += release_all(state, army_id, f"{army_name(army_id)} left England (6.9)", board)
    if not army["leader"]:
        return events + gone_for_good(state, army_id)
    army.update(city=None, foot=0, holds=False, follows=None)   # R13: back to the supply
    return events
