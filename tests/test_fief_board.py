"""The Fief: France board and card data, and the loader's checks of the rulebook's facts:
a broken board file is refused with a message naming the fact and the file."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from pbem.games.fief.board import BoardError, build_board, load_board, load_board_file
from pbem.games.fief.cards.deck import CardError, check_start_towns, load_cards, load_cards_file
from pbem.games.fief_france.facts import FRANCE
from pbem.paths import games_dir

BOARD_FILE = games_dir() / "fief_france" / "board.yaml"
RAW = yaml.safe_load(BOARD_FILE.read_text(encoding="utf-8"))


def test_the_shipped_board_holds_every_fact() -> None:
    board = load_board("fief_france")
    assert len(board.towns) == 24
    ranks = sorted(len(f.towns) for f in board.fiefs.values())
    assert ranks == [2, 2, 3, 3, 3, 3, 4, 4]
    assert set(board.harbors) == {"Calais", "Cherbourg", "Nantes", "La Rochelle", "Bordeaux", "Montpellier"}
    assert {b.number: b.chief_town for b in board.bishoprics.values()} == {
        1: "Toulouse", 2: "Lisieux", 3: "Calais", 4: "Reims", 5: "Avignon"}
    assert set(board.fiefs["bretagne"].towns) == {"Rennes", "Nantes"}
    assert {"Lisieux", "Rennes", "Nantes", "Tours"} <= set(board.bishoprics[2].towns)
    assert set(board.bishoprics[5].towns) == {"Avignon", "Lyon", "Pau", "Montpellier"}
    # every road the rulebook's examples move along
    for a, b in (("La Rochelle", "Poitiers"), ("Poitiers", "Limoges"), ("Tours", "Poitiers")):
        assert board.adjacent(a, b) and board.adjacent(b, a)
    assert board.find_town("orleans") == "Orléans" and board.find_town("LIEGE") == "Liège"
    assert board.find_town("la-rochelle") == "La Rochelle" and board.find_town("Lutece") is None
    assert board.find_fief("Barony of Bretagne") == "bretagne" == board.find_fief("bretagne")
    assert board.fiefs["aquitaine"].title_price == 8


def test_board_json_keeps_the_guess_marks() -> None:
    data = load_board("fief_france").to_json()
    assert data["towns"]["Rennes"]["sourced"] is True
    assert "fief" in data["towns"]["Paris"]["guesses"] and "exists" in data["towns"]["Paris"]["guesses"]
    marks = {tuple(r["between"]): r["mark"] for r in data["roads"]}
    assert marks[("La Rochelle", "Poitiers")].startswith("source:")
    assert marks[("Grenoble", "Lyon")] == "guess"   # sorted pair


def town(data: dict, name: str) -> dict:
    return next(t for t in data["towns"] if t["name"] == name)


def broken(change) -> str:
    data = copy.deepcopy(RAW)
    change(data)
    with pytest.raises(BoardError) as err:
        build_board(data, "games/fief_france/board.yaml", FRANCE, "fief_france")
    assert "games/fief_france/board.yaml" in str(err.value)
    return str(err.value)


def test_town_count() -> None:
    msg = broken(lambda d: d["towns"].remove(town(d, "Paris")))
    assert "23 towns; the rulebook says 24" in msg


def test_named_town_missing() -> None:
    def rename(d):
        town(d, "Limoges")["name"] = "Limoge"
        for r in d["roads"]:
            r["between"] = ["Limoge" if t == "Limoges" else t for t in r["between"]]
    assert "towns the rulebook names are missing: Limoges" in broken(rename)


def test_harbors() -> None:
    msg = broken(lambda d: town(d, "Calais").pop("harbor"))
    assert "harbor towns must be exactly" in msg and "(5.3.2)" in msg


def test_fief_name_and_rank() -> None:
    def rename(d):
        d["fiefs"][0]["name"] = "Duchy of Burgundy"
    assert "fief bourgogne must be named 'Duchy of Bourgogne'" in broken(rename)


def test_fief_size_by_rank() -> None:
    msg = broken(lambda d: town(d, "Grenoble").update(fief="bretagne"))
    assert "has 1 towns; a barony has 2" in msg or "has 3 towns; a barony has 2" in msg


def test_bretagne_is_rennes_and_nantes() -> None:
    def swap(d):
        town(d, "Rennes")["fief"] = "normandie"
        town(d, "Cherbourg")["fief"] = "bretagne"
    msg = broken(swap)
    assert "Barony of Bretagne must be exactly Nantes, Rennes" in msg and "line 737" in msg


def test_lisieux_bishopric_contains_the_example_towns() -> None:
    def move(d):
        town(d, "Tours")["bishopric"] = 1
        town(d, "Poitiers")["bishopric"] = 2
    msg = broken(move)
    assert "bishopric of Lisieux (2) must contain Lisieux, Nantes, Rennes, Tours" in msg


def test_avignon_bishopric_is_the_examples_four_towns() -> None:
    def move(d):
        town(d, "Pau")["bishopric"] = 1
        town(d, "Carcassonne")["bishopric"] = 5
    assert "bishopric of Avignon (5) must be exactly Avignon, Lyon, Montpellier, Pau" in broken(move)


def test_bishopric_numbers_and_chief_towns() -> None:
    def renumber(d):
        d["bishoprics"][4]["number"] = 6
    assert "numbered exactly 1, 2, 3, 4, 5" in broken(renumber)

    def chief(d):
        d["bishoprics"][0]["chief"] = "Bordeaux"
    assert "bishopric 1 must be the bishopric of Toulouse with chief town Toulouse" in broken(chief)


def test_town_in_unknown_fief_or_bishopric() -> None:
    assert "each town lies in exactly 1 fief" in broken(lambda d: town(d, "Pau").update(fief="bearn"))
    assert "each town lies in exactly 1 bishopric" in broken(lambda d: town(d, "Pau").update(bishopric=7))


def test_roads() -> None:
    assert "names 'Lutèce', which is not a town" in broken(
        lambda d: d["roads"].append({"between": ["Paris", "Lutèce"], "guess": True}))
    assert "road Tours - Poitiers is missing (5.2.3 example" in broken(
        lambda d: d["roads"].remove(next(r for r in d["roads"] if r["between"] == ["Tours", "Poitiers"])))
    assert "listed twice" in broken(lambda d: d["roads"].append({"between": ["Poitiers", "Tours"]}))

    def cut(d):
        d["roads"] = [r for r in d["roads"] if "Grenoble" not in r["between"]]
    assert "do not connect every town: Grenoble cannot be reached" in broken(cut)


def test_a_broken_file_is_named(tmp_path: Path) -> None:
    data = copy.deepcopy(RAW)
    data["towns"].remove(town(data, "Paris"))
    path = tmp_path / "board-printed.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(BoardError, match=r"board-printed\.yaml: the board has 23 towns"):
        load_board_file(path, "fief_france")
    path.write_text("towns: [unclosed", encoding="utf-8")
    with pytest.raises(BoardError, match="cannot read the board data"):
        load_board_file(path, "fief_france")


def test_cards() -> None:
    cards = load_cards("fief_france")
    assert len(cards.character_cards()) == 22 and len(cards.event_cards()) == 35
    women = {n for n, c in cards.lords.items() if c.female}
    assert women == {"Aliénor", "Blanche", "Guenièvre", "Isabelle", "Jeanne", "Mireille"}
    check_start_towns(cards, load_board("fief_france"))
    assert cards.lords["Philippe"].start == "Bordeaux"


def test_broken_cards(tmp_path: Path) -> None:
    raw = yaml.safe_load((games_dir() / "fief_france" / "cards.yaml").read_text(encoding="utf-8"))
    raw["fortune"]["tax"] = 4
    path = tmp_path / "cards.yaml"
    path.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    with pytest.raises(CardError, match="cards.yaml: the fortune cards must be"):
        load_cards_file(path, "fief_france")


def test_the_seas_are_board_data() -> None:
    """5.3.1: France's one sea, the off-shore area, is the board file's `offshore:` entry; a board
    without it has no sea, and a sea with another name is refused (orders and state say `offshore`)."""
    board = load_board("fief_france")
    assert board.seas == ("offshore",) and board.find_sea("Offshore") == "offshore" and board.is_sea("offshore")
    data = copy.deepcopy(RAW)
    del data["offshore"]
    landlocked = build_board(data, "games/fief_france/board.yaml", FRANCE, "fief_france")
    assert landlocked.seas == () and landlocked.find_sea("offshore") is None and "offshore" not in landlocked.to_json()
    assert "must be `{name: offshore}`" in broken(lambda d: d.update(offshore={"name": "la mer"}))
