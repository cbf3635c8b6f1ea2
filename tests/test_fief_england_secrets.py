"""Fief: England's hidden information never leaks (issue 11): a property test over random legal
games at 2 (13.7: a player's two families), 3 and 4 players, as tests/test_leaks.py does for
France. For every player B and every position reached, changing what B may not see — another
family's shillings (FAQ l.857), its hand, its unit types (always face down, 4.1), the order of
the piles, the nobles set aside at setup (l.31), which relic lies face down where (R36) and the
retainer deck's order (2.12) — changes neither B's view nor B's report. The two positions
compared must really differ."""
from __future__ import annotations

import copy
import random

import pytest

from pbem.games import rules_for
from pbem.games.fief.board import load_board
from pbem.games.fief.families import families_apart, family_view, indented
from pbem.judge.render import render
from pbem.orders import yamlsafe
from pbem.rules.rng import Rng

RULES = rules_for("fief_england")
BOARD = load_board("fief_england")
CARDS = ["tax", "plague", "storms", "rebellion", "justice", "good_weather", "Alienor", "Edward", "bishop"]


def random_document(view: dict, player: str, rnd: random.Random) -> str:
    if families_apart(view):   # 13.7: an item of `families:` per family ordering now
        return "families:\n" + "".join(indented(random_document(family_view(view, f), f, rnd), f)
                                       for f in view["ordering"])
    phase = view["phase"]
    if phase == "setup":
        return "orders:\n  - start: [" + ", ".join(rnd.sample(sorted(view["towns"]), 3)) + "]\n"
    if phase == "cards":
        return "orders:\n  - draw: [character, events]\n"
    mine = [(name, info["location"]) for name, info in view["lords"].items()
            if info["family"] == player and info["location"] and not info["captive_of"]]
    if not mine:
        return "orders: []\n"
    lord, town = rnd.choice(mine)
    if phase == "purchase":
        kind = rnd.choice(["man_at_arms", "archer", "knight", "trebuchet"])
        return f"orders:\n  - buy: {kind}\n    in: {town}\n"
    if phase == "movement":
        units = view["towns"][town]["forces"].get(player, {}).get("units", {})
        kind = rnd.choice(sorted(units)) if units else None
        with_ = f"    with: {{{kind}: 1}}\n" if kind else ""
        return f"orders:\n  - move: {lord}\n{with_}    path: [{rnd.choice(BOARD.neighbours(town))}]\n"
    return "orders: []\n"


def legal_orders(state: dict, player: str, rnd: random.Random) -> dict:
    view = RULES.view(state, player)
    check = RULES.check_orders(view, player, yamlsafe.load(random_document(view, player, rnd)))
    return check.orders if check.ok else RULES.default_orders(view, player)


def random_positions(seed: int, resolutions: int = 16):
    rnd = random.Random(seed)
    players = [f"p{i}" for i in range(2 if seed == 3 else rnd.randint(3, 4))]   # seed 3: 13.7
    state = RULES.setup({"random_stronghold_setup": rnd.random() < 0.5}, players, Rng(f"setup-{seed}"))
    yield state
    for step in range(resolutions):
        if RULES.result(state) is not None:
            return
        orders = {p: legal_orders(state, p, rnd) for p in RULES.phase(state).deciders}
        state = RULES.resolve(state, orders, Rng(f"{seed}-{step}")).state
        yield state


def owner(state, family):
    """The player of a family (13.7: a player's second family is theirs too)."""
    return (state.get("family_players") or {}).get(family, family)


def other_money(state, viewer, rnd):
    first, second = copy.deepcopy(state), copy.deepcopy(state)
    for player, family in second["families"].items():
        if owner(state, player) != viewer:
            family["deniers"] = first["families"][player]["deniers"] + rnd.randint(1, 9)
    return first, second


def other_hand(state, viewer, rnd):
    first, second = copy.deepcopy(state), copy.deepcopy(state)
    for player in state["families"]:
        if owner(state, player) != viewer:
            cards = rnd.sample(CARDS, 4)
            first["families"][player]["hand"], second["families"][player]["hand"] = cards[:2], cards[2:]
    return first, second


def other_unit_types(state, viewer, rnd):
    changed = copy.deepcopy(state)
    swap = {"man_at_arms": "archer", "archer": "man_at_arms", "knight": "man_at_arms", "trebuchet": "knight"}
    for pawn in changed["pawns"].values():
        if owner(state, pawn["family"]) != viewer and pawn["kind"] in swap:
            pawn["kind"] = swap[pawn["kind"]]
    return state, changed


def reshuffled_piles(state, viewer, rnd):
    changed = copy.deepcopy(state)
    for pile in ("character_pile", "events_pile"):
        rnd.shuffle(changed[pile])
    changed["disasters_track"] = [rnd.choice(["plague", "storms", "famine", "invaders"])
                                  for _ in changed["disasters_track"]]
    return state, changed


def other_set_aside(state, viewer, rnd):
    """l.31: the six nobles set aside "without looking at them"."""
    changed = copy.deepcopy(state)
    aside = changed["edition_state"]["setup"]["set_aside"]
    pile = changed["character_pile"]
    nobles = [i for i, card in enumerate(pile) if card[0].isupper()]
    if nobles:
        i = rnd.choice(nobles)
        j = rnd.randrange(len(aside))
        pile[i], aside[j] = aside[j], pile[i]
    return state, changed


def other_relics(state, viewer, rnd):
    """R36: which relic lies face down on which cathedral city; the retainer deck's order."""
    changed = copy.deepcopy(state)
    relics = changed["edition_state"]["relics"]["relics"]
    down = sorted(r for r, info in relics.items() if not info["face_up"])
    cities = [relics[r]["city"] for r in down]
    for relic, city in zip(down, cities[1:] + cities[:1], strict=True):
        relics[relic]["city"] = city
    rnd.shuffle(changed["edition_state"]["retainers"]["deck"])
    return state, changed


SECRETS = {"shillings": other_money, "hands": other_hand, "unit types": other_unit_types,
           "piles": reshuffled_piles, "nobles set aside": other_set_aside, "relics and retainer deck": other_relics}


def report(state, player):
    return render(RULES.report_template(), view=RULES.view(state, player), me=player)


@pytest.mark.parametrize("secret", sorted(SECRETS))
def test_no_view_or_report_depends_on_what_the_player_may_not_see(secret):
    change = SECRETS[secret]
    meaningful = 0
    for seed in range(4):
        rnd = random.Random(f"{secret}-{seed}")
        for state in random_positions(seed):
            for viewer in dict.fromkeys(owner(state, f) for f in state["players"]):   # the players
                first, second = change(state, viewer, rnd)
                if first == second:
                    continue
                meaningful += 1
                assert RULES.view(first, viewer) == RULES.view(second, viewer), (secret, seed, viewer)
                assert report(first, viewer) == report(second, viewer), (secret, seed, viewer)
    assert meaningful > 20, f"{secret}: only {meaningful} positions really differed"


def test_the_random_games_include_a_two_player_game() -> None:
    """13.7: seed 3 is a two-player game; its players' views are checked above."""
    state = next(random_positions(3))
    assert state["family_players"] == {"p0": "p0", "p0-2": "p0", "p1": "p1", "p1-2": "p1"}


def test_the_random_games_really_play() -> None:
    """The property above is over games that move: troops bought and moved, cards drawn."""
    states = list(random_positions(1, 30))
    last = states[-1]
    assert last["round"] >= 2 and len(last["pawns"]) > 8
    assert any(f["hand"] for f in last["families"].values())
