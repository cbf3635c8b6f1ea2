"""The Invaders' record (E 6.0): the four armies, each a Leader and up to 5 Foot Soldiers of its
own (6.1 note), where each stands, which left the game for good, the captives each holds and
what they destroyed. Plain JSON in ``FiefState.edition_state["invaders"]``:

    {"armies": {"1": {"city": "York", "leader": true, "foot": 5, "captives": [], "holds": false,
                      "follows": null}, ...},
     "gone": ["3"],                      # removed from the game (6.10, 6.11, 6.12)
     "destroyed": [{"round": 2, "city": "York", "what": ["mill", "stronghold"]}],
     "sent_away": [{"round": 2, "army": "1", "lord": "Henri", "by": "danegeld"}],   # 6.9, 6.10 (13.3)
     "plague": {"round": 2, "armies": ["1"]}}   # struck this round: no second roll (2.5, R22)

`city` null is the Invaders' supply (off the map: not landed, or gone home by a port or a
Danegeld, R13). `holds`: it took a Fortified City and never moves out (6.6). `follows`: a leaderless
army's Foot Soldiers follow the leader of that army (6.4, 6.11, 6.12). Everything here is public
(the markers lie on the board); what is secret about the Invaders is only what is not drawn yet.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pbem.games.fief.edition import load_edition
from pbem.games.fief.state import FiefState

KEY = "invaders"
JAILER = "invaders"        # Lord.captive_of of a noble the Invaders hold (6.7)
SIEGE_ENGINES = ("bombard", "trebuchet")   # 6.4 (l.412): not counted as Troops; R15


@dataclass(frozen=True)
class Numbers:
    """The Invaders' numbers from the edition record (games/fief_england/edition.yaml `invaders:`)."""

    armies: int             # Components (l.49-50); 6.0
    foot_soldiers: int      # 6.0: 5 per army
    leader_points: int      # 7.3: 3 SP, 3 hits (7.5)
    foot_points: int        # 7.3: 2 SP, 2 hits (7.5)
    reinforcements: int     # 6.1: 3
    moves: int              # 6.3: 2
    danegeld: int           # 6.9: 5 shillings
    ransom_base: int        # 6.7: 2 shillings
    ransom_per_title: int   # 6.7: plus 2 per title
    church_leaves: tuple[int, ...]   # 6.10: 1-3 the army leaves England
    on_map: int             # 6.2, Ex 6-1: never more than 4 armies on the map


@lru_cache(maxsize=1)
def numbers() -> Numbers:
    extra = load_edition("fief_england").extra   # England's own keys, checked by its hooks' record_keys
    raw = extra["invaders"]
    return Numbers(raw["armies"], raw["foot_soldiers"], raw["leader_combat_points"], raw["foot_combat_points"],
                   raw["reinforcements"], raw["moves"], raw["danegeld"], raw["ransom_base"], raw["ransom_per_title"],
                   tuple(raw["church_intervention_leaves"]), extra["limits.invader_armies_on_map"])


def new_record() -> dict[str, Any]:
    n = numbers()
    return {"armies": {str(i): new_army() for i in range(1, n.armies + 1)},
            "gone": [], "destroyed": [], "sent_away": [], "plague": {"round": 0, "armies": []}}


def new_army(city: str | None = None) -> dict[str, Any]:
    """An army landing in full in ``city`` (6.0, 6.2: 1 Leader and 5 Foot Soldiers), or, without a
    city, one in the supply (its markers off the map: no Foot Soldier counted)."""
    return {"city": city, "leader": True, "foot": numbers().foot_soldiers if city else 0, "captives": [],
            "holds": False, "follows": None}


def record(state: FiefState) -> dict[str, Any]:
    """The Invaders' record of ``state``, made on first use."""
    if KEY not in state.edition_state:
        state.edition_state[KEY] = new_record()
    return state.edition_state[KEY]


def on_map(state: FiefState) -> dict[str, dict[str, Any]]:
    """The armies on the map, by id, in their fixed order (1-4)."""
    rec = state.edition_state.get(KEY)
    if not rec:
        return {}
    return {a: army for a, army in sorted(rec["armies"].items(), key=lambda kv: int(kv[0]))
            if army["city"] is not None}


def present(state: FiefState) -> bool:
    """3.3: Invaders are present anywhere in England."""
    return bool(on_map(state))


def in_city(state: FiefState, city: str) -> list[str]:
    return [a for a, army in on_map(state).items() if army["city"] == city]


def units(army: dict[str, Any]) -> int:
    """Ex 6-4: the Leader and his Foot Soldiers are the army's battle-ready units."""
    return (1 if army["leader"] else 0) + army["foot"]


def strength(army: dict[str, Any]) -> int:
    """7.3: 3 SP per Leader, 2 per Foot Soldier."""
    n = numbers()
    return (n.leader_points if army["leader"] else 0) + n.foot_points * army["foot"]


def available(state: FiefState) -> list[str]:
    """6.2, Ex 6-1: the armies that may land: in the supply, with their Leader, not gone."""
    rec = record(state)
    return [a for a, army in sorted(rec["armies"].items(), key=lambda kv: int(kv[0]))
            if army["city"] is None and army["leader"] and a not in rec["gone"]]


def troops(state: FiefState, city: str) -> dict[str, int]:
    """Each family's Troops in ``city`` (R15: men-at-arms, archers, knights, crossbowmen and the
    royal guard; not nobles, bombards or trebuchets, 6.4 l.412), for the families that have any."""
    out: dict[str, int] = {}
    for pawn in state.pawns.values():
        if pawn.location == city and pawn.kind not in SIEGE_ENGINES:
            out[pawn.family] = out.get(pawn.family, 0) + 1
    return out


def army_name(army_id: str) -> str:
    return f"Invader army {army_id}"
