"""Kard és Korona's rules object as the judge finds it (pbem.games.GAME_TYPES)."""
from __future__ import annotations

from pbem.games.kard_es_korona.game import KardEsKoronaRules
from pbem.rules.api import ActsAtOnce, DrawsMap, EchoesOrders, GameRules, PlaysAsComputer, PlaysDemo, WritesRandomOrders

RULES = KardEsKoronaRules()

# The rules contract (pbem/rules/api.py), checked by mypy in .ci/run.
_GAME_RULES: GameRules = RULES
_ACTS_AT_ONCE: ActsAtOnce = RULES
_ECHOES_ORDERS: EchoesOrders = RULES
_DRAWS_MAP: DrawsMap = RULES
_PLAYS_DEMO: PlaysDemo = RULES
_WRITES_RANDOM_ORDERS: WritesRandomOrders = RULES
_PLAYS_AS_COMPUTER: PlaysAsComputer = RULES
