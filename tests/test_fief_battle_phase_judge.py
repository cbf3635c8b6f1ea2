"""A whole Fief: France round with a battle, through the judge (mail in, reports out):
setup, purchase and movement bring alice's army next to bob's, the Battle Phase takes every
player's mail, fights the declared battle and tells it to everyone."""
from __future__ import annotations

from judge_support import Judge
from pbem.judge.engine import current_phase, load_game


def state_and_phase(judge: Judge, name: str):
    store = judge.store()
    try:
        game = load_game(store, name)
        return game.state, current_phase(game).id
    finally:
        store.close()


def test_a_round_with_a_battle_runs_through_the_judge(tmp_path) -> None:
    judge = Judge(tmp_path / "home")
    players = ("alice", "bob", "carol")
    judge.new_game(name="loire", players=players, game_type="fief_france")
    judge.tick()
    for p, town in zip(players, ("Tours", "Poitiers", "Lyon"), strict=True):
        judge.orders("loire", p, "setup/starting-towns", f"orders:\n  - start: [{town}]\n")
    judge.tick()
    for p in players:   # the Cards Phase (2.2): nobody draws
        judge.orders("loire", p, "round-1/cards-draw", "orders: []\n")
    judge.tick()
    state, phase = state_and_phase(judge, "loire")
    assert phase == "round-1/purchase"
    # alice buys a knight: with an untitled lady (0 CP, 6.2.3.1) her army would roll no die
    # against bob's stronghold (6.2.3.2).
    judge.orders("loire", "alice", phase, "orders:\n  - buy: knight\n    in: Tours\n")
    for p in ("bob", "carol"):
        judge.orders("loire", p, phase, "orders: []\n")
    judge.tick()
    state, phase = state_and_phase(judge, "loire")
    assert phase == "round-1/movement"
    lord = next(n for n, lo in state["lords"].items() if lo["family"] == "alice")
    judge.orders("loire", "alice", phase, f"orders:\n  - move: {lord}\n    with: all\n    path: [Poitiers]\n"
                 "    if_refused: stay\n")
    for p in ("bob", "carol"):
        judge.orders("loire", p, phase, "orders: []\n")
    judge.tick()
    state, phase = state_and_phase(judge, "loire")
    assert phase == "round-1/battle"
    assert state["lords"][lord]["location"] == "Poitiers"
    before = len(judge.sent())
    judge.orders("loire", "alice", phase, "orders:\n  - attack: bob\n    in: Poitiers\n"
                 "policies:\n  battle_plan: {surrender: never, stop: {when: never}}\n")
    judge.orders("loire", "bob", phase,
                 "orders: []\npolicies:\n  battle_plan: {losses: [archer, man_at_arms, knight]}\n")
    judge.orders("loire", "carol", phase, "orders: []\n")
    judge.tick()
    state, phase = state_and_phase(judge, "loire")
    assert phase.startswith("round-2/") or phase == "round-1/end-of-round" or phase.endswith("/over")
    reports = [m for m in judge.sent()[before:] if "resolved" in str(m["Subject"])]
    assert all(any(f"{p}@pbem.test" in str(m["To"]) for m in reports) for p in players)
    for mail in reports:
        text = mail.get_body(preferencelist=("plain",)).get_content()
        assert "alice attacks bob in Poitiers" in text, text[:3000]
        assert "Battle round 1 in Poitiers" in text
    assert state["families"]["alice"]["policies"]["battle_plan"] == {"surrender": "never", "stop": {"when": "never"}}
