"""England's standing `surprise:` triggers (2.6, l.158; rulings R41, R157): the edition's
`standing_triggers` hook.

An Opportunity card "may be played at any time during the game, except during the Draw Cards
action" (2.6, l.158). By mail it is played at once (`at_once:`), in the Discard action (R147), or
held for the start of a phase with the core's `at_phase_start:` trigger, whose `play:` then takes
the keys of the card's at-once form and is checked and carried out by England's rules (10.0-10.5,
opportunity/orders.py). The core's other triggers are France's moments for France's cards
(G.4.2.1, G.4.2.2, G.4.2.5: an underground card or an ambush at a battle's start, the uprisings):
from rules version 3 England refuses them, saying what it offers instead.

    policies:
      surprise:
        - at_phase_start: battle   # a phase of England's round (not the Cards phase's draws)
          round: 3                 # optional: only in that round
          play: ambush             # an Opportunity card, with its at-once keys
          on: Edward
          by: William
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.hook_records import StandingTriggers
from pbem.games.fief.orders_common import view_rules_version

OFFERED = ("England holds an Opportunity card for a phase's start: `- at_phase_start: PHASE` with the "
           "`play:` keys of its at-once form (e.g. `play: ambush`, `on: Edward`, `by: William`), or plays it "
           "at once in `at_once:`; others' Rebellions are joined with the policy `join_rebellions:`, and "
           "PASSAGE on a move is the move's `passage:`")
TRIGGERS = StandingTriggers(kinds=("at_phase_start",), offered=OFFERED, own_plays=True)
FROM_VERSION = 3   # R157: a game of version 2 keeps the core's triggers, read as they were


def standing_triggers(view: Mapping[str, Any]) -> StandingTriggers | None:
    return TRIGGERS if view_rules_version(view) >= FROM_VERSION else None
