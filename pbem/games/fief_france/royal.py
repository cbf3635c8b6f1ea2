"""France's royal family: the queen (1.5.4, D.3.2), the crown prince and succession (G.1.1, D.3.3,
D.2.3, D.2.3.1), reached by the Fief core through the edition's hooks (hooks.py): what a
marriage or an annulment does to the titles, who may not marry (D'Arc, G.4.1.1), what a lord
card played as the crown prince does, and which titles change hands when a lord leaves play."""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.hear_ye.royal import royal_guard, royal_guard_replaced
from pbem.games.fief.state import FiefState, Lord
from pbem.rules.api import Event


# G.4.2.4: justice targets a lord "other than the king, the queen (regent or not), the crown
# prince, or the pope" (D.2.3, D.3.1-D.3.3).
JUSTICE_IMMUNE = ("king", "queen", "regent_queen", "crown_prince")

# 4.4: the king's privilege to offer a fief title; "The regent queen title operates the same way".
PRIVILEGED = ("king", "regent_queen")

# 3: "2 deniers for the queen or regent queen title if she is in their family" (D.3.2).
QUEEN_TITLES = ("queen", "regent_queen")


def justice_immune(lord: Mapping[str, Any]) -> str | None:
    """G.4.2.4: the royal family and the pope are immune to the justice card."""
    if lord["political"] in JUSTICE_IMMUNE or lord["pope"]:
        return "the king, the queen (regent or not), the crown prince and the pope are immune (G.4.2.4)"
    return None


def crown_queen(state: FiefState, lord: Lord) -> list[Event]:
    """1.5.4: the king's spouse is queen; a regent queen keeps being queen, no longer regent."""
    lord.political = "queen"
    return [Event("queen", f"{lord.name} ({lord.family}) becomes queen (1.5.4).",
                  data={"lord": lord.name})] + royal_guard(state, lord)


def crown_king(state: FiefState, lord: Lord, event: Event) -> list[Event]:
    """1.5.3, D.3.3: ``lord`` is king (``event`` says how), with his guard (1.5.5); his spouse is
    queen (1.5.4)."""
    lord.political = "king"
    events = [event] + royal_guard(state, lord)
    if lord.spouse and lord.spouse in state.lords:
        events += crown_queen(state, state.lords[lord.spouse])
    return events


def lose_queen(state: FiefState, lord: Lord) -> list[Event]:
    """D.3.2: the queen (or regent queen) loses her title, and her guard (1.5.5)."""
    events = royal_guard_replaced(state, lord.name)
    lord.political = None
    return events + [Event("queen_title_lost", f"{lord.name} is no longer queen (D.3.2).",
                           data={"lord": lord.name})]


def married(state: FiefState, a: Lord, b: Lord) -> list[Event]:
    """1.1.2, 1.5.4: the king's spouse is queen."""
    events: list[Event] = []
    for one, two in ((a, b), (b, a)):
        if one.political == "king":
            events += crown_queen(state, two)
    return events


def unmarried(state: FiefState, lord: Lord) -> list[Event]:
    """D.3.2: the queen is the king's spouse: an annulment takes her title."""
    return lose_queen(state, lord) if lord.political == "queen" else []


def marriage_blocker(lord: Lord) -> str | None:
    """G.4.1.1: the D'Arc lord "cannot be married"."""
    return f"{lord.name} is the D'Arc lord, who cannot marry" if lord.political == "darc" else None


def lord_played(state: FiefState, player: str, name: str, play: Mapping[str, Any]) -> list[Event]:
    """G.1.1: a lord card played with `crown_prince: yes` makes its lord the crown prince, if he
    may be; the queen's couple can no longer be annulled (D.2.3)."""
    if not play.get("crown_prince"):
        return []
    why = crown_prince_problem(state, player, name)
    if why:
        return [Event("crown_prince_refused", f"{name} cannot become the crown prince: {why} (G.1.1).",
                      data={"lord": name})]
    state.lords[name].political = "crown_prince"
    queen = next(l for l in state.lords.values() if l.political in ("queen", "regent_queen"))
    if queen.spouse:
        # D.2.3: the pope may never annul this couple's marriage now.
        couple = sorted([queen.name, queen.spouse])
        if couple not in state.crown_prince_couples:
            state.crown_prince_couples.append(couple)
    return [Event("crown_prince", f"{name} becomes the crown prince (G.1.1).", data={"lord": name})]


def crown_prince_problem(state: FiefState, player: str, name: str) -> str | None:
    """G.1.1: a male lord of the queen's family, the king in play, the queen not captive, no
    crown prince yet."""
    lords = state.lords.values()
    queen = next((l for l in lords if l.political in ("queen", "regent_queen")), None)
    if state.lords[name].female:
        return "only a male lord can be the crown prince"
    if queen is None or queen.family != player:
        return "your family has not the queen"
    if not any(l.political == "king" for l in lords):
        return "the king is not in play"
    if queen.captive_of:
        return "the queen is captive"
    if any(l.political == "crown_prince" for l in lords):
        return "there is a crown prince already"
    return None


def titles_after_elimination(state: FiefState, gone: Lord) -> list[Event]:
    """Called once ``gone`` has left play. D.3.3: the crown prince obtains the king title. Ruling
    (the rulebook names the regent queen without saying when she reigns): with no crown prince,
    the widowed queen becomes regent queen; with one, the new king's spouse (if any) is queen
    and the widow loses the queen title. D.2.3.1: the pope's elimination lifts the
    excommunication."""
    events: list[Event] = []
    if gone.pope:
        for lord in state.lords.values():
            if lord.excommunicated:
                lord.excommunicated = False
                events.append(Event("excommunication_lifted", f"The pope is eliminated: {lord.name}'s "
                                    "excommunication is lifted (D.2.3.1).", data={"lord": lord.name}))
    if gone.political != "king":
        return events
    prince = next((l for l in state.lords.values() if l.political == "crown_prince"), None)
    queen = next((l for l in state.lords.values() if l.political == "queen"), None)
    if prince is None:
        if queen is not None:
            queen.political = "regent_queen"
            events.append(Event("regent_queen", f"The king is dead with no crown prince: {queen.name} "
                                f"({queen.family}) is regent queen.", data={"lord": queen.name}))
        return events
    if queen is not None:
        events += lose_queen(state, queen)
    return events + crown_king(state, prince, Event(
        "king", f"The king is dead: crown prince {prince.name} ({prince.family}) is king (D.3.3).",
        data={"lord": prince.name, "family": prince.family}))
