"""A whole game of Kard és Korona played through the judge by mail (Maildir), to a winner:
each player orders from the report and the view the judge gives him, like a person."""
from __future__ import annotations

from judge_support import Judge
from pbem.judge import engine


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


def test_the_demo_plays_kard_es_korona(tmp_path) -> None:
    from click.testing import CliRunner

    from pbem.cli import main
    from pbem.judge import archive
    from pbem.judge.store import Store
    home = tmp_path / "demo"
    result = CliRunner().invoke(main, ["demo", "--home", str(home), "--game", "kard_es_korona"])
    assert result.exit_code == 0, result.output
    assert "started Kard és Korona game 'demo'" in result.output
    assert "resolved demo: 1302/movement" in result.output
    store = Store(home / "pbem.sqlite")
    try:
        game = engine.load_game(store, "demo")
        assert game.state["year"] == 1303 and archive.replay(store, game).ok
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
