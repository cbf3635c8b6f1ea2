"""Property tests of the Fief family's random orders (pbem/games/fief/random_orders/, issue 21
section 3): whole games of France (4 and 6 players) and England (2, 3 and 4) where every
player's mail is random_orders of its own view, over several seeds. Each mail is handled as
the judge handles it (pbem/judge/inbound.py `_take`: its at-once part done first, then its
orders checked against the position that leaves, accepted orders echoed): every mail is
answered - accepted, or refused with errors that each name a line, refusals a minority; every
accepted set resolves without raising; the game reaches its end or the bound of rounds; and it
replays exactly from its log. A game of each edition goes through the real judge (mail, store,
tick) and `pbem replay`. Then the bugs the generator found, each a regression test. The cost is
bounded by counts: seeds x rounds."""
from __future__ import annotations

import copy
import json
import functools
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from england_cards_support import england_board, position
from judge_support import Judge
from pbem.games.fief_england.rules import RULES as ENGLAND
from pbem.games.fief_france.rules import RULES as FRANCE
from pbem.games.fief.positions import build_position
from pbem.games.fief.random_orders.draws import block
from pbem.games.fief.state import FiefState
from pbem.games.fief_england import retainers
from pbem.games.fief_england.opportunity.orders import act
from pbem.judge import archive, engine
from pbem.orders.yamlsafe import YamlProblem, load, sub_map
from pbem.rules.api import RULES_VERSION_KEY, random_orders, rules_version
from pbem.rules.rng import DICE_KEY, DICE_VERSION, Rng

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
ROUNDS = 4            # play()'s default bound of rounds (the property tests: bound() below)


@dataclass
class Log:
    """What a game did, to replay it: each entry an at-once action or a resolution."""
    steps: list[tuple[str, str, Any, str]] = field(default_factory=list)   # (kind, player, canonical, seed)
    tally: Counter = field(default_factory=Counter)


def options_of(rules, **given) -> dict:
    """A new game's options as the judge stores them (engine.create_game): today's rules version."""
    return {**{o.name: o.default for o in rules.options()}, **given,
            RULES_VERSION_KEY: rules_version(rules), DICE_KEY: DICE_VERSION}


def mail(rules, state: dict, player: str, text: str, seed: str, log: Log) -> tuple[dict, Any]:
    """One mail as the judge's `_take` reads it: the state it leaves (its at-once part done when
    the whole mail is accepted) and its canonical orders (None: refused)."""
    try:
        body = load(text) or {}
    except YamlProblem as problem:   # the generator writes valid YAML: a refusal here is its bug
        raise AssertionError(f"unreadable YAML from random_orders: {problem}\n{text}") from problem
    keys = rules.at_once_keys
    now_part = sub_map(body, lambda k: k in keys)
    rest = sub_map(body, lambda k: k not in keys) if now_part else body
    view = rules.view(state, player)
    errors: list = []
    after, action = state, None
    if now_part:   # done first (H.2), the orders then checked against the position it leaves
        check = rules.check_at_once(view, player, now_part)
        errors += check.errors
        if check.ok:
            after = archive.stored(rules.act(state, player, check.orders, Rng(seed)).state)
            assert rules.phase(after).id == rules.phase(state).id, "an at-once action moved the game on"
            view = rules.view(after, player)
            action = (player, check.orders, seed)
    check = rules.check_orders(view, player, rest)
    errors += check.errors
    assert all(e.line is not None for e in errors), (text, [str(e) for e in errors])
    verbs = [f"{part}: {next(iter(item))}" for part, items in order_lists(body) for item in items
             if isinstance(item, dict) and item]
    if errors:
        log.tally.update(f"refused {v}" for v in verbs)
        log.tally["refused"] += 1
        log.tally.update(f"refused: {e.message[:60]}" for e in errors)
        return state, None
    echoed = rules.echo_orders(view, player, check.orders)   # the judge's answer echoes what it understood
    assert rules.check_orders(view, player, load(echoed)).orders == check.orders, echoed   # and reads back
    log.tally["accepted"] += 1
    log.tally.update(verbs)
    if action is not None:   # nothing of a refused mail is kept (inbound.py), its at-once part neither
        log.tally["acted at once"] += 1
        log.steps.append(("act", *action))
    return after, check.orders


def order_lists(body: Any) -> list[tuple[str, list]]:
    """The lists of orders of a mail (each family's at two players), by part."""
    parts = [(key, body.get(key) or []) for key in ("orders", "diplomacy", "at_once")]
    for family in body.get("families") or []:
        parts += order_lists(family)
    return [(key, items) for key, items in parts if isinstance(items, list)]


def talkers(rules, state: dict, deciders) -> list[str]:
    """The players with nothing to order now who may still act at once (in a round, in play)."""
    if not state.get("round") or not deciders:
        return []
    return [p for p in state["players"] if p not in deciders and p in state["families"]
            and not state["families"][p]["eliminated"]]


def talk(rules, state: dict, player: str, text: str, seed: str, log: Log) -> dict:
    """The mail of a player who is asked for no orders: only its at-once part is sent (the judge
    refuses anything else from them, inbound.py)."""
    now = sub_map(load(text) or {}, lambda k: k in rules.at_once_keys)
    if not now:
        return state
    check = rules.check_at_once(rules.view(state, player), player, now)
    assert all(e.line is not None for e in check.errors), (text, [str(e) for e in check.errors])
    if not check.ok:
        log.tally["refused at once"] += 1
        return state
    after = archive.stored(rules.act(state, player, check.orders, Rng(seed)).state)
    assert rules.phase(after).id == rules.phase(state).id, "an at-once action moved the game on"
    log.steps.append(("act", player, check.orders, seed))
    log.tally["talked at once"] += 1
    return after


def play(rules, players: tuple[str, ...], seed: str, rounds: int = ROUNDS) -> tuple[dict, Log]:
    log = Log()
    state = archive.stored(rules.setup(options_of(rules, **OPTIONS.get(seed, {})), players, Rng(f"{seed}/setup")))
    for n in range(rounds * 14):
        phase = rules.phase(state)
        if state["phase"] == "over" or state.get("round", 0) > rounds:
            break
        pending: dict = {}
        for player in phase.deciders:
            view = rules.view(state, player)
            text = random_orders(rules, view, player, Rng(f"{seed}/{phase.id}/{player}"))
            assert text is not None
            state, canonical = mail(rules, state, player, text, f"{seed}/{phase.id}/{player}/now", log)
            if canonical is not None:
                pending[player] = canonical
        for player in talkers(rules, state, phase.deciders):   # at once only (F): a word, a card, a pigeon
            text = random_orders(rules, rules.view(state, player), player, Rng(f"{seed}/{phase.id}/{player}"))
            state = talk(rules, state, player, text or "", f"{seed}/{phase.id}/{player}/talk", log)
        orders = {p: pending.get(p) or rules.default_orders(rules.view(state, p), p) for p in phase.deciders}
        resolve_seed = f"{seed}/{n}/{phase.id}"
        state = archive.stored(rules.resolve(state, orders, Rng(resolve_seed)).state)
        log.steps.append(("resolve", "", orders, resolve_seed))
        log.tally["resolved"] += 1
    return state, log


def replay(rules, players: tuple[str, ...], seed: str, log: Log) -> dict:
    state = archive.stored(rules.setup(options_of(rules, **OPTIONS.get(seed, {})), players, Rng(f"{seed}/setup")))
    for kind, player, canonical, rng_seed in log.steps:
        if kind == "act":
            state = archive.stored(rules.act(state, player, canonical, Rng(rng_seed)).state)
        else:
            state = archive.stored(rules.resolve(state, canonical, Rng(rng_seed)).state)
    return state


# Some games with the editions' options (France I.1-I.4, 2.5; England X14's random strongholds)
OPTIONS = {"fr4-c": {"fog_of_war": True, "adjusted_shooting": True},
           "fr6-b": {"mandatory_placement": True, "public_diplomacy": True, "beginners": True},
           "en4-c": {"random_stronghold_setup": True}}
GAMES = [(FRANCE, 4, s) for s in ("fr4-a", "fr4-b", "fr4-c")] + [(FRANCE, 6, s) for s in ("fr6-a", "fr6-b")] \
    + [(ENGLAND, n, f"en{n}-{s}") for n in (2, 3, 4) for s in ("a", "b", "c")]


def bound(rules) -> int:
    """France is played 5 rounds; England to its end (8.5: after round 7 at the latest)."""
    return 8 if rules is ENGLAND else 5


@functools.lru_cache(maxsize=None)
def played(rules, count: int, seed: str) -> tuple[dict, Log]:
    return play(rules, NAMES[:count], seed, bound(rules))


@pytest.mark.parametrize("rules, count, seed", GAMES, ids=[g[2] for g in GAMES])
def test_random_mails_are_answered_resolve_and_replay(rules, count, seed):
    state, log = played(rules, count, seed)
    tally = log.tally
    assert state["phase"] == "over" or state["round"] > bound(rules), (state["phase"], state["round"])
    if rules is ENGLAND:
        assert state["phase"] == "over"   # 8.5: the game ends after round 7
    assert tally["accepted"] > 2 * tally["refused"], tally.most_common(20)   # refusals stay a minority
    assert tally["resolved"] >= 6 * min(bound(rules), state["round"])   # each round its phases
    assert engine.state_hash(replay(rules, NAMES[:count], seed, log)) == engine.state_hash(state)   # exactly


# Kinds of orders every edition's random games give and get accepted (the generator is no
# stand-in that only ever sends `orders: []`): one of each at least, over the games above.
KINDS = {
    "france": {"orders: start", "orders: draw", "orders: discard", "orders: play", "orders: buy", "orders: build",
               "orders: move", "orders: attack", "orders: plunder", "orders: marry", "diplomacy: message",
               "diplomacy: give", "at_once: transfer", "at_once: play"},
    "england": {"orders: start", "orders: draw", "orders: discard", "orders: play", "orders: buy", "orders: build",
                "orders: move", "orders: attack", "orders: title", "orders: danegeld", "orders: marry",
                "diplomacy: message", "at_once: pigeon", "at_once: transfer", "at_once: give_retainer"},
}


@pytest.mark.parametrize("edition", ["france", "england"])
def test_the_random_games_give_every_kind_of_order(edition):
    rules = FRANCE if edition == "france" else ENGLAND
    accepted = Counter()
    for game_rules, count, seed in GAMES:
        if game_rules is rules:
            accepted.update(played(game_rules, count, seed)[1].tally)
    assert {kind for kind in KINDS[edition] if not accepted[kind]} == set(), sorted(accepted)


@pytest.mark.parametrize("rules", [FRANCE, ENGLAND], ids=["france", "england"])
def test_the_same_view_and_seed_give_the_same_text(rules):
    state, _ = play(rules, NAMES[:4], "same", rounds=1)
    view = rules.view(state, "bob")
    texts = {random_orders(rules, copy.deepcopy(view), "bob", Rng("one")) for _ in range(3)}
    assert len(texts) == 1
    others = {random_orders(rules, view, "bob", Rng(f"seed-{i}")) for i in range(8)}
    assert len(others) > 1   # the seed matters: the orders vary


@pytest.mark.parametrize("rules", [FRANCE, ENGLAND], ids=["france", "england"])
def test_the_generator_reads_the_view_only(rules):
    """Two states that differ in what bob cannot see (another family's cards, the piles' order;
    England: another family's shillings, 13.0) give bob the same view, and the same orders."""
    state, _ = play(rules, NAMES[:4], "hidden", rounds=1)
    other = copy.deepcopy(state)
    hand = other["families"]["carol"]["hand"]
    other["families"]["carol"]["hand"] = ["tax" if card != "tax" else "good_weather" for card in hand]
    for pile in ("character_pile", "events_pile"):
        other[pile] = list(reversed(other[pile]))
    if rules is ENGLAND:
        other["families"]["carol"]["deniers"] += 3
    assert other != state
    view, view2 = rules.view(state, "bob"), rules.view(other, "bob")
    assert view == view2
    for i in range(5):
        assert random_orders(rules, view, "bob", Rng(f"h{i}")) == random_orders(rules, view2, "bob", Rng(f"h{i}"))


@pytest.mark.parametrize("game_type, players", [("fief_france", NAMES[:4]), ("fief_england", NAMES[:2])])
def test_a_random_game_through_the_judge_answers_every_mail_and_replays(tmp_path, game_type, players):
    """The real judge: mail in, tick, every mail answered (accepted or refused, never stuck),
    and `pbem replay` finds every state again."""
    judge = Judge(tmp_path)
    judge.new_game(name="rnd", players=players, game_type=game_type, options={}, seed=f"judge-{game_type}")
    answered = Counter()
    for _ in range(2 * 12):
        store = judge.store()
        game = engine.load_game(store, "rnd")
        store.close()
        if game.row["status"] != "running" or game.state.get("round", 0) > 2:
            break
        phase = engine.current_phase(game)
        for player in phase.deciders:
            view = game.rules.view(game.state, player)
            text = random_orders(game.rules, view, player, Rng(f"j/{phase.id}/{player}"))
            judge.orders("rnd", player, phase.id, text)
        report = judge.tick(advance_hours=1)
        lines = [line for line in report.lines() if line.startswith("mail:")]
        assert all("orders accepted" in line or "orders rejected" in line for line in lines), report.lines()
        answered.update(line.split(" x ")[1] for line in lines for _ in range(int(line.split()[1])))
        if not report.resolved:   # a refused mail: the phase waits for its deadline
            report = judge.tick(advance_hours=100)
        assert report.resolved, report.lines()
    assert answered["orders accepted"] > answered["orders rejected"], answered
    store = judge.store()
    try:
        game = engine.load_game(store, "rnd")
        assert archive.replay(store, game).ok
    finally:
        store.close()


# -- what the generator found (each a regression test, failing before its fix) ----------------

@pytest.mark.parametrize("card, play", [
    ("bountiful_harvest", {"card": "bountiful_harvest", "on": "VI"}),
    ("tax", {"card": "tax", "tax": "tallage", "lord": "Lucia", "on": "south_east"}),
])
def test_an_england_fortune_card_gone_from_the_hand_is_told_not_played(card, play):
    """2.6, 10.0: a fortune card checked when the mail was read but no longer held when its
    turn comes (the other family of a two-player hand played it first, 13.7; or a pigeon took
    it away) stays unplayed with an event saying so, instead of a KeyError on its name."""
    state = position(["kirsten", "dave"], round=2, lords={"Lucia": {"family": "dave", "at": "London", "female": True}},
                     units={"London": {"dave": {"man_at_arms": 2}}})
    assert card not in state.families["dave"].hand
    events = act(state, england_board(), Rng("gone"), "dave", play)
    assert [e.kind for e in events] == ["card_not_played"]
    assert "you no longer hold it" in events[0].text and "the card stays in hand" in events[0].text


def test_a_cavalcade_with_a_nested_list_of_units_is_refused_with_its_line():
    """5.2.4: `with: [[knight]]` beside `if_refused: cavalcade` raised TypeError (a list is no
    unit kind) in the movement checker; now the mail is refused with errors naming the lines."""
    state = build_position({"players": ["marc", "marie"], "phase": "movement",
                            "lords": {"Eric": {"family": "marc", "at": "La Rochelle"}},
                            "units": {"La Rochelle": {"marc": {"knight": 2}}}}, "fief_france").to_json()
    view = FRANCE.view(state, "marc")
    text = "orders:\n  - move: Eric\n    with: [[knight]]\n    path: [Poitiers]\n    if_refused: cavalcade\n"
    check = FRANCE.check_orders(view, "marc", load(text))
    assert check.errors and all(e.line in (3, 5) for e in check.errors), [str(e) for e in check.errors]


def test_borrowing_crossbowmen_whose_price_receiver_left_play_is_refused_with_its_line():
    """11.1, 2.15: a loan offered with a price paid to the lender's noble, who then left play
    (slain): accepting it raised KeyError in the pigeon's check; now refused, naming the line."""
    state = play(ENGLAND, NAMES[:4], "loan", rounds=1)[0]
    view = copy.deepcopy(ENGLAND.view(state, "alice"))
    gone = view["families"]["dave"]["lords"][0]
    del view["lords"][gone]
    view["church"]["crossbowmen_offers"] = [{"lender": "dave", "borrower": "alice", "count": 1, "price": 2,
                                             "paid_to": gone}]
    noble = view["families"]["alice"]["lords"][0]
    mail_text = f"at_once:\n  - borrow_crossbowmen: dave\n    paid_by: {noble}\n"
    check = ENGLAND.check_at_once(view, "alice", load(mail_text))
    assert [e.line for e in check.errors] == [2] and gone in str(check.errors[0]), [str(e) for e in check.errors]


@pytest.mark.parametrize("text, line", [("orders: []\nat_once: yes\n", 2), ("diplomacy: {give: 2}\n", 1),
                                        ("orders: 3\n", 1)])
def test_a_part_of_a_mail_that_is_no_list_is_refused_on_its_line(text, line):
    """`at_once: yes`, `diplomacy: {give: 2}` and a movement mail's `orders: 3` were refused with
    no line named (the value of a key's own line carries none): now the key's line."""
    state = build_position({"players": ["marc", "marie"], "phase": "movement",
                            "lords": {"Eric": {"family": "marc", "at": "La Rochelle"}}}, "fief_france").to_json()
    view = FRANCE.view(state, "marc")
    body = load(text)
    now = sub_map(body, lambda k: k in FRANCE.at_once_keys)
    check = FRANCE.check_at_once(view, "marc", now) if now else FRANCE.check_orders(view, "marc", body)
    assert [e.line for e in check.errors] == [line], [str(e) for e in check.errors]
    assert "must be a list" in check.errors[0].message


def test_a_start_outside_the_rolled_region_is_refused_on_its_line():
    """England 13.6 (`random_stronghold_setup`): a City outside the Region rolled was refused with
    no line named; now the `start:` order's line."""
    state = ENGLAND.setup(options_of(ENGLAND, random_stronghold_setup=True), NAMES[:3], Rng("rolled"))
    view = ENGLAND.view(state, "alice")
    rolled = view["setup"]["region"]
    away = next(t for t, info in view["towns"].items() if info["fief"] != rolled)
    check = ENGLAND.check_orders(view, "alice", load(f"orders:\n  - start: [{json.dumps(away)}]\n"))
    assert [e.line for e in check.errors] == [2] and "the Region you rolled (13.6)" in check.errors[0].message


def test_mata_does_not_swap_with_the_players_own_second_family():
    """2.12, 13.7: Mata exchanges a card with "another Player's Hand"; at two players a family's
    second family shares its hand, and `with: alice-2` drew the card from the same hand, then
    raised ValueError removing the given card. Now refused when checked and when done."""
    state = ENGLAND.setup(options_of(ENGLAND), ["alice", "bob"], Rng("mata"))
    st = FiefState.from_json(copy.deepcopy(state))
    noble = next(n for n, lord in st.lords.items() if lord.family == "alice")
    st.edition_state.setdefault("retainers", {"deck": [], "of": {}, "spent": []})["of"][noble] = 1   # Mata
    st.families["alice"].hand[:] = ["tax"]
    st.families["bob"].hand[:] = ["justice"]
    st.link_purses()
    assert retainers.swap_hand_card(st, "alice", noble, "tax", "alice-2", Rng("x")) == "'alice-2' is not another player"
    state = st.to_json() | {"phase": "cards_play", "round": 1}
    view = ENGLAND.view(state, "alice")
    check = ENGLAND.check_at_once(view, "alice", load(f"at_once:\n  - swap_card: tax\n    by: {noble}\n"
                                                      "    with: alice-2\n"))
    assert [e.line for e in check.errors] == [4], [str(e) for e in check.errors]


def test_a_version_2_game_keeps_matas_old_exchange_with_the_second_family():
    """Rules versions: a stored two-player game of version 2 replays its exchange as it was done."""
    state = ENGLAND.setup(options_of(ENGLAND) | {RULES_VERSION_KEY: 2}, ["alice", "bob"], Rng("mata"))
    st = FiefState.from_json(copy.deepcopy(state))
    noble = next(n for n, lord in st.lords.items() if lord.family == "alice")
    st.edition_state.setdefault("retainers", {"deck": [], "of": {}, "spent": []})["of"][noble] = 1   # Mata
    st.families["alice"].hand[:] = ["tax", "tax"]
    st.link_purses()
    events = retainers.swap_hand_card(st, "alice", noble, "tax", "alice-2", Rng("x"))
    assert not isinstance(events, str) and st.families["alice-2"].hand == ["tax", "tax"]


def test_a_cavalcade_of_knights_written_as_a_counted_list_is_accepted():
    """5.2.4 and the documented `with:` forms (`[2 knights]`, docs/orders-fief-france-movement.md):
    a cavalcade of knights written `with: [2 knights]` was refused as "not knights only"."""
    state = build_position({"players": ["marc", "marie"], "phase": "movement",
                            "lords": {"Eric": {"family": "marc", "at": "La Rochelle"}},
                            "units": {"La Rochelle": {"marc": {"knight": 2, "man_at_arms": 1}}}},
                           "fief_france").to_json()
    view = FRANCE.view(state, "marc")
    ok = FRANCE.check_orders(view, "marc", load("orders:\n  - move: Eric\n    with: [2 knights]\n"
                                                "    path: [Poitiers]\n    if_refused: cavalcade\n"))
    assert ok.errors == () and ok.orders["moves"][0]["with"] == {"knight": 2}
    mixed = FRANCE.check_orders(view, "marc", load("orders:\n  - move: Eric\n    with: [2 knights, man_at_arms]\n"
                                                   "    path: [Poitiers]\n    if_refused: cavalcade\n"))
    assert [e.line for e in mixed.errors] == [5] and "knights and lords only" in mixed.errors[0].message


@pytest.mark.parametrize("verb", ["hand_title", "kings_will"])
def test_a_crown_order_to_a_list_is_refused_on_its_line(verb):
    """4.5, 4.6: `to: [Arthur]` (a list for a noble) raised TypeError in the Crown's check; now an
    error naming the `to:` line."""
    state, _ = play(ENGLAND, NAMES[:3], "crown", rounds=1)
    state = state | {"phase": "purchase"}
    view = ENGLAND.view(state, "alice")
    noble = view["families"]["alice"]["lords"][0]
    check = ENGLAND.check_at_once(view, "alice", load(f"at_once:\n  - {verb}: Wales\n    to: [{noble}]\n"))
    assert [e.line for e in check.errors] == [3], [str(e) for e in check.errors]


@pytest.mark.parametrize("text, line", [
    ("at_once:\n  - chasuble: ''\n    to: IV\n", 2),                              # IndexError
    ("at_once:\n  - play: rebellion\n    in: York\n    burgher: [x]\n", 4),       # no line named
    ("at_once:\n  - play: rebellion\n    in: York\n    invaders_first: 3\n", 4),   # no line named
])
def test_england_at_once_values_of_the_wrong_shape_are_refused_on_their_line(text, line):
    """12.2: an empty Sea for the Chasuble raised IndexError; 10.1: a REBELLION's `burgher:` or
    `invaders_first:` that is not yes/no was refused with no line named. Each now names its line."""
    state, _ = play(ENGLAND, NAMES[:3], "shapes", rounds=1)
    view = ENGLAND.view(state, "alice")
    check = ENGLAND.check_at_once(view, "alice", load(text))
    assert line in [e.line for e in check.errors] and all(e.line for e in check.errors), \
        [str(e) for e in check.errors]


# Each at-once order a player may write (docs/orders-fief-*.md), its keys; NOBLE and THEIRS
# stand for a noble of the player's and of another family. The values of the wrong shape below
# replace one key at a time: each mail must be refused on a line, never raise.
AT_ONCE_FORMS = [
    {"transfer": "York", "to": "bob"}, {"play": "assassination", "on": "THEIRS", "sponsor": "NOBLE"},
    {"pigeon": "NOBLE", "to": "THEIRS", "shillings": 1, "cards": ["tax"], "take_cards": ["tax"]},
    {"interdiction": "THEIRS", "by": "NOBLE"}, {"royal_stronghold": "York"}, {"consent_royal_stronghold": "York"},
    {"kings_will": "Wales", "to": "NOBLE", "city": "Cardiff"}, {"hand_title": "Wales", "to": "NOBLE"},
    {"hire": 2, "in": "York"}, {"swap_card": "tax", "by": "NOBLE", "with": "bob"},
    {"give_retainer": "NOBLE", "to": "THEIRS", "price": 2}, {"accept_retainer": "THEIRS"},
    {"give_relic": "Holy Grail", "to": "THEIRS"}, {"leave_relic": "Holy Grail"},
    {"take_relic": "Holy Grail", "by": "NOBLE"},
    {"reveal_relic": "NOBLE"}, {"rebuild_abbey": "Autumn", "in": "York"}, {"chasuble": "III", "to": "IV"},
    {"skull": ["NOBLE"]}, {"shinbone": "famine"}, {"lend_crossbowmen": 2, "to": "bob", "price": 3, "paid_to": "NOBLE"},
    {"borrow_crossbowmen": "bob", "paid_by": "NOBLE", "in": "York"}, {"scorch": ["York"]},
    {"play": "rebellion", "in": "York", "cards": 1, "burgher": True, "passage": "card", "invaders_first": True},
    {"play": "passage", "free": "THEIRS", "to": "York", "by": "burgher"},
    {"play": "ambush", "on": "THEIRS", "by": "NOBLE"},
    {"play": "ambush", "leader": 1, "by": "NOBLE"}, {"play": "justice", "on": "THEIRS"},
    {"play": "underground", "free": "THEIRS", "also": ["THEIRS"], "in": "York"}, {"play": "darc", "on": "THEIRS"},
    {"garter": "NOBLE"}, {"draw_excalibur": "NOBLE"},
]
DIPLOMACY_FORMS = [{"give": 2, "to": "bob"}, {"message": "hi", "to": ["bob"]},
                   {"exchange": ["tax"], "with": "bob", "take": ["tax"]}]
WRONG_SHAPES = [["x"], {"x": 1}, -1, 10 ** 9, "", None, 2.5, True, [[1]], [], {}]


@pytest.mark.parametrize("rules", [FRANCE, ENGLAND], ids=["france", "england"])
def test_at_once_orders_with_values_of_the_wrong_shape_are_refused_on_a_line(rules):
    state, _ = play(rules, NAMES[:4], "shapes", rounds=1)
    state = state | {"phase": "movement"}
    view = rules.view(state, "alice")
    names = {"NOBLE": view["families"]["alice"]["lords"][0], "THEIRS": view["families"]["bob"]["lords"][0]}
    checked = 0
    for part, forms in (("at_once", AT_ONCE_FORMS), ("diplomacy", DIPLOMACY_FORMS)):
        for form in forms:
            form = {k: names.get(v, v) if isinstance(v, str) else [names.get(x, x) for x in v]
                    if isinstance(v, list) else v for k, v in form.items()}
            for key in form:
                for wrong in WRONG_SHAPES:
                    check = rules.check_at_once(view, "alice", load(block(part, [{**form, key: wrong}])))
                    assert all(e.line is not None for e in check.errors), (form, key, wrong, check.errors)
                    checked += 1
    assert checked == 891   # every form, key and wrong value (the table above)


@pytest.mark.parametrize("card, text", [("good_weather", "on: VI"), ("mercenary", ""), ("burgher", "")])
def test_the_judges_answer_echoes_englands_card_plays(card, text):
    """Found by the random orders: an England cards-play mail playing GOOD WEATHER (`KeyError:
    'bishopric'`) or a MERCENARY or BURGHER card (`KeyError: 'on'`) was accepted, then the
    judge's answer raised in the echo, beside the TAX tithe and REBELLION of issue 21."""
    state, _ = play(ENGLAND, NAMES[:3], "echo", rounds=1)
    state = copy.deepcopy(state) | {"phase": "cards_play"}
    state["families"]["alice"]["hand"] = [card]
    for lord in state["lords"].values():   # 11.2: a BURGHER needs a titled Lord
        if lord["family"] == "alice":
            lord["fief_titles"] = ["wales"]
            break
    view = ENGLAND.view(state, "alice")
    mail_text = f"orders:\n  - play: {card}\n" + (f"    {text}\n" if text else "")
    check = ENGLAND.check_orders(view, "alice", load(mail_text))
    assert check.ok, check.errors
    echoed = ENGLAND.echo_orders(view, "alice", check.orders)
    assert ENGLAND.check_orders(view, "alice", load(echoed)).orders == check.orders
