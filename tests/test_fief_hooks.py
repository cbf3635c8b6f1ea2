"""France's own rules that the Fief core reaches through the edition's hooks (pbem/games/fief/hooks.py,
docs/adding-a-game.md): each hook tested both ways, France with it and France's record with the
hook taken away (the core's rule alone: an edition without that rule, like England).
tests/test_fief_edition.py tests the hooks that came before these."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

import pytest

from pbem.games.fief.board import Board, load_board
from pbem.games.fief.edition import _EDITIONS, load_edition
from pbem.games.fief.hooks import DisasterStrike, die_names_a_bishopric
from pbem.games.fief.positions import build_position
from pbem.games.fief.state import FiefState
from pbem.games.fief_france.rules import RULES
from pbem.judge.render import render
from pbem.rules.rng import Rng

from fief_support import errors, resolve, send
from tests.test_fief_cards_offshore import Dice   # dice given in order, each one expected

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
    state = {**build_position(position, "fief_france").to_json(), "phase": "cards_play"}
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
    state = build_position(position, "fief_france").to_json()
    offer = "orders:\n  - offer_title: Bretagne\n    to: bruno\n"
    assert send(state, "anne", offer).ok
    assert "The king's privilege (4.4): Charles (anne)" in RULES.order_template(RULES.view(state, "anne"), "anne")
    assert "King Charles (anne): the privilege to offer a fief title (4.4) is available" in render_report(state, "anne")
    without(privileged=())
    assert "no title brings the privilege to offer a fief title in this game" in errors(state, "anne", offer)
    assert "privilege" not in RULES.order_template(RULES.view(state, "anne"), "anne")
    assert RULES.view(state, "anne")["king_offer_used"] is None and "privilege" not in render_report(state, "anne")


def test_the_queens_income_goes_to_the_editions_titles(without) -> None:
    """3, D.3.2: France's queen and regent queen bring their family the record's `income.queen`
    (its `queen_titles` hook); an edition naming another title (a test edition's Sovereign Queen)
    pays that one, an edition without the hook pays no title."""
    position = {"players": PLAYERS, "phase": "income", "deniers": {"anne": 0, "bruno": 0},
                "lords": {"Blanche": {"family": "anne", "at": "Tours", "female": True, "titles": ["queen"]},
                          "Isabelle": {"family": "bruno", "at": "Lyon", "female": True,
                                       "titles": ["regent_queen"]}}}

    def queens_income() -> dict[str, int]:
        state, events = resolve(build_position(position, "fief_france").to_json(), {})
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
    state = build_position(position, "fief_france").to_json()

    def names() -> tuple[list[str], bool]:
        form = RULES.order_template(RULES.view(state, "anne"), "anne")
        return [card_name("fief_france", c) for c in ("darc", "cardinal", "plague")], "D'Arc, Cardinal, plague" in form

    assert names() == (["D'Arc", "Cardinal", "plague"], True)
    without(characters={})
    assert names() == (["darc", "cardinal", "plague"], False)


def regions_strike(state: FiefState, board: Board, name: str, dice_icon: bool, rng: Rng) -> DisasterStrike:
    """A test edition with England's rule (E 2.4, R43) on France's board: the d6 names one of six
    regions and every result strikes, the icon or not; here regions 1-5 are the bishoprics and
    region 6 the sea (an English Region strikes its land and sea)."""
    roll = rng.d6(f"disaster {name}: region (E 2.4)")
    if roll == 6:
        return DisasterStrike("offshore", "offshore", f"the d6 rolls {roll}: ", "region 6 (the sea)", {"roll": roll})
    return DisasterStrike(str(roll), roll, f"the d6 rolls {roll}: ", f"region {roll}", {"roll": roll, "region": roll})


def test_where_a_disaster_strikes_is_the_editions(without) -> None:
    """2.5: in France the d6 names a bishopric, a 6 is a false alarm and a card without the dice
    icon strikes the offshore area (its `disaster_target` hook); without the hook the d6 names a
    bishopric and every card rolls; a test edition with England's rule (R43) strikes on a 6."""
    from pbem.games.fief.cards.deck import load_cards
    from pbem.games.fief.cards.effects import resolve_disasters

    position = {"players": PLAYERS, "lords": {"Charles": {"family": "bruno", "at": "offshore"}},
                "units": {"offshore": {"bruno": {"knight": 2}}}}

    def reveal(track: list[str], *dice: int) -> list[tuple[str, str]]:
        state = build_position({**position, "disasters_track": track}, "fief_france")
        rng = Dice(*dice)
        events = resolve_disasters(state, load_board("fief_france"), load_cards("fief_france"), rng)
        assert not rng.faces, "every die given is used"
        return [(e.kind, e.text) for e in events if e.kind.startswith("disaster")]

    assert reveal(["famine", "bad_weather_offshore"], 6) == [
        ("disaster_false_alarm", "A famine card is revealed; anne rolls a 6: false alarm, the card is "
                                 "discarded (2.5)."),
        ("disaster", "A bad weather card is revealed; it has no dice icon: it strikes the offshore area until "
                     "the end of the round (2.5).")]
    without(disaster_target=die_names_a_bishopric)
    assert reveal(["famine", "bad_weather_offshore"], 6, 2) == [
        ("disaster_false_alarm", "A famine card is revealed; anne rolls a 6: false alarm, the card is "
                                 "discarded (2.5)."),
        ("disaster", "A bad weather card is revealed; anne rolls 2: it strikes bishopric Lisieux (2) until the "
                     "end of the round (2.5).")]
    without(disaster_target=regions_strike)
    assert reveal(["famine"], 6) == [
        ("disaster", "A famine card is revealed; the d6 rolls 6: it strikes region 6 (the sea) until the end "
                     "of the round (2.5).")]


def test_the_cardinal_title_for_sale_is_the_editions(without) -> None:
    """4.5: France sells a single cardinal title to any bishop (its `cardinals` hook): the
    `cardinal:` purchase order, the order form's line and the report's; an edition without
    cardinals refuses the order, saying so, and shows no tile."""
    position = {"players": PLAYERS, "phase": "purchase", "deniers": {"anne": 6},
                "lords": {"Charles": {"family": "anne", "at": "Paris", "titles": ["bishop 4"]}}}
    state = build_position(position, "fief_france").to_json()
    buy = "orders:\n  - cardinal: Charles\n"

    def shown() -> tuple[bool, bool]:
        view = RULES.view(state, "anne")
        return ("Cardinal title (4.5)" in RULES.order_template(view, "anne"),
                "Cardinal title (4.5)" in render_report(state, "anne"))

    check = send(state, "anne", buy)
    assert check.ok and check.orders["orders"] == [{"cardinal": "Charles"}]
    assert resolve(state, {"anne": check.orders})[0]["lords"]["Charles"]["cardinal"]
    assert shown() == (True, True)
    without(cardinals=False)
    assert "line 2: there is no cardinal title for sale in this game (4.5 is not among its rules)" in errors(
        state, "anne", buy)
    assert RULES.view(state, "anne")["cardinal_title"] is None
    assert shown() == (False, False)


def test_a_cardinals_one_tithe_marker_is_the_editions(without) -> None:
    """G.3.3.2, ruling 34: France's cardinal has one tithe marker, so one tithe at a time on a
    bishopric his family does not own (its `cardinals` hook); an edition without France's
    cardinals has no such marker to run out of."""
    lords = {"Beaudouin": {"family": "anne", "at": "Tours", "titles": ["bishop 2", "cardinal"]},
             "Charles": {"family": "bruno", "at": "Paris", "titles": ["bishop 3"]},
             "Arthur": {"family": "carl", "at": "Lyon", "titles": ["bishop 4"]}}
    state = {**build_position({"players": PLAYERS, "phase": "cards", "lords": lords,
                               "hands": {"anne": ["tax", "tax"]}}, "fief_france").to_json(), "phase": "cards_play"}
    two = ("orders:\n  - play: tax\n    tithe: 3\n    lord: Beaudouin\n"
           "  - play: tax\n    tithe: 4\n    lord: Beaudouin\n")
    canonical = {"play": [{"card": "tax", "tax": "tithe", "target": t, "lord": "Beaudouin"} for t in ("3", "4")]}
    assert "Beaudouin's cardinal tithe marker already lies on bishopric 3" in errors(state, "anne", two)
    assert [e["target"] for e in resolve(state, {"anne": canonical})[0]["board_effects"]] == ["3"]
    without(cardinals=False)
    assert send(state, "anne", two).ok
    assert [e["target"] for e in resolve(state, {"anne": canonical})[0]["board_effects"]] == ["3", "4"]


def test_the_calm_uprisings_policys_cardinal_words_are_the_editions(without) -> None:
    """G.4.2.1, D.2.2: France's `calm_uprisings` policy says whether a cardinal calms too
    (`as_cardinal`, `also_as_cardinal`; its `cardinals` hook); an edition without cardinals
    knows the bishop's words only, and its echo and report leave the cardinal out."""
    state = build_position({"players": PLAYERS, "phase": "movement",
                            "lords": {"Henry": {"family": "anne", "at": "Lyon", "titles": ["bishop 2"]}}},
                           "fief_france").to_json()
    mapping = "orders: []\npolicies:\n  calm_uprisings: {as_bishop: yes, as_cardinal: yes}\n"
    check = send(state, "anne", mapping)
    assert check.ok and check.orders["policies"]["calm_uprisings"] == {
        "as_bishop": True, "as_cardinal": True, "except_raised_by": []}
    assert send(state, "anne", "orders: []\npolicies:\n  calm_uprisings: also_as_cardinal\n").ok
    without(cardinals=False)
    assert "unknown key `as_cardinal` in `calm_uprisings`" in errors(state, "anne", mapping)
    assert "`calm_uprisings` is one of never, as_bishop or a mapping" in errors(
        state, "anne", "orders: []\npolicies:\n  calm_uprisings: also_as_cardinal\n")
    bishop = send(state, "anne", "orders: []\npolicies:\n  calm_uprisings: {as_bishop: yes}\n")
    assert bishop.orders["policies"]["calm_uprisings"] == {"as_bishop": True, "except_raised_by": []}
    echoed = RULES.echo_orders(RULES.view(state, "anne"), "anne", bishop.orders)
    assert "as_cardinal" not in echoed and send(state, "anne", echoed).orders == bishop.orders
    played, _ = resolve(state, {"anne": bishop.orders})
    report = render_report(played, "anne")
    assert "calm_uprisings: as_bishop yes" in report and "as_cardinal" not in report


def render_report(state: dict, player: str) -> str:
    return render(RULES.report_template(), view=RULES.view(state, player), me=player)


def test_the_hear_ye_mails_own_orders_are_the_editions(without) -> None:
    """1.1, 1.4, D.2.3: France's pope excommunicates, lifts and answers annulments, a spouse asks
    for one, and a candidate for pope may excommunicate if elected (its `hear_ye_orders` hook, the
    annulments resolved by its elections' `before`); a test edition without a pope has none of
    these orders: the mails refuse them, the forms and echo leave them out, the defaults lack them."""
    lords = {"François": {"family": "carl", "at": "Avignon", "titles": ["bishop 5", "pope"]},
             "Henry": {"family": "anne", "at": "Rouen", "spouse": "Blanche"},
             "Blanche": {"family": "bruno", "at": "Limoges", "spouse": "Henry", "female": True},
             "Quentin": {"family": "anne", "at": "Nantes"}}
    state = build_position({"players": PLAYERS, "round": 2, "phase": "hear_ye", "lords": lords},
                           "fief_france").to_json()
    annul, grant = "orders:\n  - annul: Henry\n", "orders:\n  - annulments: grant\n  - excommunicate: Quentin\n"
    asked, granted = send(state, "anne", annul), send(state, "carl", grant)
    assert asked.ok and granted.ok and granted.orders["pope"] == {"excommunicate": "Quentin"}
    after, events = resolve(state, {"anne": asked.orders, "carl": granted.orders})
    assert after["lords"]["Henry"]["spouse"] is None and after["lords"]["Quentin"]["excommunicated"]
    view = RULES.view(state, "carl")
    assert "#  - annulments: refuse" in RULES.order_template(view, "carl")
    assert "annulments: grant" in RULES.echo_orders(view, "carl", granted.orders)
    assert RULES.default_orders(view, "carl") == {"pope": {}, "annulments": "refuse", "annul": None,
                                                  "marry": None, "candidates": {}, "policies": {}}
    assert RULES.phase(state).summary == "marriages, the pope's acts, candidates"

    france = load_edition("fief_france")
    without(hear_ye_orders=None, elections=replace(france.hooks.elections, before=lambda s, o: []))
    assert "`annul` is not an order of this phase" in errors(state, "anne", annul)
    assert "`annulments` is not an order of this phase" in errors(state, "carl", grant)
    template = RULES.order_template(view, "carl")
    assert "annul" not in template and "excommunicate" not in template
    assert "# Hear Ye, Hear Ye! (1), first mail: marriages, candidates." in template
    assert RULES.default_orders(view, "carl") == {"marry": None, "candidates": {}, "policies": {}}
    assert RULES.phase(state).summary == "marriages, candidates"
    assert "annulments" not in RULES.echo_orders(view, "carl", granted.orders)
    votes = {**state, "phase": "hear_ye_votes", "hear_ye": {"ballots": [{"id": "pope", "candidates": ["François"]}]}}
    assert "`excommunicate` is not an order of this phase" in errors(
        votes, "carl", "orders:\n  - excommunicate: Quentin\n    if_pope: François\n")
    without(hear_ye_orders=france.hooks.hear_ye_orders, elections=france.hooks.elections)
    assert send(votes, "carl", "orders:\n  - excommunicate: Quentin\n    if_pope: François\n").ok


# -- the seas (5.3): the core reads them from the board, not France's one name ------------------
def two_seas() -> Board:
    """France's board with a second sea, as an edition with several (England has six) would have."""
    import copy
    board = copy.copy(load_board("fief_france"))
    board.seas = ("offshore", "north_sea")
    return board


def test_forces_at_any_sea_of_the_board_land_and_are_seen() -> None:
    """5.3: forces at a sea at the start of the Movement Phase land in a harbor, a plague without
    the dice icon strikes the forces at its sea, and the view shows the forces at sea, for every
    sea of the board; France's one sea keeps its name and its words."""
    from pbem.games.fief.cards.effects import plague
    from pbem.games.fief.movement.events import where_text
    from pbem.games.fief.movement.phase import resolve_movement
    from pbem.games.fief.views import build_view

    board = two_seas()

    def at_sea() -> FiefState:
        state = build_position({"players": PLAYERS, "phase": "movement",
                                "lords": {"Quentin": {"family": "anne", "at": "Nantes"}},
                                "units": {"Nantes": {"anne": {"man_at_arms": 1}}}}, "fief_france")
        for pawn in [p for p in state.pawns.values() if p.family == "anne"]:
            pawn.location = "north_sea"
        return state

    state = at_sea()
    assert build_view(state, board, "bruno")["offshore"]["forces"]["anne"]["units"] == {"man_at_arms": 1}
    assert build_view(state, load_board("fief_france"), "bruno")["offshore"]["forces"] == {}
    events = resolve_movement(state, board, {"anne": {"moves": [], "land": "Calais"}}, Rng("seas"))
    assert [p.location for p in state.pawns.values() if p.family == "anne"] == ["Calais"]
    assert any(e.kind == "troop_landed" and "lands in Calais (the harbor they chose, 5.3)" in e.text for e in events)
    state = at_sea()
    struck = plague(state, board, Dice(), "north_sea")
    assert any("Plague in the north_sea area" in e.text for e in struck)
    assert where_text(("town", "north_sea"), board.seas) == "north_sea"
    assert where_text(("town", "offshore"), load_board("fief_france").seas) == "offshore"


def test_a_trigger_may_wait_for_the_editions_own_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    """G.4: an `at_phase_start` trigger names a phase of the game's round: the core's, and the
    edition's own (its `phases` hook; the test edition's `muster`, as England's Invaders phase);
    France has no `muster` and refuses it. The trigger fires when that phase starts."""
    from fief_own_phase import MUSTER

    from pbem.games.fief.surprise.phase_start import PHASES, trigger_phases

    lords = {"Henry": {"family": "anne", "at": "Tours"}, "Charles": {"family": "bruno", "at": "Paris"}}
    state = build_position({"players": PLAYERS, "phase": "hear_ye", "round": 2, "lords": lords,
                            "hands": {"anne": ["assassination"]}}, "fief_france").to_json()
    trigger = ("orders: []\npolicies:\n  surprise:\n    - at_phase_start: muster\n"
               "      play: assassination\n      on: Charles\n      sponsor: Henry\n")
    assert trigger_phases("fief_france") == PHASES
    assert "'muster' is not a phase a trigger may wait for" in errors(state, "anne", trigger)

    france = load_edition("fief_france")
    monkeypatch.setitem(_EDITIONS, "fief_france", replace(
        france, round=("hear_ye", "muster") + france.round[1:], hooks=replace(france.hooks, phases=(MUSTER,))))
    assert trigger_phases("fief_france") == PHASES + ("muster",)
    check = send(state, "anne", trigger)
    assert check.ok, check.errors
    after, events = resolve(state, {p: {**RULES.default_orders(RULES.view(state, p), p),
                                        **({"policies": check.orders["policies"]} if p == "anne" else {})}
                                    for p in PLAYERS})
    assert after["phase"] == "muster" and "Charles" not in after["lords"]
    assert any(e.kind == "assassination" for e in events)


# -- secret money (England: money.public false), ruling R51 of docs/fief-england.md ------------------
def test_an_unpaid_ransom_with_secret_money_tells_the_table_no_treasury(monkeypatch: pytest.MonkeyPatch) -> None:
    """R58 (7.7, F 4.1): with secret money everyone is told that a ransom went unpaid and its value,
    as the table sees the captive stay, but no event told to the others names a treasury; a
    cardinal unable to pay his fee is passed over without an event."""
    from pbem.games.fief_france.church import uprising_calmer

    monkeypatch.setitem(_EDITIONS, "fief_france", replace(load_edition("fief_france"), money_public=False))
    position = {"players": PLAYERS, "phase": "purchase", "deniers": {"anne": 3, "bruno": 7, "carl": 2},
                "lords": {"Henry": {"family": "anne", "at": "Lyon", "titles": ["bretagne", "poitou"],
                                    "captive_of": "bruno"},
                          "Arthur": {"family": "bruno", "at": "Lyon"},
                          "Quentin": {"family": "anne", "at": "Nantes"},
                          "Charles": {"family": "carl", "at": "Paris", "titles": ["bishop 4", "cardinal"]}},
                "units": {"Lyon": {"bruno": {"knight": 1}}, "Nantes": {"anne": {"man_at_arms": 1}}}}
    state = build_position(position, "fief_france").to_json()
    assert "deniers" not in RULES.view(state, "bruno")["families"]["anne"]
    # a lower offer beyond the treasury (as a canonical order: the mail check refuses it already)
    after, events = resolve(state, {"anne": {"orders": [{"offer": 4, "for": ["Henry"]}], "policies": {}}})
    told = {e.kind: e for e in events}
    unpaid = told["ransom_unpaid"]
    assert unpaid.audience.kind == "all"
    assert unpaid.text == "anne cannot pay the ransom of Henry (6 deniers): Henry stays the captive of bruno (4.1)."
    refused = told["ransom_offer_refused"]      # it names anne's treasury: told to anne alone
    assert refused.audience.players == ("anne",) and "you offer 4 deniers and have 3" in refused.text
    assert all("have 3" not in e.text and "3 deniers" not in e.text for e in events if e.audience.kind == "all")
    assert after["lords"]["Henry"]["captive_of"] == "bruno"
    # D.2.2: carl's cardinal cannot pay the 3 deniers to calm bishopric 3's uprising: no one calms it.
    calming = build_position({**position, "phase": "cards",
                              "policies": {"carl": {"calm_uprisings": "also_as_cardinal"}}}, "fief_france")
    assert uprising_calmer(calming, 3, frozenset({"anne"})) is None
    calming.families["carl"].deniers = 3
    assert uprising_calmer(calming, 3, frozenset({"anne"})) == (calming.lords["Charles"], 3, "cardinal")
