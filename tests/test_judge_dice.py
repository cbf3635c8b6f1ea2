"""A game keeps the dice it was created with (docs/architecture.md, "Chance and replay"): a new
game records the counter-based dice (version 2) in its stored options and every phase, action
and replay draws with them; a game stored before dice were versioned keeps random.Random."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from judge_support import Judge
from pbem.cli import main
from pbem.judge import archive, engine
from pbem.judge.store import Store, unpack_state
from pbem.rules.rng import DICE_KEY, DICE_VERSION, Rng
from test_stored_games import stored_home

SEED = "dice-seed"
PLAYERS = ("alice", "bob", "carol")


def played(tmp_path: Path) -> Judge:
    """A tiny game: the setup deals, one player shouts at once (a d6), the bids roll 3 d6."""
    judge = Judge(tmp_path)
    judge.new_game(name="g1", players=PLAYERS, seed=SEED)
    judge.orders("g1", "alice", "round-1/bid", "bid: 2\n", extra='shout: "hi"\n')
    for player in ("bob", "carol"):
        judge.orders("g1", player, "round-1/bid", "bid: 3\n")
    judge.tick()
    return judge


def test_a_new_game_stores_the_new_dice_and_draws_with_them(tmp_path):
    judge = played(tmp_path)
    store = judge.store()
    try:
        game = engine.load_game(store, "g1")
        options = json.loads(game.row["options"])
        assert options[DICE_KEY] == DICE_VERSION == 2 and engine.game_dice(game) == 2

        first = store.one("SELECT * FROM phases WHERE game_id=? AND seq=1", game.id)
        assert first["resolved_at"] is not None

        def setup(dice: int):
            return game.rules.setup(options, list(PLAYERS), Rng.for_phase(SEED, "setup", dice))
        assert json.loads(unpack_state(first["state_before"])) == setup(2) != setup(1)   # the deal

        def action_rolls(dice: int):
            rng = Rng.for_phase(SEED, "1:round-1/bid:at-once-1", dice)
            game.rules.act(setup(2), "alice", {"shout": "hi"}, rng)
            return rng.rolls
        action = store.one("SELECT * FROM actions WHERE game_id=? AND seq=1", game.id)
        assert json.loads(action["rolls"]) == [list(r) for r in action_rolls(2)] != [list(r) for r in action_rolls(1)]

        def phase_rolls(dice: int):
            rng = Rng.for_phase(SEED, "1:round-1/bid", dice)
            game.rules.resolve(json.loads(unpack_state(first["state_before"])), json.loads(first["orders_used"]), rng)
            return [list(r) for r in rng.rolls]
        assert json.loads(first["rolls"]) == phase_rolls(2) != phase_rolls(1)
        assert engine.phase_rng(game, 2, "round-1/tally").dice == 2

        assert archive.replay(store, game).ok
    finally:
        store.close()


def test_a_stored_game_without_the_key_keeps_the_old_dice(tmp_path):
    # A game stored before dice were versioned replays with version 1 (the proof that it replays
    # exactly is tests/test_stored_games.py); the same history under version 2 would not.
    store = Store(stored_home(tmp_path, "fief_france-demo-9311133.sqlite.gz") / "pbem.sqlite")
    try:
        game = engine.load_game(store, "demo")
        options = json.loads(game.row["options"])
        assert DICE_KEY not in options and engine.game_dice(game) == 1
        assert engine.phase_rng(game, 1, "setup").dice == engine.action_rng(game, 1, "setup", 1).dice == 1
        assert archive.replay(store, game).ok
        with store.transaction():
            store.run("UPDATE games SET options=? WHERE id=?", json.dumps({**options, DICE_KEY: 2}), game.id)
        assert not archive.replay(store, engine.reload(store, game)).ok
    finally:
        store.close()


def test_dice_this_pbem_does_not_know_are_a_clear_error(tmp_path):
    judge = Judge(tmp_path)
    judge.new_game(name="g1", players=PLAYERS, seed=SEED)
    store = judge.store()
    try:
        row = store.one("SELECT id, options FROM games WHERE name='g1'")
        with store.transaction():
            store.run("UPDATE games SET options=? WHERE id=?",
                      json.dumps({**json.loads(row["options"]), DICE_KEY: 9}), row["id"])
    finally:
        store.close()
    result = CliRunner().invoke(main, ["replay", "g1", "--home", str(judge.home.path)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)   # an error, not a crash
    assert "dice version 9, which this pbem does not know (it knows 1, 2)" in result.output, result.output
    assert "Traceback" not in result.output
