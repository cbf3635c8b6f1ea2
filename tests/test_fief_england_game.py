"""Fief: England's numbers through the core's phases (issue 11, the foundation): a round at 3 and 4
players, England's prices and limits, control of an emptied city (R30), disasters by Region with
round 1's waiting (2.4), no marriage at 3 players (13.8), victory from round 5 and the round-7 end
with its tiebreak (8.1-8.5, R44), and the Sovereign's election (9.1, R20)."""
from __future__ import annotations

import copy

import pytest

from pbem.games import rules_for
from pbem.games.fief.positions import build_position
from pbem.orders.yamlsafe import load
from pbem.rules.rng import Rng

RULES = rules_for("fief_england")
THREE = ["ann", "bob", "cat"]


def position(**data) -> dict:
    data.setdefault("players", THREE)
    return build_position(data, "fief_england").to_json()


def check(state: dict, player: str, text: str):
    return RULES.check_orders(RULES.view(state, player), player, load(text))


def play(state: dict, mails: dict[str, str] | None = None, rng: Rng | None = None) -> tuple[dict, list]:
    """Resolve the phase as the judge does: each mail checked against its player's view (it must
    be accepted), the other deciders' default orders."""
    orders = {}
    for player in RULES.phase(state).deciders:
        view = RULES.view(state, player)
        if mails and player in mails:
            result = RULES.check_orders(view, player, load(mails[player]))
            assert result.ok, result.errors
            orders[player] = result.orders
        else:
            orders[player] = RULES.default_orders(view, player)
    before = copy.deepcopy(state)
    result = RULES.resolve(state, orders, rng or Rng("t"))
    assert state == before
    return result.state, list(result.events)


def texts(events) -> str:
    return "\n".join(e.text for e in events)


# -- a round ------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [THREE, ["ann", "bob", "cat", "dan"]])
def test_a_whole_round_by_mail(players) -> None:
    state = RULES.setup({}, players, Rng("round"))
    state, _ = play(state)                      # setup: every player the default City
    seen = []
    while RULES.phase(state).id.startswith("round-1/") and len(seen) < 20:
        seen.append(RULES.phase(state).id.split("/")[1])
        state, events = play(state)
    assert seen == ["cards-draw", "cards-play", "income", "purchase", "movement", "invaders", "battle",
                    "end-of-round"][:len(seen)] and seen[-1] == "end-of-round"
    assert RULES.phase(state).id == "round-2/hear-ye"   # 1.0: Hear Ye from round 2 on
    assert {f["deniers"] for f in state["families"].values()} == {6}   # 5 + 1 City (3.0)


# -- purchase -----------------------------------------------------------------------------------
BRISTOL = dict(phase="purchase", deniers={"ann": 30},
               lords={"William": {"family": "ann", "at": "Bristol"}},
               units={"Bristol": {"ann": {"man_at_arms": 1}}, "Exeter": {"ann": {"man_at_arms": 1}}},
               towns={"Bristol": {"controller": "ann", "fortress": "stronghold"},
                      "Exeter": {"controller": "ann"}})


def test_englands_prices() -> None:
    """4.0, 4.2: trebuchet 5, bombard 3, stronghold 5, mill 3 (in shillings)."""
    state = position(**BRISTOL)
    after, events = play(state, {"ann": "orders:\n  - buy: trebuchet\n    in: Bristol\n  - buy: bombard\n"
                                        "    in: Bristol\n  - build: stronghold\n    in: Exeter\n"
                                        "  - build: mill\n    in: Exeter\n"})
    assert after["families"]["ann"]["deniers"] == 30 - 5 - 3 - 5 - 3
    assert "buys 1 trebuchet (5 shillings)" in texts(events)


def test_one_mill_and_one_building_per_city() -> None:
    """4.2 (l.301): "only one Building ... plus one Mill, per City"."""
    state = position(**BRISTOL)
    two = check(state, "ann", "orders:\n  - build: mill\n    in: Exeter\n    count: 2\n")
    assert not two.ok
    again = check(state, "ann", "orders:\n  - build: stronghold\n    in: Bristol\n")
    assert not again.ok


def test_ex_4_0_at_most_four_new_units_in_bristol() -> None:
    """4.0 Ex (l.297): up to four newly purchased Units in a City."""
    state = position(**BRISTOL)
    result = check(state, "ann", "orders:\n  - buy: man_at_arms\n    in: Bristol\n    count: 5\n")
    assert not result.ok and "at most 4 new unit pawns" in str(result.errors[0])
    assert check(state, "ann", "orders:\n  - buy: man_at_arms\n    in: Bristol\n    count: 4\n").ok


def test_new_units_go_to_any_city_controlled_not_besieged() -> None:
    """4.0: any City the player controls (Exeter: no noble there, no fortress) - France would refuse."""
    state = position(**BRISTOL)
    assert check(state, "ann", "orders:\n  - buy: knight\n    in: Exeter\n").ok
    assert not check(state, "ann", "orders:\n  - buy: knight\n    in: Plymouth\n").ok


def test_ex_4_3_the_barony_of_the_marches_costs_4_shillings() -> None:
    """4.3 Ex (l.311): Berwick and Durham, 2 shillings a City."""
    state = position(phase="purchase", deniers={"ann": 10},
                     lords={"Hugh": {"family": "ann", "at": "Berwick"}},
                     units={"Berwick": {"ann": {"knight": 1}}, "Durham": {"ann": {"man_at_arms": 1}}},
                     towns={"Berwick": {"controller": "ann", "fortress": "stronghold"},
                            "Durham": {"controller": "ann"}})
    after, events = play(state, {"ann": "orders:\n  - title: Marches\n    lord: Hugh\n"})
    assert after["lords"]["Hugh"]["fief_titles"] == ["marches"] and after["families"]["ann"]["deniers"] == 6
    assert "for 4 shillings" in texts(events)


# -- movement: an emptied city (5.1, Ex 5-1, R30) ----------------------------------------------------
def test_ex_5_1_an_emptied_city_is_lost_unless_it_holds_a_fortress() -> None:
    state = position(phase="movement",
                     lords={"William": {"family": "ann", "at": "Oxford"}, "Anabel": {"family": "ann", "at": "London"}},
                     units={"Oxford": {"ann": {"man_at_arms": 2}}, "London": {"ann": {"knight": 1}}},
                     towns={"Oxford": {"controller": "ann"}, "London": {"controller": "ann", "fortress": "stronghold"}})
    after, events = play(state, {"ann": "orders:\n  - move: William\n    path: [Winchester]\n    with: all\n"
                                        "  - move: Anabel\n    path: [Canterbury]\n    with: all\n"})
    assert after["towns"]["Oxford"]["controller"] is None          # Ex 5-1: Oxford is lost
    assert after["towns"]["London"]["controller"] == "ann"         # R30: the stronghold keeps it
    view = RULES.view(after, "bob")
    assert view["towns"]["Oxford"]["controller"] is None


# -- disasters (2.4, 2.5) ------------------------------------------------------------------------
def test_round_1_disasters_wait_and_strike_in_round_2() -> None:
    """2.4 (l.127, R12): round 1's cards are placed and act with round 2's; every roll strikes (R43)."""
    state = position(phase="cards", round=1, disasters_track=["plague"],
                     lords={"Edward": {"family": "ann", "at": "Norwich"}},
                     units={"Norwich": {"ann": {"man_at_arms": 4, "trebuchet": 1}}})
    after, events = play(state, rng=FixedD6([5]))
    assert "placed on the sea of the Midlands (V)" in texts(events) and "no disaster takes effect" in texts(events)
    assert after["edition_state"]["disasters"]["waiting"] == [{"card": "plague", "fief": "midlands"}]
    assert sum(1 for p in after["pawns"].values() if p["location"] == "Norwich") == 5
    round2 = dict(after, round=2, phase="cards")
    later, events = play(round2, rng=FixedD6([4]))   # Edward survives on a 4
    kinds = sorted(p["kind"] for p in later["pawns"].values() if p["location"] == "Norwich")
    assert kinds == ["man_at_arms", "man_at_arms", "trebuchet"]   # 2.5: half the troops, trebuchet spared
    assert "The PLAGUE strikes the Midlands (V)" in texts(events)


class FixedD6(Rng):
    def __init__(self, rolls: list[int]):
        super().__init__("fixed")
        self.rolls = list(rolls)

    def d6(self, why: str = "d6") -> int:
        return self.rolls.pop(0)


# -- income (3.0) ----------------------------------------------------------------------------------
def test_the_queens_title_brings_2_shillings_and_the_sovereign_queen_none() -> None:
    """3.0 (l.266), R59: the King's wife, holding the Queen's title, brings her family 2 shillings;
    a Sovereign Queen holds the Sovereign's title, not the Queen's."""
    state = position(phase="income", players=["ann", "bob", "cat", "dan"],
                     lords={"Edward": {"family": "ann", "at": "York", "titles": ["king"], "spouse": "Joan"},
                            "Joan": {"family": "bob", "at": "London", "female": True, "titles": ["queen"],
                                     "spouse": "Edward"},
                            "Matilda": {"family": "cat", "at": "Exeter", "female": True,
                                        "titles": ["sovereign_queen"]}},
                     units={"York": {"ann": {"knight": 1}}, "London": {"bob": {"knight": 1}},
                            "Exeter": {"cat": {"knight": 1}}})
    after, _ = play(state)
    assert {p: after["families"][p]["deniers"] for p in ("ann", "bob", "cat")} == {"ann": 6, "bob": 8, "cat": 6}


# -- marriage (13.8) ------------------------------------------------------------------------------
def test_no_marriage_at_three_players() -> None:
    state = position(phase="hear_ye", round=2,
                     lords={"Edward": {"family": "ann", "at": "York", "female": False},
                            "Joan": {"family": "bob", "at": "London", "female": True}})
    result = check(state, "ann", "orders:\n  - marry: Edward\n    to: Joan\n")
    assert not result.ok and "no marriage in a 3-player game (England 13.8)" in str(result.errors[0])


# -- victory (8.1-8.5) ------------------------------------------------------------------------------
def end_of_round(round_: int, lords: dict, **more) -> tuple[dict, list]:
    state = position(phase="end_of_round", round=round_, lords=lords, **more)
    return play(state)


def test_solo_victory_from_round_5_only() -> None:
    """8.2, Ex 8-1: 3 fiefdom titles win at the end of rounds 5-7, not before."""
    lords = {"Henri": {"family": "ann", "at": "London", "titles": ["South East", "Midlands", "Wales"]}}
    after, _ = end_of_round(4, lords)
    assert after["phase"] != "over"
    after, events = end_of_round(5, lords)
    assert after["phase"] == "over" and after["winners"] == ["ann"]


def test_ex_8_1_two_titles_and_the_relic_marker() -> None:
    lords = {"Henri": {"family": "ann", "at": "London", "titles": ["South East", "Midlands"]}}
    after, _ = end_of_round(5, lords, edition_state={"relics": {"vp_marker": "ann"}})
    assert after["winners"] == ["ann"]
    after, _ = end_of_round(5, lords)
    assert after["phase"] != "over"


def test_the_sovereign_brings_no_vp() -> None:
    """R2, FAQ (l.865)."""
    lords = {"Henri": {"family": "ann", "at": "London", "titles": ["South East", "Midlands", "king"]}}
    after, events = end_of_round(5, lords)
    assert after["phase"] != "over" and "ann 2" in texts(events)


def test_ex_8_2_round_7_ends_with_the_garter_first() -> None:
    """8.5, Ex 8-2, R44: three players at 2 VP; Duke+Count+Garter beats King+Count beats Duke+Relic."""
    lords = {"A": {"family": "ann", "at": "London", "titles": ["Midlands", "North"]},
             "B": {"family": "bob", "at": "York", "titles": ["South West", "Wales", "king"]},
             "C": {"family": "cat", "at": "Exeter", "titles": ["South East"]}}
    after, events = end_of_round(7, lords, edition_state={"garter": ["A"], "relics": {"vp_marker": "cat"}})
    assert after["phase"] == "over" and after["winners"] == ["ann"]
    assert "after the tiebreak" in after["result_text"]


def test_round_7_most_vp_wins_without_a_tie() -> None:
    lords = {"A": {"family": "ann", "at": "London", "titles": ["Midlands", "North"]},
             "B": {"family": "bob", "at": "York", "titles": ["Wales"]}}
    after, _ = end_of_round(7, lords)
    assert after["winners"] == ["ann"] and "most victory points, 2 (8.5)" in after["result_text"]


# -- the Sovereign's election (9.1) ------------------------------------------------------------------
ELECTORATE = {   # 9.1 Ex (l.656): Kirsten 3 votes (Hugh Archbishop 2, Lucia 1), Dave 1 (Philippa)
    "Hugh": {"family": "ann", "at": "Exeter", "titles": ["bishop of exeter"], "female": False},
    "Lucia": {"family": "ann", "at": "Norwich", "titles": ["Midlands", "Wales"], "female": True},
    "Philippa": {"family": "bob", "at": "York", "titles": ["North"], "female": True},
    "Edward": {"family": "cat", "at": "London", "titles": ["South East"], "female": False},
}
CHURCH = {"church": {"archbishops": ["Hugh"]}}


def hear_ye(**more) -> dict:
    return position(phase="hear_ye", round=2, lords=more.pop("lords", ELECTORATE),
                    edition_state=more.pop("edition_state", CHURCH), **more)


def test_ex_9_1_an_election_needs_3_titles_one_of_the_church() -> None:
    """9.1, Ex 9-1, R20: here 5 titles with a Bishop; without the Church none."""
    assert RULES.view(hear_ye(), "ann")["hear_ye"]["possible"] == ["sovereign"]
    no_church = {k: v for k, v in ELECTORATE.items() if k != "Hugh"}
    assert RULES.view(hear_ye(lords=no_church), "ann")["hear_ye"]["possible"] == []


def test_9_1_example_votes_and_any_player_names_any_lord() -> None:
    """9.1 Ex: Kirsten's marker is 3 votes, Dave's 1; a player may name another family's Lord (R20)."""
    state = hear_ye()
    assert check(state, "bob", "orders:\n  - candidate: Lucia\n    for: sovereign\n").ok
    assert not check(state, "ann", "orders:\n  - candidate: Hugh\n    for: sovereign\n").ok   # clergy
    state, events = play(state, {"bob": "orders:\n  - candidate: Lucia\n    for: sovereign\n",
                                 "cat": "orders:\n  - candidate: Edward\n    for: sovereign\n"})
    assert state["phase"] == "hear_ye_votes"
    state, events = play(state, {"ann": "orders:\n  - vote: sovereign\n    for: Lucia\n",
                                 "bob": "orders:\n  - vote: sovereign\n    for: Edward\n",
                                 "cat": "orders:\n  - vote: sovereign\n    for: Edward\n"})
    revealed = next(e for e in events if e.kind == "ballot_revealed")
    assert revealed.data["weights"] == {"ann": 3, "bob": 1, "cat": 1}
    assert revealed.data["tally"] == {"Lucia": 3, "Edward": 2}
    assert state["lords"]["Lucia"]["political"] == "sovereign_queen"   # an elected woman (9.1)
    assert "elected Sovereign Queen" in texts(events)


def test_a_tie_elects_no_one() -> None:
    state, _ = play(hear_ye(), {"bob": "orders:\n  - candidate: Philippa\n    for: sovereign\n",
                                "cat": "orders:\n  - candidate: Edward\n    for: sovereign\n"})
    state, events = play(state, {"bob": "orders:\n  - vote: sovereign\n    for: Philippa\n",
                                 "cat": "orders:\n  - vote: sovereign\n    for: Edward\n"})
    assert not any(l["political"] for l in state["lords"].values())
    assert "a tie at 1 votes" in texts(events)


def test_an_elected_man_is_king_and_his_wife_queen() -> None:
    lords = dict(ELECTORATE, Edward={**ELECTORATE["Edward"], "spouse": "Joan"},
                 Joan={"family": "bob", "at": "Oxford", "female": True, "spouse": "Edward"})
    state, _ = play(hear_ye(lords=lords, players=["ann", "bob", "cat", "dan"]),
                    {"cat": "orders:\n  - candidate: Edward\n    for: sovereign\n"})
    state, events = play(state, {"cat": "orders:\n  - vote: sovereign\n    for: Edward\n"})
    assert state["lords"]["Edward"]["political"] == "king" and state["lords"]["Joan"]["political"] == "queen"
