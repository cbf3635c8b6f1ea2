"""Full games of Kard és Korona by mail through the judge (Maildir), basic and advanced, for 2,
4 and 6 players, each to a winner, replayed exactly from the archive and diffed against a
readable golden record (tests/golden/kard_es_korona-*.json; tests/golden_record.py).

The players are test_kek_long_games.py's scripted ones, writing each mail from their own view.
The battles are the battle package's (pbem/games/kard_es_korona/battle/), the players' plans the
defaults; a meant change of the rules rewrites the records with PBEM_UPDATE_GOLDEN=1 (review the
diff).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from golden_record import check_golden, playthrough
from judge_support import Judge
from kek_mail_words import problems
from pbem.games import rules_for
from pbem.games.kard_es_korona import placement
from pbem.judge import archive
from test_kek_judge import play_by_mail
from test_kek_long_games import orders_for

RULES = rules_for("kard_es_korona")
GOLDEN = Path(__file__).parent / "golden"
PLAYERS = ("anna", "bela", "csilla", "dani", "ede", "feri")
MAX_TICKS = 200


def _mail(view: dict, player: str) -> str:
    if view["step"] == "placement":
        return placement.echo(placement.default(view, player)) + "\n"
    return RULES.echo_orders(view, player, orders_for(view, player))


@pytest.mark.parametrize("version", ["basic", "advanced"])
@pytest.mark.parametrize("count", [2, 4, 6])
def test_a_full_game_by_mail_to_a_winner(tmp_path, version: str, count: int) -> None:
    judge = Judge(tmp_path)
    name = f"korona{count}"
    judge.new_game(name, players=PLAYERS[:count], game_type="kard_es_korona", seed=f"full-{version}-{count}",
                   options={"version": version})
    game = play_by_mail(judge, name, lambda view, player, _phase: _mail(view, player), lambda state: False,
                        MAX_TICKS)   # bounded by count: a year is at most 6 phases
    store = judge.store()
    try:
        result = RULES.result(game.state)
        assert game.row["status"] == "over" and result is not None
        assert set(result.winners) <= set(PLAYERS[:count])
        replayed = archive.replay(store, game)
        assert replayed.ok, replayed
        check_golden(GOLDEN, f"kard_es_korona-{version}-{count}p.json", playthrough(store, game))
    finally:
        store.close()
    last = judge.sent_to(f"{PLAYERS[0]}@pbem.test")[-1].get_body(("plain",)).get_content()
    assert result.text in last                                       # every player is told who won
    _every_mail_reads_as_kard_es_korona(judge)


def _every_mail_reads_as_kard_es_korona(judge: Judge) -> None:
    """No mail of the game tells a player an internal id, JSON, an unfilled placeholder or a
    word of Fief (its money, towns, fiefs, France's titles): kek_mail_words."""
    found: dict[str, list[str]] = {}
    for mail in judge.sent():
        text = str(mail["Subject"]) + "\n" + mail.get_body(("plain",)).get_content()
        for problem in problems(text):
            found.setdefault(problem, []).append(str(mail["To"]))
    assert not found, "\n".join(f"{p} (to {', '.join(sorted(set(to)))})" for p, to in sorted(found.items())[:40])
