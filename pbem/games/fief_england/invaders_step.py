"""The Invaders phase's place in England's round (E 1.0: Phase 6, between Movement and Battles),
as the edition's own round step (``Hooks.phases``; pbem/games/fief/round.py ``Step``).

Invader armies enter England only by landing from an INVASION card (6.2), and act in this phase
only while on the map (6.0-6.13). Until the Invaders' rules (pbem/games/fief_england/invaders/,
their own part of issue 11) land them, no army is ever on the map and the phase resolves to
that report; the Invaders' part replaces this step with its own (same name, same place).
"""
from __future__ import annotations

from pbem.games.fief.round import Step
from pbem.rules.api import Event


def armies_on_map(state) -> list:
    return list(((state.edition_state.get("invaders") or {}).get("armies") or []))


def resolve_invaders(state, board, orders, rng) -> list[Event]:
    if armies_on_map(state):
        raise ValueError("Invader armies are on the map but this build has no Invaders rules "
                         "(6.0-6.13, pbem/games/fief_england/invaders/): upgrade pbem to play this game on")
    return [Event("no_invaders", "No Invader army is in England: the Invaders phase passes (6.0).", data={})]


INVADERS = Step("invaders", "Invaders Phase (6)", "the Invader armies move and attack", False, resolve_invaders)
