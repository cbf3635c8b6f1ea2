"""Issue 9: the judge's answer echoes a Fief player's orders in the order language itself
(pbem.games.fief.echo), so the player reads them as they would write them and can send the
echo back unchanged. The round trip is the test: for every order set accepted in the golden
full games and in every scenario, checking the echo gives back the same canonical orders."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from judge_support import Judge
from pbem.games.fief.france import RULES
from pbem.games.fief.game import FiefRules
from pbem.games.fief.positions import build_position
from pbem.judge import engine
from pbem.orders.yamlsafe import load
from pbem.rules import api

SCENARIOS = sorted((Path(__file__).parent / "scenarios" / "fief_france").glob("*.yaml"))


def round_trip(view: dict, player: str, canonical: dict, check=FiefRules.check_orders) -> str:
    """Echo ``canonical``, check the echo as a mail's orders: the same canonical orders."""
    text = RULES.echo_orders(view, player, canonical)
    again = check(RULES, view, player, load(text))
    assert again.ok, f"the echo of {canonical} is refused:\n{text}\n" + "\n".join(map(str, again.errors))
    assert again.orders == canonical, f"the echo\n{text}\nreads as\n{again.orders}\nnot\n{canonical}"
    return text


# -- every scenario's orders ---------------------------------------------------------------

def test_every_scenario_order_set_comes_back_from_its_echo() -> None:
    from test_fief_scenarios import run_step   # the scenario runner moves the position on
    checked = 0
    for path in SCENARIOS:
        scenario = yaml.safe_load(path.read_text(encoding="utf-8"))
        if "battle" in scenario:
            continue   # a battle alone, no orders
        state = build_position(scenario["position"]).to_json()
        steps = scenario.get("steps") or [{"orders": scenario.get("orders"), "expect": scenario.get("expect"),
                                           "resolve": scenario.get("resolve", True)}]
        for step in steps:
            for player, text in (step.get("orders") or {}).items():
                view = RULES.view(state, player)
                check = RULES.check_orders(view, player, load(text))
                if check.ok:
                    round_trip(view, player, check.orders)
                    checked += 1
            state = run_step(state, step, step.get("dice", scenario.get("dice")))
    assert checked > 100, checked


# -- every order set of the golden games ---------------------------------------------------

@pytest.mark.parametrize("players", [("alice", "bob", "carol", "dave"),
                                     ("alice", "bob", "carol", "dave", "erin", "frank")])
def test_every_order_set_of_the_golden_games_comes_back_from_its_echo(tmp_path, monkeypatch, players) -> None:
    """The scripted games of test_fief_full_game.py, each mail's accepted orders echoed and
    checked again against the same view, as the judge checked them (every phase: setup, Hear Ye
    and its votes, draw and play, purchase, movement, battle; policies and triggers)."""
    from test_fief_full_game import SEED4, play
    checked: dict[str, int] = {}
    check = FiefRules.check_orders

    def checking(self, view, player, document):
        result = check(self, view, player, document)
        if result.ok:
            round_trip(view, player, result.orders, check)
            checked[view["phase"]] = checked.get(view["phase"], 0) + 1
        return result

    monkeypatch.setattr(FiefRules, "check_orders", checking)
    judge = Judge(tmp_path)
    play(judge, "echoed", players, SEED4)
    assert set(checked) >= {"setup", "hear_ye", "hear_ye_votes", "cards", "purchase", "movement", "battle"}, checked
    golden = json.loads((Path(__file__).parent / "golden" / f"fief_france-{len(players)}p.json").read_text())
    assert sum(checked.values()) == sum(len(phase["orders"] or {}) for phase in golden)   # every set
