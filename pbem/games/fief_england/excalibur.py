"""Excalibur (E 13.2; rulings R21, R37, R115-R118): the sword in the stone, drawn by a nobleman,
carried, and passed on when its holder falls.

- It starts in the stone in the City the board names (`excalibur_start`, reconstruction X7:
  Winchester).
- A Nobleman in its City - a man, not a Bishop or Archbishop (they are clergy), not a captive;
  never the Invaders - may try to draw it once in the Movement Phase and once in the Battle Phase
  of each round (13.2). By mail the at-once order `draw_excalibur: NOBLE`, done when the judge
  reads the mail while round-N/movement or round-N/battle is open (R115). The d6 is the game's
  seeded die and is told to everyone: 6 the nobleman takes it; 4-5 Arthur takes it, wherever he
  is, if he is in play and free (R37); Arthur drawing it himself takes it on 4-6; else nothing.
- The first to hold it while there is no Sovereign (King or Sovereign Queen) becomes King at
  once (13.2, R21): ``crown``, the Crown's way (elections.py's King: his wife becomes Queen, the
  Royal Stronghold follows, 9.0, 4.9). The royal guard (13.1) is the royal family part's.
- Its side adds +1 hit to each melee roll (13.2, 7.3, R8; battle/rounds.py reads ``holder``);
  3 shillings a round in an Abbey's City, carried or lying there (3.1, R18; church_hooks.py
  reads ``where``).
- Its holder slain in battle, assassinated, ambushed or taken captive: another free non-clergy
  nobleman in the City takes it (R116: the captor's family first, then the holder's, then the
  others in turn order; within a family by name) and is King at once if there is no Sovereign
  (R21). With none there it stays in that City, drawn again as from the stone (R117).

State: ``edition_state["excalibur"] = {"city": CITY | None, "holder": NOBLE | None, "tried":
{"round": N, "movement": [NOBLE...], "battle": [NOBLE...]}}``, written the first time it
changes (before, the board's starting City: ``where``). Public: everyone sees where it is and
who carries it (the card "Sword out of the Rock" face up, 13.2).
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.board import Board, load_board
from pbem.games.fief.edition import edition_of
from pbem.games.fief.hooks import AtOnceVerb
from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief.views import build_view
from pbem.games.fief_england.board_loader import EnglandBoard
from pbem.games.fief_england.royal import succession
from pbem.games.fief_england.titles import sovereign
from pbem.games.fief_england.names import noble_named
from pbem.orders.reading import Problems, check_keys
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng

KEY = "excalibur"
ARTHUR = "Arthur"                 # 13.2 (l.809): "the Noble Arthur" (cards.yaml)
PHASES = ("movement", "battle")   # 13.2: "during his Turn on Phase 5 - Move and Phase 7 - Battle"


def _board(state: FiefState) -> Board:
    return load_board(state.variant, state.options.get("board", "board"))


def _st(state: FiefState) -> dict[str, Any]:
    """The state, written from the board's starting City the first time it is needed."""
    if KEY not in state.edition_state:
        start = EnglandBoard.of(_board(state)).excalibur
        state.edition_state[KEY] = {"city": start, "holder": None, "tried": {}}
    return state.edition_state[KEY]


def where(state: FiefState) -> str | None:
    """The City Excalibur is in: its holder's, or the stone's (the board's start until drawn)."""
    data = state.edition_state.get(KEY)
    if data is None:
        return EnglandBoard.of(_board(state)).excalibur
    lord = state.lords.get(data.get("holder") or "")
    return lord.location if lord is not None else data.get("city")


def view(state: FiefState) -> dict[str, Any]:
    """Public (13.2: the card lies face up): where it is, who carries it, who tried this round."""
    data = state.edition_state.get(KEY) or {}
    tried = data.get("tried") or {}
    now = tried if tried.get("round") == state.round else {}
    return {KEY: {"city": where(state), "carried_by": data.get("holder"),
                  "tried": {phase: list(now.get(phase) or []) for phase in PHASES}}}


# -- who may draw (13.2, R37) ----------------------------------------------------------------------

def nobleman_problem(lord: Mapping[str, Any]) -> str | None:
    """13.2: "A Nobleman (even if not a Lord) ... with the exception of Bishops/Archbishops";
    R37: a man (a view's or the state's lord as a dict)."""
    if lord.get("female"):
        return "only a Nobleman may draw Excalibur, not a noblewoman (13.2, R37)"
    if lord.get("bishopric") is not None:
        return "a Bishop or Archbishop may not draw Excalibur (13.2)"
    if lord.get("captive_of"):
        return "a captive may not draw Excalibur (7.6)"
    return None


def draw_problem(view: Mapping[str, Any], player: str, noble: str) -> tuple[str, str] | None:
    """Why ``player``'s ``noble`` may not try now (None: he may), read from the player's view."""
    if view.get("phase") not in PHASES:
        return ("Excalibur is drawn in the Movement or the Battle Phase (13.2)",
                "send it while round-N/movement or round-N/battle is open")
    lord = view["lords"].get(noble)
    if lord is None or lord.get("family") != player or lord.get("location") is None:
        return f"{noble} is not a noble of your family on the map", "name one of your noblemen"
    why = nobleman_problem(lord)
    if why:
        return why, "name another of your noblemen"
    sword = view.get(KEY) or {}
    if sword.get("carried_by"):
        return (f"Excalibur is out of the stone: {sword['carried_by']} carries it (13.2)",
                "it passes on only when its holder falls")
    if lord["location"] != sword.get("city"):
        return (f"{noble} is in {lord['location']}, Excalibur in {sword.get('city')} (13.2: in the same City)",
                f"move him to {sword.get('city')} first")
    if noble in (sword.get("tried") or {}).get(view["phase"], []):
        return (f"{noble} has tried once in this phase already (13.2: once in Movement, once in Battle)",
                "try again in the other phase")
    return None


def check_draw(view: dict, player: str, item: dict, line: int | None, problems: Problems) -> dict | None:
    check_keys(item, ("draw_excalibur",), "a draw_excalibur order", problems)
    noble = noble_named(view, item, "draw_excalibur", line, problems, "draw_excalibur: Henri")
    if noble is None:
        return None
    why = draw_problem(view, player, noble)
    if why:
        problems.add(line, *why)
        return None
    return {"noble": noble}


def draw_act(state: FiefState, board: Board, player: str, order: dict, rng: Rng) -> list[Event]:
    view = build_view(state, board, player)
    noble = order["noble"]
    why = draw_problem(view, player, noble) if noble in state.lords else (f"{noble} is no longer in play", "")
    if why:
        return [Event("excalibur_refused", f"Not done: {why[0]}.", Audience.only(player),
                      {"player": player, "reason": why[0]})]
    return draw(state, noble, view["phase"], rng)


def draw(state: FiefState, noble: str, phase: str, rng: Rng) -> list[Event]:
    """13.2, R37: the d6 of one try (the caller has checked that he may)."""
    data = _st(state)
    if (data.get("tried") or {}).get("round") != state.round:
        data["tried"] = {"round": state.round}
    data["tried"].setdefault(phase, []).append(noble)
    dice = edition_of(state).extra["dice"]
    lord = state.lords[noble]
    city = lord.location
    roll = rng.d6(f"{noble} draws Excalibur (13.2)")
    text = f"{noble} ({lord.family}) tries to draw Excalibur from the stone in {city}: the d6 shows {roll}"
    taker = None
    if roll in dice["excalibur_own"] or (noble == ARTHUR and roll in dice["excalibur_arthur"]):
        taker, text = noble, text + f"; {noble} draws the sword (13.2)."
    elif roll in dice["excalibur_arthur"]:
        arthur = state.lords.get(ARTHUR)
        if arthur is not None and arthur.location is not None and not arthur.captive_of:
            taker = ARTHUR
            text += f"; the sword goes to Arthur ({arthur.family}) in {arthur.location} (13.2, R37)."
        else:
            text += "; it would go to Arthur, who is not in play and free, so it stays in the stone (R37)."
    else:
        text += "; the sword stays in the stone (13.2)."
    events = [Event("excalibur_drawn" if taker else "excalibur_stays", text,
                    data={"noble": noble, "family": lord.family, "city": city, "roll": roll, "taker": taker})]
    if taker:
        data.update(holder=taker, city=None)
        events += crown(state, state.lords[taker])
    return events


# -- the new King (13.2, R21) ------------------------------------------------------------------------

def crown(state: FiefState, lord: Lord) -> list[Event]:
    """13.2: "In the absence of a Sovereign King or Queen, the first Nobleman to draw Excalibur
    automatically becomes King!" - made King as an elected one is, by the royal part (13.1: his
    Royal Knights; 9.0, 9.1: his wife Queen with her Royal Men-at-Arms; 4.9: the Royal Stronghold
    follows the Sovereign)."""
    if sovereign(state) is not None:
        return []
    return [Event("excalibur_king", f"{lord.name} ({lord.family}) holds Excalibur with no Sovereign in England: "
                  "he is King at once (13.2, R21).", data={"lord": lord.name, "family": lord.family})] \
        + succession.crown_by_excalibur(state, lord.name)


# -- its holder falls (13.2, R116, R117) --------------------------------------------------------------

def holder_lost(state: FiefState, lord: Lord, city: str | None, taker_family: str | None) -> list[Event]:
    """13.2: "Excalibur can be picked up or taken [by] any other non-clergy Nobleman if the one who
    held it dies in Battle, is assassinated, ambushed, or taken captive. This new Noble
    immediately becomes the new King" (when there is no Sovereign, R21). ``lord``: the noble
    fallen (out of play already, or captive); ``city``: where; ``taker_family``: his captor's."""
    data = state.edition_state.get(KEY)
    if data is None or data.get("holder") != lord.name:
        return []
    order = [f for f in (taker_family, lord.family) if f] + [f for f in state.turn_order()
                                                             if f not in (taker_family, lord.family)]
    free = [other for other in state.lords.values() if other.name != lord.name and other.location == city
            and city is not None and nobleman_problem(_as_dict(other)) is None]
    free.sort(key=lambda o: (order.index(o.family) if o.family in order else len(order), o.name))
    if not free:
        data.update(holder=None, city=city)
        return [Event("excalibur_left", f"Excalibur, carried by {lord.name}, lies in {city}: no other free "
                      "nobleman there to take it; it is drawn there again as from the stone (13.2, R117).",
                      data={"from": lord.name, "city": city})]
    new = free[0]
    data.update(holder=new.name, city=None)
    return [Event("excalibur_taken", f"{new.name} ({new.family}) takes Excalibur from {lord.name} in {city} "
                  "(13.2, R116).", data={"from": lord.name, "to": new.name, "city": city})] + crown(state, new)


def _as_dict(lord: Lord) -> dict[str, Any]:
    return {"female": lord.female, "bishopric": lord.bishopric, "captive_of": lord.captive_of}


VERBS: dict[str, Any] = {
    "draw_excalibur": AtOnceVerb(check=check_draw, act=draw_act, template=(
        ("- draw_excalibur: NOBLEMAN", "in its City, in Movement and in Battle: 6 his, 4-5 Arthur's (13.2)"),),
        phases=PHASES),
}
