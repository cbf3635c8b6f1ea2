"""A whole game of Kard és Korona played through the judge by mail (Maildir), to a winner:
each player orders from the report and the view the judge gives him, like a person."""
from __future__ import annotations

from judge_support import Judge
from pbem.games import rules_for
from pbem.judge import archive, engine

RULES = rules_for("kard_es_korona")


def _orders(phase_id: str, player: str, template: str, view: dict) -> str:
    step = phase_id.split("/")[-1]
    if step == "placement":
        return template                    # the report's own template: the default placement
    if step == "movement":
        return "steps: []\n"
    if step == "recruitment":
        return "recruit: {}\n"
    # elections: Anna bids for every office as soon as she has a garas
    return "bid: 1\n" if player == "anna" and view["treasury"][player] else "bid: 0\n"


def test_a_basic_game_by_mail_to_a_winner(tmp_path) -> None:
    judge = Judge(tmp_path / "home")
    judge.new_game("korona", players=("anna", "bela"), game_type="kard_es_korona", seed="kek-mail")
    store = judge.store()
    try:
        for _ in range(40):
            game = engine.load_game(store, "korona")
            if game.row["status"] != "running":
                break
            phase = game.rules.phase(game.state)
            for player in phase.deciders:
                view = game.rules.view(game.state, player)
                body = _orders(phase.id, player, game.rules.order_template(view, player), view)
                judge.orders("korona", player, phase.id, body)
            judge.tick(advance_hours=1)
        game = engine.load_game(store, "korona")
    finally:
        store.close()
    result = game.rules.result(game.state)
    assert result is not None and result.winners == ("anna",)          # V.II: every office in one election
    reports = [m for m in judge.sent_to("bela@pbem.test") if "KARD ES KORONA" in m.get_body(("plain",)).get_content()]
    assert reports, "the players get reports rendered from their view"
    last = judge.sent_to("bela@pbem.test")[-1].get_body(("plain",)).get_content()
    assert "anna wins every office in one election" in last


def test_the_demo_players_keep_the_peace_through_two_years(tmp_path) -> None:
    """The demo's players (main's `pbem demo --game kard_es_korona`), played through the judge."""
    rules = RULES
    judge = Judge(tmp_path / "home")
    judge.new_game("demo", players=rules.demo_players, game_type="kard_es_korona", seed="kek-demo")
    store = judge.store()
    try:
        first = engine.load_game(store, "demo").state
        for _ in range(20):
            game = engine.load_game(store, "demo")
            if rules.demo_done(first, game.state):
                break
            phase = game.rules.phase(game.state)
            for player in phase.deciders:
                judge.orders("demo", player, phase.id, rules.demo_orders(game.rules.view(game.state, player), player))
            judge.tick(advance_hours=1)
        game = engine.load_game(store, "demo")
        assert rules.demo_done(first, game.state) and game.state["year"] == 1303
        assert archive.replay(store, game).ok
        assert any(e for e in game.state["armies"].values() if sum(e["units"].values()) == 1
                   and e["owner"] in rules.demo_players)                      # someone stepped out
    finally:
        store.close()


def test_bids_and_treasuries_do_not_leak_by_mail(tmp_path) -> None:
    """IV; ruling K1: while bids are made no one reads another's treasury or bid in any mail."""
    judge = Judge(tmp_path / "home")
    judge.new_game("korona", players=("anna", "bela"), game_type="kard_es_korona", seed="kek-leak")
    store = judge.store()
    try:
        for _ in range(30):
            game = engine.load_game(store, "korona")
            phase = game.rules.phase(game.state)
            if phase.id.endswith("/election-judge_royal") and game.state["treasury"]["anna"] > 0:
                break
            for player in phase.deciders:
                view = game.rules.view(game.state, player)
                body = "bid: 0\n" if "election" in phase.id else _orders(
                    phase.id, player, game.rules.order_template(view, player), view)
                judge.orders("korona", player, phase.id, body)
            judge.tick(advance_hours=1)
        assert phase.id.endswith("/election-judge_royal"), phase.id
        treasury = game.state["treasury"]["anna"]
        before = len(judge.sent_to("bela@pbem.test"))
        judge.orders("korona", "anna", phase.id, "bid: 3\n")     # Bela has not bid yet: nothing resolves
        judge.tick(advance_hours=1)
    finally:
        store.close()
    opening = judge.sent_to("bela@pbem.test")[before - 1].get_body(("plain",)).get_content()
    position = opening[opening.index("PROVINCE LORDS"):]
    anna_line = next(line for line in position.splitlines() if line.strip().startswith("anna"))
    assert "treasury not shown during the election" in anna_line and str(treasury) not in anna_line
    for mail in judge.sent_to("bela@pbem.test")[before:]:
        text = mail.get_body(("plain",)).get_content()
        assert "bid: 3" not in text and "anna 3" not in text
