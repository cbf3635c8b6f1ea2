"""Issue 9: the judge's answer echoes a Fief player's orders in the order language itself
(pbem.games.fief.echo.orders), so the player reads them as they would write them and can send the
echo back unchanged. The round trip is the test: for every order set accepted in the golden
full games and in every scenario, checking the echo gives back the same canonical orders."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from judge_support import Judge
from pbem.games.fief_france.rules import RULES
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
    from test_fief_scenarios import run_step, starting_state   # the scenario runner moves the position on
    checked = 0
    for path in SCENARIOS:
        scenario = yaml.safe_load(path.read_text(encoding="utf-8"))
        if "battle" in scenario:
            continue   # a battle alone, no orders
        state = starting_state("fief_france", RULES, scenario["position"])
        steps = scenario.get("steps") or [{"orders": scenario.get("orders"), "expect": scenario.get("expect"),
                                           "resolve": scenario.get("resolve", True)}]
        for step in steps:
            for player, text in (step.get("orders") or {}).items():
                view = RULES.view(state, player)
                check = RULES.check_orders(view, player, load(text))
                if check.ok:
                    round_trip(view, player, check.orders)
                    checked += 1
            state, _ = run_step(RULES, state, step, step.get("dice", scenario.get("dice")))
    assert checked > 100, checked


# -- every order set of the golden games ---------------------------------------------------

@pytest.mark.parametrize("players", [("alice", "bob", "carol", "dave"),
                                     ("alice", "bob", "carol", "dave", "erin", "frank")])
def test_every_order_set_of_the_golden_games_comes_back_from_its_echo(tmp_path, monkeypatch, players) -> None:
    """The scripted games of test_fief_full_game.py, each mail's accepted orders echoed and
    checked again against the same view, as the judge checked them (every phase: setup, Hear Ye
    and its votes, draw and play, purchase, movement, battle; policies and triggers)."""
    from test_fief_full_game import SEED4, SEED6, play
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
    play(judge, "echoed", players, SEED4 if len(players) == 4 else SEED6)   # the golden games' seeds
    assert set(checked) >= {"setup", "hear_ye", "hear_ye_votes", "cards", "purchase", "movement", "battle"}, checked
    golden = json.loads((Path(__file__).parent / "golden" / f"fief_france-{len(players)}p.json").read_text())
    assert sum(checked.values()) == sum(len(phase["orders"] or {}) for phase in golden)   # every set


# -- through the judge ---------------------------------------------------------------------

def _last_answer(judge: Judge, player: str) -> str:
    answers = [m for m in judge.sent_to(f"{player}@pbem.test")
               if "Orders received" in m.get_body(("plain",)).get_content()]
    return answers[-1].get_body(("plain",)).get_content()


def _echo_in(answer: str) -> str:
    """The echo block of an ack: the indented lines under "This is what the judge understood"."""
    block = answer.split("(it replaces anything you sent before for this phase):\n\n", 1)[1]
    lines = []
    for line in block.splitlines():
        if not line.startswith("    "):
            break
        lines.append(line[4:])
    return "\n".join(lines)


def test_the_answer_to_a_setup_mail_echoes_start_and_the_echo_sent_back_is_the_same_set(tmp_path) -> None:
    judge = Judge(tmp_path)
    judge.new_game(name="loire", players=("alice", "bob", "carol"), game_type="fief_france", options={})
    judge.orders("loire", "alice", "setup/starting-towns",
                 "orders:\n  - start: [tours, Poitiers]\npolicies:\n  safe_passage: {allow: [bob]}\n")
    judge.tick()
    answer = _last_answer(judge, "alice")
    echo = _echo_in(answer)
    assert echo == ("orders:\n  - start: [Tours, Poitiers]\n"
                    "policies:\n  safe_passage:\n    allow: [bob]\n    others: refuse"), answer
    assert "towns:" not in answer and "null" not in answer
    # the player sends the echo back unchanged: accepted, and understood the same
    judge.orders("loire", "alice", "setup/starting-towns", echo + "\n")
    judge.tick()
    assert _echo_in(_last_answer(judge, "alice")) == echo
    store = judge.store()
    try:
        game = engine.load_game(store, "loire")
        rows = store.all("SELECT understood FROM order_mails WHERE game_id=? AND player='alice' ORDER BY id", game.id)
    finally:
        store.close()
    assert len(rows) == 2 and json.loads(rows[0]["understood"]) == json.loads(rows[1]["understood"])


def test_a_game_without_an_echo_of_its_own_keeps_the_judges_echo() -> None:
    from tinygame import RULES as TINY
    assert api.echo_orders(TINY, {}, "alice", {"bid": 3}) is None
    assert api.echo_orders(RULES, RULES.view(RULES.setup({}, ["a", "b", "c"], _rng()), "a"), "a",
                           {"towns": ["Tours"], "policies": {}}) == "orders:\n  - start: [Tours]"


def _rng():
    from pbem.rules.rng import Rng
    return Rng("echo")


# -- the orders no scenario nor golden game gives ------------------------------------------

TRIGGERS_MAIL = """orders: []
policies:
  calm_uprisings:
    as_bishop: yes
    as_cardinal: no
    except_raised_by: [bob]
  surprise:
    - underground_in_uprising: Nantes
    - uprising_before_move: Tours
      targets: [bob]
      underground: yes
      cards: 2
      against: [bob]
    - ambush: Charles
      in: Tours
      round: 2
    - at_phase_start: battle
      round: 3
      transfer: Paris
      to: bob
  new_cardinal: allow
  lower_ransom: refuse"""
TITLE_MAIL = """orders:
  - title: Bretagne
    lord: Henry
    city: Rennes
    heir: Blanche
policies:
  coalition:
    join: {bob: anywhere}
    accept: {}"""


@pytest.mark.parametrize("phase, hands, mail", [
    ("battle", {"ann": ["uprising", "underground", "ambush"]}, TRIGGERS_MAIL),
    ("purchase", {}, TITLE_MAIL)])
def test_an_order_set_written_as_the_echo_writes_it_is_echoed_as_written(phase, hands, mail) -> None:
    lords = {"Henry": {"family": "ann", "at": "Tours"}, "Blanche": {"family": "ann", "at": "Paris", "female": True},
             "Charles": {"family": "bob", "at": "Tours"}, "Arthur": {"family": "cid", "at": "Lyon"}}
    state = build_position({"players": ["ann", "bob", "cid"], "phase": phase, "round": 2, "hands": hands,
                            "lords": lords, "deniers": {"ann": 20},
                            "units": {"Tours": {"ann": {"knight": 2}, "bob": {"man_at_arms": 1}},
                                      "Paris": {"ann": {"knight": 1}, "bob": {"archer": 1}},
                                      "Rennes": {"ann": {"archer": 1}}, "Nantes": {"ann": {"archer": 1}}},
                            "towns": {"Tours": {"controller": "bob"}, "Paris": {"controller": "ann"},
                                      "Rennes": {"controller": "ann", "fortress": "stronghold"}}},
                           "fief_france").to_json()
    view = RULES.view(state, "ann")
    check = RULES.check_orders(view, "ann", load(mail))
    assert check.ok, [str(e) for e in check.errors]
    assert round_trip(view, "ann", check.orders) == mail
