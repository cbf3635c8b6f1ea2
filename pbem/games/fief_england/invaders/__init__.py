"""England's Invaders (E 6.0-6.13): four non-player armies that land on INVASION cards, gain
reinforcements, move by compass draws, attack the players' troops they outnumber, destroy
buildings, take fortified cities and captives, and leave England by a port, a Danegeld or the
Church's intervention. One module per section; the phase (phase.py) runs them in order.

Their state is ``FiefState.edition_state["invaders"]`` (armies.py): plain JSON, public."""
