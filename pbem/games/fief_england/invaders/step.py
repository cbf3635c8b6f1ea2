"""The Invaders phase as England's own round step (pbem/games/fief/round.py ``Step``), named
`invaders` in the edition record's `round:` after `movement` and given to the core by England's
`phases` hook. Its mail: `danegeld:`, `intervene:` (orders.py, R81) and `passage:` orders
(PASSAGE lent to the Invaders, passage.py, R146) beside the standing
policies every mail may give; asked only of the families with a free noble on the map when there
are Invaders in England or an INVASION card at sea (6.2); otherwise the phase is resolved at once."""
from __future__ import annotations

from functools import partial

from pbem.games.fief.board import Board
from pbem.games.fief.round import Step, listed_orders
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.invaders.armies import on_map
from pbem.games.fief_england.invaders.orders import (check_invader_orders, empty_orders, invader_items,
                                                     invaders_template)
from pbem.games.fief_england.invaders.passage import Card
from pbem.games.fief_england.invaders.phase import resolve_invaders
from pbem.games.fief_england.invaders.regions import INVASION


def invader_deciders(state: FiefState, board: Board, active: list[str]) -> tuple[str, ...]:
    if state.round <= 1 or not (on_map(state) or any(e.card == INVASION for e in state.board_effects)):
        return ()
    free = {l.family for l in state.lords.values() if l.location and not l.captive_of}
    return tuple(p for p in active if p in free)


def invaders_step(card: Card) -> Step:
    """The step, given the cards part's PASSAGE (``card``: how one is held and spent) for the
    `passage:` orders lent to the Invaders (10.2, R146): the cards part imports this package, so
    it is given here by the wiring module (``fief_england/lent_passage.py``)."""
    return Step("invaders", "Invaders Phase (6)", "the Invaders reinforce, land, move and attack; Danegeld, "
                "Church intervention and PASSAGE lent to them", True, partial(resolve_invaders, card=card),
                listed_orders(partial(check_invader_orders, card=card)),
                empty_orders,                                      # no Danegeld, no intervention (R81)
                lambda view, board, player: invaders_template(view, board, player, card), invader_deciders,
                invader_items)
