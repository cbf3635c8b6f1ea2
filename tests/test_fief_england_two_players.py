"""Fief: England at two players (13.7, l.840-850): each player runs two allied families, named
apart from the player (the player's name and NAME-2; FiefState.family_players), ordered by one
mail (`families:`), with one purse and one hand, turns one family after the other, the first
player marker passing to the opponent, marriage only between the player's own families and
victory counted by the player (R25, R124-R127). Ex 13-2 and Ex 13-3 are scenarios
(tests/scenarios/fief_england/two-players-*.yaml); the full game is in
tests/test_fief_england_full_game.py."""
from __future__ import annotations

import json

import pytest

from pbem.games.fief.positions import build_position
from pbem.games.fief.state import FiefState
from pbem.games.fief_england.rules import RULES
from pbem.orders.yamlsafe import load
from pbem.rules.rng import Rng

TWO = {"players": ["alice", "alice-2", "bob", "bob-2"],
       "family_players": {"alice-2": "alice", "bob-2": "bob"}}


def position(**more) -> dict:
    return build_position({**TWO, **more}, "fief_england").to_json()


def check(state: dict, player: str, text: str):
    return RULES.check_orders(RULES.view(state, player), player, load(text))


def messages(result) -> str:
    return " | ".join(str(e) for e in result.errors)


# -- setup and identity ----------------------------------------------------------------------

def test_two_players_are_four_families_with_one_purse_each_player() -> None:
    state = RULES.setup({}, ["alice", "bob"], Rng("two"))
    st = FiefState.from_json(state)
    assert st.players == ["alice", "alice-2", "bob", "bob-2"]
    assert st.families_of("alice") == ["alice", "alice-2"] and st.player_of("bob-2") == "bob"
    assert all(len([l for l in st.lords.values() if l.family == f]) == 2 for f in st.players)   # l.31
    assert st.families["alice"].deniers == st.families["alice-2"].deniers == 10   # R126: 5 + 5
    assert st.players[st.first_player] in ("alice", "bob")   # a player's first family
    assert set(RULES.phase(state).deciders) == {"alice", "bob"}


def test_a_family_name_that_would_be_a_players_is_refused() -> None:
    with pytest.raises(ValueError, match="both a player and a family.*other player names"):
        RULES.setup({}, ["ann", "ann-2"], Rng("x"))


def test_three_and_four_player_games_store_no_family_map() -> None:
    """Every stored game's JSON is unchanged: the map is left out where each player runs one."""
    for players in (["a", "b", "c"], ["a", "b", "c", "d"]):
        assert "family_players" not in RULES.setup({}, players, Rng("x"))


def test_the_purse_and_the_hand_are_one_and_stay_one_through_the_json() -> None:
    st = FiefState.from_json(position(deniers={"alice": 7}, hands={"alice": ["tax"]}))
    assert st.families["alice-2"].deniers == 7 and st.families["alice-2"].hand == ["tax"]
    st.families["alice-2"].deniers -= 3
    st.families["alice-2"].hand.append("passage")
    again = FiefState.from_json(json.loads(json.dumps(st.to_json())))
    assert again.families["alice"].deniers == 4 and again.families["alice"].hand == ["tax", "passage"]
    again.families["alice"].deniers = 1
    assert again.families["alice-2"].deniers == 1
    assert again.families["bob"].deniers == 5   # the opponent's purse is their own


# -- the round ---------------------------------------------------------------------------------

def test_the_first_player_marker_passes_to_the_opponent_each_round() -> None:
    """13.7 (l.844): "Each Round, the First Player Marker is passed to the opposing Player"."""
    state = position(phase="end_of_round", round=1, first_player="alice")
    after = RULES.resolve(state, {}, Rng("x"))
    assert FiefState.from_json(after.state).turn_order() == ["bob", "bob-2", "alice", "alice-2"]
    assert any("bob takes the first player card (13.7)" in e.text for e in after.events)
    again = RULES.resolve({**after.state, "phase": "end_of_round"}, {}, Rng("x"))
    assert FiefState.from_json(again.state).turn_order()[0] == "alice"


def test_the_hand_holds_five_and_each_family_draws_its_share() -> None:
    """13.7 (l.848): one hand of up to 5, up to 4 drawn, no more than 2 Character cards: R125,
    2 a family (1 Character), so both families draw 4 at most, 2 Character at most."""
    state = position(phase="cards", round=2, hands={"alice": ["tax", "passage", "justice"]})
    ok = check(state, "alice", "families:\n  - family: alice\n    orders:\n      - draw: [events, characters]\n"
                               "  - family: alice-2\n    orders: []\n")
    assert ok.ok, messages(ok)
    full = check(state, "alice", "families:\n  - family: alice\n    orders:\n      - draw: [events, events, events]\n"
                                 "  - family: alice-2\n    orders: []\n")
    assert not full.ok and "2" in messages(full)
    two_characters = check(state, "alice", "families:\n  - family: alice\n    orders:\n"
                                           "      - draw: [characters, characters]\n"
                                           "  - family: alice-2\n    orders: []\n")
    assert not two_characters.ok


# -- the mail ----------------------------------------------------------------------------------

PURCHASE = dict(phase="purchase", round=2,
                lords={"Anabel": {"family": "alice", "at": "London"}, "Hugh": {"family": "alice-2", "at": "York"},
                       "Henri": {"family": "bob", "at": "Exeter"}, "Joan": {"family": "bob-2", "at": "Norwich"}},
                towns={"London": {"controller": "alice"}, "York": {"controller": "alice-2"},
                       "Exeter": {"controller": "bob"}, "Norwich": {"controller": "bob-2"}},
                deniers={"alice": 10})
BOTH = """families:
  - family: alice
    orders:
      - buy: man_at_arms
        count: 2
        in: London
  - family: alice-2
    orders:
      - buy: knight
        in: York
"""


def test_one_mail_orders_both_families_and_reads_back_the_same() -> None:
    state = position(**PURCHASE)
    view = RULES.view(state, "alice")
    result = check(state, "alice", BOTH)
    assert result.ok, messages(result)
    assert set(result.orders["families"]) == {"alice", "alice-2"}
    echoed = RULES.echo_orders(view, "alice", result.orders)
    assert echoed.startswith("families:\n  - family: alice\n    orders:\n")
    assert RULES.check_orders(view, "alice", load(echoed)).orders == result.orders


def test_both_families_buy_from_the_one_purse() -> None:
    state = position(**PURCHASE)
    orders = {"alice": check(state, "alice", BOTH).orders,
              "bob": RULES.default_orders(RULES.view(state, "bob"), "bob")}
    after = FiefState.from_json(RULES.resolve(state, orders, Rng("x")).state)
    assert after.families["alice"].deniers == after.families["alice-2"].deniers == 10 - 2 - 3
    kinds = sorted((p.family, p.kind) for p in after.pawns.values())
    assert kinds == [("alice", "man_at_arms"), ("alice", "man_at_arms"), ("alice-2", "knight")]


def _mail(first: str, second: str) -> str:
    """A two-family purchase mail: ``first`` and ``second`` are each `FAMILY COUNT` knights."""
    blocks = []
    for spec in (first, second):
        family, count = spec.split()
        town = "London" if family == "alice" else "York"
        blocks.append(f"  - family: {family}\n    orders:\n      - buy: knight\n        count: {count}\n"
                      f"        in: {town}\n")
    return "families:\n" + "".join(blocks)


def test_13_7_the_second_family_is_checked_against_what_the_first_leaves_in_the_one_purse_r154() -> None:
    """13.7 (l.847): "The Shillings of a Player's two Families are kept in a common pot": of 18
    shillings alice's 3 knights leave 9, so alice-2's 4 knights (12) are refused at the mail, on
    their line, as the resolution would refuse them - not told "6 left" beside alice's "9 left"."""
    state = position(**{**PURCHASE, "deniers": {"alice": 18}})
    result = check(state, "alice", _mail("alice 3", "alice-2 4"))
    assert not result.ok
    assert "line 9: cannot buy 4 knights in York: 4 knights costs 12 shillings; you have 9 left" in messages(result)


def test_13_7_the_notes_count_both_families_spending_and_so_does_the_resolution_r154() -> None:
    state = position(**{**PURCHASE, "deniers": {"alice": 18}})
    result = check(state, "alice", _mail("alice 3", "alice-2 2"))
    assert result.ok, messages(result)
    assert result.notes == ("alice: after ransoms and these orders you will have 9 shillings left",
                            "alice-2: after ransoms and these orders you will have 3 shillings left")
    orders = {"alice": result.orders, "bob": RULES.default_orders(RULES.view(state, "bob"), "bob")}
    after = FiefState.from_json(RULES.resolve(state, orders, Rng("x")).state)
    assert after.families["alice"].deniers == after.families["alice-2"].deniers == 3
    assert sorted(p.family for p in after.pawns.values()) == ["alice"] * 3 + ["alice-2"] * 2


def test_13_7_the_purse_is_spent_in_the_families_turns_whatever_the_mails_order_r154() -> None:
    """The first family's turn comes first (l.844), so its orders are counted first even when the
    mail writes the second family's block above it."""
    state = position(**{**PURCHASE, "deniers": {"alice": 18}})
    result = check(state, "alice", _mail("alice-2 4", "alice 3"))
    assert "line 4: cannot buy 4 knights in York: 4 knights costs 12 shillings; you have 9 left" in messages(result)


def test_13_7_a_game_of_version_2_checks_each_family_against_the_whole_purse_as_before() -> None:
    state = position(**{**PURCHASE, "deniers": {"alice": 18}, "options": {"rules_version": 2}})
    result = check(state, "alice", _mail("alice 3", "alice-2 4"))
    assert result.ok and result.notes[1] == "alice-2: after ransoms and these orders you will have 6 shillings left"


@pytest.mark.parametrize("text, fragment", [
    ("orders: []\n", "goes under the family it is for"),
    ("families:\n  - family: bob\n    orders: []\n", "bob is not one of your families (yours: alice, alice-2)"),
    ("families:\n  - family: alice\n    orders: []\n", "your family alice-2 has orders to give"),
    ("families:\n  - family: alice\n    orders: []\n  - family: alice\n    orders: []\n"
     "  - family: alice-2\n    orders: []\n", "family alice is ordered twice"),
    ("families:\n  - orders: []\n", "starts with `- family: NAME`"),
    ("families:\n  - family: alice\n    order: []\n  - family: alice-2\n    orders: []\n", "unknown key `order`"),
])
def test_a_two_family_mail_with_a_mistake_is_refused_with_the_reason(text: str, fragment: str) -> None:
    result = check(position(**PURCHASE), "alice", text)
    assert not result.ok and fragment in messages(result), messages(result)


def test_the_order_template_has_an_item_per_family_and_is_accepted_as_it_is() -> None:
    state = position(**PURCHASE)
    view = RULES.view(state, "alice")
    template = RULES.order_template(view, "alice")
    assert "  - family: alice\n" in template and "  - family: alice-2\n" in template
    assert RULES.check_orders(view, "alice", load(template)).ok
    default = RULES.default_orders(view, "alice")
    assert set(default["families"]) == {"alice", "alice-2"}


def test_the_at_once_part_acts_for_the_family_it_names() -> None:
    state = position(**PURCHASE, hands={"alice": ["good_weather"]})
    view = RULES.view(state, "alice")
    wrong = RULES.check_at_once(view, "alice", load("family: bob\nat_once:\n  - scorch: [London]\n"))
    assert not wrong.ok and "bob is not one of your families" in messages(wrong)
    alone = RULES.check_at_once(view, "alice", load("family: alice-2\n"))
    assert not alone.ok and "this mail has none" in messages(alone)
    three = build_position({"players": ["a", "b", "c"]}, "fief_england").to_json()
    refused = RULES.check_at_once(RULES.view(three, "a"), "a", load("family: a\n"))
    assert not refused.ok and "you run one family" in messages(refused)
    assert "# family: alice" in RULES.at_once_template(view, "alice")


# -- what each player sees -----------------------------------------------------------------------

def test_a_player_sees_both_families_as_their_own_and_the_opponent_neither() -> None:
    state = position(**PURCHASE, units={"York": {"alice-2": {"knight": 2}}, "Exeter": {"bob": {"archer": 1}}},
                     hands={"alice": ["tax"]}, policies={"alice-2": {"plague_losses": ["knight"]}})
    mine = RULES.view(state, "alice")
    assert mine["me"] == "alice" and mine["my_families"] == ["alice", "alice-2"]
    assert mine["families"]["alice-2"]["deniers"] == 10 and mine["hand"] == ["tax"]
    assert mine["towns"]["York"]["forces"]["alice-2"]["units"] == {"knight": 2}
    assert mine["towns"]["Exeter"]["forces"]["bob"]["units"] == {"hidden": 1}
    assert mine["family_views"]["alice-2"]["policies"]["plague_losses"] == ["knight"]
    theirs = RULES.view(state, "bob")
    assert "deniers" not in theirs["families"]["alice-2"] and "deniers" not in theirs["families"]["alice"]
    assert theirs["towns"]["York"]["forces"]["alice-2"]["units"] == {"hidden": 2}
    assert theirs["hand"] == [] and theirs["families"]["alice"]["hand_size"] == 1
    text = json.dumps(theirs)
    assert "plague_losses\": [\"knight\"]" not in text and "\"tax\"" not in text


def test_an_event_told_to_a_family_reaches_its_player_only_and_once() -> None:
    state = position(**PURCHASE)
    orders = {"alice": check(state, "alice", BOTH).orders,
              "bob": RULES.default_orders(RULES.view(state, "bob"), "bob")}
    events = RULES.resolve(state, orders, Rng("x")).events
    placed = [e for e in events if e.kind == "units_placed"]
    assert placed and all(e.audience.players == ("alice",) for e in placed)   # where they go: secret
    for e in events:
        assert e.audience.kind != "players" or set(e.audience.players) <= {"alice", "bob"}


def test_the_report_shows_both_families_as_the_players() -> None:
    from pbem.judge.render import render
    state = position(**PURCHASE, units={"York": {"alice-2": {"knight": 2}}})
    text = render(RULES.report_template(), view=RULES.view(state, "alice"), me="alice")
    assert "YOUR FAMILIES (alice, alice-2: one purse of 10 shillings" in text
    assert "alice-2: Hugh; 2 knights" in text
    # 13.7 (l.847-848): the families table shows the one purse and hand once, not beside each family
    assert "  alice           10 shillings  0 VP  0 card(s)  lords: Anabel  <- you" in text
    assert "  alice-2        (one purse and hand with alice)  0 VP  lords: Hugh  <- you" in text
    assert "  bob-2          (one purse and hand with bob)  0 VP  lords: Joan  (bob)" in text


# -- marriage and victory -----------------------------------------------------------------------

HEAR_YE = dict(phase="hear_ye", round=2,
               lords={"Anabel": {"family": "alice", "female": True, "at": "London"},
                      "Hugh": {"family": "alice-2", "at": "York"},
                      "Henri": {"family": "bob", "at": "Exeter"}})


def test_marriage_only_between_a_players_own_two_families() -> None:
    state = position(**HEAR_YE)
    other = check(state, "alice", "families:\n  - family: alice\n    orders:\n      - marry: Anabel\n"
                                  "        to: Henri\n  - family: alice-2\n    orders: []\n")
    assert not other.ok and "only your own two families (13.7)" in messages(other)
    own = check(state, "alice", "families:\n  - family: alice\n    orders:\n      - marry: Anabel\n        to: Hugh\n"
                                "  - family: alice-2\n    orders:\n      - marry: Hugh\n        to: Anabel\n")
    assert own.ok, messages(own)
    after = RULES.resolve(state, {"alice": own.orders, "bob": RULES.default_orders(RULES.view(state, "bob"), "bob")},
                          Rng("x"))
    assert FiefState.from_json(after.state).lords["Anabel"].spouse == "Hugh"


def _titled(married: bool, rnd: int, bob_titles: list[str] | None = None) -> dict:
    lords = {"Anabel": {"family": "alice", "female": True, "at": "Berwick", "titles": ["marches", "north"]},
             "Hugh": {"family": "alice-2", "at": "Cardiff", "titles": ["wales", "south_west"]},
             "Henri": {"family": "bob", "at": "London", "titles": bob_titles or []}}
    if married:
        lords["Anabel"]["spouse"], lords["Hugh"]["spouse"] = "Hugh", "Anabel"
    return position(phase="end_of_round", round=rnd, lords=lords)


def test_four_vp_win_only_once_the_two_families_are_married() -> None:
    """13.7 (l.850), R25, R124: 4 VP from round 5 win once married; unmarried, not yet."""
    won = RULES.resolve(_titled(True, 5), {}, Rng("x")).state
    assert RULES.result(won).winners == ("alice",)
    assert "two families allied through marriage" in RULES.result(won).text
    waiting = RULES.resolve(_titled(False, 5), {}, Rng("x")).state
    assert RULES.result(waiting) is None


def test_no_solo_victory_at_two_players() -> None:
    """R124: 3 VP of one family win nothing at 13.7 (only the married 4 VP do)."""
    state = _titled(False, 5, bob_titles=["midlands", "south_east", "marches"])
    assert RULES.result(RULES.resolve(state, {}, Rng("x")).state) is None


def test_after_round_seven_the_player_with_the_most_vp_wins_married_or_not() -> None:
    """R25: 8.5's end "no matter what": the two families' VP added."""
    done = RULES.resolve(_titled(False, 7, bob_titles=["midlands"]), {}, Rng("x")).state
    result = RULES.result(done)
    assert result.winners == ("alice",) and "the most victory points" in result.text


# -- one hand across the mail (13.7, R158) -----------------------------------------------------

def _cards_mail(first: str, second: str) -> str:
    """A two-family mail: each family's orders (already indented 6), alice first."""
    return f"families:\n  - family: alice\n    orders:\n{first}  - family: alice-2\n    orders:\n{second}"


WEATHER = "      - play: good_weather\n        on: III\n"


def cards_play(**more) -> dict:
    """The position of ``more`` in round-2/cards-play: its cards draw resolved with nothing drawn."""
    state = position(phase="cards", round=2, **more)
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in ("alice", "bob")}
    state = RULES.resolve(state, orders, Rng("draw")).state
    assert RULES.phase(state).id == "round-2/cards-play"
    return state


def test_13_7_both_families_cannot_play_the_one_hands_single_card_r158() -> None:
    """13.7 (l.848): "only one Hand": a GOOD WEATHER held once is played by alice; alice-2's play of
    it is refused on its line (line 8), as the resolution would find it gone."""
    state = cards_play(hands={"alice": ["good_weather", "tax"]})
    result = check(state, "alice", _cards_mail(WEATHER, WEATHER))
    assert not result.ok
    assert [e.line for e in result.errors] == [8], messages(result)
    assert ("line 8: you hold no GOOD WEATHER card (your hand: tax; the orders of alice, whose turn comes first, "
            "take good_weather from your one hand (13.7))") in messages(result)


def test_13_7_one_hand_is_spent_in_the_families_turns_whatever_the_mails_order_r158() -> None:
    state = cards_play(hands={"alice": ["good_weather"]})
    mail = ("families:\n  - family: alice-2\n    orders:\n" + WEATHER
            + "  - family: alice\n    orders:\n" + WEATHER)
    result = check(state, "alice", mail)
    assert [e.line for e in result.errors] == [4], messages(result)


def test_13_7_two_cards_of_the_one_hand_go_one_to_each_family_r158() -> None:
    state = cards_play(hands={"alice": ["good_weather", "good_weather"]})
    assert check(state, "alice", _cards_mail(WEATHER, WEATHER)).ok


def test_13_7_a_lord_card_played_by_both_families_is_refused_on_the_second_r158() -> None:
    state = cards_play(hands={"alice": ["Edward"]},
                     lords={"Anabel": {"family": "alice", "at": "London"}, "Hugh": {"family": "alice-2", "at": "York"}},
                     towns={"London": {"controller": "alice"}, "York": {"controller": "alice-2"}})
    result = check(state, "alice", _cards_mail("      - play: Edward\n", "      - play: Edward\n"))
    assert [e.line for e in result.errors] == [7], messages(result)


def test_13_7_the_discard_action_shares_the_one_hand_r158() -> None:
    """2.0, R147: a card alice discards or plays in her Discard action is not alice-2's to play or
    discard too."""
    state = position(phase="cards", round=2, hands={"alice": ["good_weather", "tax"]})
    discard_twice = check(state, "alice", _cards_mail("      - discard: [tax]\n", "      - discard: [tax]\n"))
    assert [e.line for e in discard_twice.errors] == [7], messages(discard_twice)
    played_then_discarded = check(state, "alice", _cards_mail(WEATHER, "      - discard: [good_weather]\n"))
    assert [e.line for e in played_then_discarded.errors] == [8], messages(played_then_discarded)
    assert check(state, "alice", _cards_mail(WEATHER, "      - discard: [tax]\n")).ok


def test_13_7_a_game_of_version_2_checks_each_family_against_the_whole_hand_as_before() -> None:
    state = cards_play(hands={"alice": ["good_weather"]}, options={"rules_version": 2})
    assert check(state, "alice", _cards_mail(WEATHER, WEATHER)).ok


def test_one_family_cannot_play_a_single_england_card_twice_r158() -> None:
    """England's own cards (its fortune and Opportunity cards) were checked against the whole hand
    item by item, so one family's mail could play its one GOOD WEATHER twice; the second play is
    refused on its line (line 6)."""
    state = cards_play(hands={"alice": ["good_weather", "tax"]})
    result = check(state, "alice", _cards_mail(WEATHER + WEATHER, "      []\n"))
    assert [e.line for e in result.errors] == [6], messages(result)
    assert "already" in messages(result)


# -- crossbowmen hired in battle from the one purse (13.7, 11.1, R159) ---------------------------

MERCENARIES = {"family_card": {"alice": "mercenary_1", "alice-2": "mercenary_2"},
               "mercenaries": {"mercenary_1": {"on_card": 3, "hired": []},
                               "mercenary_2": {"on_card": 3, "hired": []}}}


def _hire_mail(first: int, second: int) -> str:
    return ("families:\n"
            f"  - family: alice\n    orders: []\n    policies:\n      battle_plan:\n        hire_crossbowmen: {first}\n"
            f"  - family: alice-2\n    orders: []\n    policies:\n      battle_plan:\n"
            f"        hire_crossbowmen: {second}\n")


def test_13_7_both_families_hire_crossbowmen_from_the_one_purse_at_the_mail_r159() -> None:
    """11.1: 2 shillings a crossbowman; 13.7 (l.847): one purse. Of 8 shillings alice's plan may
    spend 6 on 3 crossbowmen, so alice-2's plan to hire 3 more (6) is refused on its line (11),
    as the battles would find 2 shillings left."""
    state = position(**{**PURCHASE, "phase": "battle", "deniers": {"alice": 8}, "edition_state": MERCENARIES})
    result = check(state, "alice", _hire_mail(3, 3))
    assert [e.line for e in result.errors] == [11], messages(result)
    assert ("3 crossbowmen cost 6 shillings (11.1: 2 each); you have 2 left after your other family's battle plan "
            "(13.7: one purse)") in messages(result)
    assert check(state, "alice", _hire_mail(3, 1)).ok


def test_13_7_the_crossbowmen_purse_counts_the_purchases_of_the_mail_too_r159() -> None:
    """A Purchase mail spends first (R154), then the plans' hires count against what is left."""
    state = position(**{**PURCHASE, "deniers": {"alice": 8}, "edition_state": MERCENARIES})
    mail = ("families:\n  - family: alice\n    orders:\n      - buy: knight\n        in: London\n"
            "  - family: alice-2\n    orders: []\n    policies:\n      battle_plan:\n        hire_crossbowmen: 3\n")
    result = check(state, "alice", mail)
    assert [e.line for e in result.errors] == [10], messages(result)
    assert "you have 5" in messages(result)


def test_13_7_a_game_of_version_2_checks_each_familys_hire_against_the_whole_purse() -> None:
    state = position(**{**PURCHASE, "phase": "battle", "deniers": {"alice": 8}, "edition_state": MERCENARIES,
                        "options": {"rules_version": 2}})
    assert check(state, "alice", _hire_mail(3, 3)).ok


def test_13_7_a_plans_hire_never_refuses_the_other_familys_purchase_r159() -> None:
    """The battles come after the Purchase Phase: alice's plan to hire 3 crossbowmen (6) does not
    refuse alice-2's knight (3) of 8 shillings; its hire is counted after every purchase."""
    state = position(**{**PURCHASE, "deniers": {"alice": 8}, "edition_state": MERCENARIES})
    mail = ("families:\n  - family: alice\n    orders: []\n    policies:\n      battle_plan:\n"
            "        hire_crossbowmen: 3\n  - family: alice-2\n    orders:\n      - buy: knight\n        in: York\n")
    result = check(state, "alice", mail)
    assert result.ok, messages(result)


def test_13_7_the_two_families_draws_fill_one_hand_of_five_r158() -> None:
    """13.7 (l.848): "draw up to 4 new Cards ... without exceeding a 5 Card Hand limit". Holding 3,
    alice draws 2 (5): alice-2's 2 more would pass 5, refused on its line; after a discard, 1 is room."""
    state = position(phase="cards", round=2, hands={"alice": ["tax", "passage", "justice"]})
    two = "      - draw: [events, characters]\n"
    result = check(state, "alice", _cards_mail(two, two))
    assert [e.line for e in result.errors] == [7], messages(result)
    assert ("line 7: you would hold 5 card(s) after discarding, 2 of them drawn by alice (13.7: one hand), so you "
            "may draw 0 at most") in messages(result)
    ok = check(state, "alice", _cards_mail(two, "      - discard: [tax]\n      - draw: [events]\n"))
    assert ok.ok, messages(ok)
