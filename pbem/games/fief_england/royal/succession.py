"""The Sovereign, the Queen, the Prince Consort, the widow and the Prince of Wales (E 9.0, 9.1,
13.1, 13.2, 4.8, FAQ l.869, Definitions l.886-892; rulings R21, R59, R128-R131).

- A new Sovereign (elected, 9.1; the Prince of Wales succeeding, 9.0; Excalibur, 13.2) receives
  the 2 Royal Knights (13.1, R21); the defeated markers are back in the supply first.
- The Sovereign's spouse: a King's wife becomes Queen (9.0, 9.1), a Sovereign Queen's husband is
  Prince Consort and holds no title (9.1); either receives the 2 Royal Men-at-Arms.
- The widow (9.0): "If the King dies, his wife retains her Royal Guard (13.1) until a new Queen
  is crowned (9.0) or if she is elected Sovereign Queen (9.1)" - and her Queen's title with it
  (R59). A widowed Prince Consort keeps his the same way (R130).
- The Prince of Wales (FAQ l.869, Definitions l.891): a new male noble placed on the Queen's
  family board - the King's wife's or a Sovereign Queen's - while none is in play; if the Queen is
  captive he is a captive with her (7.6). He becomes King when the King dies, or his mother as
  Sovereign Queen (R131). With no Prince of Wales the throne is vacant until an election (9.1)
  or Excalibur (13.2).
"""
from __future__ import annotations

from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief_england.crown import follow_sovereign
from pbem.games.fief_england.royal import garter, guard
from pbem.games.fief_england.titles import SOVEREIGN, sovereign
from pbem.rules.api import Event

PRINCE = "prince_of_wales"   # Lord.political of the Prince of Wales (a Royal Title, Definitions)
QUEEN = "queen"


def crown(state: FiefState, noble: str, how: str | None) -> list[Event]:
    """``noble`` becomes the Sovereign: King, or Sovereign Queen for a woman. ``how``: the event's
    words ("succeeds ...", "draws Excalibur ..."), or None when the caller told it (the election)."""
    lord = state.lords[noble]
    events: list[Event] = []
    if how is not None:
        title = "Sovereign Queen" if lord.female else "King"
        events.append(Event("crowned", f"{noble} ({lord.family}) {how} and becomes {title}.",
                            data={"lord": noble, "family": lord.family, "title": title}))
    if noble in guard.guards(state):   # 9.0: the widow (or widower, R130) made Sovereign gives back that guard
        events += guard.remove(state, noble, f"{noble} becomes the Sovereign")
    lord.political = "sovereign_queen" if lord.female else "king"
    guard.new_reign(state)
    events += guard.give(state, noble, guard.KNIGHTS)
    spouse = state.lords.get(lord.spouse or "")
    if spouse is not None:
        events += crown_spouse(state, spouse)
    return events + follow_sovereign(state)   # 4.9: the Royal Stronghold changes sides


def crown_spouse(state: FiefState, spouse: Lord) -> list[Event]:
    """9.0, 9.1: the Sovereign's spouse - the King's wife is Queen, the Sovereign Queen's husband
    Prince Consort without a title - receives the Royal Men-at-Arms; an earlier holder of them (a
    widowed Queen or Prince Consort) gives them back, and a widowed Queen her title."""
    events: list[Event] = []
    if spouse.female:
        spouse.political = QUEEN
        events.append(Event("queen", f"{spouse.name} ({spouse.family}), the King's wife, becomes Queen (9.0, 9.1).",
                            data={"lord": spouse.name, "family": spouse.family}))
    else:
        events.append(Event("prince_consort", f"{spouse.name} ({spouse.family}), the Sovereign Queen's husband, is "
                            "Prince Consort and holds no title (9.1).",
                            data={"lord": spouse.name, "family": spouse.family}))
    for name, given in list(guard.guards(state).items()):
        if name != spouse.name and given["kind"] == guard.MEN_AT_ARMS:
            events += guard.remove(state, name, f"{spouse.name} now guards the Sovereign's side (9.0, R130)")
    widows = [l for l in state.lords.values() if spouse.female and l.political == QUEEN and l.name != spouse.name]
    for widow in widows:
        widow.political = None   # 9.0: "until a new Queen is crowned"
        events.append(Event("queen_dowager", f"{widow.name} ({widow.family}) is no longer Queen: a new Queen is "
                            "crowned (9.0).", data={"lord": widow.name, "family": widow.family}))
    if spouse.name not in guard.guards(state):
        events += guard.give(state, spouse.name, guard.MEN_AT_ARMS)
    return events


def married(state: FiefState, a: Lord, b: Lord) -> list[Event]:
    """The core's `married` hook (9.0): the King's new wife becomes Queen; a Sovereign Queen's new
    husband is Prince Consort (9.1). Each receives the Royal Men-at-Arms (13.1)."""
    for ruler, spouse in ((a, b), (b, a)):
        if ruler.political in SOVEREIGN and spouse.female != ruler.female:
            return crown_spouse(state, spouse)
    return []


def queen_of_the_realm(state: FiefState) -> Lord | None:
    """The Queen whose son is Prince of Wales: the living King's wife, or the Sovereign Queen."""
    for lord in state.lords.values():
        if lord.political == "sovereign_queen":
            return lord
        husband = state.lords.get(lord.spouse or "")
        if lord.political == QUEEN and husband is not None and husband.political == "king":
            return lord
    return None


def new_noble(state: FiefState, name: str) -> list[Event]:
    """FAQ l.869: "When the Queen's family places a new male Noble Card onto their Family Board, he
    becomes the Prince of Wales" - while no Prince of Wales is in play (one marker, l.26); 7.6: "If
    the Queen is captive, the Prince of Wales can still be put into play, but he is a captive with
    his mother"."""
    lord = state.lords[name]
    mother = queen_of_the_realm(state)
    if lord.female or mother is None or mother.family != lord.family or lord.political \
            or any(l.political == PRINCE for l in state.lords.values()):
        return []
    lord.political = PRINCE
    text = f"{name} ({lord.family}), the Queen's son, is the Prince of Wales (9.0)."
    if mother.captive_of:
        if state.rules_version >= 3:   # R153: he comes into play as her captor's captive, not placed
            lord.location, lord.captive_of = mother.location, mother.captive_of
        for army in ((state.edition_state.get("invaders") or {}).get("armies") or {}).values():
            if mother.name in army.get("captives", []):   # the Invaders part's record of its captives (6.7)
                army["captives"].append(name)
        text = text[:-1] + f"; he is a captive with his mother {mother.name} in {mother.location} (7.6)."
    return [Event("prince_of_wales", text, data={"lord": name, "family": lord.family, "mother": mother.name})]


def after_death(state: FiefState, gone: Lord) -> list[Event]:
    """4.8 and 13.1: a dead noble's guard returns to the supply, his Garter is lost (13.3); a dead
    Sovereign is succeeded by the Prince of Wales (9.0), or the throne is vacant."""
    events = guard.remove(state, gone.name, f"{gone.name} is slain")
    events += garter.lost(state, gone.name)
    if gone.political not in SOVEREIGN or sovereign(state) is not None:
        return events
    heir = next((l for l in state.lords.values() if l.political == PRINCE), None)
    if heir is None:
        return events + [Event("throne_vacant", f"The {'King' if gone.political == 'king' else 'Sovereign Queen'} "
                               f"{gone.name} is dead and there is no Prince of Wales: the throne is vacant until a "
                               "new Sovereign is elected (9.1) or draws Excalibur (13.2).",
                               data={"lord": gone.name})]
    return events + crown(state, heir.name, f"succeeds {gone.name} as the Prince of Wales (9.0)")


def captured(state: FiefState, lord: Lord) -> list[Event]:
    """13.1: "When their Lord is ... taken captive, the Royal Guards are removed and returned to
    supply"."""
    return guard.remove(state, lord.name, f"{lord.name} is taken captive")


def crown_by_excalibur(state: FiefState, noble: str) -> list[Event]:
    """13.2: "In the absence of a Sovereign King or Queen, the first Nobleman to draw Excalibur
    automatically becomes King!" - and whoever takes it up from a fallen holder (R21): King with his
    Royal Knights, his wife Queen. Nothing while a Sovereign reigns. The Excalibur part tells the
    crowning (its `excalibur_king` event)."""
    if sovereign(state) is not None:
        return []
    return crown(state, noble, None)
