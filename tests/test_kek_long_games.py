"""Whole games of Kard és Korona, 2 to 6 players, both versions, played to their end through the
rules with scripted players who spread into the counties around them, recruit and bid. The
battles are the battle package's, with the players' default battle plans (rulings B2, B4) and,
in the advanced game, a retreat when an army is down to one unit (VI).
These games exercise every phase, the battle step's consequences (captures, oaths,
eliminations) and the victory checks; each replays exactly."""
from __future__ import annotations

import pytest

from kek_support import RULES, new_game
from pbem.games.kard_es_korona.board import load_board
from pbem.games.kard_es_korona.routes import cheapest, points
from pbem.games.kard_es_korona.state import castle_problem, total
from pbem.games.kard_es_korona.units import UNIT_KINDS
from pbem.rules.rng import Rng

PLAYERS = ["Anna", "Bela", "Csilla", "Dani", "Ede", "Feri"]
MAX_PHASES = 400


def orders_for(view: dict, player: str) -> dict:
    step = view["step"]
    if step == "movement":
        battle = {"if_defeated": "oath", "after_victory": None}
        if view["version"] == "advanced":   # VI: an army down to one unit retreats (when it may)
            battle = {"retreat": {"units_at_most": 1}, **battle}
        return {"steps": _spread(view, player), "battle": battle, "veto": []}
    if step == "recruitment":
        return {"recruit": _recruit(view, player), "ransom": player in view["captive"]
                and view["treasury"][player] >= 20}
    if step.startswith("election-"):
        return {"bid": min(view["treasury"][player], 2 + len(player) % 3), "if_tied": []}
    return RULES.default_orders(view, player)


def _spread(view: dict, player: str) -> list[dict]:
    """Each step: one unit from a county of his into an empty neighbour, or all but one into
    others' units when that is three or more (one unit always stays: the lord's escort)."""
    board = load_board(view["version"])
    steps, used = [], set()
    for county, army in sorted(view["armies"].items()):
        if len(steps) >= view["steps_allowed"][player]:
            break
        if army["owner"] != player or total(army["units"]) < 2:
            continue
        for target in sorted(board.borders[county]):
            if target in used or target in view["closed"]:
                continue
            other = view["armies"].get(target)
            if other and other["owner"] == player:
                continue
            n = total(army["units"]) - 1 if other else 1
            if other and n < 3:
                continue
            moving = {k: 0 for k in UNIT_KINDS}
            for kind in ("cavalry", "infantry", "archers"):
                take = min(army["units"][kind], n - total(moving))
                moving[kind] = take
            cost = cheapest(board, county, target, lambda c: False)
            if cost is None or cost > points(moving, False):
                continue
            steps.append({"to": target, "from": {county: moving}, "lord": False})
            used.add(target)
            break
    return steps


def _recruit(view: dict, player: str) -> dict:
    board = load_board(view["version"])
    money = view["treasury"][player] - (20 if player in view["captive"] else 0) - 4   # keep some for bids
    out = {}
    for castle in board.castles():
        here = view["armies"].get(castle)
        if view["owner"].get(castle) != player or (here and here["owner"] != player):
            continue
        units = dict(here["units"]) if here else {k: 0 for k in UNIT_KINDS}
        add = {k: 0 for k in UNIT_KINDS}
        for kind in ("infantry", "archers", "infantry", "archers"):
            trial = {k: units[k] + add[k] + (1 if k == kind else 0) for k in UNIT_KINDS}
            if money >= 5 and castle_problem(view["version"], trial) is None:
                add[kind] += 1
                money -= 5
        if total(add):
            out[castle] = add
    return out


def play(version: str, count: int, seed: str) -> tuple[dict, list[str]]:
    state = new_game(PLAYERS[:count], seed=seed, version=version)
    log: list[str] = []
    for _ in range(MAX_PHASES):
        if RULES.result(state) is not None:
            break
        phase = RULES.phase(state)
        orders = {p: orders_for(RULES.view(state, p), p) for p in phase.deciders}
        for player, given in orders.items():    # what a player mails is checked like a mail
            view = RULES.view(state, player)
            if phase.deciders and view["step"] != "placement":
                from pbem.orders.yamlsafe import load
                again = RULES.check_orders(view, player, load(RULES.echo_orders(view, player, given)))
                assert again.ok, (phase.id, player, [str(e) for e in again.errors])
                orders[player] = again.orders
        resolution = RULES.resolve(state, orders, Rng(f"{seed}/{phase.id}"))
        state = resolution.state
        log += [e.text for e in resolution.events]
    return state, log


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("version", ["basic", "advanced"])
def test_a_whole_game_to_its_end_and_its_exact_replay(version: str, count: int) -> None:
    state, log = play(version, count, f"long-{version}-{count}")
    result = RULES.result(state)
    assert result is not None, log[-20:]
    assert any(e.startswith(("The battle of", "The siege of")) for e in log), "the scripted players meet in battle"
    for county, army in state["armies"].items():
        assert total(army["units"]) > 0 and all(n >= 0 for n in army["units"].values())
        if load_board(version).counties[county].castle:   # losses may break the half rule (K5), not the 7
            assert total(army["units"]) <= 7, county
    again, log_again = play(version, count, f"long-{version}-{count}")
    assert again == state and log_again == log                         # the same dice, the same game
