"""Kard és Korona's random orders (pbem/games/kard_es_korona/random_orders/): whole games played
through the judge's engine by players whose every mail is ``random_orders`` of their own view,
over several seeds. Every mail is answered (accepted, or refused with an error naming its line:
a minority, counted), every accepted set resolves without raising, each game reaches its end
(or a bound of phases) and replays exactly from the archive. The generator writes from the view
alone: the same view and seed give the same text, whatever the hidden state.

The crashes these games found are regression tests here, each failing before its fix."""
from __future__ import annotations

import copy
import json
from collections import Counter
from dataclasses import dataclass, field
from email.utils import make_msgid

import pytest

from judge_support import Judge
from kek_support import RULES, new_game, step
from pbem.games.kard_es_korona import placement
from pbem.games.kard_es_korona.random_orders import mistakes, movement
from pbem.games.kard_es_korona.victory import last_year
from pbem.judge import archive, engine, inbound
from pbem.judge.mailer import Mailer
from pbem.mail.message import InMail
from pbem.orders.yamlsafe import load
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
