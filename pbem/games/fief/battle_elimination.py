"""The one door through which the battle engine eliminates a lord (D.4). The shared
elimination lives with the movement rules for now; the Battle Phase work moves it to
elimination.py (issue 4, helper B2): only this import changes then."""
from __future__ import annotations

from pbem.games.fief.movement_disasters import eliminate_lord

__all__ = ["eliminate_lord"]
