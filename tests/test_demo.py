"""`pbem demo` plays a full round of Fief: France through the judge on the embedded default, and
any other game type with its own demo players or, without them, its order templates."""
from __future__ import annotations

from click.testing import CliRunner

import judge_support  # noqa: F401  (registers the tiny test game)
from pbem.cli import main
from pbem.demo import run_demo
from pbem.judge import archive, engine
from pbem.judge.store import Store


def test_the_demo_resolves_a_full_round_and_shows_where_every_report_is(tmp_path):
    home = tmp_path / "demo"
    result = CliRunner().invoke(main, ["demo", "--home", str(home)])
    assert result.exit_code == 0, result.output
    for player in ("alice", "bob", "carol", "dave"):
        folder = home / "mail" / "outbox" / f"{player}@example.org"
        assert f"{player}@example.org: {folder}" in result.output
        assert len(list((folder / "new").iterdir())) >= 5   # welcome, acks, reports
    assert "resolved demo: round-1/end-of-round" in result.output
    store = Store(home / "pbem.sqlite")
    game = engine.load_game(store, "demo")
    assert game.state["round"] == 2
    assert archive.replay(store, game).ok
    store.close()
    # A second run in the same home starts a second game beside the first.
    again = CliRunner().invoke(main, ["demo", "--home", str(home)])
    assert again.exit_code == 0 and "game 'demo1'" in again.output


def test_a_game_without_demo_players_is_demonstrated_with_its_order_templates(tmp_path):
    """The tiny test game has no PlaysDemo: its first min_players demo names send the order
    template (the default orders) until the game ends or DEMO_PHASES phases resolved."""
    lines = list(run_demo(tmp_path / "demo", "tiny"))
    assert "started Tiny Bidding game 'demo' with alice, bob" in lines[1], lines[:3]
    assert any(line.startswith("  tick: resolved demo: ") for line in lines), lines
    store = Store(tmp_path / "demo" / "pbem.sqlite")
    game = engine.load_game(store, "demo")
    assert archive.replay(store, game).ok
    store.close()


def test_demo_of_an_unknown_game_type_names_the_known_ones(tmp_path):
    result = CliRunner().invoke(main, ["demo", "--home", str(tmp_path / "d"), "--game", "chess"])
    assert result.exit_code != 0
    assert "fief_france" in result.output and "chess" in result.output
