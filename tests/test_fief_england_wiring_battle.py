"""Fief: England's battle and purchase functions wired into the game (issue 11, part EW), each
through the engine - the Purchase or Battle mail, or the Invaders' step: trebuchets under
construction paid in the next Purchase (7.9), mercenary crossbowmen hired in the middle of a
battle (11.1, R41), an Abbey pillaged after the battles (2.13, 7.10), players attacking Invaders in
the Battle phase (6.x, 7.0) and the Royal Stronghold destroyed by the Invaders or a REBELLION
(4.9, 6.5, 10.1)."""
from __future__ import annotations

import copy

from pbem.games import rules_for
from pbem.games.fief.board import load_board
from pbem.games.fief.positions import build_position
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.invaders.armies import new_army, record
from pbem.orders.yamlsafe import load
from pbem.rules.rng import Rng
from test_fief_england_invaders import COMPASS, Script

RULES = rules_for("fief_england")
BOARD = load_board("fief_england")
THREE = ["ann", "bob", "cat"]


def position(**data) -> dict:
    data.setdefault("players", THREE)
    data.setdefault("round", 2)
    return build_position(data, "fief_england").to_json()


def check(state: dict, player: str, text: str):
    return RULES.check_orders(RULES.view(state, player), player, load(text))


def errors(state: dict, player: str, text: str) -> str:
    result = check(state, player, text)
    assert not result.ok, "the mail was accepted"
    return "\n".join(str(e) for e in result.errors)


def play(state: dict, mails: dict[str, str] | None = None, rng: Rng | None = None) -> tuple[dict, list]:
    """The phase resolved as the judge does: each mail checked against its player's view, the other
    deciders' default orders."""
    orders = {}
    for player in RULES.phase(state).deciders:
        view = RULES.view(state, player)
        if mails and player in mails:
            result = RULES.check_orders(view, player, load(mails[player]))
            assert result.ok, result.errors
            orders[player] = result.orders
        else:
            orders[player] = RULES.default_orders(view, player)
    before = copy.deepcopy(state)
    result = RULES.resolve(state, orders, rng or Rng("t"))
    assert state == before
    return result.state, list(result.events)


def at_once(state: dict, player: str, text: str, rng: Rng | None = None) -> tuple[dict, list]:
    result = RULES.check_at_once(RULES.view(state, player), player, load(text))
    assert result.ok, result.errors
    out = RULES.act(state, player, result.orders, rng or Rng("t"))
    return out.state, list(out.events)


def seen_by(events: list, player: str) -> str:
    return "\n".join(e.text for e in events if e.audience.sees(player))


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


# -- 5. The Royal Stronghold destroyed (4.9, 6.5, 10.1, R10, R29, R115) -----------------------------

ROYAL = {"royal_stronghold": {"city": "Lincoln", "family": "ann"}}


def test_the_invaders_taking_its_city_destroy_the_royal_stronghold() -> None:
    """4.9: "The Royal Stronghold can be destroyed by ... Invaders (6.5)"; R115: its marker goes back
    to the supply and the City is part of its Region again."""
    state = FiefState.from_json(position(
        phase="invaders", lords={"Henri": {"family": "ann", "at": "London", "political": "king"}},
        towns={"Lincoln": {"controller": "ann", "fortress": "stronghold"}}, edition_state=dict(ROYAL)))
    record(state)["armies"]["1"] = new_army("King's Lynn")
    from pbem.games.fief_england.invaders.phase import resolve_invaders
    events = resolve_invaders(state, BOARD, {}, Script(compass=["N", "S", "E", "W", "N"]), COMPASS)
    assert "royal_stronghold_destroyed" in kinds(events)
    assert state.towns["Lincoln"].fortress is None and "royal_stronghold" not in state.edition_state
    view = RULES.view(state.to_json(), "bob")
    assert view["royal_stronghold"]["city"] is None, "every player sees it gone"


def test_a_rebellion_that_defeats_every_troop_destroys_the_royal_stronghold() -> None:
    """4.9, 10.1, R29: the rebels destroy a Stronghold - the Royal Stronghold too; the City rejoins its
    Region, whose title then needs it again (R19 no longer applies)."""
    state = position(phase="movement", hands={"bob": ["rebellion", "rebellion"]},
                     effects=[{"card": "famine", "target": "IV"}],
                     lords={"Henri": {"family": "ann", "at": "London", "political": "king"}},
                     units={"Lincoln": {"ann": {"man_at_arms": 1}}},
                     towns={"Lincoln": {"controller": "ann", "fortress": "stronghold"}},
                     edition_state=dict(ROYAL))
    # two REBELLIONs, one cancelled by the Stronghold (10.1): 1 die (a blank) +1 hit
    state, events = at_once(state, "bob", "at_once:\n  - play: rebellion\n    in: Lincoln\n    cards: 2\n",
                            Script(battle=[0]))
    assert "royal_stronghold_destroyed" in kinds(events), seen_by(events, "bob")
    assert state["towns"]["Lincoln"]["fortress"] is None
    assert "royal_stronghold" not in state.get("edition_state", {})
