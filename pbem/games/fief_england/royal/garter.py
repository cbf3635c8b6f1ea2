"""The Order of the Garter (E 13.3; rulings R28, R44, R132-R134).

"This Title is given to a Lord (not just a Noble) by their Sovereign King or Queen ... for
services rendered against Invaders. Said Lord either: Defeated an Invader Army, alone or as the
head of a coalition. A Cleric or Abbess convinced the Invaders to leave England by Church
Intervention (6.10) or bribing them to leave (6.9). Only one Garter Title can be awarded per
Round ... The Title is lost if the Lord dies. The Lord holder of the Title may not attack the
Sovereign or take part in a coalition attack against their Sovereign." 4 markers (l.815).

- The deeds: a Danegeld paid or a Church Intervention that sent an army away is the Invaders
  part's record (``edition_state["invaders"]["sent_away"]``, 6.9, 6.10); an Invader army defeated
  is recorded here by ``invaders_defeated``, which the Invaders' battles call where their losses
  are applied - in Phase 6 and in the players' `attack_invaders:` of Phase 7 alike - for the
  side's nobles in the City (R132).
- By mail (R133): the at-once order `garter: LORD` of the Sovereign's family, in any phase, once a
  round; the Lord must hold a fiefdom title then (R28) and have done a deed (any round before).
- State: ``edition_state["garter"]`` the holders' names (the victory's tiebreak reads it, R44);
  ``edition_state["royal"]["garter_deeds"]`` [{"round", "army", "lord", "by": "defeat"}] and
  ``["garter_round"]``, the round of the last award. All public.
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board
from pbem.games.fief.hooks import AtOnceVerb
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.regions import record as numbers
from pbem.games.fief_england.royal.guard import KEY, record
from pbem.games.fief_england.titles import SOVEREIGN, sovereign
from pbem.games.fief_england.names import noble_named
from pbem.orders.reading import Problems, check_keys
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng

GARTER = "garter"   # FiefState.edition_state[GARTER]: the holders (titles.has_garter)
DEEDS = {"defeat": "defeated an Invader army", "church": "sent an Invader army away by Church Intervention",
         "danegeld": "sent an Invader army away with a Danegeld"}


def holders(state: FiefState) -> list[str]:
    return list(state.edition_state.get(GARTER) or [])


def invaders_defeated(state: FiefState, nobles: list[str], army: str) -> None:
    """13.3 "Defeated an Invader Army, alone or as the head of a coalition": the nobles of the side
    that destroyed Invader army ``army`` (its family's, or its coalition leader's, in the City;
    R132). Called by the Invaders' battles."""
    deeds = record(state).setdefault("garter_deeds", [])
    for name in nobles:
        deeds.append({"round": state.round, "army": army, "lord": name, "by": "defeat"})


def deeds(state: FiefState) -> list[dict[str, Any]]:
    """Every deed against the Invaders: the Invaders part's armies sent away (6.9, 6.10) and the
    armies defeated."""
    sent = ((state.edition_state.get("invaders") or {}).get("sent_away")) or []
    return list(sent) + list((state.edition_state.get(KEY) or {}).get("garter_deeds") or [])


def eligible(state: FiefState) -> dict[str, str]:
    """The Lords who may receive the Garter now, each with a deed: alive, holding a fiefdom title
    (13.3 "a Lord (not just a Noble)", R28), without the Garter."""
    out: dict[str, str] = {}
    for deed in deeds(state):
        lord = state.lords.get(deed.get("lord") or "")
        if lord is not None and lord.fief_titles and lord.name not in holders(state) and lord.name not in out:
            out[lord.name] = DEEDS.get(deed.get("by", ""), "served against the Invaders")
    return out


def lost(state: FiefState, name: str) -> list[Event]:
    """13.3: "The Title is lost if the Lord dies": the marker returns to the supply."""
    if name not in holders(state):
        return []
    state.edition_state[GARTER] = [n for n in holders(state) if n != name]
    return [Event("garter_lost", f"{name}'s Order of the Garter returns to the supply: the Lord is dead (13.3).",
                  data={"lord": name})]


def view(state: FiefState) -> dict[str, Any]:
    rec = state.edition_state.get(KEY) or {}
    return {"holders": holders(state), "eligible": eligible(state), "given_round": rec.get("garter_round"),
            "left": max(0, int(numbers(state, "supply.garter")) - len(holders(state)))}


# -- the award by mail ---------------------------------------------------------------------------

def _problem(view_: dict, player: str, lord: str) -> tuple[str, str] | None:
    """Why ``player`` cannot give the Garter to ``lord`` now (13.3), from a view (or the state's)."""
    king = next((n for n, l in view_["lords"].items() if l["political"] in SOVEREIGN), None)
    if king is None or view_["lords"][king]["family"] != player:
        return "only the King's or Sovereign Queen's family gives the Order of the Garter (13.3)", "remove it"
    garter = view_["royal"]["garter"]
    if lord in garter["holders"]:
        return f"{lord} holds the Order of the Garter already", "give it to another eligible Lord"
    if lord not in garter["eligible"]:
        who = ", ".join(f"{n} ({why})" for n, why in garter["eligible"].items()) or "none now"
        return (f"{lord} is not eligible: the Garter goes to a Lord (a fiefdom title holder) who defeated an "
                "Invader army, or sent one away by Church Intervention or a Danegeld (13.3, R28)",
                f"eligible: {who}")
    if garter["given_round"] == view_["round"]:
        return f"a Garter was given already in round {view_['round']} (13.3: one a Round)", "give it next round"
    if garter["left"] <= 0:
        return "the 4 Garter markers are all given (13.3)", "wait until a holder dies"
    return None


def check(view_: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    check_keys(item, (GARTER,), "a garter order", problems)
    lord = noble_named(view_, item, GARTER, line, problems, "garter: Hugh")
    if lord is None:
        return None
    why = _problem(view_, player, lord)
    if why:
        problems.add(line, why[0], why[1])
        return None
    return {"lord": lord}


def award(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    """13.3: the marker placed on the Lord's card; public."""
    lord = state.lords.get(order["lord"])
    why = _problem({"lords": {n: {"political": l.political, "family": l.family} for n, l in state.lords.items()},
                    "round": state.round, "royal": {"garter": view(state)}}, player, order["lord"]) if lord else \
        (f"{order['lord']} is no longer in play", "")
    if why or lord is None:
        return [Event("garter_refused", f"Not done: {why[0] if why else ''}.", Audience.only(player),
                      {"player": player, "reason": why[0] if why else ""})]
    deed = eligible(state)[lord.name]
    state.edition_state[GARTER] = holders(state) + [lord.name]
    record(state)["garter_round"] = state.round
    king = sovereign(state)
    return [Event("garter", f"{king.name if king else player} inducts {lord.name} ({lord.family}) into the Order of "
                  f"the Garter: {lord.name} {deed} (13.3).", data={"lord": lord.name, "family": lord.family,
                                                                   "by": player})]


def _barred(lords: Mapping[str, Mapping[str, Any]], knights: list[str], town: str, attackers: list[str],
            defenders: list[str]) -> tuple[str, str] | None:
    """13.3 (R134) on the nobles' fields (a view's or the state's): a Garter Lord free in ``town`` on
    the attacking side while the Sovereign is there with a defending family."""
    king = next((n for n, l in lords.items() if l["political"] in SOVEREIGN), None)
    if king is None or lords[king]["location"] != town or lords[king]["family"] not in defenders:
        return None
    here = [n for n in knights if n in lords and lords[n]["family"] in attackers
            and lords[n]["location"] == town and not lords[n]["captive_of"]]
    if not here:
        return None
    title = "King" if lords[king]["political"] == "king" else "Sovereign Queen"
    return (f"{here[0]}, of the Order of the Garter, may not attack the {title} {king} (13.3)",
            f"move {here[0]} out of {town} first, or attack another family")


def _fields(state: FiefState) -> dict[str, dict[str, Any]]:
    return {n: {"family": l.family, "location": l.location, "captive_of": l.captive_of, "political": l.political}
            for n, l in state.lords.items()}


def attack_problem(state: FiefState, town: str, attackers: list[str], defenders: list[str]) -> str | None:
    """The battle's declaration check at resolution: why this attack may not be fought (13.3)."""
    why = _barred(_fields(state), holders(state), town, attackers, defenders)
    return f"{why[0]}: {why[1]}" if why else None


def cavalcade_barred(state: FiefState, town: str, lords: list[str], against: str) -> str | None:
    """The battle's `cavalcade_barred` hook: a cavalcade is an attack too (5.2); its riders stand
    in ``town`` as it is fought."""
    fields = _fields(state)
    riders = [n for n in lords if n in fields]
    for name in riders:
        fields[name] = {**fields[name], "location": town}
    families = sorted({fields[n]["family"] for n in riders})
    why = _barred(fields, [n for n in holders(state) if n in riders], town, families, [against])
    return f"{why[0]}" if why else None


def attack_check(view_: dict, me: str, target: str, town: str) -> tuple[str, str] | None:
    """The battle mail's check (the battle's `attack_check` hook): the same, from the player's view."""
    return _barred(view_["lords"], list(view_["royal"]["garter"]["holders"]), town, [me], [target])


def coalition(state: FiefState, town: str, attackers: list[str], defenders: list[str]) -> tuple[list[str], list[Event]]:
    """The battle's `coalition` hook (13.3, R134): a confederate whose Garter Lord stands in the
    City does not join an attack on the Sovereign there; the declaring family's own attack is
    refused by the declaration check (``attack_problem``)."""
    kept, events = [attackers[0]], []
    for family in attackers[1:]:
        why = _barred(_fields(state), holders(state), town, [family], defenders)
        if why is None:
            kept.append(family)
            continue
        events.append(Event("coalition_refused", f"{family} does not join the attack in {town}: {why[0]}.",
                            data={"town": town, "family": family, "leader": attackers[0], "accepted": False}))
    return kept, events


VERBS: dict[str, Any] = {
    GARTER: AtOnceVerb(check=check, act=award, template=(
        ("- garter: LORD", "the Sovereign's family, once a round: the Garter (13.3)"),)),
}
