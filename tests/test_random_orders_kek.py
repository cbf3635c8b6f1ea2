"""Kard és Korona's random orders (pbem/games/kard_es_korona/random_orders/): whole games played
through the judge's engine by players whose every mail is ``random_orders`` of their own view,
over several seeds. Every mail is answered (accepted, or refused with an error naming its line:
a minority, counted), every accepted set resolves without raising, each game reaches its end
(or a bound of phases) and replays exactly from the archive. The generator writes from the view
alone: the same view and seed give the same text, whatever the hidden state.

The crashes these games found are regression tests here, each failing before its fix."""
from __future__ import annotations

import copy
import email
import email.policy
import json
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from email.utils import make_msgid

import pytest

from judge_support import Judge
from kek_support import RULES, hidden_twin, new_game, step
from pbem.games.kard_es_korona import placement
from pbem.games.kard_es_korona.board import load_board
from pbem.games.kard_es_korona.random_orders import mistakes
from pbem.games.kard_es_korona.victory import last_year
from pbem.judge import archive, engine, inbound
from pbem.judge.mailer import Mailer
from pbem.mail.message import InMail
from pbem.orders.yamlsafe import YamlProblem, load, sub_map
from pbem.rules.api import random_orders
from pbem.rules.rng import Rng

PLAYERS = ("anna", "bela", "csilla", "dani", "ede", "feri")
GAMES = [("basic", 2), ("basic", 3), ("basic", 6), ("advanced", 2), ("advanced", 4), ("advanced", 6)]
SEEDS = ("first", "second")
MAX_PHASES = 90            # a bound by count: a year is at most 6 phases, the advanced game 12 years
ANSWERS = ("ack", "ack_at_once", "reject")


# -- crashes found by the random players (each a regression test, failing before its fix) --------

def _placed(players: list[str], version: str = "basic") -> dict:
    state = new_game(players, seed="gen", version=version)
    return step(state, orders={p: placement.default(RULES.view(state, p), p) for p in players})[0]


def test_when_every_lord_dies_unransomed_at_once_the_game_ends_without_a_winner() -> None:
    """II (l.126): a lord not ransomed in time dies and his player is out. Both lords of a
    2-player game captured by neutrals in the same year and never ransomed: the year they die
    no free lord is left (V.I needs one), the phases had no deciders left and the last year's
    ranking (V.V) raised IndexError on an empty list."""
    state = _placed(["anna", "bela"])
    while state["step"] != "movement":
        state, _ = step(state)
    state["captive"] = {"anna": state["year"] + 1, "bela": state["year"] + 1}
    state["lords"] = {"anna": None, "bela": None}
    state, events = step(state)            # movement, battles, then the next year's deadlines
    result = RULES.result(state)
    assert sorted(state["eliminated"]) == ["anna", "bela"]
    assert result is not None and result.winners == ()
    assert "no one wins" in result.text and result.text in [e.text for e in events]


def test_the_last_year_with_no_free_lord_left_has_no_winner() -> None:
    """V.V ranks the free lords; with none left (every player out) the year ends the game
    without a winner instead of raising."""
    state = _placed(["anna", "bela"])
    state["eliminated"] = ["anna", "bela"]
    events = last_year(state)
    assert state["result"]["winners"] == [] and events and state["step"] == "over"


# -- whole games of random players through the judge's engine ----------------------------------

@dataclass
class Tally:
    """What became of the mails of one game, and what its phases did."""

    outcomes: Counter = field(default_factory=Counter)
    events: Counter = field(default_factory=Counter)
    phases: int = 0
    refusals: list[str] = field(default_factory=list)


def _mail(judge: Judge, name: str, player: str, phase_id: str, body: str) -> InMail:
    envelope = (f"game: {name}\nplayer: {player}\nsecret: {judge.secrets[name][player]}\n"
                f"phase: {phase_id}\n")
    return InMail(message_id=make_msgid(domain="player.test"), from_addr=f"{player}@pbem.test",
                  subject="orders", text=envelope + body)


def _answers(store) -> int:
    marks = ",".join("?" * len(ANSWERS))
    return store.row(f"SELECT COUNT(*) AS n FROM outbox WHERE purpose IN ({marks})", *ANSWERS)["n"]


def _last_answer(store) -> str:
    raw = store.row("SELECT raw FROM outbox ORDER BY id DESC LIMIT 1")["raw"]
    return email.message_from_bytes(raw, policy=email.policy.default).get_body(("plain",)).get_content()


def _hand_in(judge: Judge, store, game: engine.Game, tally: Tally) -> None:
    """Every decider mails random_orders of his own view; each mail is answered."""
    phase = game.rules.phase(game.state)
    for player in phase.deciders:
        view = game.rules.view(engine.load_game(store, game.name).state, player)
        body = random_orders(game.rules, view, player, Rng(f"{game.row['seed']}/{game.seq}/{player}"))
        assert body is not None
        before = _answers(store)
        with store.transaction():
            outcome = inbound.handle(store, Mailer(store, judge.home, judge.now), _mail(
                judge, game.name, player, phase.id, body), judge.now)
        assert outcome in ("orders accepted", "orders rejected", "acted at once", "reject: bad envelope"), \
            (outcome, body)
        assert _answers(store) == before + 1, f"{player}'s mail in {phase.id} got no answer"
        tally.outcomes[outcome] += 1
        if outcome == "orders rejected":
            errors = json.loads(store.row("SELECT errors FROM order_mails WHERE game_id=? ORDER BY id DESC LIMIT 1",
                                          game.id)["errors"])
            assert errors and all(e.startswith("line ") for e in errors), (phase.id, player, errors, body)
        if outcome.startswith(("orders rejected", "reject")):
            answer = _last_answer(store)
            assert re.search(r"line \d+: ", answer), (phase.id, player, answer, body)
            tally.refusals.append(f"{phase.id} {player}: {outcome}")


def play(tmp_path, version: str, count: int, seed: str, reports: bool) -> tuple[engine.Game, Tally]:
    judge = Judge(tmp_path)
    name = f"random{count}"
    judge.new_game(name, players=PLAYERS[:count], game_type="kard_es_korona", seed=f"random-{seed}-{version}-{count}",
                   options={"version": version})
    tally = Tally()
    store = judge.store()
    try:
        game = engine.load_game(store, name)
        while game.row["status"] == "running" and tally.phases < MAX_PHASES:
            _hand_in(judge, store, game, tally)
            judge.now += 3600
            with store.transaction():
                game, chain = engine.resolve_due(store, engine.load_game(store, name), judge.now, force=True)
                if reports:   # each player's report of the phases, as the tick sends them
                    Mailer(store, judge.home, judge.now).reports(game, chain)
            tally.phases += len(chain)
            tally.events.update(e.kind for r in chain for e in r.events)
        replayed = archive.replay(store, game)
        assert replayed.ok, replayed
        return game, tally
    finally:
        store.close()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("version,count", GAMES)
def test_random_players_play_a_whole_game_through_the_judge(tmp_path, version: str, count: int, seed: str) -> None:
    game, tally = play(tmp_path, version, count, seed, reports=seed == SEEDS[0])
    mails = sum(tally.outcomes.values())
    assert game.row["status"] == "over" or tally.phases >= MAX_PHASES, game.row["status"]
    assert tally.outcomes["orders accepted"] > 0
    assert len(tally.refusals) * 3 <= mails, tally.refusals                    # refusals: a minority
    assert tally.events["move"] and tally.events["attack"], tally.events       # the players meet in battle


# -- the generator itself: legal without its mistakes, every kind of order, the view only ----------

def rules_game(version: str, count: int, seed: str, bound: int = MAX_PHASES, **options) -> tuple[list, Counter, int]:
    """A game played on the rules alone (no judge: fast), the at-once gifts split off and done
    first as the judge does, each accepted set's echo read back; returns the (view, player, seed,
    text) of every mail, the event kinds, and how many mails were refused."""
    state = new_game(list(PLAYERS[:count]), seed=seed, version=version, **options)
    mails, kinds, refused = [], Counter(), 0
    for _ in range(bound):
        if RULES.result(state) is not None:
            break
        phase = RULES.phase(state)
        orders = {}
        for player in phase.deciders:
            view = RULES.view(state, player)
            text = RULES.random_orders(view, player, Rng(f"{seed}/{phase.id}/{player}"))
            mails.append((view, player, f"{seed}/{phase.id}/{player}", text))
            try:
                document = load(text) or {}
            except YamlProblem as problem:   # a mistake the judge refuses before any check
                assert problem.line, problem
                refused += 1
                orders[player] = RULES.default_orders(view, player)
                continue
            gift = sub_map(document, lambda key: key in RULES.at_once_keys)
            if gift:
                done = RULES.check_at_once(view, player, gift)
                refused += not done.ok
                if done.ok:
                    acted = RULES.act(state, player, done.orders, Rng(f"{seed}/{phase.id}/{player}/gift"))
                    state = acted.state
                    kinds.update(e.kind for e in acted.events)
                document = sub_map(document, lambda key: key not in RULES.at_once_keys)
            view = RULES.view(state, player)
            checked = RULES.check_orders(view, player, document)
            refused += not checked.ok
            if checked.ok:   # the judge's answer echoes them: the echo reads back to the same orders
                again = RULES.check_orders(view, player, load(RULES.echo_orders(view, player, checked.orders)))
                assert again.ok and again.orders == checked.orders, (phase.id, player, text)
            orders[player] = checked.orders if checked.ok else RULES.default_orders(view, player)
        resolution = RULES.resolve(state, orders, Rng(f"{seed}/{phase.id}"))
        state = resolution.state
        kinds.update(e.kind for e in resolution.events)
        kinds.update("siege" for e in resolution.events if e.kind == "attack"
                     and load_board(version).counties[e.data["county"]].castle)
    return mails, kinds, refused


RULES_GAMES = [(version, count, seed, {"cavalry_limit": seed != "c"}
                | ({"movement": "traditional"} if (version, seed) == ("advanced", "b") else {}))   # VI (l.356)
               for version in ("basic", "advanced") for count in range(2, 7) for seed in ("a", "b", "c")]


def test_without_its_deliberate_mistakes_every_mail_is_accepted(monkeypatch) -> None:
    """The generator's own mistakes aside (mistakes.py), what it writes is legal: 30 games, both
    versions, 2 to 6 players, and every order kind's effect is seen in them."""
    monkeypatch.setattr(mistakes, "PERCENT", 0)
    kinds: Counter = Counter()
    texts = []
    for version, count, seed, options in RULES_GAMES:
        mails, seen, refused = rules_game(version, count, seed, **options)
        assert refused == 0, (version, count, seed)
        kinds.update(seen)
        texts += [text for _, _, _, text in mails]
    wanted = {"move_last", "placed", "recruit", "move", "attack", "siege", "battle_over", "withdraw", "captured",
              "ransom", "oath", "extra_step", "office", "refund", "gift", "tie_down", "step_failed", "first_pass"}
    assert wanted <= set(kinds), wanted - set(kinds)
    written = ["counties: [", "place:", "lord: ", "recruit: {", "ransom: yes", "steps: []", "    lord: yes", "battle:",
               "priorities:", "lord_leads:", "losses:", "reroll: never", "order:", "counties: {", "retreat: {",
               "retreat_to:", "pursue:", "if_defeated: escape", "if_defeated: oath",
               "if_defeated: elimination", "move: last", "after_victory: {join",
               "after_victory: {lord_to", "veto:", "bid: ", "if_tied:", "give: {", "knights", "foot", "bowmen"]
    assert [w for w in written if not any(w in t for t in texts)] == []
    assert "" in texts                                                        # sometimes nothing at all


def test_the_same_view_and_seed_give_the_same_text_and_other_seeds_others() -> None:
    mails, _, _ = rules_game("advanced", 4, "same", bound=30)
    texts = set()
    for view, player, seed, _ in mails[::3]:
        kept = copy.deepcopy(view)
        text = RULES.random_orders(view, player, Rng(seed))
        assert RULES.random_orders(copy.deepcopy(view), player, Rng(seed)) == text
        stored = json.loads(json.dumps(view, sort_keys=True))                 # as the judge stores it
        assert RULES.random_orders(stored, player, Rng(seed)) == text
        assert view == kept                                                   # the view is only read
        texts.add(text)
        texts.update(RULES.random_orders(view, player, Rng(seed + f"/{n}")) for n in range(3))
    assert len(texts) >= len(mails[::3]) * 2                                  # varied


def _orders(view: dict, player: str, seed: str):
    """The random mail's orders as checked (without its at-once part), or the default ones."""
    try:
        document = sub_map(load(RULES.random_orders(view, player, Rng(seed))) or {},
                           lambda key: key not in RULES.at_once_keys)
    except YamlProblem:
        return RULES.default_orders(view, player)
    checked = RULES.check_orders(view, player, document)
    return checked.orders if checked.ok else RULES.default_orders(view, player)


def test_the_orders_come_from_the_view_alone_not_the_hidden_state() -> None:
    """Two states that differ only in what the player may not see (the event deck, the others'
    standing battle orders, the units that moved, a bid being made's treasuries) give him the
    same view, hence the same orders."""
    state = _placed(list(PLAYERS[:3]))
    checked = 0
    for _ in range(40):
        if RULES.result(state) is not None:
            break
        phase = RULES.phase(state)
        for player in phase.deciders:
            other = hidden_twin(state, player)
            view = RULES.view(state, player)
            assert RULES.view(other, player) == view
            seed = f"hidden/{phase.id}/{player}"
            assert RULES.random_orders(RULES.view(other, player), player, Rng(seed)) == \
                RULES.random_orders(view, player, Rng(seed))
            checked += 1
        state = step(state, orders={p: _orders(RULES.view(state, p), p, f"hidden/{phase.id}/{p}")
                                    for p in phase.deciders})[0]
    assert checked > 20


def _plain(name: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", str(name).lower()) if not unicodedata.combining(c))


def test_steps_whose_units_set_out_from_a_distance_resolve(monkeypatch) -> None:
    """The rulebook's raid from a distance (l.248): a step's units may set out from any county
    within their movement points (it raised KeyError in every resolution before the fix)."""
    monkeypatch.setattr(mistakes, "PERCENT", 0)
    for version, count in (("basic", 2), ("advanced", 3)):
        mails, kinds, refused = rules_game(version, count, "far")
        assert refused == 0 and kinds["attack"]
        borders = load_board(version).borders
        named = {_plain(c): c for c in borders}                # as a player may spell it (draw.county)
        far = [step for _, _, _, text in mails for step in ((load(text) or {}).get("steps") or [])
               if any(named[_plain(src)] not in borders[named[_plain(step["to"])]] for src in step.get("from") or {})]
        assert far, "no step set out from a county not bordering its target"
