"""Fief: England, the second edition of the Fief family: its edition record
(games/fief_england/edition.yaml: numbers, round, options; with board.yaml, cards.yaml and
geography.yaml, each read by England's own loaders) and its own rules (hooks.py, named by the
record). The rest of the rules are the family's core (pbem/games/fief/)."""
from __future__ import annotations

from pbem.games.fief.demo import ScriptedDemo
from pbem.games.fief.edition import load_edition
from pbem.games.fief.game import FiefRules
from pbem.games.fief_england.demo import SCRIPT
from pbem.rules.api import (ActsAtOnce, DrawsMap, EchoesOrders, GameRules, PlaysAsComputer, PlaysDemo,
                            ShowsPublicView, WritesRandomOrders)

ENGLAND = load_edition("fief_england")


class EnglandRules(ScriptedDemo, FiefRules):
    """The Fief family's rules with England's edition, and England's demo players."""

    script = SCRIPT
    demo_players: tuple[str, ...] = SCRIPT.players

    def report_template(self) -> str:
        return "fief_england/position.txt.j2"   # the core's report in England's words


RULES = EnglandRules(ENGLAND)

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
