"""Kard és Korona: setup for 2 to 6 players (I, III), the placement orders, the phase table and
the view's allow-list."""
from __future__ import annotations

import pytest

from kek_support import RULES, check, new_game, step
from pbem.games.kard_es_korona.board import load_board
from pbem.games.kard_es_korona.state import total

PLAYERS = ["Anna", "Bela", "Csilla", "Dani", "Ede", "Feri"]


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("version", ["basic", "advanced"])
def test_setup_and_default_placement_for_every_player_count(version: str, count: int) -> None:
    state = new_game(PLAYERS[:count], version=version)
    assert RULES.phase(state).id == "setup/placement"
    state, _ = step(state)
    assert RULES.phase(state).id == "1301/movement"       # no income nor recruitment in 1301 (III)
    castles = [c for c in load_board(version).castles() if c not in state["closed"]]
    assert all(c in state["armies"] for c in castles), "neutral squads hold the empty castles (III)"
    for player in PLAYERS[:count]:
        army = sum(total(a["units"]) for a in state["armies"].values() if a["owner"] == player)
        assert army == (12 if version == "basic" else 15)      # III: the starting armies
        assert state["lords"][player] is not None
    royal_extras = {c: state["armies"].get(c, {}).get("owner") for c in ("Bihar", "Kunság", "Nógrád")}
    if count <= 4:   # III (l.154)
        assert set(royal_extras.values()) == {"royal"}
    else:
        assert set(royal_extras.values()) == {None}
    if count == 5:   # I: Szlavónia is out but for Baranya
        assert "Baranya" not in state["closed"] and "Zágráb" in state["closed"]
        assert "Zágráb" not in state["armies"]


def test_two_players_fill_the_plain_counties_of_empty_provinces() -> None:
    state, _ = step(new_game(["Anna", "Bela"], provinces="DEL+FEL"))   # III (l.152)
    tis = [c for c in ("Szabolcs", "Zemplén", "Sáros") if c in state["armies"]]
    assert tis and all(state["armies"][c]["owner"] == "neutral-TIS" for c in tis)
    assert "Máramaros" not in state["armies"]                             # no units on mountains
    assert sorted(state["home"].values()) == ["DEL", "FEL"]


def test_the_six_player_advanced_game_lacks_two_royal_knights() -> None:
    state, _ = step(new_game(PLAYERS, version="advanced"))                 # III (l.150), ruling K4
    squads = [a["units"] for a in state["armies"].values() if a["owner"] == "royal"]
    assert sum(u["cavalry"] for u in squads) == len(squads) - 2
    assert sum(u["infantry"] for u in squads) == len(squads) + 2


def test_provinces_option_must_fit_the_player_count() -> None:
    with pytest.raises(ValueError, match="with 3 players the provinces in play are one of ERD\\+SZL\\+FEL"):
        new_game(PLAYERS[:3], provinces="ERD+PAN")


def test_basic_placement_orders_are_checked() -> None:
    state = new_game(["Anna", "Bela"], provinces="ERD+PAN")
    anna = "Anna" if state["home"]["Anna"] == "PAN" else "Bela"
    good = check(state, anna, "place:\n  Sopron: {cavalry: 2, infantry: 3, archers: 2}\n"
                 "  Vas: {cavalry: 1, infantry: 2, archers: 2}\nlord: Vas\n")
    assert good.ok, good.errors
    wrong_total = check(state, anna, "place:\n  Sopron: {cavalry: 2, infantry: 3, archers: 2}\nlord: Sopron\n")
    assert "the starting army is exactly 3 cavalry, 5 infantry, 4 archers" in str(wrong_total.errors[0])
    too_many = check(state, anna, "place:\n  Sopron: {cavalry: 3, infantry: 5}\n  Vas: {archers: 4}\nlord: Vas\n")
    assert "a castle holds at most 7 units, not 8" in str(too_many.errors[0])
    outside = check(state, anna, "place:\n  Pest: {cavalry: 3, infantry: 5, archers: 4}\nlord: Pest\n")
    assert "no county of yours 'Pest'" in str(outside.errors[0])
    alone = check(state, anna, "place:\n  Sopron: {cavalry: 3, infantry: 2, archers: 2}\n"
                  "  Vas: {infantry: 3, archers: 2}\nlord: Győr\n")
    assert "the province lord may not stand alone" in str(alone.errors[0])
    accents = check(state, anna, "place:\n  sopron: {knights: 3, infantry: 2, archers: 2}\n"
                    "  VAS: {infantry: 3, archers: 2}\nlord: vas\n")
    assert accents.ok and accents.orders["lord"] == "Vas" and accents.orders["place"]["Sopron"]["cavalry"] == 3


def test_advanced_placement_chooses_six_neighbouring_counties_with_one_castle() -> None:
    state = new_game(["Anna", "Bela"], version="advanced", provinces="ERD+PAN")
    pan = next(p for p, h in state["home"].items() if h == "PAN")
    army = "place:\n  Győr: {cavalry: 2, infantry: 3, archers: 2}\n  Moson: {cavalry: 2, infantry: 3, archers: 3}\n"
    two = check(state, pan, "counties: [Győr, Sopron, Moson, Komárom, Veszprém, Fejér]\n" + army + "lord: Győr\n")
    assert not two.ok and "at most one of the six may have a castle" in str(two.errors[0])
    apart = check(state, pan, "counties: [Győr, Moson, Komárom, Fejér, Tolna, Zala]\n" + army + "lord: Győr\n")
    assert not apart.ok and "border each other" in str(apart.errors[0])
    ok = check(state, pan, "counties: [Győr, Moson, Komárom, Veszprém, Fejér, Tolna]\n" + army + "lord: Győr\n")
    assert ok.ok, ok.errors
    outside = check(state, pan, "counties: [Győr, Moson, Komárom, Veszprém, Fejér, Tolna]\n"
                    "place:\n  Sopron: {cavalry: 4, infantry: 6, archers: 5}\nlord: Sopron\n")
    assert "no county of yours 'Sopron'" in str(outside.errors[0])
    mix = check(state, pan, "counties: [Győr, Moson, Komárom, Veszprém, Fejér, Tolna]\n"
                "place:\n  Győr: {cavalry: 4, infantry: 1, archers: 1}\n  Moson: {infantry: 5, archers: 4}\n"
                "lord: Győr\n")
    assert "at most 3 of 6 units at a castle may be cavalry" in str(mix.errors[0])   # VI, ruling K5


def test_the_view_is_an_allow_list() -> None:
    state, _ = step(new_game(["Anna", "Bela", "Csilla"]))
    view = RULES.view(state, "Anna")
    assert "deck" not in view and "bids" not in view and "options" not in view
    assert set(view["treasury"]) == {"Anna", "Bela", "Csilla"}    # public outside elections (III)
    state, _ = step(state, {"Anna": "steps: []\nbattle: {if_defeated: escape}\n"})
    assert RULES.view(state, "Anna")["battle_orders"] == {"Anna": state["battle_orders"]["Anna"]}
    assert "Anna" not in RULES.view(state, "Bela")["battle_orders"]


def test_echo_reads_back_to_the_same_orders() -> None:
    state = new_game(["Anna", "Bela"], version="advanced")
    for player in ("Anna", "Bela"):
        view = RULES.view(state, player)
        orders = RULES.default_orders(view, player)
        again = check(state, player, RULES.echo_orders(view, player, orders))
        assert again.ok and again.orders == orders


def test_malformed_orders_get_one_clear_error_each() -> None:
    state = new_game(["Anna", "Bela"], provinces="ERD+PAN")
    anna = next(p for p, h in state["home"].items() if h == "PAN")
    for text, message in (("place: Sopron\nlord: Sopron\n", "`place:` lists counties, each with its units by kind"),
                          ("lord: Sopron\n", "`place:` must list your units county by county"),
                          ("place: {Sopron: {horses: 2}}\nlord: Sopron\n", "no unit kind 'horses'"),
                          ("place: {Sopron: {infantry: -2}}\nlord: Sopron\n", "infantry must be a whole number"),
                          ("plcae: {}\n", "unknown key `plcae`")):
        errors = check(state, anna, text).errors
        assert errors and message in str(errors[0]), (text, [str(e) for e in errors])
        assert len([e for e in errors if message in str(e)]) == 1
