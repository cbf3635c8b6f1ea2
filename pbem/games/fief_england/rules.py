"""Fief: England, the second edition of the Fief family: its edition record
(games/fief_england/edition.yaml: numbers, round, options; with board.yaml, cards.yaml and
geography.yaml, each read by England's own loaders) and its own rules (hooks.py, named by the
record). The rest of the rules are the family's core (pbem/games/fief/)."""
from __future__ import annotations

from pbem.games.fief.edition import load_edition
from pbem.games.fief.game import FiefRules
from pbem.rules.api import ActsAtOnce, DrawsMap, EchoesOrders, GameRules, ShowsPublicView

ENGLAND = load_edition("fief_england")
RULES = FiefRules(ENGLAND)

# The rules contract (pbem/rules/api.py), checked by mypy in .ci/run: a method of FiefRules
# whose signature drifts from GameRules or an optional part it has fails CI on these lines.
_GAME_RULES: GameRules = RULES
_ACTS_AT_ONCE: ActsAtOnce = RULES
_DRAWS_MAP: DrawsMap = RULES
_ECHOES_ORDERS: EchoesOrders = RULES
_SHOWS_PUBLIC_VIEW: ShowsPublicView = RULES
