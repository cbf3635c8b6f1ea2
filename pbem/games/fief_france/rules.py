"""Fief: France, the first variant of the Fief family: its name, player counts and data folder
(games/fief_france/: board.yaml, cards.yaml). The rules are the family's (game.py)."""
from __future__ import annotations

from pbem.games.fief.game import FiefRules, Variant
from pbem.games.fief_france import demo
from pbem.rules.api import (JSON, ActsAtOnce, DrawsMap, EchoesOrders, GameRules, PlaysDemo,
                            ShowsPublicView)

# 3 to 6 players: 6 family boards (B); the 3-player game has its own victory rule (7.1, 7.2).
FRANCE = Variant(type_name="fief_france", title="Fief: France", min_players=3, max_players=6)



class FranceRules(FiefRules):
    """The Fief family's rules with France's edition, and France's demo players."""

    demo_players: tuple[str, ...] = demo.PLAYERS

    def demo_orders(self, view: JSON, player: str) -> str:
        return demo.demo_orders(view, player)

    def demo_done(self, first: JSON, state: JSON) -> bool:
        return demo.demo_done(first, state)


RULES = FranceRules(FRANCE)

# The rules contract (pbem/rules/api.py), checked by mypy in .ci/run: a method of FiefRules
# whose signature drifts from GameRules or an optional part it has fails CI on these lines.
_GAME_RULES: GameRules = RULES
_ACTS_AT_ONCE: ActsAtOnce = RULES
_DRAWS_MAP: DrawsMap = RULES
_ECHOES_ORDERS: EchoesOrders = RULES
_PLAYS_DEMO: PlaysDemo = RULES
_SHOWS_PUBLIC_VIEW: ShowsPublicView = RULES
