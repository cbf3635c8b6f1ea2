"""England's Invaders phase through the judge by mail (E 6, ruling R81): the phase asks its mail
only of the families with a free noble on the map, a player's Danegeld order acts, a wrong order
is answered with its line and fix, a player who sends nothing gets the default (no bribe), and
the public report tells every player the same Invaders' story."""
from __future__ import annotations

import json

from pbem.judge import engine

from judge_support import Judge

PHASE = "round-2/invaders"


def body(mail) -> str:
    return mail.get_body(("plain",)).get_content()


def in_the_invaders_phase(tmp_path) -> tuple[Judge, dict[str, str]]:
    """A game put in round 2's Invaders phase (a test's shortcut: such a game no longer replays):
    Invader army 1 in York with alice's noble, bob's noble in London, carol's nobles off the map."""
    judge = Judge(tmp_path)
    judge.new_game(name="albion", players=("alice", "bob", "carol"), game_type="fief_england", seed="albion")
    judge.tick()
    store = judge.store()
    try:
        game = engine.load_game(store, "albion")
        st = game.state
        nobles = {p: sorted(n for n, lo in st["lords"].items() if lo["family"] == p) for p in ("alice", "bob")}
        st["round"], st["phase"] = 2, "invaders"
        st["lords"][nobles["alice"][0]]["location"] = "York"
        st["lords"][nobles["bob"][0]]["location"] = "London"
        st["towns"]["York"]["controller"], st["towns"]["London"]["controller"] = "alice", "bob"
        st["families"]["alice"]["deniers"] = 6
        st["edition_state"] = {"invaders": {
            "armies": {"1": {"city": "York", "leader": True, "foot": 5, "captives": [], "holds": False,
                             "follows": None},
                       **{a: {"city": None, "leader": True, "foot": 0, "captives": [], "holds": False,
                              "follows": None} for a in ("2", "3", "4")}},
            "gone": [], "destroyed": [], "plague": {"round": 0, "armies": []}}}
        store.run("UPDATE games SET state=? WHERE id=?", json.dumps(st), game.id)
        # carol has no noble on the map: she is not asked (R81)
        assert sorted(engine.current_phase(engine.load_game(store, "albion")).deciders) == ["alice", "bob"]
    finally:
        store.close()
    return judge, {p: nobles[p][0] for p in nobles}


def test_a_danegeld_by_mail_sends_the_army_home(tmp_path):
    judge, noble = in_the_invaders_phase(tmp_path)
    from pbem.games import rules_for
    store = judge.store()
    try:
        game = engine.load_game(store, "albion")
        form = rules_for("fief_england").order_template(game.rules.view(game.state, "alice"), "alice")
    finally:
        store.close()
    assert f"#  - danegeld: {noble['alice']}" in form and "6.10" in form
    judge.orders("albion", "bob", PHASE, "orders:\n  - danegeld: Nobody\n")
    judge.tick()
    error = [m for m in judge.sent_to("bob@pbem.test") if "Nobody" in body(m)]
    assert error and "line" in body(error[-1]) and "not a noble of your family" in body(error[-1])
    judge.orders("albion", "alice", PHASE, f"orders:\n  - danegeld: {noble['alice']}\n    army: 1\n")
    judge.tick(advance_hours=49)                       # bob sent no valid orders: the default, no bribe
    store = judge.store()
    try:
        st = engine.load_game(store, "albion").state
    finally:
        store.close()
    assert st["families"]["alice"]["deniers"] == 1
    assert st["edition_state"]["invaders"]["armies"]["1"]["city"] is None
    assert st["phase"] != "invaders"
    told = {p: "\n".join(body(m) for m in judge.sent_to(f"{p}@pbem.test")) for p in ("alice", "bob", "carol")}
    for p in ("alice", "bob", "carol"):      # the public report: everyone reads the bribe
        assert f"{noble['alice']} (alice) pays a Danegeld of 5 shillings to Invader army 1 in York" in told[p]
    assert "alice now has" not in told["bob"] and "has only" not in told["bob"]
