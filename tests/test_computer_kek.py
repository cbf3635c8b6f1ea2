"""Kard és Korona's computer player (pbem/games/kard_es_korona/computer/): whole games played on
the rules engine (as tests/test_random_orders_kek.py's rules_game), computer players beside
random-order players, both versions, 2 to 6 players, the traditional movement method too. Every
mail the computer writes is accepted by check_orders and its echo reads back the same; every
phase resolves; each game ends. It writes from its view alone (the same view and seed give the
same text, whatever the hidden state), and it plays to win: against random-order players it
wins clearly more than its share (a conservative margin; bench/computer_kek.py measures more)."""
from __future__ import annotations

import copy
import json
from collections import Counter
from dataclasses import dataclass, field

import pytest

from kek_support import RULES, hidden_twin, new_game, step
from pbem.games.kard_es_korona import placement
from pbem.games.kard_es_korona.computer.movement import Planner
from pbem.games.kard_es_korona.computer.odds import Odds
from pbem.games.kard_es_korona.computer.sight import Sight
from pbem.orders.yamlsafe import YamlProblem, load, sub_map
from pbem.rules.api import computer_orders
from pbem.rules.rng import Rng

PLAYERS = ("anna", "bela", "csilla", "dani", "ede", "feri")
BOUND = 120                 # phases: a year has at most 7, the advanced game 12 years


@dataclass
class Played:
    """A game's computer mails (view, player, seed, text), its event kinds and its end."""

    mails: list[tuple[dict, str, str, str]] = field(default_factory=list)
    kinds: Counter = field(default_factory=Counter)
    refusals: list[tuple[str, str, str, list[str]]] = field(default_factory=list)
    winners: tuple[str, ...] | None = None
    phases: int = 0


def _orders(view: dict, player: str, text: str):
    """The random player's mail as the judge takes it (its gifts aside), or the defaults."""
    try:
        document = sub_map(load(text) or {}, lambda key: key not in RULES.at_once_keys)
    except YamlProblem:
        return RULES.default_orders(view, player)
    checked = RULES.check_orders(view, player, document)
    return checked.orders if checked.ok else RULES.default_orders(view, player)


def play(version: str, count: int, seed: str, computers: set[str], **options) -> Played:
    """A whole game on the rules: ``computers`` write computer_orders, the others random_orders."""
    state = new_game(list(PLAYERS[:count]), seed=seed, version=version, **options)
    out = Played()
    while out.phases < BOUND and RULES.result(state) is None:
        phase = RULES.phase(state)
        orders = {}
        for player in phase.deciders:
            view = RULES.view(state, player)
            where = f"{seed}/{phase.id}/{player}"
            if player not in computers:
                orders[player] = _orders(view, player, RULES.random_orders(view, player, Rng(where)))
                continue
            text = computer_orders(RULES, view, player, Rng(where))
            assert text is not None
            out.mails.append((view, player, where, text))
            checked = RULES.check_orders(view, player, load(text) or {})
            if not checked.ok:
                out.refusals.append((phase.id, player, text, [str(e) for e in checked.errors]))
                orders[player] = RULES.default_orders(view, player)
                continue
            again = RULES.check_orders(view, player, load(RULES.echo_orders(view, player, checked.orders)))
            assert again.ok and again.orders == checked.orders, (phase.id, player, text)
            orders[player] = checked.orders
        resolution = RULES.resolve(state, orders, Rng(f"{seed}/{phase.id}"))
        state = resolution.state
        out.kinds.update(e.kind for e in resolution.events)
        out.phases += 1
    result = RULES.result(state)
    out.winners = None if result is None else result.winners
    return out


GAMES = [(version, count, seed) for version in ("basic", "advanced") for count in (2, 4, 6) for seed in ("a", "b")]


def _options(version: str, count: int, seed: str) -> dict:
    options: dict = {"cavalry_limit": seed == "a"}
    if seed == "b" and count == 4 and version == "advanced":
        options["movement"] = "traditional"          # VI. Traditional Movement Method
    return options


@pytest.mark.parametrize("version,count,seed", GAMES)
def test_every_computer_mail_is_accepted_and_the_game_ends(version: str, count: int, seed: str) -> None:
    """Half the seats computers, half random players (so the computers meet every kind of
    position); all computers in the 'b' games."""
    computers = set(PLAYERS[:count:2]) if seed == "a" else set(PLAYERS[:count])
    played = play(version, count, seed, computers, **_options(version, count, seed))
    assert played.refusals == []
    assert played.winners is not None, f"the game did not end in {BOUND} phases"
    assert played.kinds["move"], played.kinds


def test_the_computer_uses_every_kind_of_order() -> None:
    """Over these games it places, recruits, ransoms, moves its lord, besieges, bids, plans its
    battles (the lord's kind, the siege's priorities, the retreat, the oath or the escape, the
    lord's extra step) and chooses to move first by the traditional method."""
    texts: list[str] = []
    kinds: Counter = Counter()
    for version, count, seed in GAMES:
        computers = set(PLAYERS[:count:2]) if seed == "a" else set(PLAYERS[:count])
        played = play(version, count, seed, computers, **_options(version, count, seed))
        texts += [text for _, _, _, text in played.mails]
        kinds.update(played.kinds)
    written = ["counties: [", "place:", "lord: ", "recruit: {", "steps:", "    lord: yes", "lord_leads:",
               "priorities: [archers", "retreat: {outnumbered", "if_defeated: oath", "if_defeated: escape",
               "after_victory: {lord_to", "bid: ", "move: first"]
    assert [w for w in written if not any(w in t for t in texts)] == []
    assert {"attack", "battle_over", "office", "recruit", "move"} <= set(kinds), kinds


def test_the_same_view_and_seed_give_the_same_text() -> None:
    played = play("advanced", 4, "same", set(PLAYERS[:4]))
    for view, player, seed, text in played.mails[::4]:
        kept = copy.deepcopy(view)
        assert computer_orders(RULES, copy.deepcopy(view), player, Rng(seed)) == text
        stored = json.loads(json.dumps(view, sort_keys=True))                 # as the judge stores it
        assert computer_orders(RULES, stored, player, Rng(seed)) == text
        assert view == kept                                                   # the view is only read


def _placed(players: list[str], version: str, seed: str = "hidden") -> dict:
    state = new_game(players, seed=seed, version=version)
    return step(state, orders={p: placement.default(RULES.view(state, p), p) for p in players})[0]


@pytest.mark.parametrize("version", ["basic", "advanced"])
def test_the_orders_come_from_the_view_alone_not_the_hidden_state(version: str) -> None:
    """Two states differing only in what the player may not see (the event deck, the others'
    standing battle orders, the units that moved, the others' treasuries while bids are made)
    give the same view, hence the same computer orders: it cannot cheat."""
    state = _placed(list(PLAYERS[:3]), version)
    checked = 0
    for _ in range(60):
        if RULES.result(state) is not None:
            break
        phase = RULES.phase(state)
        for player in phase.deciders:
            other = hidden_twin(state, player, richer=40)
            view = RULES.view(state, player)
            assert RULES.view(other, player) == view
            seed = f"hidden/{phase.id}/{player}"
            assert computer_orders(RULES, RULES.view(other, player), player, Rng(seed)) == \
                computer_orders(RULES, view, player, Rng(seed))
            checked += 1
        orders = {p: _orders(RULES.view(state, p), p, computer_orders(RULES, RULES.view(state, p), p,
                                                                      Rng(f"hidden/{phase.id}/{p}")) or "")
                  for p in phase.deciders}
        state = RULES.resolve(state, orders, Rng(f"hidden/{phase.id}")).state
        while RULES.result(state) is None and not RULES.phase(state).deciders:
            state = RULES.resolve(state, {}, Rng(f"hidden/{RULES.phase(state).id}")).state
    assert checked > 20


STRENGTH_GAMES = [(version, count, n) for version in ("basic", "advanced") for count in (2, 3, 4) for n in range(4)]


def test_a_computer_player_wins_clearly_more_than_its_share_against_random_players() -> None:
    """24 games, one computer seat (turning round the table) among random-order players. Its
    fair share is 1/N a game; bench/computer_kek.py measured 93% of its games against 1-5
    random players. Asserted conservatively: at least one and a half times its share."""
    wins, share = 0, 0.0
    for version, count, n in STRENGTH_GAMES:
        computer = PLAYERS[n % count]
        played = play(version, count, f"strength-{n}", {computer})
        assert played.refusals == []
        wins += computer in (played.winners or ())
        share += 1 / count
    assert wins >= 1.5 * share, (wins, share)


# -- single decisions, each on a position set up for it (basic board, anna in Erdély) ------------

def _position(step_name: str = "movement") -> dict:
    state = _placed(["anna", "bela"], "basic", seed="scn")   # anna: Erdély (Fehér, Hunyad); bela: Pannónia
    assert state["home"] == {"anna": "ERD", "bela": "PAN"}
    state["step"] = step_name
    return state


def _text(state: dict, player: str = "anna", seed: str = "decide") -> str:
    return computer_orders(RULES, RULES.view(state, player), player, Rng(seed)) or ""


def _army(state: dict, county: str, owner: str, cavalry: int, infantry: int, archers: int) -> None:
    state["armies"][county] = {"owner": owner, "units": {"cavalry": cavalry, "infantry": infantry, "archers": archers}}
    state["owner"][county] = owner if not owner.startswith(("royal", "neutral")) else state["owner"].get(county)


def _steps(text: str) -> list[dict]:
    return (load(text) or {}).get("steps") or []


def test_it_besieges_a_neutral_castle_it_is_much_stronger_than_and_leaves_a_stronger_one_alone() -> None:
    """III. Battle: an attack is made when the computer's trial battles win it; Temesvár's squad
    (1 of each kind, II) falls to 3 cavalry and 4 infantry from next door, a squad of 7 does not
    fall to 1 cavalry and 2 infantry."""
    state = _position()
    _army(state, "Hunyad", "anna", 3, 4, 0)
    attack = [s for s in _steps(_text(state)) if s["to"] == "Temes"]
    assert attack and "Hunyad" in attack[0]["from"]
    _army(state, "Hunyad", "anna", 1, 2, 0)
    _army(state, "Temes", "neutral-DEL", 2, 3, 2)
    assert [s for s in _steps(_text(state)) if s["to"] == "Temes"] == []


def test_it_takes_its_lord_out_of_a_threatened_county_to_a_strong_castle() -> None:
    """II: the lord "should be moved very carefully": alone with one unit in Hunyad beside an enemy
    army, he goes to the strong garrison of Fehér first."""
    state = _position()
    _army(state, "Hunyad", "anna", 0, 1, 0)
    _army(state, "Szörény", "bela", 3, 4, 0)
    state["lords"]["anna"] = "Hunyad"
    first = _steps(_text(state))[0]
    assert first["to"] == "Fehér" and first.get("lord") == "yes"


def test_a_captive_lords_ransom_comes_before_any_recruit() -> None:
    """II: 20 garas free him, or he dies: short of it, nothing is recruited; with it, the ransom."""
    state = _position("recruitment")
    state["captive"], state["lords"]["anna"] = {"anna": state["year"] + 2}, None
    state["treasury"]["anna"] = 15
    assert _text(state) == "recruit: {}\n"
    state["treasury"]["anna"] = 30
    orders = load(_text(state))
    assert orders["ransom"] == "yes"
    checked = RULES.check_orders(RULES.view(state, "anna"), "anna", orders)
    assert checked.ok and sum(5 * n for u in checked.orders["recruit"].values() for n in u.values()) <= 10


@pytest.mark.parametrize("holder", ["anna", "bela"])
def test_the_last_office_gets_the_whole_treasury_when_one_player_holds_the_first_two(holder: str) -> None:
    """V.II: every office in one election wins the game: bid everything to win it, or to keep a
    rival from it."""
    state = _position("election-palatine")
    state["offices"] |= {"judge_royal": holder, "treasurer": holder}
    state["treasury"] = {"anna": 17, "bela": 3}
    assert int(load(_text(state))["bid"]) == 17
    state["offices"] |= {"treasurer": None}
    assert int(load(_text(state))["bid"]) < 17


def test_in_an_election_year_it_keeps_enough_to_outbid_the_richest_rival_at_every_office() -> None:
    """IV: three times the richest rival's treasury and one, kept from the recruits."""
    state = _position("recruitment")
    state["year"] = 1303
    state["treasury"] = {"anna": 40, "bela": 9}
    checked = RULES.check_orders(RULES.view(state, "anna"), "anna", load(_text(state)))
    spent = sum(5 * n for u in checked.orders["recruit"].values() for n in u.values())
    assert checked.ok and 40 - spent >= 3 * (9 + 1)


def test_it_tries_the_escape_only_with_castles_left_and_units_beside_its_lord() -> None:
    """III. Elimination or Vassal Oath: the escape is a 6 to a unit within one county, else the
    player is out; it is tried with two castles held and units beside the lord, else the oath."""
    state = _position()
    state["lords"]["anna"] = "Fehér"
    assert "if_defeated: escape" in _text(state)                    # Hunyad (Déva) beside Fehér
    _army(state, "Hunyad", "bela", 0, 2, 0)
    state["owner"]["Hunyad"] = "bela"
    assert "if_defeated: oath" in _text(state)


def test_the_besiegers_hit_the_castle_archers_first_and_the_lord_leads_the_cavalry() -> None:
    """III. Siege (l.252): silence the defending archers first; II: the lord's +1 to the knights in
    the field, to the infantry in a siege, where all fight on foot."""
    state = _position()
    _army(state, "Hunyad", "anna", 3, 4, 0)
    text = _text(state)
    plan = load(text)["battle"]
    assert plan["lord_leads"][0] == "cavalry"
    assert plan["counties"]["Temes"]["priorities"][0] == "archers"
    assert plan["counties"]["Temes"]["lord_leads"][0] == "infantry"


def test_what_a_castle_keeps_under_the_half_rule_is_mended_only_by_sending_fewer() -> None:
    """VI. Weapon-Type Limit: the units left in a castle keep the half rule. Sending one knight
    from Kolozsvár (2 cavalry, 4 infantry, 1 archers) would leave 4 infantry of 6; the mend once
    sent an infantry along too, which could not reach the knight's target (the judge refused:
    "1 cavalry, 1 infantry cannot reach ... 2 movement points, the way costs 3"). Now it only
    sends fewer: here none."""
    state = new_game(["anna", "bela"], seed="scn", version="advanced")
    state = step(state, orders={p: placement.default(RULES.view(state, p), p) for p in ("anna", "bela")})[0]
    _army(state, "Kolozs", "anna", 2, 4, 1)
    sight = Sight(RULES.view(state, "anna"), "anna")
    planner = Planner(sight, Odds(sight, "fit"), free={"Kolozs": {"cavalry": 2, "infantry": 2, "archers": 0}})
    sent = planner._fit("Kolozs", {"cavalry": 1, "infantry": 0, "archers": 0})
    assert sent == {"cavalry": 0, "infantry": 0, "archers": 0}
    assert planner._fit("Kolozs", {"cavalry": 0, "infantry": 1, "archers": 0})["infantry"] == 1
