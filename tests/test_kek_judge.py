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


def play_by_mail(judge: Judge, name: str, write, stop, ticks: int) -> engine.Game:
    """Each decider mails what ``write(view, player, phase_id)`` gives, then a tick, until
    ``stop(state)`` or the game is over (at most ``ticks`` ticks); the game as it ends."""
    store = judge.store()
    try:
        for _ in range(ticks):
            game = engine.load_game(store, name)
            if game.row["status"] != "running" or stop(game.state):
                break
            phase = game.rules.phase(game.state)
            for player in phase.deciders:
                judge.orders(name, player, phase.id, write(game.rules.view(game.state, player), player, phase.id))
            judge.tick(advance_hours=1)
        return engine.load_game(store, name)
    finally:
        store.close()


def test_a_basic_game_by_mail_to_a_winner(tmp_path) -> None:
    judge = Judge(tmp_path / "home")
    judge.new_game("korona", players=("anna", "bela"), game_type="kard_es_korona", seed="kek-mail")
    game = play_by_mail(judge, "korona", lambda view, player, phase: _orders(
        phase, player, RULES.order_template(view, player), view), lambda state: False, 40)
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
    first = engine.load_game(store, "demo").state
    store.close()
    game = play_by_mail(judge, "demo", lambda view, player, _phase: rules.demo_orders(view, player),
                        lambda state: rules.demo_done(first, state), 20)
    assert rules.demo_done(first, game.state) and game.state["year"] == 1303
    store = judge.store()
    try:
        assert archive.replay(store, game).ok
    finally:
        store.close()
    assert any(e for e in game.state["armies"].values() if sum(e["units"].values()) == 1
               and e["owner"] in rules.demo_players)                      # someone stepped out


def test_bids_and_treasuries_do_not_leak_by_mail(tmp_path) -> None:
    """IV; ruling K1: while bids are made no one reads another's treasury or bid in any mail."""
    judge = Judge(tmp_path / "home")
    judge.new_game("korona", players=("anna", "bela"), game_type="kard_es_korona", seed="kek-leak")
    def ready(state: dict) -> bool:
        return state["step"] == "election-judge_royal" and state["treasury"]["anna"] > 0

    def write(view: dict, player: str, phase: str) -> str:
        return "bid: 0\n" if "election" in phase else _orders(phase, player, RULES.order_template(view, player), view)
    game = play_by_mail(judge, "korona", write, ready, 30)
    phase = game.rules.phase(game.state)
    assert phase.id.endswith("/election-judge_royal"), phase.id
    treasury = game.state["treasury"]["anna"]
    before = len(judge.sent_to("bela@pbem.test"))
    judge.orders("korona", "anna", phase.id, "bid: 3\n")     # Bela has not bid yet: nothing resolves
    judge.tick(advance_hours=1)
    opening = judge.sent_to("bela@pbem.test")[before - 1].get_body(("plain",)).get_content()
    position = opening[opening.index("PROVINCE LORDS"):]
    anna_line = next(line for line in position.splitlines() if line.strip().startswith("anna"))
    assert "treasury not shown during the election" in anna_line and str(treasury) not in anna_line
    for mail in judge.sent_to("bela@pbem.test")[before:]:
        text = mail.get_body(("plain",)).get_content()
        assert "bid: 3" not in text and "anna 3" not in text


def test_gifts_of_garas_are_done_at_once_but_not_during_an_election(tmp_path) -> None:
    """I: players may hand each other money; IV: not while officials are elected."""
    judge = Judge(tmp_path / "home")
    judge.new_game("korona", players=("anna", "bela"), game_type="kard_es_korona", seed="kek-leak")

    def write(view: dict, player: str, phase: str) -> str:
        return "bid: 0\n" if "election" in phase else _orders(phase, player, RULES.order_template(view, player), view)
    game = play_by_mail(judge, "korona", write, lambda state: state["step"] == "recruitment", 20)
    before = dict(game.state["treasury"])
    judge.orders("korona", "anna", RULES.phase(game.state).id, "give: {bela: 3}\n")
    judge.tick(advance_hours=1)
    store = judge.store()
    try:
        after = engine.load_game(store, "korona").state["treasury"]
    finally:
        store.close()
    assert after == {"anna": before["anna"] - 3, "bela": before["bela"] + 3}
    news = judge.sent_to("bela@pbem.test")[-1].get_body(("plain",)).get_content()
    assert "anna gives bela 3 garas" in news
    game = play_by_mail(judge, "korona", write, lambda state: state["step"].startswith("election-"), 40)
    assert game.state["step"].startswith("election-")
    judge.orders("korona", "anna", RULES.phase(game.state).id, "give: {bela: 1}\n")
    judge.tick(advance_hours=1)
    refusal = judge.sent_to("anna@pbem.test")[-1].get_body(("plain",)).get_content()
    assert "no money changes hands during an election (IV)" in refusal


def test_each_election_bid_gets_a_third_of_the_phase_hours(tmp_path) -> None:
    """Ruling K6: three short phases (Phase.share): an election costs one phase's time by mail."""
    judge = Judge(tmp_path / "home")
    judge.new_game("korona", players=("anna", "bela"), game_type="kard_es_korona", seed="kek-leak", phase_hours=48)

    def write(view: dict, player: str, phase: str) -> str:
        return _orders(phase, player, RULES.order_template(view, player), view)
    game = play_by_mail(judge, "korona", write, lambda state: state["step"].startswith("election-"), 30)
    assert game.state["step"] == "election-judge_royal"
    opened = judge.store()
    try:
        row = opened.row("SELECT opened_at FROM phases WHERE game_id=? ORDER BY seq DESC LIMIT 1", game.id)
        assert game.row["deadline"] - row["opened_at"] == 16 * 3600
    finally:
        opened.close()
