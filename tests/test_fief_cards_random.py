"""Many random Cards Phases (2) with random legal orders: every one resolves, and every card
stays in exactly one place (a pile, a discard pile, a hand, the disasters track, the board, or
in play as a lord)."""
from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

from pbem.games.fief.cards.deck import load_cards
from pbem.games.fief_france.rules import RULES
from pbem.orders.yamlsafe import load
from pbem.rules.rng import Rng

CARDS = load_cards("fief_france")
EVENTS = Counter(CARDS.event_cards())
CHARACTERS = Counter(CARDS.character_cards())
TAX_EFFECTS = {"tallage": "tax", "tithe": "tax"}


def card_places(state: dict) -> tuple[Counter, Counter]:
    events, characters = Counter(), Counter()
    for card in state["character_pile"] + state["character_discard"] + list(state["lords"]):
        characters[card] += 1
    for card in state["events_pile"] + state["events_discard"] + state["disasters_track"]:
        events[card] += 1
    for effect in state["board_effects"]:
        events[TAX_EFFECTS.get(effect["card"], effect["card"])] += 1
    for family in state["families"].values():
        for card in family["hand"]:
            (characters if card in CHARACTERS else events)[card] += 1
    return events, characters


def draw_document(view: dict, rnd: random.Random) -> str:
    hand = list(view["hand"])
    discard = rnd.sample(hand, rnd.randint(0, len(hand)))
    room = 3 - len(hand) + len(discard)
    piles = [rnd.choice(["character", "events"]) for _ in range(min(room, rnd.randint(0, 2)))]
    if piles.count("character") > 1:
        piles = ["character", "events"]
    lines = ["orders:"]
    if discard:
        lines.append(f"  - discard: [{', '.join(discard)}]")
    if piles:
        lines.append(f"  - draw: [{', '.join(piles)}]")
        if room >= 2 and rnd.random() < 0.5:
            second = "events" if piles[0] == "character" else rnd.choice(["character", "none"])
            first = rnd.choice(['lord', 'fortune', 'character', 'cardinal', 'tax'])
            lines.append(f"    if_first: {{{first}: {second}}}")
    return "\n".join(lines) + "\n" if len(lines) > 1 else "orders: []\n"


def play_items(view: dict, player: str, rnd: random.Random) -> list[str]:
    mine = [n for n, l in view["lords"].items() if l["family"] == player]
    items = []
    for card in view["hand"]:
        if card in CARDS.lords:
            items.append(f"  - play: {card}\n    in: {rnd.choice(sorted(view['towns']))}\n")
        elif card in ("good_weather", "good_harvest"):
            items.append(f"  - play: {card}\n    on: {rnd.randint(1, 5)}\n")
        elif card == "tax" and mine:
            target = rnd.choice([f"tallage: {rnd.choice(sorted(view['fiefs']))}",
                                 f"tithe: {rnd.choice(['1', '2', '3', '4', '5', 'all'])}"])
            items.append(f"  - play: tax\n    {target}\n    lord: {rnd.choice(mine)}\n")
    return items


def orders_for(state: dict, player: str, rnd: random.Random, tally: Counter) -> dict:
    view = RULES.view(state, player)
    tally["mails"] += 1
    if view["phase"] == "cards":
        check = RULES.check_orders(view, player, load(draw_document(view, rnd)))
        assert check.ok, check.errors      # the generator writes legal draws only
        tally["accepted"] += 1
        return check.orders
    items = play_items(view, player, rnd)
    kept = [i for i in items if RULES.check_orders(view, player, load("orders:\n" + i)).ok]
    tally["plays written"] += len(items)
    tally["plays accepted"] += len(kept)
    check = RULES.check_orders(view, player, load("orders:\n" + "".join(kept) if kept else "orders: []\n"))
    tally["accepted"] += check.ok
    return check.orders if check.ok else RULES.default_orders(view, player)


def cards_in_hands(state: dict) -> int:
    return sum(len(f["hand"]) for f in state["families"].values())


@functools.cache
def run_cards_phases(seed: int) -> Counter:
    """Plays the Cards Phases of one seeded game, checking every card's place after each
    resolution; returns what happened (mails, accepted, cards drawn and played)."""
    rnd = random.Random(seed)
    tally: Counter = Counter()
    players = [f"p{i}" for i in range(rnd.randint(3, 6))]
    state = RULES.setup({"mandatory_placement": True}, players, Rng(f"cards-{seed}"))
    assert card_places(state) == (EVENTS, CHARACTERS)
    for step in range(40):
        if state["phase"] == "over":
            break
        phase = RULES.phase(state)
        if state["phase"] not in ("cards", "cards_play", "income", "end_of_round"):
            state = {**state, "phase": "end_of_round"}    # only the cards matter here
            continue
        orders = {p: orders_for(state, p, rnd, tally) for p in phase.deciders}
        before = cards_in_hands(state)
        played = state["phase"] == "cards_play"
        state = RULES.resolve(state, orders, Rng(f"cards-{seed}-{step}")).state
        if played:
            tally["cards played"] += before - cards_in_hands(state)
        elif phase.deciders:
            tally["cards drawn"] += max(0, cards_in_hands(state) - before)
        assert card_places(state) == (EVENTS, CHARACTERS), (seed, step, phase.id)
        assert len(state["disasters_track"]) <= 3
        assert all(len(f["hand"]) <= 3 for f in state["families"].values())
        lords = Counter(l["family"] for l in state["lords"].values())
        assert max(lords.values()) <= 4
        if state["phase"] in ("hear_ye", "hear_ye_votes") or state["phase"] == "purchase":
            state = {**state, "phase": "end_of_round" if state["phase"] == "purchase" else "cards"}
    return tally


SEEDS = range(12)


@pytest.mark.parametrize("seed", SEEDS)
def test_many_cards_phases_conserve_every_card(seed: int) -> None:
    tally = run_cards_phases(seed)
    assert tally["mails"] and tally["accepted"] == tally["mails"], tally   # none fell back to holding


def test_the_random_cards_phases_draw_and_play_cards() -> None:
    """Not vacuous: a checker refusing everything (each refusal falls back to playing nothing)
    would pass the test above with no card ever played."""
    total = sum((run_cards_phases(seed) for seed in SEEDS), Counter())
    assert total["cards drawn"] >= 200 and total["cards played"] >= 150, total  # 350 and 267 today
    assert total["plays accepted"] >= total["plays written"] // 2, total
