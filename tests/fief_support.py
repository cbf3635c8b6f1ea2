"""Helpers shared by the Fief rules tests."""
from __future__ import annotations

import copy

from pbem.games.fief_france.rules import RULES
from pbem.orders.yamlsafe import load
from pbem.rules.rng import Rng


def resolve(state: dict, orders: dict, rng: Rng | None = None) -> tuple[dict, list]:
    """Resolve the current phase, checking that the rules leave their input untouched."""
    before = copy.deepcopy(state)
    result = RULES.resolve(state, orders, rng or Rng("t"))
    assert state == before, "resolve must not mutate its input"
    return result.state, list(result.events)


def send(state: dict, player: str, text: str):
    """Check an order document as the judge does: against the player's own view."""
    return RULES.check_orders(RULES.view(state, player), player, load(text))


check = send


def act(state: dict, player: str, text: str, rng: Rng | None = None) -> tuple[dict, list]:
    """Do a mail's at-once part (`diplomacy:`) as the judge does when it accepts the mail:
    checked against the player's view, then applied (the input left untouched)."""
    check = check_at_once(state, player, text)
    assert check.ok, check.errors
    before = copy.deepcopy(state)
    result = RULES.act(state, player, check.orders, rng or Rng("t"))
    assert state == before, "act must not mutate its input"
    return result.state, list(result.events)


def check_at_once(state: dict, player: str, text: str):
    return RULES.check_at_once(RULES.view(state, player), player, load(text))


def errors(state: dict, player: str, text: str) -> str:
    """The errors an order document gets, joined; the document must be refused."""
    result = send(state, player, text)
    assert not result.ok
    return " | ".join(str(e) for e in result.errors)


def pawns_by_town(state, family: str) -> dict[str, int]:
    """How many unit pawns of ``family`` stand in each place (a FiefState)."""
    out: dict[str, int] = {}
    for pawn in state.pawns.values():
        if pawn.family == family:
            out[pawn.location] = out.get(pawn.location, 0) + 1
    return out


def build_with(data: dict, extra: dict):
    """build_position(data) with ``extra`` merged in: a mapping is updated key by key (more
    lords, more units), anything else replaced."""
    from pbem.games.fief.positions import build_position
    data = dict(data)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(data.get(key), dict):
            data[key] = {**data[key], **value}
        else:
            data[key] = value
    return build_position(data, "fief_france")
