"""Which disaster cards carry the dice icon (2.5) is a field of the card data: a card without
it strikes the offshore area (rulings 17 and 33). The shipped cards all have the icon; these
tests load card files where some have not."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pbem.games.fief.cards import deck as cards_module
from pbem.games.fief.cards.deck import CardError, load_cards, load_cards_file
from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position
from pbem.paths import games_dir
from pbem.rules.rng import Rng

from fief_support import check, resolve

SHIPPED = games_dir() / "fief_france" / "cards.yaml"
PLAYERS = ["ann", "bob", "cid"]


class Dice(Rng):
    def __init__(self, *faces: int):
        super().__init__("offshore-test")
        self.faces = list(faces)

    def d6(self, why: str = "d6") -> int:
        assert self.faces, f"no die was expected ({why})"
        return self.faces.pop(0)


def raw_cards() -> dict:
    return yaml.safe_load(SHIPPED.read_text(encoding="utf-8"))


def write(tmp_path: Path, data: dict, name: str = "cards-printed.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def without_icon(*numbers: int) -> dict:
    """The shipped card data with the disaster cards at these positions (1-based) iconless."""
    data = raw_cards()
    for n in numbers:
        data["disaster"][n - 1]["dice_icon"] = False
    return data


def test_the_shipped_cards_all_carry_the_dice_icon() -> None:
    cards = load_cards("fief_france")   # ruling 17: the default
    assert cards.offshore == {} and cards.disaster == {"plague": 2, "bad_weather": 4, "famine": 4}
    assert all(d.get("dice_icon") is True for d in raw_cards()["disaster"])
    assert "RECONSTRUCTION" in SHIPPED.read_text(encoding="utf-8")


def test_a_card_file_with_cards_without_the_icon(tmp_path: Path) -> None:
    cards = load_cards_file(write(tmp_path, without_icon(1, 3)), "fief_france")    # a plague and a bad weather
    assert cards.offshore == {"plague": 1, "bad_weather": 1}
    pile = cards.event_cards()
    assert len(pile) == 35 and pile.count("plague") == 1 and pile.count("plague_offshore") == 1
    assert pile.count("bad_weather_offshore") == 1 and pile.count("famine") == 4
    assert cards.is_disaster("plague_offshore") and cards.disaster_kind("famine_offshore") == "famine"
    assert not cards.is_disaster("tax_offshore") and not cards.is_disaster("tax")


@pytest.mark.parametrize("change, message", [
    (lambda d: d["disaster"][3].pop("dice_icon"),
     r"cards-printed\.yaml: disaster card 4 \(bad_weather\): `dice_icon` must be true .* not None \(2\.5\)"),
    (lambda d: d["disaster"][0].update(dice_icon="maybe"),
     r"cards-printed\.yaml: disaster card 1 \(plague\): `dice_icon` must be true"),
    (lambda d: d["disaster"][9].update(card="plage"),
     r"cards-printed\.yaml: disaster card 10: 'plage' is not a disaster; "
     r"the disasters are plague, bad_weather, famine"),
    (lambda d: d["disaster"][2].update(icon=True),
     r"disaster card 3 \(bad_weather\): unknown key\(s\) icon"),
    (lambda d: d.update(disaster={"plague": 2, "bad_weather": 4, "famine": 4}),
     r"cards-printed\.yaml: `disaster` must be a list of the disaster cards"),
    (lambda d: d["disaster"].__setitem__(4, "famine"),
     r"disaster card 5 \('famine'\) must be a mapping"),
    (lambda d: d["disaster"][4].update(card="plague"),
     r"the disaster cards must be"),
])
def test_the_dice_icon_is_checked_when_the_cards_are_loaded(tmp_path: Path, change, message) -> None:
    data = raw_cards()
    change(data)
    with pytest.raises(CardError, match=message):
        load_cards_file(write(tmp_path, data), "fief_france")


@pytest.fixture
def printed_cards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Games use a card file where the first plague has no dice icon."""
    folder = tmp_path / "games"
    (folder / "fief_france").mkdir(parents=True)
    write(folder / "fief_france", without_icon(1), "cards.yaml")
    monkeypatch.setattr(cards_module, "games_dir", lambda: folder)
    load_cards.cache_clear()
    yield
    monkeypatch.undo()
    load_cards.cache_clear()


def test_a_new_game_shuffles_the_cards_of_its_card_file(printed_cards) -> None:
    state = RULES.setup({}, PLAYERS, Rng("s1"))
    assert sorted(c for c in state["events_pile"] if "plague" in c) == ["plague", "plague_offshore"]


def position(**more) -> dict:
    lords = {"Beaudouin": {"family": "ann", "at": "Tours"}, "Charles": {"family": "bob", "at": "offshore"},
             "Arthur": {"family": "cid", "at": "Lyon"}}
    return build_position({"players": PLAYERS, "lords": lords, **{"phase": "cards", **more}}, "fief_france").to_json()


def test_a_drawn_card_without_the_icon_goes_face_down_to_the_track(printed_cards) -> None:
    state = position(piles={"events": ["tax", "plague_offshore"]})
    assert RULES.view(state, "bob") == RULES.view(position(piles={"events": ["tax", "plague"]}), "bob")
    on_track = position(disasters_track=["plague_offshore"])      # face down: its icon is hidden too
    assert RULES.view(on_track, "bob") == RULES.view(position(disasters_track=["plague"]), "bob")
    assert RULES.view(on_track, None)["disasters_track_cards"] == ["plague_offshore"]
    sent = check(state, "ann", "orders:\n  - draw: events\n")
    state, events = resolve(state, {"ann": sent.orders, "bob": {"discard": [], "draw": [], "if_first": {}},
                                    "cid": {"discard": [], "draw": [], "if_first": {}}}, Dice(5))
    assert state["families"]["ann"]["hand"] == ["tax"]
    assert any(e.kind == "disaster_drawn" and "space 1" in e.text for e in events)
    assert {"card": "plague", "target": "offshore", "player": None, "lord": None} in state["board_effects"]


def draw_nothing(state: dict, rng: Rng) -> tuple[dict, list]:
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in RULES.phase(state).deciders}
    return resolve(state, orders, rng)


def test_a_plague_without_the_icon_strikes_the_offshore_area_at_once() -> None:
    # 2.5: no die for the bishopric; G.2.1.1-2 on every lord and troop offshore, none ashore.
    state = position(units={"offshore": {"bob": {"knight": 2, "man_at_arms": 2}},
                            "Lyon": {"cid": {"man_at_arms": 2}}},
                     disasters_track=["plague_offshore"])
    state, events = draw_nothing(state, Dice(2))          # Charles's d6 only
    assert state["board_effects"] == [{"card": "plague", "target": "offshore", "player": None, "lord": None}]
    text = " ".join(e.text for e in events)
    assert "A plague card is revealed; it has no dice icon: it strikes the offshore area" in text
    assert "Plague in the offshore area: Charles rolls 2 and dies (G.2.1.1)" in text
    assert "Charles" not in state["lords"]
    at_sea = [p for p in state["pawns"].values() if p["location"] == "offshore"]
    assert len(at_sea) == 2 and sorted(p["kind"] for p in at_sea) == ["knight", "knight"]
    assert len([p for p in state["pawns"].values() if p["location"] == "Lyon"]) == 2
    assert "Arthur" in state["lords"] and "Arthur" not in state["plague_struck"]


def test_a_second_disaster_of_a_kind_offshore_is_discarded() -> None:
    state = position(effects=[{"card": "famine", "target": "offshore"}],
                     disasters_track=["famine_offshore", "bad_weather_offshore", "famine"])
    state, events = draw_nothing(state, Dice(3))           # the die of the last famine only
    assert [e.kind for e in events if e.kind.startswith("disaster")] == ["disaster_duplicate", "disaster", "disaster"]
    assert [(e["card"], e["target"]) for e in state["board_effects"]] == [
        ("famine", "offshore"), ("bad_weather", "offshore"), ("famine", "3")]
    assert state["events_discard"] == ["famine_offshore"]
    # 7: the cards leave the board at the end of the round, each as the card it is.
    state["phase"] = "end_of_round"
    state, _ = resolve(state, {})
    assert state["events_discard"] == ["famine_offshore", "famine_offshore", "bad_weather_offshore", "famine"]
    assert state["board_effects"] == []


def movement(**more) -> dict:
    lords = {"Quentin": {"family": "ann", "at": "Nantes"}, "Charles": {"family": "bob", "at": "Paris"}}
    return build_position({"players": PLAYERS[:2], "phase": "movement", "lords": lords,
                           "units": {"Nantes": {"ann": {"man_at_arms": 2}}}, **more}, "fief_france").to_json()


def sail(state: dict, rng: Rng) -> tuple[dict, list]:
    sent = check(state, "ann", "orders:\n  - move: Quentin\n    with: all\n    path: [offshore]\n")
    assert sent.ok, sent.errors
    orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in RULES.phase(state).deciders}
    return resolve(state, {**orders, "ann": sent.orders}, rng)


def test_entering_the_offshore_area_under_a_plague() -> None:
    # Ruling 41: G.2.1.3 applies to the offshore area as to a bishopric.
    state, events = sail(movement(effects=[{"card": "plague", "target": "offshore"}]), Dice(5))
    text = " ".join(e.text for e in events)
    assert "Plague in the offshore area: Quentin rolls 5 and survives" in text
    assert "Plague in the offshore area: ann's army of 2 unit pawns loses 1" in text
    assert state["lords"]["Quentin"]["location"] == "offshore"
    assert len([p for p in state["pawns"].values() if p["location"] == "offshore"]) == 1


def test_bad_weather_and_famine_offshore_change_nothing() -> None:
    # Ruling 41: naval moves ignore bad weather (G.2.2, 5.3); there is no mill offshore (G.2.3).
    effects = [{"card": "bad_weather", "target": "offshore"}, {"card": "famine", "target": "offshore"}]
    state, events = sail(movement(effects=effects), Dice())
    assert state["lords"]["Quentin"]["location"] == "offshore"
    assert not any("weather" in e.text for e in events)
    income = build_position({"players": PLAYERS[:2], "phase": "income", "effects": effects,
                             "lords": {"Quentin": {"family": "ann", "at": "Nantes"}},
                             "towns": {"Nantes": {"controller": "ann", "mills": 1}}}, "fief_france").to_json()
    income, _ = resolve(income, {})
    assert income["families"]["ann"]["deniers"] == 5 + 1 + 2      # the town and its mill
