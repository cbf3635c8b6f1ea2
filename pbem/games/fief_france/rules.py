"""Fief: France, the first edition of the Fief family: its edition record
(games/fief_france/edition.yaml: numbers, round, options; with board.yaml, cards.yaml and
geography.yaml) and its own rules (hooks.py, named by the record). The rest of the rules are
the family's core (pbem/games/fief/)."""
from __future__ import annotations

from pbem.games.fief.demo import ScriptedDemo
from pbem.games.fief.edition import load_edition
from pbem.games.fief.game import FiefRules
from pbem.games.fief_france.demo import SCRIPT
from pbem.rules.api import (ActsAtOnce, DrawsMap, EchoesOrders, GameRules, PlaysAsComputer, PlaysDemo,
                            ShowsPublicView, WritesRandomOrders)

FRANCE = load_edition("fief_france")


class FranceRules(ScriptedDemo, FiefRules):
    """The Fief family's rules with France's edition, and France's demo players."""

    script = SCRIPT
    demo_players: tuple[str, ...] = SCRIPT.players


RULES = FranceRules(FRANCE)

# The rules contract (pbem/rules/api.py), checked by mypy in .ci/run: a method of FiefRules
# whose signature drifts from GameRules or an optional part it has fails CI on these lines.
_GAME_RULES: GameRules = RULES
_ACTS_AT_ONCE: ActsAtOnce = RULES
_DRAWS_MAP: DrawsMap = RULES
_ECHOES_ORDERS: EchoesOrders = RULES
_PLAYS_DEMO: PlaysDemo = RULES
_SHOWS_PUBLIC_VIEW: ShowsPublicView = RULES
_WRITES_RANDOM_ORDERS: WritesRandomOrders = RULES
_PLAYS_AS_COMPUTER: PlaysAsComputer = RULES
