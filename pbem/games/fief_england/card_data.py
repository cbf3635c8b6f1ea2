"""England's printed cards that the Church, the retainers and the Opportunity character cards
read from games/fief_england/cards.yaml: the Abbeys of the ABBESS cards (2.13), the BISHOP and
ARCHBISHOP cards' districts (2.14, R3), the MERCENARY and BURGHER cards (11.1, 11.2), the
retainers and their effects (2.12) and the relics (12.0). Bad data fails on load naming the
file, the card and the fix (docs/fief-england.md "Card data")."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import yaml

from pbem.paths import games_dir

USES = ("per_round", "once", "always")
# docs/fief-england.md, "Card data: retainers": effect -> its parameter and the values it takes
# (None: a positive whole number).
VOCABULARY: dict[str, tuple[str, tuple[str, ...] | None] | None] = {
    "swap_hand_card": None,
    "extra_moves": ("moves", None),
    "melee_hits": ("hits", None),
    "strength_points": ("points", None),
    "income": ("shillings", None),
    "reroll": ("roll", ("plague", "bandits", "carrier_pigeon", "church_intervention", "quell_rebellion",
                        "excalibur")),
    "immune": ("to", ("plague", "rebellion", "justice", "ambush", "assassination", "bandits")),
    "votes": ("votes", None),
}
VOTE_BALLOTS = ("election", "parliament", "both")


class CardDataError(Exception):
    """England's card data that the code cannot use."""


@dataclass(frozen=True)
class Retainer:
    id: int
    name: str
    entered: bool            # False: no ability in play (docs/fief-england.md)
    uses: str | None         # per_round | once | always
    effects: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class EnglandCards:
    abbeys: tuple[str, ...]                     # 2.13: one Abbey per ABBESS card
    districts: dict[str, tuple[str | None, ...]]   # "bishop"/"archbishop" -> each card's district (R3)
    mercenaries: tuple[tuple[str, int], ...]    # 11.1: (name, crossbowmen) per card
    burghers: tuple[int, ...]                   # 11.2: the votes of each BURGHER card
    retainers: dict[int, Retainer]
    relics: dict[str, str]                      # 12.0: id -> printed name
    effect_texts: dict[str, str] = field(default_factory=dict)   # 2.12: effect -> its words (`vocabulary:`)


@lru_cache(maxsize=2)
def england_cards() -> EnglandCards:
    path = games_dir() / "fief_england" / "cards.yaml"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        deck = data["character_deck"]
        cards = EnglandCards(
            abbeys=tuple(str(a["abbey"]) for a in deck["abbess"]),
            districts={k: tuple(c.get("district") for c in deck[k]) for k in ("bishop", "archbishop")},
            mercenaries=tuple((str(m["name"]), int(m["crossbowmen"])) for m in deck["mercenary"]),
            burghers=tuple(int(b["votes"]) for b in deck["burgher"]),
            retainers={int(r["id"]): _retainer(r, path) for r in data["retainers"]["cards"]},
            relics={str(r["id"]): str(r["name"]) for r in data["relics"]},
            effect_texts={str(k): str(v["text"]) for k, v in data["retainers"]["vocabulary"].items()})
    except (OSError, yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
        raise CardDataError(f"{path}: cannot read England's cards ({exc}); see docs/fief-england.md "
                            "\"Card data\"") from None
    return cards


def _retainer(raw: dict[str, Any], path: Any) -> Retainer:
    rid, name = int(raw["id"]), str(raw["name"])
    where = f"{path}: retainer {rid} ({name})"
    entered = bool(raw.get("entered"))
    effects = tuple(raw.get("effects") or ())
    if not entered:
        return Retainer(rid, name, False, None, ())
    if raw.get("uses") not in USES:
        raise CardDataError(f"{where}: `uses:` must be one of {', '.join(USES)}, not {raw.get('uses')!r}")
    for effect in effects:
        problem = effect_problem(effect)
        if problem:
            raise CardDataError(f"{where}: {problem}")
    return Retainer(rid, name, True, str(raw["uses"]), effects)


def effect_problem(effect: Any) -> str | None:
    """Why one entered effect is not in the vocabulary (None: it is)."""
    if not isinstance(effect, dict) or effect.get("effect") not in VOCABULARY:
        return (f"{effect!r} is not an effect of the vocabulary; write `{{effect: NAME, ...}}` with NAME one of "
                f"{', '.join(VOCABULARY)}")
    spec = VOCABULARY[effect["effect"]]
    if spec is None:
        return None
    key, values = spec
    value = effect.get(key)
    if values is None:
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            return f"effect {effect['effect']} needs `{key}:` a positive whole number, not {value!r}"
    elif value not in values:
        return f"effect {effect['effect']} needs `{key}:` one of {', '.join(values)}, not {value!r}"
    if effect["effect"] == "votes" and effect.get("in", "both") not in VOTE_BALLOTS:
        return f"effect votes needs `in:` one of {', '.join(VOTE_BALLOTS)}, not {effect.get('in')!r}"
    return None
