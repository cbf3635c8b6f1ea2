"""6.7 Invader captives and ransoms: a noble the Invaders capture in battle (7.6) lies beside the
Invader army and follows it (``Lord.captive_of`` is ``"invaders"``, the army's record lists the
captive, and the noble's location moves with the army). The ransom is 2 shillings plus 2 per
title held (6.7, Ex 6-5), paid to the supply at the beginning of the Purchase phase like any
ransom (7.7: forced when the family can pay it; R85). A captive is released where the army stands when
the army leaves England (6.9, 6.10) or loses its Leader (7.6: "if the Captor is Assassinated")."""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.edition import edition_of
from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief_england.church_hooks import captured   # 12.0, 13.2: relics and Excalibur dropped
from pbem.games.fief_england.invaders.armies import JAILER, army_name, numbers, record
from pbem.games.fief_england.royal import guard
from pbem.rules.api import Event


def ransom(lord: Lord) -> int:
    """6.7, Ex 6-5: 2 shillings plus 2 per title (Duke, Baron and Archbishop: 8)."""
    return numbers().ransom_base + numbers().ransom_per_title * lord.title_count()


def capture(state: FiefState, army_id: str, name: str) -> list[Event]:
    army = record(state)["armies"][army_id]
    lord = state.lords[name]
    lord.captive_of = JAILER
    lord.location = army["city"]
    army["captives"].append(name)
    return [Event("invaders_captive", f"{name} ({lord.family}) is taken captive by {army_name(army_id)} in "
                  f"{army['city']}; the ransom is {edition_of(state).money_text(ransom(lord))} (6.7).",
                  data={"army": army_id, "lord": name, "family": lord.family, "city": army["city"],
                        "ransom": ransom(lord)})] + guard.remove(state, name, f"{name} is taken captive") \
        + captured(state, lord)   # 13.1; 12.0, 13.2: the relics and Excalibur they carried


def release_all(state: FiefState, army_id: str, why: str, board: Board | None = None) -> list[Event]:
    """The army's captives set free where it stands; with ``board`` (a Danegeld or the Church
    sending the army away, version 3, R156) each is placed instead as 7.6 (l.555) says: in one of
    his family's Strongholds or Fortified Cities, or with a noble of his family (``freed_to``)."""
    army = record(state)["armies"][army_id]
    names = held(state, army_id)
    places = {n: freed_to(state, board, n, set(names)) for n in names} \
        if board is not None and state.rules_version >= 3 else {}
    events = []
    for name in names:
        lord = state.lords[name]
        lord.captive_of = None
        text = f"{name} ({lord.family}) is released in {lord.location}: {why}."
        placed = places.get(name)
        if placed is not None:
            lord.location, how = placed
            text = f"{name} ({lord.family}) is released ({why}) and placed {how} (7.6)."
        events.append(Event("invaders_captive_released", text,
                            data={"army": army_id, "lord": name, "family": lord.family, "city": lord.location}))
    army["captives"] = []
    return events


def freed_to(state: FiefState, board: Board, name: str, captives: set[str]) -> tuple[str, str] | None:
    """7.6 (l.555, R156): where the released captive ``name`` is placed, and how the report says
    it: the nearest by road from where he was held of his family's Strongholds and Fortified
    Cities and the Cities with a free noble of his family (the board's order of Cities at one
    distance); None when the family has neither (he stays where he was released)."""
    lord = state.lords[name]
    nobles: dict[str, str] = {}
    for other in state.lords.values():
        if other.family == lord.family and other.name not in captives and not other.captive_of and other.location:
            nobles.setdefault(other.location, other.name)

    def how(city: str) -> str | None:
        here = state.towns[city]
        if here.fortress and here.controller == lord.family:
            return f"in {city}, a {here.fortress.replace('_', ' ')} of his family"
        return f"in {city} with {nobles[city]} of his family" if city in nobles else None

    order = list(board.towns)
    seen = {lord.location} if lord.location in board.towns else set()
    layer = sorted(seen)
    while layer:
        found = [(c, how(c)) for c in layer if how(c)]
        if found:
            city, text = found[0]
            return city, str(text)
        nxt = {n for c in layer for n in board.neighbours(c) if n not in seen}
        seen |= nxt
        layer = sorted(nxt, key=order.index)
    return None


def held(state: FiefState, army_id: str) -> list[str]:
    """The army's captives still held: one ransomed (7.7), freed by PASSAGE (7.6) or slain since
    is dropped from its list."""
    army = record(state)["armies"][army_id]
    army["captives"] = [n for n in army["captives"] if n in state.lords and state.lords[n].captive_of == JAILER]
    return army["captives"]


def follow(state: FiefState, army_id: str) -> None:
    """6.7: the captives move with the army that holds them."""
    city = record(state)["armies"][army_id]["city"]
    for name in held(state, army_id):
        state.lords[name].location = city
