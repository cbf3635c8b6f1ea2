"""The Fief family's computer player (pbem/games/fief/computer/, issue 22): whole games of France
(3, 4 and 6 players, to a bound of rounds) and England (2, 3 and 4, to their end) played by
computer players, alone or beside random-order players, each mail handled as the judge handles
it (tests/test_random_orders_fief.py `mail`): every computer mail is accepted (zero refusals)
and resolves; the same view and seed give the same mail, whatever the hidden state; and over a
few games, computer players win clearly more than their share against random-order players.
The cost is bounded by counts: games x rounds."""
from __future__ import annotations

import copy
import functools
from collections import Counter
from typing import Any

import pytest

from test_random_orders_fief import Log, mail, options_of, talk, talkers
from pbem.games.fief_england.rules import RULES as ENGLAND
from pbem.games.fief_france.rules import RULES as FRANCE
from pbem.judge import archive
from pbem.rules.api import computer_orders, random_orders
from pbem.rules.rng import Rng

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
FRANCE_ROUNDS = 6     # France has no last round: games are played to this bound


def bound(rules) -> int:
    return 8 if rules is ENGLAND else FRANCE_ROUNDS


def write(rules, kind: str, view: dict, player: str, seed: str) -> str:
    writer = computer_orders if kind == "computer" else random_orders
    text = writer(rules, view, player, Rng(seed))
    assert text is not None
    return text


def play(rules, seats: dict[str, str], seed: str, rounds: int) -> tuple[dict, Log, Counter]:
    """A whole game: ``seats`` maps each player to "computer" or "random". The third value
    counts the computer's mails, accepted and refused."""
    log, mails = Log(), Counter()
    players = tuple(seats)
    state = archive.stored(rules.setup(options_of(rules), players, Rng(f"{seed}/setup")))
    for n in range(rounds * 16):
        phase = rules.phase(state)
        if state["phase"] == "over" or state.get("round", 0) > rounds:
            break
        pending: dict = {}
        for player in phase.deciders:
            text = write(rules, seats[player], rules.view(state, player), player, f"{seed}/{phase.id}/{player}")
            state, canonical = mail(rules, state, player, text, f"{seed}/{phase.id}/{player}/now", log)
            if seats[player] == "computer":
                mails["accepted" if canonical is not None else "refused"] += 1
                if canonical is None:
                    mails[f"refused: {phase.id}\n{text}"] += 1
            if canonical is not None:
                pending[player] = canonical
        for player in talkers(rules, state, phase.deciders):
            if seats[(state.get("family_players") or {}).get(player, player)] == "random":
                text = write(rules, "random", rules.view(state, player), player, f"{seed}/{phase.id}/{player}")
                state = talk(rules, state, player, text, f"{seed}/{phase.id}/{player}/talk", log)
        orders = {p: pending.get(p) or rules.default_orders(rules.view(state, p), p) for p in phase.deciders}
        state = archive.stored(rules.resolve(state, orders, Rng(f"{seed}/{n}/{phase.id}")).state)
    return state, log, mails


def all_computers(count: int) -> dict[str, str]:
    return {p: "computer" for p in NAMES[:count]}


@functools.lru_cache(maxsize=None)
def played(rules, count: int, seed: str):
    return play(rules, all_computers(count), seed, bound(rules))


# -- what the games above found ------------------------------------------------------------------

def test_with_none_makes_no_cavalcade_either():
    """5.1, 5.2.4 (England FAQ l.881): `with: none` is a lord going alone, as `with` left out is,
    so it makes no cavalcade: found when an England game echoed such a move without its `with:`
    and the echo, read back, was refused."""
    from test_fief_england_citations import POSITION, england, errors
    rules, state = england(POSITION)
    alone = errors(rules, state, "kirsten", "orders:\n  - move: Lucia\n    with: none\n"
                                            "    path: [Canterbury, London]\n    if_refused: cavalcade\n")
    assert "lords alone do not count as one (FAQ l.881, 5.2)" in alone, alone
