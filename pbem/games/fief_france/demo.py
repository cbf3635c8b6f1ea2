"""The demo's four Fief: France players (pbem.rules.api.PlaysDemo; `pbem demo`, and the order
mails of the benchmark, bench/build.py; the script is the core's, pbem/games/fief/demo.py): a
starting town, two men-at-arms and a mill, one step along an empty road with both men-at-arms,
and peace (no battle declared)."""
from __future__ import annotations

from pbem.games.fief.demo import FiefDemo

# A.5: each player's wishes for a starting town, best first (resolved in turn order).
SCRIPT = FiefDemo("fief_france", ("alice", "bob", "carol", "dave"), {
    "alice": ("Tours", "Poitiers", "Orléans"),
    "bob": ("Bordeaux", "Toulouse", "Pau"),
    "carol": ("Lyon", "Dijon", "Avignon"),
    "dave": ("Rennes", "Nantes", "Lisieux"),
}, moved=2)
