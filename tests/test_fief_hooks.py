"""France's own rules that the Fief core reaches through the edition's hooks (pbem/games/fief/hooks.py,
docs/adding-a-game.md): each hook tested both ways, France with it and France's record with the
hook taken away (the core's rule alone: an edition without that rule, like England).
tests/test_fief_edition.py tests the hooks that came before these."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

import pytest

from pbem.games.fief.edition import _EDITIONS, load_edition
from pbem.games.fief.positions import build_position
from pbem.games.fief_france.rules import RULES

from fief_support import errors, resolve, send

PLAYERS = ["anne", "bruno", "carl"]


@pytest.fixture
def without(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """France's edition with some hooks replaced (by their default, or a test edition's rule), for
    every rule reading the edition (state or view)."""
    def change(**hooks: Any) -> None:
        france = load_edition("fief_france")
        monkeypatch.setitem(_EDITIONS, "fief_france", replace(france, hooks=replace(france.hooks, **hooks)))
    return change


def test_titles_immune_to_justice_are_the_editions(without) -> None:
    """G.4.2.4: France's king, queen, crown prince and pope are immune to the justice card (its
    `justice_immune` hook); without the hook a king bearing the assassin marker is struck."""
    position = {"players": PLAYERS, "phase": "cards", "hands": {"bruno": ["justice"]},
                "lords": {"Charles": {"family": "anne", "at": "Paris", "titles": ["king"], "assassin": True},
                          "Arthur": {"family": "bruno", "at": "Lyon"}}}
    state = {**build_position(position).to_json(), "phase": "cards_play"}
    mail = "orders:\n  - play: justice\n    on: Charles\n"
    assert "the king, the queen (regent or not), the crown prince and the pope are immune (G.4.2.4)" in errors(
        state, "bruno", mail)
    without(justice_immune=None)
    check = send(state, "bruno", mail)
    assert check.ok, check.errors
    after, events = resolve(state, {"bruno": check.orders})
    assert "Charles" not in after["lords"] and any(e.kind == "justice" for e in events)


def test_the_privilege_to_offer_a_title_is_the_editions(without) -> None:
    """4.4: France's king (else the regent queen) may offer a fief title once a round (its
    `privileged` hook); an edition without it has no such privilege: the order form offers none
    and an `offer_title:` order is refused, saying so."""
    position = {"players": PLAYERS, "phase": "purchase", "deniers": {"anne": 6, "bruno": 5, "carl": 5},
                "lords": {"Charles": {"family": "anne", "at": "Paris", "titles": ["king"]},
                          "Quentin": {"family": "bruno", "at": "Nantes"}},
                "units": {"Nantes": {"bruno": {"man_at_arms": 1}}, "Rennes": {"bruno": {"man_at_arms": 1}}},
                "towns": {"Nantes": {"fortress": "stronghold"}}}
    state = build_position(position).to_json()
    offer = "orders:\n  - offer_title: Bretagne\n    to: bruno\n"
    assert send(state, "anne", offer).ok
    assert "The king's privilege (4.4): Charles (anne)" in RULES.order_template(RULES.view(state, "anne"), "anne")
    without(privileged=())
    assert "no title brings the privilege to offer a fief title in this game" in errors(state, "anne", offer)
    assert "privilege" not in RULES.order_template(RULES.view(state, "anne"), "anne")


def test_the_queens_income_goes_to_the_editions_titles(without) -> None:
    """3, D.3.2: France's queen and regent queen bring their family the record's `income.queen`
    (its `queen_titles` hook); an edition naming another title (a test edition's Sovereign Queen)
    pays that one, an edition without the hook pays no title."""
    position = {"players": PLAYERS, "phase": "income", "deniers": {"anne": 0, "bruno": 0},
                "lords": {"Blanche": {"family": "anne", "at": "Tours", "female": True, "titles": ["queen"]},
                          "Isabelle": {"family": "bruno", "at": "Lyon", "female": True,
                                       "titles": ["regent_queen"]}}}

    def queens_income() -> dict[str, int]:
        state, events = resolve(build_position(position).to_json(), {})
        return {e.data["player"]: e.data["queen"] for e in events if e.kind == "income" and e.data["queen"]}

    assert queens_income() == {"anne": 2, "bruno": 2}                  # 3, D.3.2
    without(queen_titles=("regent_queen",))
    assert queens_income() == {"bruno": 2}
    without(queen_titles=())
    assert queens_income() == {}


def test_character_cards_are_named_by_the_edition(without) -> None:
    """G.4.1: the printed names of France's character cards (D'Arc, Cardinal) are its
    `characters` hook's: the cards drawn, held and exchanged are named by it; an edition without
    those characters names such a card by its id."""
    from pbem.games.fief.cards.phase import card_name

    position = {"players": PLAYERS, "phase": "cards", "hands": {"anne": ["darc", "cardinal", "plague"]},
                "lords": {"Blanche": {"family": "anne", "at": "Tours"}}}
    state = build_position(position).to_json()

    def names() -> tuple[list[str], bool]:
        form = RULES.order_template(RULES.view(state, "anne"), "anne")
        return [card_name("fief_france", c) for c in ("darc", "cardinal", "plague")], "D'Arc, Cardinal, plague" in form

    assert names() == (["D'Arc", "Cardinal", "plague"], True)
    without(characters={})
    assert names() == (["darc", "cardinal", "plague"], False)
