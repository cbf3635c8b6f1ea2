"""Kard és Korona's map picture (DrawsMap; docs/maps.md): drawn from a view, for both maps."""
from __future__ import annotations

import pytest

from kek_support import RULES, new_game, step
from pbem.games.kard_es_korona.map_view import positions
from pbem.judge.maps import draw_png


@pytest.mark.parametrize("version", ["basic", "advanced"])
def test_every_county_has_a_place_and_the_map_draws(version: str) -> None:
    state, _ = step(new_game(["Anna", "Bela", "Csilla"], version=version))
    drawing = RULES.map_drawing(RULES.view(state, "Anna"))
    assert len(drawing["places"]) == len(positions(version)[1]) == (49 if version == "basic" else 70)
    assert {f["id"] for f in drawing["families"]} == {"Anna", "Bela", "Csilla", "neutral"}
    assert drawing["legend"]["places"] == "Counties"
    assert draw_png(drawing).startswith(b"\x89PNG")


def test_a_siege_due_is_drawn() -> None:
    state, _ = step(new_game(["Anna", "Bela"], provinces="ERD+PAN"))
    state["battles"] = [{"county": "Pest", "attacker": "Anna", "defender": "royal", "lord": False, "from": ["Fejér"],
                         "units": {"cavalry": 1, "infantry": 2, "archers": 0}, "entered": 0, "free": 0}]
    drawing = RULES.map_drawing(RULES.view(state, "Bela"))
    assert drawing["sieges"] == [{"at": "Pest", "by": ["Anna"]}]
    assert {"at": "Pest", "family": "Anna", "lords": [], "units": {"cavalry": 1, "infantry": 2}, "hidden": 0,
            "captives": []} in drawing["pieces"]
