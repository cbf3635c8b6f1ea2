"""Hidden information never leaks (issue 3): a property test over random legal games.

Non-interference: for every player B and every reachable position, changing what B may not
see (another family's hand, the order of the piles and the face-down disasters, another
family's unit types under fog of war, another family's standing policies and surprise
triggers (placement, calming, uprisings), the card exchanges two other players offered each
other, the discard piles below their top card, the beginners' option's face-down discards
included) must not change B's view, nor the text of B's report. The two positions
compared must really differ — so the test would notice a leak, rather than compare two copies
of nothing.

Through the judge: what a player is mailed while a phase is open — the answers to their
commands by mail (status, report, history) included — is identical whatever another player
ordered; and no mail and no `game show --as` ever shows the dice seed or another player's
secret.
"""
from __future__ import annotations

import copy
import json
import random

import pytest
from click.testing import CliRunner

from judge_support import Judge
from pbem.cli import main
from pbem.games import rules_for
from pbem.games.fief.board import load_board
from pbem.games.fief.cards.deck import offshore_card
from pbem.games.fief.surprise.triggers import UPRISING_KINDS
from pbem.judge.render import render
from pbem.orders import yamlsafe
from pbem.rules.rng import Rng

FIEF = rules_for("fief_france")
BOARD = load_board("fief_france")
CARDS = ["tax", "plague", "famine", "uprising", "justice", "good_weather", "Aliénor", "Thierry"]


# -- random legal play ---------------------------------------------------------------------

def random_document(view: dict, player: str, rnd: random.Random) -> str:
    phase = view["phase"]
    towns = sorted(view["towns"])
    if phase == "setup":
        return "orders:\n  - start: [" + ", ".join(rnd.sample(towns, 3)) + "]\n"
    if phase == "cards":    # 2.2: real hands, draws told to the drawer only, disasters on the track
        return "orders:\n  - draw: events\n    if_first: {fortune: events}\n"
    mine = [(name, info["location"]) for name, info in view["lords"].items()
            if info["family"] == player and info["location"] and not info["captive_of"]]
    if not mine:
        return "orders: []\n"
    lord, town = rnd.choice(mine)
    if phase == "purchase":
        kind = rnd.choice(["man_at_arms", "archer", "knight"])
        lines = [f"  - buy: {kind}\n    count: {rnd.randint(1, 2)}\n    in: {town}\n"]
        if rnd.random() < 0.5:
            lines.append(f"  - build: mill\n    in: {town}\n")
        return "orders:\n" + "".join(lines)
    if phase == "movement" and town in BOARD.towns:
        path = [rnd.choice(BOARD.neighbours(town))]
        if rnd.random() < 0.5:
            path.append(rnd.choice(BOARD.neighbours(path[0])))
        units = view["towns"][town]["forces"].get(player, {}).get("units", {})
        kind = rnd.choice(sorted(units)) if units else None
        with_ = f"    with: {{{kind}: 1}}\n" if kind else ""
        policy = rnd.choice(["allow", "refuse"])
        return (f"orders:\n  - move: {lord}\n{with_}    path: [{', '.join(path)}]\n"
                f"    if_refused: {rnd.choice(['back', 'stay'])}\npolicies:\n  safe_passage: {{others: {policy}}}\n")
    return "orders: []\n"


def legal_orders(state, player: str, rnd: random.Random):
    view = FIEF.view(state, player)
    check = FIEF.check_orders(view, player, yamlsafe.load(random_document(view, player, rnd)))
    return check.orders if check.ok else FIEF.default_orders(view, player)


def random_positions(seed: int, resolutions: int = 14):
    """Yield the positions of one random legal game of Fief: France."""
    rnd = random.Random(seed)
    players = [f"p{i}" for i in range(rnd.randint(3, 6))]
    options = {o.name: o.default for o in FIEF.options()}
    options["fog_of_war"] = rnd.random() < 0.6
    options["beginners"] = rnd.random() < 0.4   # 2.5: round 1's disasters discarded face down, unseen
    state = FIEF.setup(options, players, Rng(f"setup-{seed}"))
    yield state
    for step in range(resolutions):
        if FIEF.result(state) is not None:
            return
        phase = FIEF.phase(state)
        orders = {p: legal_orders(state, p, rnd) for p in phase.deciders}
        state = FIEF.resolve(state, orders, Rng(f"{seed}-{step}")).state
        yield state


# -- the secrets, and how to change them -----------------------------------------------------

def other_hand(state, viewer: str, rnd: random.Random):
    """Two positions where the other families hold as many cards, but other cards."""
    first, second = copy.deepcopy(state), copy.deepcopy(state)
    for player in state["families"]:
        if player != viewer:
            cards = rnd.sample(CARDS, 4)
            first["families"][player]["hand"] = cards[:2]
            second["families"][player]["hand"] = cards[2:]
    return first, second


def reshuffled_piles(state, viewer: str, rnd: random.Random):
    changed = copy.deepcopy(state)
    for pile in ("character_pile", "events_pile"):
        rnd.shuffle(changed[pile])
    # 2.5: a face-down disaster hides its kind and whether it shows the dice icon (ruling 41)
    kinds = ["plague", "famine", "bad_weather"]
    changed["disasters_track"] = [rnd.choice(kinds + [offshore_card(k) for k in kinds])
                                  for _ in changed["disasters_track"]]
    return state, changed


def other_unit_types(state, viewer: str, rnd: random.Random):
    """Under fog of war: the same number of pawns per family and town, other types."""
    changed = copy.deepcopy(state)
    swap = {"man_at_arms": "archer", "archer": "man_at_arms", "knight": "man_at_arms", "bombard": "archer"}
    for pawn in changed["pawns"].values():
        if pawn["family"] != viewer and pawn["kind"] in swap:
            pawn["kind"] = swap[pawn["kind"]]
    return state, changed


def other_policies(state, viewer: str, rnd: random.Random):
    changed = copy.deepcopy(state)
    for player, family in changed["families"].items():
        if player != viewer:
            town = rnd.choice(sorted(BOARD.towns))
            family["policies"] = {"safe_passage": {"allow": [viewer], "refuse": [], "others": "allow"},
                                  "placement": {"allow": [viewer], "refuse": [], "others": "refuse"},   # G.1.2
                                  "calm_uprisings": {"as_bishop": True, "as_cardinal": True,        # D.2.2
                                                     "except_raised_by": [viewer]},
                                  "surprise": [{"trigger": "at_phase_start", "phase": "movement", "round": None,
                                                "play": {"card": "justice", "on": "Henry"}}]
                                  + [{"trigger": kind, "town": town, "targets": [viewer], "underground": False,
                                      "cards": 2} for kind in UPRISING_KINDS]}
    return state, changed


def others_exchange_offers(state, viewer: str, rnd: random.Random):
    """F: card exchanges offered between two other players (a private talk)."""
    changed = copy.deepcopy(state)
    others = [p for p in state["players"] if p != viewer]
    if len(others) >= 2:
        a, b = rnd.sample(others, 2)
        changed["exchange_offers"] = [{"from": a, "with": b, "give": rnd.sample(CARDS, 1),
                                       "take": rnd.sample(CARDS, 2)}]
    return state, changed


def other_discards(state, viewer: str, rnd: random.Random):
    """2.1: 'Discard piles cannot be checked. Only the top card remains apparent.' Two positions
    whose discard piles differ below the top card (an empty pile gets the same top in both);
    a disaster on top discarded face down (2.3) differs too."""
    first, second = copy.deepcopy(state), copy.deepcopy(state)
    for pile, pool in (("character_discard", ["Lambert", "Quentin", "cardinal", "darc"]),
                       ("events_discard", ["tax", "famine", "plague", "uprising", "justice"])):
        top = state[pile][-1:] or [rnd.choice(pool)]
        a, b = rnd.sample(pool, 2)
        first[pile] = [a] + state[pile][:-1] + top
        second[pile] = [b] + state[pile][:-1] + top
    shifted = [i + 1 for i in state["events_discard_face_down"]]   # one card slid under them
    first["events_discard_face_down"] = second["events_discard_face_down"] = shifted
    if len(first["events_discard"]) - 1 in shifted:   # the top shows its back only
        second["events_discard"][-1] = "famine" if first["events_discard"][-1] != "famine" else "plague"
    return first, second


SECRETS = {"hands": other_hand, "piles": reshuffled_piles, "unit types under fog of war": other_unit_types,
           "standing policies": other_policies, "exchange offers between others": others_exchange_offers,
           "discard piles below the top card": other_discards}


def report_text(state, player):
    return render(FIEF.report_template(), view=FIEF.view(state, player), me=player)


@pytest.mark.parametrize("secret", sorted(SECRETS))
def test_no_view_or_report_depends_on_what_the_player_may_not_see(secret):
    change = SECRETS[secret]
    positions = meaningful = 0
    for seed in range(12):
        rnd = random.Random(1000 + seed)
        for state in random_positions(seed):
            if secret == "unit types under fog of war" and not state["options"]["fog_of_war"]:
                continue
            for viewer in state["players"]:
                first, second = change(state, viewer, rnd)
                assert FIEF.view(first, viewer) == FIEF.view(second, viewer), (secret, seed, viewer)
                assert report_text(first, viewer) == report_text(second, viewer)
                positions += 1
                meaningful += first != second
    assert positions > 100
    # The secret really differed in most positions: the test can see a leak.
    assert meaningful > positions // 3


# -- through the judge --------------------------------------------------------------------

def fixed_seed(monkeypatch):
    """Two runs of the same game: the same seed and salts, so only the orders differ."""
    import pbem.judge.engine as engine_module
    counter = iter(range(10_000))
    monkeypatch.setattr(engine_module.secrets_module, "token_hex", lambda n=16: f"{next(counter):0{2 * n}x}")


def bobs_mail_while_purchase_is_open(tmp_path, alice_orders: str) -> list[str]:
    judge = Judge(tmp_path)
    judge.new_game(name="loire", players=("alice", "bob", "carol"), game_type="fief_france")
    judge.tick()
    for p, towns in (("alice", "Tours, Poitiers"), ("bob", "Bordeaux, Pau"), ("carol", "Lyon, Dijon")):
        judge.orders("loire", p, "setup/starting-towns", f"orders:\n  - start: [{towns}]\n")
    judge.tick()
    for p in ("alice", "bob", "carol"):   # the Cards Phase (2.2): nobody draws
        judge.orders("loire", p, "round-1/cards-draw", "orders: []\n")
    judge.tick()
    before = len(judge.sent_to("bob@pbem.test"))
    judge.orders("loire", "alice", "round-1/purchase", alice_orders)
    judge.orders("loire", "bob", "round-1/purchase", "orders:\n  - buy: knight\n    in: Bordeaux\n")
    judge.tick()
    # Commands by mail (issue 15): bob's answers are built from what bob may see.
    for command, extra in (("status", ""), ("report", ""), ("history", "from: setup/starting-towns\n")):
        judge.command("loire", "bob", command, extra)
    judge.tick()
    judge.tick(advance_hours=40)   # a reminder goes to carol, nothing to alice or bob
    shown = CliRunner().invoke(main, ["game", "show", "loire", "--home", str(judge.home.path), "--as", "bob"])
    texts = [m.get_body(("plain",)).get_content() for m in judge.sent_to("bob@pbem.test")[before:]]
    secrets = judge.secrets["loire"]
    return [t.replace(secrets["bob"], "BOB-SECRET") for t in texts] + [shown.output]


def test_what_a_player_is_mailed_while_a_phase_is_open_ignores_another_players_orders(tmp_path, monkeypatch):
    fixed_seed(monkeypatch)
    quiet = bobs_mail_while_purchase_is_open(tmp_path / "a", "orders: []\n")
    fixed_seed(monkeypatch)
    busy = bobs_mail_while_purchase_is_open(
        tmp_path / "b", "orders:\n  - buy: archer\n    in: Tours\n  - build: mill\n    in: Tours\n")
    assert len(quiet) >= 5        # bob's acknowledgement, status, report, history and `game show --as bob`
    assert any("Status of game" in t for t in quiet) and any("History of game" in t for t in quiet)
    assert quiet == busy
    # Both of alice's sets were accepted (the answers only say how many players are done).
    assert "2 of 3 players have complete orders" in quiet[0]


def test_no_mail_and_no_show_ever_carries_the_seed_or_another_players_secret(tmp_path):
    judge = Judge(tmp_path)
    judge.new_game(name="loire", players=("alice", "bob", "carol"), game_type="fief_france",
                   options={"fog_of_war": True})
    assert CliRunner().invoke(main, ["game", "observe", "loire", "watcher@elsewhere.test",
                                     "--home", str(judge.home.path)]).exit_code == 0
    # bob is away the whole time, with a stand-in (issue 15) who orders for him half the time.
    assert CliRunner().invoke(main, ["game", "settings", "loire", "away_policy=standin",
                                     "--home", str(judge.home.path)]).exit_code == 0
    judge.send("bob@pbem.test", f"game: loire\nplayer: bob\nsecret: {judge.secrets['loire']['bob']}\n"
                                "away: {from: 2027-01-15, to: 2027-03-15, standin: friend@elsewhere.test}\n")
    judge.tick()
    judge.tick()
    begun = "".join(m.get_body(("plain",)).get_content() for m in judge.sent_to("friend@elsewhere.test"))
    standin_secret = begun.split("Your own secret as a stand-in is:\n\n    ")[1].split()[0]
    rnd = random.Random(7)
    store = judge.store()
    seed = store.one("SELECT seed FROM games")["seed"]
    store.close()
    for _ in range(6):
        from pbem.judge import engine
        store = judge.store()
        game = engine.load_game(store, "loire")
        store.close()
        phase = game.rules.phase(game.state)
        for p in phase.deciders:
            by_standin = p == "bob" and rnd.random() < 0.5
            who = dict(secret=standin_secret, sender="friend@elsewhere.test") if by_standin else {}
            judge.orders("loire", p, phase.id, random_document(game.rules.view(game.state, p), p, rnd), **who)
            if by_standin:
                judge.send("friend@elsewhere.test", f"game: loire\nplayer: bob\nsecret: {standin_secret}\n"
                                                   f"command: {rnd.choice(['status', 'report', 'history'])}\n")
            else:
                judge.command("loire", p, rnd.choice(["status", "report", "history"]))
        judge.tick()
    secrets = judge.secrets["loire"]
    for p in ("alice", "bob", "carol"):
        mails = "".join(m.as_string() for m in judge.sent_to(f"{p}@pbem.test"))
        shown = CliRunner().invoke(main, ["game", "show", "loire", "--home", str(judge.home.path), "--as", p])
        shown_json = CliRunner().invoke(main, ["game", "show", "loire", "--home", str(judge.home.path),
                                               "--as", p, "--json"])
        for text in (mails, shown.output, shown_json.output):
            assert seed not in text
            for other, secret in secrets.items():
                if other != p:
                    assert secret not in text
        assert "round-" in mails and json.loads(shown_json.output)["me"] == p
    # bob's stand-in (issue 15) got bob's reports and answers: no seed, no player's secret (bob's
    # neither); its own secret went to it alone.
    standin = "".join(m.as_string() for m in judge.sent_to("friend@elsewhere.test"))
    assert "report for bob" in standin and "This is what the judge understood" in standin
    assert "Status of game" in standin or "History of game" in standin
    assert seed not in standin and not any(secret in standin for secret in secrets.values())
    for p in ("alice", "bob", "carol", "watcher@elsewhere.test"):
        assert standin_secret not in "".join(m.as_string() for m in judge.sent_to(p if "@" in p else f"{p}@pbem.test"))
    # An observer (issue 15) gets the public report: no seed, no secret, nobody's private event.
    watched = "".join(m.as_string() for m in judge.sent_to("watcher@elsewhere.test"))
    assert "public report for observers" in watched
    assert seed not in watched and not any(secret in watched for secret in secrets.values())
    assert "You draw" not in watched and "[to " not in watched


def test_a_private_diplomacy_message_never_reaches_a_player_who_was_not_its_addressee(tmp_path):
    """F: a private message is relayed to its addressees only; carol learns that a talk took
    place, never what was said (not in her mail, not in `game show --as carol`)."""
    judge = Judge(tmp_path)
    judge.new_game(name="loire", players=("alice", "bob", "carol"), game_type="fief_france")
    judge.tick()
    for p, towns in (("alice", "Tours, Poitiers"), ("bob", "Bordeaux, Pau"), ("carol", "Lyon, Dijon")):
        extra = ('diplomacy:\n  - message: "Xylophone plot against carol"\n    to: bob\n'
                 if p == "alice" else "")
        judge.orders("loire", p, "setup/starting-towns", f"orders:\n  - start: [{towns}]\n{extra}")
    judge.tick()
    bob_mail = "".join(m.get_body(("plain",)).get_content() for m in judge.sent_to("bob@pbem.test"))
    assert "Xylophone plot against carol" in bob_mail
    carol_mail = "".join(m.as_string() for m in judge.sent_to("carol@pbem.test"))
    shown = CliRunner().invoke(main, ["game", "show", "loire", "--home", str(judge.home.path), "--as", "carol"])
    shown_json = CliRunner().invoke(main, ["game", "show", "loire", "--home", str(judge.home.path),
                                           "--as", "carol", "--json"])
    for text in (carol_mail, shown.output, shown_json.output):
        assert "Xylophone" not in text
    assert "private talk" in carol_mail
