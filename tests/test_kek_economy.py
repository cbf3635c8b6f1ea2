"""Kard és Korona: event cards, tax income and recruitment (II. Event Cards; III. Collecting Tax
Income and Recruitment; IV. Treasurer, Palatine; VI. Limit on Cavalry Units)."""
from __future__ import annotations

import pytest

from kek_support import RULES, check, new_game, step, texts_of
from pbem.games.kard_es_korona.events import cards

BLANK = [f"card_{i}" for i in range(8, 17)]


def _year_1302(version: str = "basic", deck: list[str] | None = None, players=("Anna", "Bela"),
               provinces: str = "ERD+PAN", **change) -> tuple[dict, list]:
    """Both players placed by default, no steps in 1301; 1302's card from ``deck``."""
    state = new_game(list(players), version=version, provinces=provinces)
    state["deck"] = BLANK[:1] + list(deck or BLANK)     # 1301's card, then 1302's
    state, _ = step(state)               # placement
    for key, value in change.items():
        state[key] = value
    return step(state)                   # 1301 movement: nobody moves; 1302 begins


def test_the_deck_holds_sixteen_cards_with_the_seven_named_ones() -> None:
    named = {c["name"] for c in cards().values() if not c.get("reconstruction")}
    assert named == {"King Election", "Strengthening of the Guilds", "Peasant Revolt", "Plague Epidemic",
                     "Bloody Sword", "Rainy Autumn", "Vintage"}
    assert len(cards()) == 16


def test_income_counts_garrisoned_counties_castles_and_whole_regions() -> None:
    state, events = _year_1302()
    assert RULES.phase(state).id == "1302/recruitment"
    # basic default placement: units in the 2 castles only (3 garas each); the whole province
    # is held (II. Regions: +4): 10 garas
    assert state["treasury"] == {"Anna": 10, "Bela": 10}
    assert any("Anna collects 10 garas" in t for t in texts_of(events))


def test_the_treasurer_gets_a_denar_for_each_castle() -> None:
    state, _ = _year_1302(offices={"judge_royal": None, "treasurer": "Anna", "palatine": None})
    assert state["treasury"] == {"Anna": 14, "Bela": 10}     # IV: 5 instead of 3 a castle


def test_the_guilds_raise_castle_income_for_the_rest_of_the_game() -> None:
    state, events = _year_1302(deck=["guilds"] + BLANK)
    assert state["treasury"]["Anna"] == 12 and state["lasting"] == ["guilds"]   # ruling K13


def test_peasant_revolt_takes_county_income_and_a_neutral_infantry() -> None:
    state = new_game(["Anna", "Bela"], provinces="ERD+PAN")
    state, _ = step(state, {p: _spread(state, p) for p in ("Anna", "Bela")})
    state["deck"] = ["peasant_revolt"] + BLANK            # 1301 is drawn: this is 1302's
    neutral_infantry = sum(a["units"]["infantry"] for a in state["armies"].values() if a["owner"] == "royal")
    state, events = step(state)
    # units in 2 castles and 2 plain counties: 6 for the castles, the plain counties nothing, +4 region
    assert state["treasury"]["Anna"] == 10
    after = sum(a["units"]["infantry"] for a in state["armies"].values() if a["owner"] == "royal")
    assert after < neutral_infantry


def _spread(state: dict, player: str) -> str:
    home = state["home"][player]
    castle1, castle2, plain1, plain2 = {"PAN": ("Sopron", "Vas", "Győr", "Fejér"),
                                        "ERD": ("Fehér", "Hunyad", "Kolozs", "Torda")}[home]
    return (f"place:\n  {castle1}: {{cavalry: 1, infantry: 2, archers: 2}}\n  {castle2}: {{cavalry: 1, infantry: 1,"
            f" archers: 1}}\n  {plain1}: {{cavalry: 1, infantry: 1}}\n  {plain2}: {{infantry: 1, archers: 1}}\n"
            f"lord: {castle1}\n")


def test_plague_and_bloody_sword_change_infantry() -> None:
    state, events = _year_1302(deck=["plague"] + BLANK)
    assert any("Anna loses an infantry unit" in t for t in texts_of(events))
    state, events = _year_1302(deck=["bloody_sword"] + BLANK)
    assert any("gains an infantry unit" in t for t in texts_of(events))


def test_king_election_calls_an_election_unless_one_is_due() -> None:
    state, events = _year_1302(deck=["king_election"] + BLANK)
    assert state["election_due"] is True                     # 1302: extraordinary election (IV)
    state, events = step(state)                              # recruitment
    state, events = step(state)                              # movement, no battles: the election
    assert RULES.phase(state).id == "1302/election-judge_royal"


def test_recruitment_only_in_castles_and_within_the_limits() -> None:
    state, _ = _year_1302()
    anna = "Anna"
    castle = next(c for c in ("Sopron", "Fehér") if state["owner"].get(c) == anna)
    plain = next(c for c in ("Győr", "Kolozs") if state["owner"].get(c) == anna)
    assert "no castle of yours" in str(check(state, anna, f"recruit: {{{plain}: {{infantry: 1}}}}\n").errors[0])
    over = check(state, anna, f"recruit: {{{castle}: {{infantry: 2}}}}\n")     # 6 there already: 8
    assert "a castle holds at most 7 units, not 8" in str(over.errors[0])
    poor = check(state, anna, f"recruit: {{{castle}: {{cavalry: 1}}}}\nransom: no\n")
    assert "the units cost 9 garas; you have 10" not in str(poor.errors) and poor.ok
    state["treasury"][anna] = 3
    assert "cost 5 garas; you have 3" in str(check(state, anna, f"recruit: {{{castle}: {{archers: 1}}}}\n").errors[0])


def test_the_palatine_recruits_cheaper() -> None:
    state, _ = _year_1302(offices={"judge_royal": None, "treasurer": None, "palatine": "Anna"})
    castle = next(c for c in ("Sopron", "Fehér") if state["owner"].get(c) == "Anna")
    state, events = step(state, {"Anna": f"recruit: {{{castle}: {{cavalry: 1}}}}\n"})
    assert any(f"Anna recruits 1 cavalry in {castle} for 7 garas" in t for t in texts_of(events))


def test_basic_cavalry_limit_two_a_castle() -> None:
    state, _ = _year_1302()
    state["treasury"]["Anna"] = 60
    castle = next(c for c in ("Sopron", "Fehér") if state["owner"].get(c) == "Anna")
    state["armies"][castle]["units"] = {"cavalry": 0, "infantry": 1, "archers": 0}
    wrong = check(state, "Anna", f"recruit: {{{castle}: {{cavalry: 3}}}}\n")
    assert "at most 2 cavalry a castle a year" in str(wrong.errors[0])
    state["options"]["cavalry_limit"] = False                 # the limit is optional (III)
    assert check(state, "Anna", f"recruit: {{{castle}: {{cavalry: 3}}}}\n").ok


@pytest.mark.parametrize("first_wants, second_gets", [(2, 1), (1, 1), (0, 2)])
def test_advanced_cavalry_quota_goes_in_turn_order(first_wants: int, second_gets: int) -> None:
    """VI: in 1302 two new cavalry may enter; past the quota each player may still recruit one."""
    state, _ = _year_1302(version="advanced")
    first, second = state["players"].index(state["starting"]), None
    order = state["players"][first:] + state["players"][:first]
    first, second = order
    texts = {}
    for player, wanted in ((first, first_wants), (second, 2)):
        castle = next(c for c in state["armies"] if state["armies"][c]["owner"] == player)
        state["treasury"][player] = 40
        state["armies"][castle]["units"] = {"cavalry": 0, "infantry": 1, "archers": 1}
        if wanted:
            texts[player] = f"recruit: {{{castle}: {{cavalry: {wanted}}}}}\n"
    before = sum(a["units"]["cavalry"] for a in state["armies"].values() if a["owner"] == second)
    state, events = step(state, texts)
    after = sum(a["units"]["cavalry"] for a in state["armies"].values() if a["owner"] == second)
    assert after - before == second_gets


def test_advanced_recruits_keep_the_half_rule() -> None:
    state, _ = _year_1302(version="advanced")
    castle = next(c for c, a in state["armies"].items() if a["owner"] == "Anna" and c in (
        "Sopron", "Győr", "Vas", "Kolozs", "Fehér", "Hunyad"))
    state["treasury"]["Anna"] = 20
    state["armies"][castle]["units"] = {"cavalry": 0, "infantry": 3, "archers": 3}
    assert check(state, "Anna", f"recruit: {{{castle}: {{infantry: 1}}}}\n").ok              # 4 of 7
    state["armies"][castle]["units"] = {"cavalry": 0, "infantry": 4, "archers": 2}
    wrong = check(state, "Anna", f"recruit: {{{castle}: {{infantry: 1}}}}\n")                 # 5 of 7
    assert "at most 4 of 7 units at a castle may be infantry" in str(wrong.errors[0])


def test_a_vassal_gets_half_and_his_overlord_the_whole() -> None:
    from pbem.games.kard_es_korona.economy import collect_income, income_of
    state, _ = _year_1302()
    state["vassal_of"] = {"Bela": "Anna"}
    own = {p: income_of(state, p) for p in ("Anna", "Bela")}
    before = dict(state["treasury"])
    collect_income(state)
    assert state["treasury"]["Bela"] - before["Bela"] == own["Bela"] // 2       # ruling K10
    assert state["treasury"]["Anna"] - before["Anna"] == own["Anna"] + own["Bela"]


def test_gifts_are_checked() -> None:
    from pbem.games.kard_es_korona import gifts
    from pbem.orders.yamlsafe import load
    state, _ = _year_1302()
    view = RULES.view(state, "Anna")
    assert gifts.check(view, "Anna", load("give: {Bela: 4}\n")).orders == {"give": {"Bela": 4}}
    assert "you give 11 garas but have 10" in str(gifts.check(view, "Anna", load("give: {Bela: 11}\n")).errors[0])
    assert "you cannot give to 'Anna'" in str(gifts.check(view, "Anna", load("give: {Anna: 1}\n")).errors[0])
    assert "must be a whole number" in str(gifts.check(view, "Anna", load("give: {Bela: lots}\n")).errors[0])
    state["treasury"]["Anna"] = 2                           # spent meanwhile: the gift is checked again
    events = gifts.act(state, "Anna", {"give": {"Bela": 4}})
    assert state["treasury"]["Anna"] == 2 and "has not the 4 garas" in events[0].text
