"""`pbem demo` plays a full round of Fief: France through the judge on the embedded default."""
from __future__ import annotations

from click.testing import CliRunner

from pbem.cli import main
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
