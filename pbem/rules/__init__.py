"""The rules layer's contract with the judge (DESIGN.md, layer 1). See api.py."""
from pbem.rules.api import (  # noqa: F401
    Audience, Event, GameResult, GameRules, OptionSpec, OrderCheck, OrderError, Phase, Resolution, Said,
)
from pbem.rules.rng import Rng  # noqa: F401

__all__ = ["Audience", "Event", "GameResult", "GameRules", "OptionSpec", "OrderCheck", "OrderError",
           "Phase", "Resolution", "Rng", "Said"]
