"""Kard és Korona: elections of officials as three sealed bids (IV), their secrets, and victory (V)."""
from __future__ import annotations

from kek_support import RULES, check, new_game, step, texts_of
from pbem.games.kard_es_korona import victory

BLANK = [f"card_{i}" for i in range(8, 17)]
THREE = ["Anna", "Bela", "Csilla"]


def _election(players=THREE, treasury=30, **change) -> dict:
    """The first election (end of 1303) reached with nobody moving, each treasury set."""
    state = new_game(list(players))
    state["deck"] = list(BLANK)
    state, _ = step(state)
    while RULES.phase(state).id != "1303/election-judge_royal":
        state, _ = step(state)
    for player in players:
        state["treasury"][player] = treasury
    state.update(change)
    return state


def test_elections_come_at_the_end_of_the_third_year() -> None:
    state = _election()
    assert set(RULES.phase(state).deciders) == set(THREE)


def test_bids_and_treasuries_stay_secret_until_revealed() -> None:
    state = _election()
    view = RULES.view(state, "Anna")
    assert set(view["treasury"]) == {"Anna"}              # ruling K1: not public while bids are made
    assert set(RULES.view(state, None)["treasury"]) == set(THREE)
    state, events = step(state, {"Anna": "bid: 7\n", "Bela": "bid: 3\n"})
    assert "bids" not in RULES.view(state, "Csilla")      # bids live only in the judge's orders and the event
    reveal = next(e for e in events if e.kind == "bids")
    assert reveal.data["bids"] == {"Anna": 7, "Bela": 3, "Csilla": 0} and reveal.audience.kind == "all"


def test_the_highest_bid_wins_and_the_others_lose_theirs() -> None:
    state = _election()
    state, events = step(state, {"Anna": "bid: 7\n", "Bela": "bid: 3\n"})
    assert state["offices"]["judge_royal"] == "Anna"
    assert state["treasury"]["Anna"] == 23 and state["treasury"]["Bela"] == 27   # IV: the loser's coins go
    assert RULES.phase(state).id == "1303/election-treasurer"


def test_a_tie_between_newcomers_is_decided_by_the_die_with_half_back() -> None:
    state = _election()
    state, events = step(state, {"Anna": "bid: 5\n", "Bela": "bid: 5\n"})
    winner = state["offices"]["judge_royal"]
    loser = "Bela" if winner == "Anna" else "Anna"
    assert state["treasury"][winner] == 25 and state["treasury"][loser] == 27   # half of 5 back, rounded down
    assert any("the die decides" in t for t in texts_of(events))


def test_the_holder_keeps_his_office_at_a_tie() -> None:
    state = _election(offices={"judge_royal": "Bela", "treasurer": None, "palatine": None})
    state, events = step(state, {"Anna": "bid: 5\n", "Bela": "bid: 5\n"})
    assert state["offices"]["judge_royal"] == "Bela"


def test_from_the_second_election_the_palatine_decides_ties() -> None:
    state = _election(offices={"judge_royal": None, "treasurer": None, "palatine": "Csilla"}, elections=1)
    refused = check(state, "Anna", "if_tied: [Anna]\n")
    assert refused.errors[0].message == "only the Palatine decides ties (IV. Palatine)"
    state, events = step(state, {"Anna": "bid: 5\n", "Bela": "bid: 5\n", "Csilla": "bid: 1\nif_tied: [Bela, Anna]\n"})
    assert state["offices"]["judge_royal"] == "Bela"
    assert any("the Palatine Csilla chooses" in t for t in texts_of(events))


def test_nobody_bids_the_office_stays_or_is_empty() -> None:
    state = _election(offices={"judge_royal": "Bela", "treasurer": None, "palatine": None})
    state, events = step(state)
    assert state["offices"]["judge_royal"] == "Bela"
    assert any("Bela keeps it" in t for t in texts_of(events))


def test_a_bid_above_the_treasury_is_refused() -> None:
    state = _election(treasury=4)
    assert "you bid 5 garas but have 4" in str(check(state, "Anna", "bid: 5\n").errors[0])


def test_all_three_offices_in_one_election_win() -> None:
    state = _election()
    for _ in range(3):
        state, events = step(state, {"Anna": "bid: 2\n"})
    assert RULES.result(state).winners == ("Anna",)      # V.II
    assert "wins every office in one election" in texts_of(events)[-1]


def test_the_last_year_ranks_castles_counties_cavalry_money() -> None:
    state = _election(players=["Anna", "Bela"])
    state["year"] = state["last_year"]
    state["treasury"] = {"Anna": 5, "Bela": 9}
    ranking = victory.final_ranking(state)
    assert ranking[0][0] == "Bela" and ranking[0][1][:3] == ranking[1][1][:3]   # equal but for money (V.V)
    state["result"] = None
    events = victory.last_year(state)
    assert state["result"]["winners"] == ["Bela"] and "(V.V)" in events[0].text


def test_three_whole_regions_with_the_home_province_win() -> None:
    state = _election(players=["Anna", "Bela", "Csilla", "Dani"])
    home = state["home"]["Anna"]
    others = [p for p in ("KIR", "SZL") if p != home]
    from pbem.games.kard_es_korona.board import load_board
    for province in others:
        for county in load_board("basic").in_province(province):
            state["owner"][county] = "Anna"
    state["result"] = None
    events = victory.check(state)
    assert state["result"]["winners"] == ["Anna"] and "(V.III)" in events[0].text


def test_an_election_without_bids_is_still_over() -> None:
    state = _election()
    for _ in range(3):
        state, events = step(state)
    assert state["elections"] == 1 and state["election_due"] is False
    assert RULES.phase(state).id == "1304/recruitment"
