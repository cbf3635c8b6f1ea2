"""The benchmark's builder (bench/build.py) still builds what bench/run.py measures: a benchmark
nobody runs rots. Counts only: the benchmark's times are never asserted."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.build import build, progress  # noqa: E402
from pbem.judge.tick import run_tick  # noqa: E402


def test_the_bench_builds_two_four_player_games_with_every_order_mail_waiting_and_one_tick_ends_the_phase(tmp_path):
    built = build(tmp_path / "home", 2, history=3)
    assert (built.games, built.players, built.order_mails) == (2, 8, 8)
    before = progress(built.home)
    assert before == {"games": 2, "players": 8, "resolved_games": 0, "orders": 0, "outbox_pending": 0,
                      "mails_sent": 0, "inbox_pending": 8}
    assert len(list((built.home.path / "mail" / "inbox" / "cur").iterdir())) == 3
    report = run_tick(built.home)
    assert report.mails == {"orders accepted": 8} and not report.errors
    after = progress(built.home)
    assert after["resolved_games"] == 2 and after["orders"] == 8
    assert after["inbox_pending"] == 0 and after["outbox_pending"] == 0
    # An answer to each order mail; a report to each player and each game master.
    assert after["mails_sent"] == 8 + 2 * 5


@pytest.mark.e2e
def test_the_imap_bench_moves_every_order_mail_through_dovecot_and_counts_both_sides(tmp_path, mail_servers):
    from bench.imap import measure
    figures = measure(mail_servers, 8, ROOT, tmp_path)
    assert figures["mails"] == figures["peer_mails"] == figures["bulk_mails"] == figures["pbem_mails"] == 8
    assert figures["outcomes"] == {"orders accepted": 8}
    assert (figures["moved"], figures["left"]) == (8, 0)


def test_the_disk_bench_plays_a_second_phase_and_measures_what_it_added(tmp_path):
    from bench.disk import measure
    figures = measure(tmp_path, 2, 1)
    assert (figures["ordered"], figures["order_mails"]) == (1, 8)
    assert figures["end"] > figures["start"] and figures["per_game_phase"] > 0


@pytest.mark.e2e
def test_the_smtp_bench_delivers_every_mail_of_both_sides(mail_servers):
    from bench.smtp import delivered, mails, pbem, peer
    before = delivered(mail_servers)
    peer(mail_servers, mails(mail_servers, 6, "peer"))
    pbem(mail_servers, mails(mail_servers, 6, "pbem"), concurrency=3)
    assert delivered(mail_servers) - before == 12


def test_the_smtp_bench_with_a_delivery_time_sends_every_mail_of_both_sides_to_the_sink():
    from bench.smtp import SinkServers, runs
    with SinkServers(delay_ms=1) as servers:
        rows, expected = runs(servers, argparse.Namespace(mails=5, concurrency=[2, 3]))
        assert [name for name, _ in rows][1:] == ["pbem SmtpSender, concurrency 2", "pbem SmtpSender, concurrency 3"]
        assert servers.sink.mails == expected == 15


@pytest.mark.e2e
def test_the_servers_bench_reads_from_dovecot_and_sends_every_mail_over_smtp(tmp_path, mail_servers):
    from bench.servers import measure
    figures = measure(mail_servers, 2, 2, 40, tmp_path)
    assert (figures["order_mails"], figures["mails_in"]) == (8, 8)
    assert figures["sent"] == figures["smtp_mails"] == 8 + 2 * 5
    assert figures["progress"]["inbox_pending"] == 0 and figures["progress"]["resolved_games"] == 2


def test_the_picture_bench_draws_every_view_of_the_demo_game(capsys):
    from bench.picture import main
    main(["--runs", "1"])
    lines = capsys.readouterr().out.splitlines()
    views = [line.split() for line in lines[1:-1]]
    assert [v[0] for v in views[:-1]] == ["alice", "bob", "carol", "dave"] and views[-1][:2] == ["game", "master"]
    assert all(int(v[-1]) > 10_000 for v in views)       # a PNG's bytes
    assert lines[-1].startswith("the first picture of a fresh process:")


def test_the_bench_runs_ticks_until_every_game_is_resolved(monkeypatch, tmp_path):
    """A tick whose budget stopped resolving may have sent all it queued: no mail is left
    waiting, but games are; the bench runs another tick (it once counted such a phase as done)."""
    import json
    import subprocess

    import bench.run as run

    ticks: list[int] = []
    figures = {"steps": {}, "mails": 0, "outcomes": {}, "resolved": 0, "sent": 0, "errors": [], "cpu": 1.0,
               "main_cpu": 1.0, "maxrss_kb": 1024}
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: ticks.append(1) or subprocess.CompletedProcess(
        a, 0, stdout=json.dumps(figures) + "\n", stderr=""))
    monkeypatch.setattr(run, "_home", lambda path: path)
    monkeypatch.setattr(run, "progress", lambda home: {
        "games": 3, "resolved_games": 2 if len(ticks) < 2 else 3, "inbox_pending": 0, "outbox_pending": 0})
    assert run.run_ticks(tmp_path)["ticks"] == 2


def test_the_goals_bench_measures_the_maildir_smtp_and_disk_goals_at_a_small_size(tmp_path):
    from bench.goals import disk_row, maildir_rows, smtp_row
    rows = maildir_rows(tmp_path, 10, history=20, idle_runs=1) + [smtp_row(4, 1), disk_row(tmp_path, 2, 1)]
    assert [row.goal.split(",")[0].split(" (")[0] for row in rows] == [
        "10 games' phase in one tick", "t(10 games) / t(1 games)", "peak memory of a tick",
        "idle tick / pbem --help", "sending", "store per game per ordered phase"]
    assert all(row.value > 0 for row in rows)
    # The verdict follows the goal's direction, whatever the times measured were.
    assert [(row.at_most, row.limit) for row in rows] == [
        (True, 60), (True, 11), (True, 200), (True, 1.2), (False, 5), (True, 15)]
