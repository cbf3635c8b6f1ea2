"""The computer player of the Fief family (pbem.rules.api.PlaysAsComputer): the body of an
order mail for the open phase, written from the player's own view alone, to win. Each phase's
decisions are a module of this package (setup, elections, cards, purchase, movement, battle,
policies; England's own in england.py); the edition is read through the view (its board, its
units and prices, its hooks).

Each decision is a list of choices, best first, each choice a list of alternatives (a bigger
purchase, then a smaller one); the mail is assembled choice by choice and an alternative is kept
only if the player's own order check (the one every mail goes through) accepts the mail with it,
so the computer's mail is never refused. At two players in England (13.7) both families are
ordered in the one `families:` mail, checked together (one purse, one hand: R154, R158).
Ties are broken with the rng it is handed, so the same view and seed give the same mail."""
from __future__ import annotations

from typing import Any, Callable

from pbem.games.fief import families as fam
from pbem.games.fief.computer.battle import battle_choices
from pbem.games.fief.computer.cards import draw_choices, play_choices
from pbem.games.fief.computer.elections import first_choices, vote_choices
from pbem.games.fief.computer.mail import Mail
from pbem.games.fief.computer.england import invader_choices, parliament_choices
from pbem.games.fief.computer.movement import movement_choices
from pbem.games.fief.computer.policies import standing_policies
from pbem.games.fief.computer.purchase import purchase_choices
from pbem.games.fief.computer.setup import setup_choices
from pbem.games.fief.random_orders.draws import Draws, Item, block, policies_block
from pbem.games.fief.random_orders.seen import JSON
from pbem.orders.yamlsafe import YamlProblem, load
from pbem.rules.api import OrderCheck
from pbem.rules.rng import Rng

Choice = list[Item]                       # alternatives, best first
Decide = Callable[[JSON, str, Draws, Mail], list[Choice]]
Checker = Callable[[JSON, str, Any], OrderCheck]
BY_PHASE: dict[str, Decide] = {
    "setup": setup_choices, "hear_ye": first_choices, "hear_ye_votes": vote_choices,
    "parliament": parliament_choices, "cards": draw_choices, "cards_play": play_choices,
    "purchase": purchase_choices, "movement": movement_choices, "invaders": invader_choices,
    "battle": battle_choices,
}


def computer_orders(check: Checker, view: JSON, player: str, rng: Rng) -> str:
    """The mail's body: each family ordering now, its orders and standing policies."""
    draw = Draws(rng)
    families = list(view["ordering"]) if fam.families_apart(view) else [player]
    own = {f: (fam.family_view(view, f) if fam.families_apart(view) else view) for f in families}
    decide = BY_PHASE.get(view["phase"])
    if decide is None or not families:
        return ""
    chosen: dict[str, list[Item]] = {f: [] for f in families}
    policies = {f: standing_policies(own[f], f) if view["phase"] != "setup" else {} for f in families}
    if not _accepted(check, view, player, _text(view, chosen, policies)):
        policies = {f: {} for f in families}   # never refused: without the policies, then
    mail = Mail()
    for family in families:   # 13.7: the second family decides knowing what the first does
        for choice in decide(own[family], family, draw, mail):
            for item in choice:
                trial = {**chosen, family: chosen[family] + [item]}
                if _accepted(check, view, player, _text(view, trial, policies)):
                    chosen = trial
                    mail.add(own[family], item)
                    break
    return _text(view, chosen, policies)


def _text(view: JSON, chosen: dict[str, list[Item]], policies: dict[str, Item]) -> str:
    def one(family: str) -> str:
        return block("orders", chosen[family]) + (policies_block(policies[family]) if policies[family] else "")
    if not fam.families_apart(view):
        return one(next(iter(chosen)))
    return "families:\n" + "".join(fam.indented(one(f), f) for f in chosen)


def _accepted(check: Checker, view: JSON, player: str, text: str) -> bool:
    try:
        document = load(text) or {}
    except YamlProblem:
        return False
    return check(view, player, document).ok
