"""The judge's at-once actions (pbem.rules.api.ActsAtOnce), through Fief's diplomacy (F: "at
any time"): done as soon as the mail is read, told at once to those who may see it, from any
player whatever the phase, never half done, archived, replayed and kept by a rollback."""
from __future__ import annotations

import json

import pytest

from pbem.judge import archive, engine, gm

from judge_support import Judge

SETUP = "setup/starting-towns"
TOWNS = {"alice": "Tours, Poitiers", "bob": "Bordeaux, Pau", "carol": "Lyon, Dijon"}


def body(mail) -> str:
    return mail.get_body(("plain",)).get_content()


def started(tmp_path) -> Judge:
    judge = Judge(tmp_path)
    judge.new_game(name="loire", players=("alice", "bob", "carol"), game_type="fief_france")
    judge.tick()
    return judge


def state(judge: Judge) -> dict:
    store = judge.store()
    try:
        return engine.load_game(store, "loire").state
    finally:
        store.close()


def outcomes(judge: Judge) -> list[str]:
    store = judge.store()
    try:
        return [r["outcome"] for r in store.all("SELECT outcome FROM processed ORDER BY rowid")]
    finally:
        store.close()


def test_a_private_message_is_relayed_at_once_before_the_phase_resolves(tmp_path):
    judge = started(tmp_path)
    before = {p: len(judge.sent_to(f"{p}@pbem.test")) for p in TOWNS}
    judge.orders("loire", "alice", SETUP, 'diplomacy:\n  - message: "Meet me in Tours."\n    to: bob\n')
    judge.tick()
    assert outcomes(judge)[-1] == "acted at once"
    news = judge.sent_to("bob@pbem.test")[before["bob"]:]
    assert len(news) == 1 and "News from alice" in str(news[0]["Subject"])
    assert "Meet me in Tours." in body(news[0])
    carol = judge.sent_to("carol@pbem.test")[before["carol"]:]
    assert len(carol) == 1 and "private talk" in body(carol[0]) and "Tours." not in body(carol[0])
    ack = judge.sent_to("alice@pbem.test")[-1]
    assert "Done at once" in body(ack) and "Meet me in Tours." in body(ack)
    assert "orders for setup/starting-towns" in body(ack) and "unchanged" in body(ack)
    # the phase still waits on everyone: a diplomacy-only mail is not an order set
    store = judge.store()
    game = engine.load_game(store, "loire")
    assert engine.current_phase(game).id == SETUP and engine.orders_status(store, game)[1] == []
    store.close()
    assert state(judge)["families"]["alice"]["diplomacy_pawns"] == 2


def past_setup_in(judge: Judge, phase: str, hands: dict[str, list[str]]) -> tuple[dict, str]:
    """Every player's starting towns mailed and resolved, then the game put in ``phase`` of
    round 1 with these hands (a test's shortcut: such a game no longer replays). Returns the
    state and the phase id."""
    for p, towns in TOWNS.items():
        judge.orders("loire", p, SETUP, f"orders:\n  - start: [{towns}]\n")
    judge.tick()
    store = judge.store()
    try:
        game = engine.load_game(store, "loire")
        st = game.state
        st["phase"] = phase
        for p in TOWNS:
            st["families"][p]["hand"] = hands.get(p, [])
        store.run("UPDATE games SET state=? WHERE id=?", json.dumps(st), game.id)
        return st, engine.current_phase(engine.load_game(store, "loire")).id
    finally:
        store.close()


def in_cards_play_with_only_alice_holding_cards(judge: Judge) -> str:
    """Round 1, Cards Phase step D: only players holding a card to play order (2.6); bob and
    carol, with empty hands, have nothing to order."""
    _, phase = past_setup_in(judge, "cards_play", {"alice": ["good_weather"]})
    store = judge.store()
    assert engine.current_phase(engine.load_game(store, "loire")).deciders == ("alice",)
    store.close()
    return phase


def test_a_player_with_no_orders_in_the_phase_may_still_do_diplomacy(tmp_path):
    judge = started(tmp_path)
    phase = in_cards_play_with_only_alice_holding_cards(judge)
    deniers = state(judge)["families"]["carol"]["deniers"]
    judge.orders("loire", "carol", phase, "diplomacy:\n  - give: 1\n    to: alice\n")
    judge.tick()
    assert outcomes(judge)[-1] == "acted at once"
    assert state(judge)["families"]["carol"]["deniers"] == deniers - 1
    # everyone sees a gift (A.6): bob gets the news at once
    assert "carol gives 1 deniers to alice" in body(judge.sent_to("bob@pbem.test")[-1])


def test_orders_from_a_player_who_has_none_to_give_name_what_may_be_sent(tmp_path):
    judge = started(tmp_path)
    phase = in_cards_play_with_only_alice_holding_cards(judge)
    judge.orders("loire", "carol", phase, "orders: []\ndiplomacy:\n  - give: 1\n    to: alice\n")
    judge.tick()
    assert outcomes(judge)[-1] == "reject: nothing to order"
    reply = body(judge.sent_to("carol@pbem.test")[-1])
    assert "you have no orders to give" in reply and "only `diplomacy:` and `at_once:` may be sent now" in reply
    assert "line 7" in reply     # the `orders:` line, counted from the top of the mail


def test_a_mail_refused_for_its_orders_does_nothing_at_once(tmp_path):
    judge = started(tmp_path)
    before = state(judge)
    sent_before = len(judge.sent())
    judge.orders("loire", "alice", SETUP, 'orders:\n  - start: [Atlantis]\n'
                 'diplomacy:\n  - message: "Never sent."\n    to: bob\n  - give: 1\n    to: bob\n')
    judge.tick()
    assert outcomes(judge)[-1] == "orders rejected"
    assert state(judge) == before
    new = judge.sent()[sent_before:]
    assert len(new) == 1 and "NOT accepted" in body(new[0]) and "Nothing of this mail was done" in body(new[0])
    assert not any("Never sent." in body(m) for m in judge.sent())


def test_the_orders_are_checked_against_the_position_the_diplomacy_leaves(tmp_path):
    """A gift first (H.2: diplomacy is primary), then orders that count on the money given
    away: refused, and the gift is not made either (one mail, all or nothing)."""
    judge = started(tmp_path)
    for p, towns in TOWNS.items():
        judge.orders("loire", p, SETUP, f"orders:\n  - start: [{towns}]\n")
    judge.tick()
    # on to the Purchase Phase of round 1 with default orders
    for _ in range(6):
        phase = engine.current_phase(engine.load_game(judge.store(), "loire"))
        if phase.id.endswith("/purchase"):
            break
        judge.tick(advance_hours=49)
    assert phase.id == "round-1/purchase"
    deniers = state(judge)["families"]["alice"]["deniers"]
    judge.orders("loire", "alice", phase.id, f"diplomacy:\n  - give: {deniers}\n    to: bob\n"
                 "orders:\n  - buy: man_at_arms\n    in: Tours\n")
    judge.tick()
    assert outcomes(judge)[-1] == "orders rejected"
    assert "denier" in body(judge.sent_to("alice@pbem.test")[-1])
    assert state(judge)["families"]["alice"]["deniers"] == deniers
    judge.orders("loire", "alice", phase.id, "diplomacy:\n  - give: 1\n    to: bob\n"
                 "orders:\n  - buy: man_at_arms\n    in: Tours\n")
    judge.tick()
    assert outcomes(judge)[-1] == "orders accepted"
    ack = body(judge.sent_to("alice@pbem.test")[-1])
    assert ack.index("Done at once") < ack.index("Orders received") and "gives 1 deniers to bob" in ack
    assert state(judge)["families"]["alice"]["deniers"] == deniers - 1


def test_an_exchange_offer_waits_for_the_mirror_mail_then_cards_move_at_once(tmp_path):
    judge = started(tmp_path)
    store = judge.store()
    game = engine.load_game(store, "loire")
    st = game.state
    st["families"]["alice"]["hand"], st["families"]["bob"]["hand"] = ["good_weather"], ["tax"]
    store.run("UPDATE games SET state=? WHERE id=?", json.dumps(st), game.id)
    store.close()
    carol_before = len(judge.sent_to("carol@pbem.test"))
    judge.orders("loire", "alice", SETUP, "diplomacy:\n  - exchange: [good weather]\n    with: bob\n    take: [tax]\n")
    judge.tick()
    offer = body(judge.sent_to("bob@pbem.test")[-1])
    assert "offers bob a card exchange" in offer and "Good weather" in offer.replace("good weather", "Good weather")
    assert len(judge.sent_to("carol@pbem.test")) == carol_before      # an offer is between the two
    judge.orders("loire", "bob", SETUP, "diplomacy:\n  - exchange: [tax]\n    with: alice\n    take: [good weather]\n")
    judge.tick()
    after = state(judge)
    assert after["families"]["alice"]["hand"] == ["tax"] and after["families"]["bob"]["hand"] == ["good_weather"]
    assert "exchange cards (1 for 1" in body(judge.sent_to("carol@pbem.test")[-1])


def test_actions_are_archived_replayed_exported_and_kept_by_a_rollback(tmp_path):
    judge = started(tmp_path)
    judge.orders("loire", "alice", SETUP, 'diplomacy:\n  - message: "One."\n    to: all\n  - give: 1\n    to: carol\n')
    judge.orders("loire", "bob", SETUP, 'diplomacy:\n  - message: "Two."\n    to: alice\n')
    judge.tick()
    acted = state(judge)
    for p, towns in TOWNS.items():
        judge.orders("loire", p, SETUP, f"orders:\n  - start: [{towns}]\n")
    judge.tick()
    store = judge.store()
    game = engine.load_game(store, "loire")
    assert [(r["n"], r["player"]) for r in engine.actions_of(store, game.id, 1)] == [(1, "alice"), (2, "bob")]
    result = archive.replay(store, game)
    assert result.ok, result.message
    files = archive.export(store, game, tmp_path / "export")
    first = next(f for f in files if "setup" in f.name and f.name != "game.yaml").read_text()
    assert "at_once:" in first and "One." in first
    # a rollback returns to the setup phase as it was after the two actions, not before them
    with store.transaction():
        game = gm.rollback(store, game, judge.now)
    assert game.state == acted
    kinds = [r["kind"] for r in store.all("SELECT kind FROM events WHERE game_id=? AND seq=1", game.id)]
    assert "diplomacy_message" in kinds and "diplomacy_gift" in kinds
    assert archive.replay(store, game).ok
    # a replay notices a tampered action
    store.run("UPDATE actions SET canonical=? WHERE n=2", json.dumps(
        {"diplomacy": {"give": [{"to": "alice", "deniers": 2}], "messages": [], "exchanges": []}}))
    tampered = archive.replay(store, game)
    assert not tampered.ok and "at-once action 2 of bob" in tampered.message
    store.close()


def test_the_order_template_offers_diplomacy_to_deciders_and_to_the_others(tmp_path):
    from pbem.judge.mailer import Mailer
    judge = started(tmp_path)
    phase_id = in_cards_play_with_only_alice_holding_cards(judge)
    store = judge.store()
    game = engine.load_game(store, "loire")
    phase = engine.current_phase(game)
    mailer = Mailer(store, judge.home)
    alice = mailer._template(game, game.rules.view(game.state, "alice"), "alice", phase)
    carol = mailer._template(game, game.rules.view(game.state, "carol"), "carol", phase)
    store.close()
    assert "play:" in alice and "# diplomacy:" in alice
    assert f"phase: {phase_id}" in carol and "# diplomacy:" in carol and "play:" not in carol
    assert "you have 3 diplomacy pawn(s)" in carol


def test_a_surprise_card_played_at_once_is_told_to_everyone_at_once(tmp_path):
    judge = started(tmp_path)
    # not the cards draw, where no surprise card is played (G.4)
    st, phase = past_setup_in(judge, "purchase", {"alice": ["assassination"]})
    mine = next(n for n, l in st["lords"].items() if l["family"] == "alice")
    target = next(n for n, l in st["lords"].items() if l["family"] == "bob")
    carol_before = len(judge.sent_to("carol@pbem.test"))
    judge.orders("loire", "alice", phase, f"at_once:\n  - play: assassination\n    on: {target}\n    sponsor: {mine}\n")
    judge.tick()
    assert outcomes(judge)[-1] == "acted at once"
    assert target not in state(judge)["lords"]
    news = judge.sent_to("carol@pbem.test")[carol_before:]
    assert len(news) == 1 and f"has {target} (bob) assassinated" in body(news[0])


def test_ready_or_wait_in_a_mail_without_orders_is_said_to_change_nothing(tmp_path):
    judge = started(tmp_path)
    judge.orders("loire", "alice", SETUP, 'diplomacy:\n  - message: "Hello."\n    to: all\n', extra="wait: yes\n")
    judge.tick()
    ack = body(judge.sent_to("alice@pbem.test")[-1])
    assert "Done at once" in ack and "`ready:` and `wait:` belong to an order set" in ack


def test_a_player_may_act_at_once_only_so_many_times_in_a_phase(tmp_path):
    """Each action may mail every other player: `at_once_per_phase` (config.toml) caps it."""
    from pbem.judge.home import load_home
    judge = started(tmp_path)
    config = judge.home.path / "config.toml"
    config.write_text(config.read_text().replace("at_once_per_phase = 30", "at_once_per_phase = 2"))
    judge.home = load_home(judge.home.path)
    for n in range(3):
        judge.orders("loire", "alice", SETUP, f'diplomacy:\n  - message: "Word {n}."\n    to: all\n')
        judge.tick()
    assert outcomes(judge)[-3:] == ["acted at once", "acted at once", "orders rejected"]
    refusal = body(judge.sent_to("alice@pbem.test")[-1])
    assert "already done things at once 2 times in phase setup/starting-towns" in refusal
    assert not any("Word 2." in body(m) for m in judge.sent_to("bob@pbem.test"))
    # the orders themselves still go through, without the at-once part
    judge.orders("loire", "alice", SETUP, "orders:\n  - start: [Tours]\n")
    judge.tick()
    assert outcomes(judge)[-1] == "orders accepted"


def test_the_judge_names_a_bad_number_in_its_configuration(tmp_path):
    from pbem.judge.home import HomeError, load_home
    judge = Judge(tmp_path)
    config = judge.home.path / "config.toml"
    config.write_text(config.read_text().replace("at_once_per_phase = 30", 'at_once_per_phase = "many"'))
    with pytest.raises(HomeError, match=r"\[judge\] at_once_per_phase must be a whole number above 0, not 'many'"):
        load_home(judge.home.path)
