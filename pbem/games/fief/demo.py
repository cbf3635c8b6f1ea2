"""What the Fief editions' demo players share (pbem.rules.api.PlaysDemo; each edition's demo.py
writes its own orders): the end of the demo, a family's first free lord as its view shows it, and
the mail of a phase a demo family leaves alone."""
from __future__ import annotations

from typing import Any


def demo_done(first: dict[str, Any], state: dict[str, Any]) -> bool:
    """A full round has resolved: the round after the first one the demo saw (setup is round 0)."""
    start = max(first.get("round", 0), 1)
    return state.get("round", 0) > start


def free_lord(view: dict[str, Any], player: str) -> tuple[str, str] | None:
    """The family's first lord on the board and not captive, and where he stands."""
    for lord in view["families"][player]["lords"]:
        info = view["lords"][lord]
        if info["location"] and not info.get("captive_of"):
            return lord, info["location"]
    return None


def no_orders(view: dict[str, Any], player: str) -> str:
    """The demo families keep the peace: no battle declared, standing policies unchanged."""
    return "orders: []\n"
