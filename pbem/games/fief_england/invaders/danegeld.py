"""6.9 Danegeld Bribe: at any time in the Invaders phase a non-captive noble in the same city as
an Invader army may pay 5 shillings to the supply to have it leave England; its captives are
released. The army may land again later (R13). Several players may pool the shillings, but by
carrier pigeon to the one who pays (2.15): by mail the payer's family pays it all. By mail a
`danegeld:` order of the Invaders phase (orders.py, ruling R81)."""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.edition import edition_of
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.invaders.armies import army_name, numbers, record
from pbem.games.fief_england.invaders.leaving import leave_england
from pbem.rules.api import Audience, Event


def pay_danegeld(state: FiefState, board: Board, noble: str, army_id: str) -> list[Event]:
    lord = state.lords[noble]
    family = state.families[lord.family]
    price = numbers().danegeld
    city = record(state)["armies"][army_id]["city"]
    money = edition_of(state).money_text
    if family.deniers < price:
        # money is secret (FAQ l.857): only the family learns why its bribe was not paid
        return [Event("invaders_danegeld_unpaid", f"{noble} cannot pay the Danegeld of {money(price)} to "
                      f"{army_name(army_id)} in {city}: {lord.family} has only {family.deniers} (6.9).",
                      Audience.only(lord.family), data={"lord": noble, "army": army_id, "city": city})]
    family.deniers -= price
    record(state).setdefault("sent_away", []).append(   # 13.3: the Garter may reward it (R28)
        {"round": state.round, "army": army_id, "lord": noble, "by": "danegeld"})
    events = [Event("invaders_danegeld", f"{noble} ({lord.family}) pays a Danegeld of {money(price)} to "
                    f"{army_name(army_id)} in {city} (6.9).",
                    data={"lord": noble, "family": lord.family, "army": army_id, "city": city, "shillings": price})]
    # 7.6 (l.555, R156): "any Captives held are released" and placed as released captives are
    return events + leave_england(state, army_id, "bribed with the Danegeld (6.9)", board)
