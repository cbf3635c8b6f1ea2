"""A test edition for tests/test_fief_hooks.py: France's hooks without its cardinals outside the
elections and the cards (the `cardinals` hook off), as England has none. Named as the `hooks:`
of an edition record by its module path."""
from __future__ import annotations

from dataclasses import replace

from pbem.games.fief_france.hooks import HOOKS as FRANCE

HOOKS = replace(FRANCE, cardinals=False)
