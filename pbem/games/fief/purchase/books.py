"""What a family's purchases (4) need to know, read from its view (the player's when a mail is
checked, one built from the state at resolution: purchase/ledger.py), and why one fails.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Self

from pbem.games.fief.board import Board
from pbem.games.fief.edition import Edition, load_edition


@dataclass
class Failure:
    """Why a purchase cannot be made: a typed result, reported in an event or a reply."""

    code: str      # "deniers" | "control" | "fortress" | "mills" | "supply" | "pool" | "placement" | ...
    message: str
    hint: str = ""


@dataclass
class Books:
    """A family's deniers, lords, pools and the board as its view shows them, kept up to date
    as its purchases are made one after the other."""

    me: str
    deniers: int
    lords: dict[str, dict[str, Any]]           # my lords: name -> their entry in ``everyone``
    towns: dict[str, dict[str, Any]]           # every town's view entry
    fiefs: dict[str, dict[str, Any]]
    fief_towns: dict[str, tuple[str, ...]]
    pool: dict[str, int]
    supply: dict[str, int]
    edition: Edition                                   # prices and limits (4.1-4.5)
    placed: Counter = field(default_factory=Counter)   # new pawns per town this phase (4.3)
    before_ransoms: int = 0                            # the deniers at the start (4.1 offers)
    everyone: dict[str, dict[str, Any]] = field(default_factory=dict)   # every lord in play
    eliminated: set[str] = field(default_factory=set)  # families out of the game
    king_offer_used: bool = False                      # 4.4: the privilege's side
    cardinal_holder: str | None = None                 # 4.5: who holds the tile for sale, if sold
    offered: str | None = None         # 4.4: the fief whose title the king offers me, free
    offers_known: bool = True          # False when a mail is checked: others' offers are unknown
    offer_made: str | None = None      # 4.4: the fief this mail offers (1 per round)
    cardinal_refusal: str | None = None   # D.2.3: why the pope refuses (known at resolution)
    view: dict[str, Any] = field(default_factory=dict)   # the view read (an edition's own orders read it)
    own: dict[str, Any] = field(default_factory=dict)    # what an edition's own orders keep as they are done

    @classmethod
    def from_view(cls, view: dict[str, Any], board: Board) -> Self:
        me = view["me"]
        fam = view["families"][me]
        own = load_edition(view["game"]).hooks.fief_towns   # England 4.9, R19
        everyone = {n: dict(l) for n, l in view["lords"].items()}
        return cls(
            me=me, deniers=fam["deniers"], before_ransoms=fam["deniers"],
            lords={n: l for n, l in everyone.items() if l["family"] == me},   # the same entries
            towns={t: dict(v) for t, v in view["towns"].items()},
            fiefs={f: dict(v) for f, v in view["fiefs"].items()},
            fief_towns={f: own(view, f, info.towns) if own else info.towns for f, info in board.fiefs.items()},
            pool=dict(fam["pool"]), supply=dict(view["supply"]), edition=load_edition(view["game"]),
            everyone=everyone,
            eliminated={p for p, f in view["families"].items() if f["eliminated"]},
            king_offer_used=bool(view["king_offer_used"]),
            cardinal_holder=(view["cardinal_title"] or {}).get("holder"), view=view)

    def _pay(self, cost: int, what: str) -> Failure | None:
        if cost > self.deniers:
            return Failure("deniers", f"{what} costs {self.edition.coins(cost)}; you have {self.deniers} left "
                           "at this point", "buy less, or drop an earlier order")
        return None

    def _controls(self, town: str) -> bool:
        return self.towns[town]["controller"] == self.me
