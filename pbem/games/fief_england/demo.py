"""The demo's four Fief: England players (pbem.rules.api.PlaysDemo; `pbem demo --game
fief_england`; the script is the core's, pbem/games/fief/demo.py): a starting City in a Region of
their own (X14), two men-at-arms and a mill (one a City, 4.2), one step along a road to an empty
City with a man-at-arms left behind (an emptied City is lost, 5.1), and peace (no battle
declared). At two players (`pbem demo --game fief_england --players 2`, 13.7) alice and bob each
run two families and one mail orders both (`families:`)."""
from __future__ import annotations

from pbem.games.fief.demo import FiefDemo

# X14: each family's wishes for a starting City, best first (resolved in turn order, one a Region).
SCRIPT = FiefDemo("fief_england", ("alice", "bob", "carol", "dave"), {
    "alice": ("London", "Canterbury"),
    "bob": ("York", "Whitby"),
    "carol": ("Exeter", "Bristol"),
    "dave": ("Norwich", "Coventry"),
    "alice-2": ("Exeter", "Bristol"),   # 13.7: a player's second family
    "bob-2": ("Norwich", "Coventry"),
}, moved=1, kept=1)
