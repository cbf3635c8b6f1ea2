"""Issue 5: full Fief: France games by mail, 4 and 6 players, from setup to a winner, with
scripted orders built from each player's own view, then replayed exactly (pbem replay).

The scripted families collude so that one of them wins in a few rounds: the champion (the
first family with a male lord) governs Bretagne then Normandie (4.4, a stronghold built in
Lisieux, 4.2), two other families govern Dauphiné and Poitou, the others hold towns so that
bishoprics can be elected (1.3), and everyone votes for the champion as king (1.5): 2 fief
titles + the crown = 3 VP, a lone victory (7.1). On the way they draw events cards (so the
disasters bring dice, 2.5, G.2.1) and talk at once (F). Each game is diffed against its golden
playthrough in tests/golden/ (docs/fief-france.md, "Tests")."""
from __future__ import annotations

import hashlib
import json
from collections import deque
from pathlib import Path

import pytest

from golden_record import check_golden, playthrough
from judge_support import Judge
from pbem.games.fief.board import load_board
from pbem.games.fief.round import ROUND
from pbem.judge import archive, engine

BOARD = load_board("fief_france")
MAX_ROUNDS = 30
# The games' seeds (the first draw of the earlier seeded stand-in for the secrets module). With
# the counter-based dice (version 2) the 4-player game under "s2:1" loses a family's only lord
# before the plan is done, and "s2:2" finds no winner in MAX_ROUNDS: it plays "s2:3".
SEED6 = hashlib.sha256(b"s2:1").hexdigest()[:32]
SEED4 = hashlib.sha256(b"s2:3").hexdigest()[:32]
# Each role: the starting town (A.5) and what to take in order — a fief to govern (4.4) or a
# single town to hold with one man-at-arms (so that bishoprics 1 and 2 are fully controlled, 1.3).
ROUTES = [
    ("Rennes", ["bretagne", "normandie"]),          # the champion: 2 fief titles, then king
    ("Avignon", ["dauphine"]),
    ("Poitiers", ["poitou"]),
    ("Toulouse", ["Carcassonne", "Bordeaux"]),
    ("Reims", []),
    ("Bordeaux", []),
]
NOTHING = "orders: []\n"


# -- what a family reads in its own view ---------------------------------------------------

def roles(view: dict) -> tuple[dict[str, tuple[str, list[str]]], str]:
    """The champion is the first family whose lord is a man (only men stand for king, 1.5.1)."""
    order = list(view["players"])
    champion = next(p for p in order if not view["lords"][view["families"][p]["lords"][0]]["female"])
    rest = [p for p in order if p != champion]
    return {p: ROUTES[i] for i, p in enumerate([champion] + rest)}, champion


def my_lord(view: dict, player: str) -> tuple[str | None, str | None]:
    for lord in view["families"][player]["lords"]:
        info = view["lords"][lord]
        if info["location"] and not info["captive_of"]:
            return lord, info["location"]
    return None, None


def controls(view: dict, player: str, town: str) -> bool:
    return view["towns"][town].get("controller") == player


def my_units(view: dict, player: str, town: str) -> dict:
    return view["towns"][town]["forces"].get(player, {}).get("units", {})


def towns_of(goal: str) -> tuple[str, ...]:
    return BOARD.fiefs[goal].towns if goal in BOARD.fiefs else (goal,)


def current_goal(view: dict, goals: list[str]) -> str | None:
    """The first fief still without a holder, or town still without a controller."""
    for goal in goals:
        if goal in BOARD.fiefs and view["fiefs"][goal].get("holder") is None:
            return goal
        if goal not in BOARD.fiefs and view["towns"][goal].get("controller") is None:
            return goal
    return None


def step_towards(src: str, dst: str) -> str:
    """The first town on a shortest road path (breadth first over the printed board)."""
    prev: dict[str, str | None] = {src: None}
    queue = deque([src])
    while queue:
        town = queue.popleft()
        for n in BOARD.neighbours(town):
            if n not in prev:
                prev[n] = town
                queue.append(n)
    town = dst
    while prev[town] != src:
        town = prev[town]
    return town


def bishop_candidate(view: dict, champion: str) -> str | None:
    """One family at a time stands for bishop: the king needs 2 bishops behind him (1.5.3)."""
    for p in view["players"]:
        lord = view["lords"][view["families"][p]["lords"][0]]
        if p != champion and not lord["female"] and not lord["bishopric"] and not lord["spouse"]:
            return p
    return None


# -- the orders of each phase ----------------------------------------------------------------

def hear_ye_orders(view: dict, player: str, champion: str, lord: str | None) -> str:
    if not lord:
        return NOTHING
    me = view["lords"][lord]
    if player == champion and me["fief_titles"] and not me["political"] and "king" in view["hear_ye"]["possible"]:
        return f"orders:\n  - candidate: {lord}\n    for: king\n"
    bishops = [b for b in view["hear_ye"]["possible"] if b.startswith("bishop")]
    if bishops and player == bishop_candidate(view, champion):
        return f"orders:\n  - candidate: {lord}\n    for: {bishops[0]}\n"
    return NOTHING


def vote_orders(view: dict) -> str:
    """Every ballot has one candidate: everyone votes for him."""
    votes = [f"  - vote: {b['id']}\n    for: {b['candidates'][0]}\n" for b in view["hear_ye"]["ballots"]]
    return "orders:\n" + "".join(votes) if votes else NOTHING


def purchase_orders(view: dict, player: str, goal: str | None, lord: str, town: str) -> str:
    """The title when it is for sale to us (4.4), else a stronghold where the fief has none
    (4.2), else 2 men-at-arms to leave behind as we go (4.3)."""
    if goal is None:
        return NOTHING
    towns, deniers = towns_of(goal), view["families"][player]["deniers"]
    strongholds = [t for t in towns if view["towns"][t].get("fortress") == "stronghold"]
    if goal in BOARD.fiefs:
        if all(controls(view, player, t) for t in towns) and strongholds and deniers >= 2 * len(towns):
            return f"orders:\n  - title: {goal}\n    lord: {lord}\n"
        if not strongholds and deniers >= 10 and town in towns and controls(view, player, town):
            return f"orders:\n  - build: stronghold\n    in: {town}\n"
    if my_units(view, player, town).get("man_at_arms", 0) < 2 and deniers >= 2 and controls(view, player, town):
        return f"orders:\n  - buy: man_at_arms\n    count: 2\n    in: {town}\n"
    return NOTHING


def movement_orders(view: dict, player: str, goal: str | None, lord: str, town: str) -> str:
    """The lord walks to the next town of the goal, leaving one man-at-arms behind to keep a
    town that no title of ours holds (5.2.2)."""
    if goal is None:
        return NOTHING
    towns = towns_of(goal)
    if goal in BOARD.fiefs and town in towns and not any(
            view["towns"][t].get("fortress") == "stronghold" for t in towns):
        return NOTHING   # stay: the stronghold is built here
    todo = [t for t in towns if not controls(view, player, t) and t != town]
    if not todo:
        return NOTHING
    governed = view["fiefs"][BOARD.towns[town].fief].get("holder") in view["families"][player]["lords"]
    take = my_units(view, player, town).get("man_at_arms", 0) - (0 if governed else 1)
    with_ = f"    with: {{man_at_arms: {take}}}\n" if take > 0 else ""
    return f"orders:\n  - move: {lord}\n{with_}    path: [{step_towards(town, todo[0])}]\n"


def bot(view: dict, player: str) -> str:
    """The order mail body of one scripted family, built from its own view only."""
    plan, champion = roles(view)
    start, goals = plan[player]
    phase = view["phase"]
    if phase == "setup":
        return f"orders:\n  - start: [{start}]\n"
    lord, town = my_lord(view, player)
    if phase == "hear_ye":
        return hear_ye_orders(view, player, champion, lord)
    if phase == "hear_ye_votes":
        return vote_orders(view)
    if phase == "purchase" and lord:
        return purchase_orders(view, player, current_goal(view, goals), lord, town)
    if phase == "movement" and lord:
        return movement_orders(view, player, current_goal(view, goals), lord, town)
    if phase == "cards" and len(view["hand"]) < 3:
        return "orders:\n  - draw: events\n"   # 2.2: chance in the game (disasters, 2.5), never played
    return NOTHING   # cards-play: play nothing; battle: declare none


def diplomacy(view: dict, player: str) -> str:
    """Talk at once (F), every Battle Phase and in the mails of players with nothing to order:
    a word to all (free) and, while pawns last, a private one to the next player."""
    others = [p for p in view["turn_order"] if p != player]
    text = f'diplomacy:\n  - message: "{player}, round {view["round"]}: peace."\n    to: all\n'
    if view["families"][player]["diplomacy_pawns"] > 1:
        text += f'  - message: "Only for {others[0]}: vote well."\n    to: {others[0]}\n'
    return text


def play(judge: Judge, name: str, players: tuple[str, ...], seed: str):
    """Mail every decider's orders, tick, until the game is over; returns the resolved phase ids
    and the number of resolution chains (ticks that resolved something). ``seed`` fixes the
    game's chance: the scripted game is a fixed, known game (a random draw could make the plan
    unwinnable, e.g. too few male lords for two bishops)."""
    judge.new_game(name=name, players=players, game_type="fief_france", options={}, seed=seed)
    resolved: list[str] = []
    chains = 0
    for _ in range(MAX_ROUNDS * 12):
        store = judge.store()
        game = engine.load_game(store, name)
        store.close()
        if game.row["status"] != "running":
            break
        assert game.state.get("round", 0) <= MAX_ROUNDS, "no winner within the bounded rounds"
        phase = engine.current_phase(game)
        sent = 0
        for player in game.state["players"]:
            view = game.rules.view(game.state, player)
            if player in phase.deciders:
                talk = diplomacy(view, player) if view["phase"] == "battle" else ""
                judge.orders(name, player, phase.id, bot(view, player) + talk)
            elif view["round"] and not view["families"][player]["eliminated"]:
                judge.orders(name, player, phase.id, diplomacy(view, player))   # at once, no orders
            else:
                continue
            sent += 1
        report = judge.tick(advance_hours=1)
        mail_lines = [line for line in report.lines() if line.startswith("mail:")]
        # every scripted mail is legal: the judge accepted each one, and refused none
        assert all("orders accepted" in line or "acted at once" in line for line in mail_lines), report.lines()
        assert sum(int(line.split()[1]) for line in mail_lines) == sent, report.lines()
        assert report.resolved, f"{phase.id} did not resolve with every order in: {report.lines()}"
        resolved.extend(line.split(": ", 1)[1] for line in report.resolved)
        chains += 1
    return resolved, chains


# -- the golden playthrough: tests/golden_record.py -----------------------------------------

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("players, seed", [
    (("alice", "bob", "carol", "dave"), SEED4),
    (("alice", "bob", "carol", "dave", "erin", "frank"), SEED6),
])
def test_a_scripted_game_by_mail_ends_with_a_winner_and_replays_exactly(tmp_path, players, seed):
    judge = Judge(tmp_path)
    name = f"full{len(players)}"
    resolved, chains = play(judge, name, players, seed)
    # Work bounded by counts, not seconds (speed is the benchmarks' business, bench/): the game
    # ends within MAX_ROUNDS rounds, each of the round table's phases and the ballots at most.
    assert len(resolved) <= 1 + MAX_ROUNDS * (len(ROUND) + 1), len(resolved)
    store = judge.store()
    try:
        game = engine.load_game(store, name)
        assert game.row["status"] == "over"
        result = json.loads(game.row["result"])
        assert len(result["winners"]) == 1 and result["winners"][0] in players
        winner = result["winners"][0]
        assert "Lone victory (7.1)" in result["text"] and winner in result["text"]
        assert game.state["round"] <= MAX_ROUNDS
        assert game.rules.view(game.state, winner)["families"][winner]["vp"] >= 3
        replayed = archive.replay(store, game)
        assert replayed.ok, replayed
        assert store.one("SELECT COUNT(*) AS n FROM actions WHERE game_id=?", game.id)["n"] > 20
        check_golden(GOLDEN, f"fief_france-{len(players)}p.json", playthrough(store, game))
        phases = store.all("SELECT phase_id FROM phases WHERE game_id=? AND resolved_at IS NOT NULL",
                           game.id)
        assert [r["phase_id"] for r in phases] == resolved   # every phase replayed, in order
    finally:
        store.close()
    # every player got a report for every resolution chain, and the last one names the winner
    for player in players:
        reports = [m for m in judge.sent_to(f"{player}@pbem.test") if "resolved" in str(m["Subject"])]
        assert len(reports) == chains, (player, len(reports), chains)
        last = reports[-1].get_body(("plain",)).get_content()
        assert winner in last and "victory" in last.lower(), (player, last[-2000:])
