"""The Invaders phase's step with the PASSAGE card wired in, for the `passage:` orders that lend it
to the Invaders (E 10.2, 6.4; ruling R146; invaders/passage.py). The cards part
(``opportunity``) imports the Invaders' package (AMBUSH, ASSASSINATION and REBELLION against them,
6.11-6.13), so the Invaders' package cannot import it back: how a PASSAGE is held (on the view,
the movement part's ``held``: the hand, or a BURGHER and a Treasure) and spent (the cards part's
``use_passage``) are given to the step here, and England's hooks take this step."""
from __future__ import annotations

from pbem.games.fief_england.invaders.passage import Card
from pbem.games.fief_england.invaders.step import invaders_step
from pbem.games.fief_england.movement.passage import held
from pbem.games.fief_england.opportunity.cards import use_passage

INVADERS = invaders_step(Card(held, use_passage))
