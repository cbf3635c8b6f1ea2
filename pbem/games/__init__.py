"""The registry of game types. The judge looks games up here by name and never imports a game
module itself; each entry is an import path resolved on first use."""
from __future__ import annotations

import importlib

from pbem.rules.api import GameRules

# GAME_TYPE -> "module:attribute" of the GameRules instance.
GAME_TYPES: dict[str, str] = {
    "fief_france": "pbem.games.fief_france.rules:RULES",
    "fief_england": "pbem.games.fief_england.rules:RULES",
    "kard_es_korona": "pbem.games.kard_es_korona.rules:RULES",
}

_loaded: dict[str, GameRules] = {}


class UnknownGameType(LookupError):
    pass


def rules_for(game_type: str) -> GameRules:
    if game_type not in _loaded:
        if game_type not in GAME_TYPES:
            known = ", ".join(sorted(GAME_TYPES))
            raise UnknownGameType(f"unknown game type {game_type!r}; known game types: {known}")
        module_name, attr = GAME_TYPES[game_type].split(":")
        _loaded[game_type] = getattr(importlib.import_module(module_name), attr)
    return _loaded[game_type]
