"""Full Fief: England games by mail, 3 and 4 players, from setup to a winner through the judge,
with scripted orders built from each player's own view, replayed exactly and diffed against their
golden playthroughs (tests/golden/fief_england-*.json; tests/golden_record.py).

The champion (the first player) starts in Berwick and walks south with its nobles, leaving a
man-at-arms in each City it takes (an emptied City is lost, 5.1): it buys the Barony of the
Marches (Berwick and Durham, 4 shillings, 4.3), builds a Stronghold in York and buys the County of
the North (York, Whitby, Lincoln). The others hold their starting City and draw cards (so the
disasters bring their dice, 2.4). Victory is checked from round 5 (8.1); the game ends after
round 7 at the latest with the most VP (8.5).

At two players (13.7) each player runs two families, `alice` and `alice-2`, and one mail orders
both (`families:`, docs/orders-fief-england.md "Two players"). The champion's first family walks
as above; its second starts in Cardiff, takes Harlech and the Barony of Wales, then walks on to the
South West; the champion's two families marry in round 2's Hear Ye (13.7: only between them), so
that 4 VP from round 5 win (13.7), else the most VP after round 7 (R25)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from golden_record import check_golden, playthrough
from judge_support import Judge
from pbem.games.fief.board import load_board
from pbem.judge import archive, engine

BOARD = load_board("fief_england")
LAST_ROUND = 7
STARTS = ["Berwick", "Plymouth", "London", "Cardiff"]
GOALS = ["Durham", "York", "Whitby", "Lincoln"]   # the champion's Cities, in order
TITLES = [("marches", "Berwick"), ("north", "York")]
NOTHING = "orders: []\n"


# 13.7: each family's own start, and the champion player's families' Cities and titles.
STARTS_2P = {"alice": "Berwick", "alice-2": "Cardiff", "bob": "London", "bob-2": "Norwich"}
ROUTES_2P = {"alice": (GOALS, TITLES),
             "alice-2": (["Harlech", "Bristol", "Exeter", "Plymouth"],
                         [("wales", "Cardiff"), ("south_west", "Bristol")])}


def my_noble(view: dict, player: str) -> tuple[str | None, str | None]:
    for name in view["families"][player]["lords"]:
        lord = view["lords"][name]
        if lord["location"] and not lord["captive_of"]:
            return name, lord["location"]
    return None, None


def controls(view: dict, player: str, town: str) -> bool:
    return view["towns"][town]["controller"] == player


def next_step(src: str, dst: str) -> str:
    dist = BOARD.distances(dst)
    return min(BOARD.neighbours(src), key=lambda t: (dist[t], t))


def champion_purchase(view: dict, player: str, noble: str, town: str, titles=TITLES) -> str:
    money = view["families"][player]["deniers"]
    for fief, stronghold in titles:
        info = view["fiefs"][fief]
        if info["holder"] or not all(controls(view, player, t) for t in info["towns"]):
            continue
        if not view["towns"][stronghold]["fortress"]:
            if money >= 5:
                return f"orders:\n  - build: stronghold\n    in: {stronghold}\n"   # 4.2: 5 shillings
            return NOTHING
        if money >= info["price"]:
            return f"orders:\n  - title: {fief}\n    lord: {noble}\n"             # 4.3: 2 a City
        return NOTHING
    if money >= 2 and not any(view["fiefs"][f]["holder"] is None and
                              all(controls(view, player, t) for t in view["fiefs"][f]["towns"]) for f, _ in titles):
        return f"orders:\n  - buy: man_at_arms\n    count: 2\n    in: {town}\n"
    return NOTHING


def champion_move(view: dict, player: str, noble: str, town: str, goals=GOALS) -> str:
    goal = next((t for t in goals if not controls(view, player, t)), None)
    if goal is None:
        return NOTHING
    units = view["towns"][town]["forces"][player]["units"]
    keep = 0 if view["towns"][town]["fortress"] or town == goal else 1
    take = units.get("man_at_arms", 0) - keep
    if take < 1:
        return NOTHING
    others = [n for n in view["families"][player]["lords"] if n != noble and view["lords"][n]["location"] == town]
    lords = f"    lords: [{', '.join(others)}]\n" if others else ""
    knights = units.get("knight", 0)
    with_ = f"{{man_at_arms: {take}" + (f", knight: {knights}" if knights else "") + "}"
    return f"orders:\n  - move: {noble}\n    with: {with_}\n{lords}    path: [{next_step(town, goal)}]\n"


def bot(view: dict, player: str) -> str:
    """The order mail body of one scripted family, built from its own view only."""
    champion = view["players"][0]
    phase = view["phase"]
    if phase == "setup":
        return f"orders:\n  - start: [{STARTS[view['players'].index(player)]}]\n"
    noble, town = my_noble(view, player)
    if phase == "cards":
        return "orders:\n  - draw: events\n" if len(view["hand"]) < 3 else NOTHING
    if player != champion or noble is None or town is None:
        return NOTHING
    if phase == "purchase":
        return champion_purchase(view, player, noble, town)
    if phase == "movement":
        return champion_move(view, player, noble, town)
    return NOTHING


def family_bot(view: dict, family: str) -> str:
    """One family's part of a two-player mail (13.7), from that family's own view."""
    champion = view["family_players"][view["players"][0]]   # the first family's player
    phase = view["phase"]
    if phase == "setup":
        return f"orders:\n  - start: [{STARTS_2P[family]}]\n"
    if phase == "cards":
        return "orders:\n  - draw: events\n" if len(view["hand"]) < 4 else NOTHING
    ours = [f for f, p in view["family_players"].items() if p == champion]
    if phase == "hear_ye" and view["family_players"][family] == champion:   # 13.7: marry between them
        other = next(f for f in ours if f != family)
        man = next((n for n in view["families"][ours[0]]["lords"] if not view["lords"][n]["female"]
                    and not view["lords"][n]["spouse"]), None)
        woman = next((n for n in view["families"][ours[1]]["lords"] if view["lords"][n]["female"]
                      and not view["lords"][n]["spouse"]), None)
        if man and woman and not any(view["lords"][n]["spouse"] for n in view["families"][family]["lords"]):
            mine, theirs = (man, woman) if family == ours[0] else (woman, man)
            assert view["lords"][theirs]["family"] == other
            return f"orders:\n  - marry: {mine}\n    to: {theirs}\n"
        return NOTHING
    noble, town = my_noble(view, family)
    if family not in ROUTES_2P or noble is None or town is None:
        return NOTHING
    goals, titles = ROUTES_2P[family]
    if phase == "purchase":
        return champion_purchase(view, family, noble, town, titles)
    if phase == "movement":
        return champion_move(view, family, noble, town, goals)
    return NOTHING


def two_player_bot(view: dict, player: str) -> str:
    """A two-player mail (13.7): one `families:` item for each family ordering in this phase."""
    from pbem.games.fief.families import family_view, indented
    return "families:\n" + "".join(indented(family_bot(family_view(view, f), f), f) for f in view["ordering"])


def play(judge: Judge, name: str, players: tuple[str, ...], seed: str) -> list[str]:
    judge.new_game(name=name, players=players, game_type="fief_england", options={}, seed=seed)
    resolved: list[str] = []
    for _ in range(LAST_ROUND * 12):
        store = judge.store()
        game = engine.load_game(store, name)
        store.close()
        if game.row["status"] != "running":
            break
        phase = engine.current_phase(game)
        write = two_player_bot if len(players) == 2 else bot
        for player in phase.deciders:
            judge.orders(name, player, phase.id, write(game.rules.view(game.state, player), player))
        report = judge.tick(advance_hours=1)
        mail_lines = [line for line in report.lines() if line.startswith("mail:")]
        assert all("orders accepted" in line for line in mail_lines), report.lines()
        assert report.resolved, f"{phase.id} did not resolve with every order in: {report.lines()}"
        resolved.extend(line.split(": ", 1)[1] for line in report.resolved)
    return resolved


GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("players, seed", [
    (("alice", "bob", "carol"), "england-3a"),   # "england-3": a disaster there costs alice the North
    (("alice", "bob", "carol", "dave"), "england-4b"),   # Invaders land, and alice still wins
])
def test_a_scripted_england_game_by_mail_ends_with_a_winner_and_replays_exactly(tmp_path, players, seed):
    judge = Judge(tmp_path)
    name = f"england{len(players)}"
    resolved = play(judge, name, players, seed)
    assert len(resolved) <= 1 + LAST_ROUND * 10, len(resolved)
    store = judge.store()
    try:
        game = engine.load_game(store, name)
        assert game.row["status"] == "over"
        result = json.loads(game.row["result"])
        assert result["winners"] == ["alice"], result
        assert game.state["round"] <= LAST_ROUND
        titles = sorted(f for lord in game.state["lords"].values() if lord["family"] == "alice"
                        for f in lord["fief_titles"])
        assert titles == ["marches", "north"] and "most victory points, 2 (8.5)" in result["text"]
        replayed = archive.replay(store, game)
        assert replayed.ok, replayed
        check_golden(GOLDEN, f"fief_england-{len(players)}p.json", playthrough(store, game))
    finally:
        store.close()


def test_a_scripted_two_player_england_game_by_mail_ends_with_a_winner_and_replays_exactly(tmp_path):
    """13.7: two players, four families; one mail a player orders both of its families."""
    judge = Judge(tmp_path)
    resolved = play(judge, "england2", ("alice", "bob"), "england-2a")
    assert len(resolved) <= 1 + LAST_ROUND * 10, len(resolved)
    store = judge.store()
    try:
        game = engine.load_game(store, "england2")
        assert game.row["status"] == "over"
        result = json.loads(game.row["result"])
        assert result["winners"] == ["alice"], result
        state = game.state
        assert state["family_players"] == {"alice": "alice", "alice-2": "alice", "bob": "bob", "bob-2": "bob"}
        spouses = {state["lords"][n]["family"] for n, lord in state["lords"].items() if lord["spouse"]}
        assert spouses == {"alice", "alice-2"}   # 13.7: married between the player's own families
        replayed = archive.replay(store, game)
        assert replayed.ok, replayed
        check_golden(GOLDEN, "fief_england-2p.json", playthrough(store, game))
    finally:
        store.close()
