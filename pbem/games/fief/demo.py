"""The Fief editions' demo players (pbem.rules.api.PlaysDemo; `pbem demo --game TYPE`, and the
order mails of the benchmark, bench/build.py): four families that each write orders from their
own view only, as a person reading their report would - a starting town from their wishes, two
men-at-arms and a mill where the edition allows one more, one step along a road to an empty
town, and peace (no battle declared); a player running two families (England 13.7) orders both
in one mail (`families:`). An edition gives its wishes and how many men-at-arms go along and stay
behind (``FiefDemo``, in its demo.py); its rules class takes ``ScriptedDemo``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from pbem.games.fief.board import load_board
from pbem.games.fief.edition import load_edition
from pbem.games.fief.families import families_apart, family_view, indented

NONE = "orders: []\n"


@dataclass(frozen=True)
class FiefDemo:
    game: str                               # the edition's game type ("fief_france")
    players: tuple[str, ...]                # the demo's players, in seating order
    starts: Mapping[str, tuple[str, ...]]   # family -> starting towns wished, best first (setup)
    moved: int                              # men-at-arms a lord takes along one road
    kept: int = 0                           # men-at-arms left in the town he leaves

    def orders(self, view: dict[str, Any], player: str) -> str:
        if families_apart(view):   # England 13.7: one item of `families:` per family ordering now
            return "families:\n" + "".join(indented(self.orders(family_view(view, f), f), f) for f in view["ordering"])
        return self._scripts().get(view["phase_id"].split("/")[-1], no_orders)(view, player)

    def _scripts(self) -> dict[str, Callable[[dict[str, Any], str], str]]:
        return {"starting-towns": self._setup, "purchase": self._purchase, "movement": self._movement}

    def _setup(self, view: dict[str, Any], player: str) -> str:
        return "orders:\n  - start: [" + ", ".join(self.starts[player]) + "]\n"

    def _purchase(self, view: dict[str, Any], player: str) -> str:
        found = free_lord(view, player)
        if found is None:
            return NONE
        _, town = found
        room = view["towns"][town]["mills"] < load_edition(self.game).mills_per_town   # 4.2
        mill = f"  - build: mill\n    in: {town}\n" if room else ""
        return f"orders:\n  - buy: man_at_arms\n    count: 2\n    in: {town}\n" + mill

    def _movement(self, view: dict[str, Any], player: str) -> str:
        found = free_lord(view, player)
        if found is None:
            return NONE
        lord, town = found
        empty = [t for t in load_board(self.game).neighbours(town) if not view["towns"][t]["forces"]]
        units = view["towns"][town]["forces"].get(player, {}).get("units", {})
        if not empty or units.get("man_at_arms", 0) < self.moved + self.kept:
            return NONE
        return (f"orders:\n  - move: {lord}\n    with: {{man_at_arms: {self.moved}}}\n    path: [{empty[0]}]\n"
                f"policies:\n  safe_passage: {{others: refuse}}\n")


class ScriptedDemo:
    """PlaysDemo for a Fief edition's rules class: its ``FiefDemo``'s families (set ``script``
    and ``demo_players`` on the class)."""

    script: FiefDemo
    demo_players: tuple[str, ...]

    def demo_orders(self, view: dict[str, Any], player: str) -> str:
        return self.script.orders(view, player)

    def demo_done(self, first: dict[str, Any], state: dict[str, Any]) -> bool:
        return demo_done(first, state)


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
    return NONE
