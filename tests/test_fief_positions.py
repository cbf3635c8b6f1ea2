"""A scenario's position (pbem.games.fief.positions): a mistake in it is a PositionError that
names it, never a traceback or a piece put nowhere."""
from __future__ import annotations

import pytest
import yaml

from pbem.games.fief.positions import PositionError, build_position


@pytest.mark.parametrize("section, body", [
    ("units", "alice: {knight: 1}"),     # both once a KeyError: None
    ("towns", "controller: alice"),
])
def test_a_town_key_left_empty_is_named(section: str, body: str) -> None:
    data = yaml.safe_load(f"players: [alice, bob, carol]\n{section}:\n  ~: {{{body}}}\n")
    with pytest.raises(PositionError, match=f"{section}: a town name is missing"):
        build_position(data, "fief_france")
