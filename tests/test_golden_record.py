"""The golden playthrough format (tests/golden_record.py): leaves that rebuild each state, a
file one leaf per line, and a first-difference message that names the path."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from golden_record import changes, check_golden, dump, flatten

GOLDEN = Path(__file__).parent / "golden"


def rebuild(leaves: dict, diff: dict) -> dict:
    leaves = {p: v for p, v in leaves.items() if p not in diff.get("removed", [])}
    leaves.update(diff.get("changed", {}))
    return leaves


def test_flatten_walks_dicts_and_lists_of_dicts_and_keeps_plain_lists_whole():
    state = {"families": {"alice": {"deniers": 5, "hand": ["tax", "plague"]}},
             "board_effects": [{"card": "plague", "target": "2"}], "winners": [], "over": None}
    assert flatten(state) == {"families.alice.deniers": 5, "families.alice.hand": ["tax", "plague"],
                              "board_effects.0.card": "plague", "board_effects.0.target": "2",
                              "winners": [], "over": None}
    with pytest.raises(AssertionError, match="a key with a dot"):
        flatten({"a.b": 1})


def test_changes_applied_in_order_rebuild_the_state():
    first = {"families": {"alice": {"deniers": 5}, "bob": {"deniers": 3}}, "phase": "income"}
    second = {"families": {"alice": {"deniers": 8}}, "phase": "purchase", "round": 2}
    diff = changes(flatten(first), flatten(second))
    assert diff == {"changed": {"families.alice.deniers": 8, "phase": "purchase", "round": 2},
                    "removed": ["families.bob.deniers"]}
    assert rebuild(flatten(first), diff) == flatten(second)
    assert changes(flatten(second), flatten(second)) == {}


def test_the_file_is_json_with_one_leaf_per_line():
    record = [{"seq": 1, "phase": "setup", "events": ["a" * 60, "b" * 60], "dice": [["d6", 4]],
               "state": {"changed": {"families.alice.deniers": 8, "hand": ["tax"]}}}]
    text = dump(record)
    assert json.loads(text) == record
    assert '    "families.alice.deniers": 8,' in text.splitlines()
    assert '   "' + "a" * 60 + '",' in text.splitlines()   # a long list: one item a line
    assert '  "dice": [["d6", 4]],' in text.splitlines()     # a short one: one line


def test_a_difference_is_named_by_its_path(tmp_path, monkeypatch):
    monkeypatch.delenv("PBEM_UPDATE_GOLDEN", raising=False)
    golden = [{"seq": 1, "phase": "setup", "views": {"bob": {"changed": {"families.bob.deniers": 3}}}}]
    (tmp_path / "g.json").write_text(dump(golden), encoding="utf-8")
    check_golden(tmp_path, "g.json", golden)
    now = [{"seq": 1, "phase": "setup", "views": {"bob": {"changed": {"families.bob.deniers": 4}}}}]
    with pytest.raises(AssertionError) as failure:
        check_golden(tmp_path, "g.json", now)
    message = str(failure.value)
    assert "phase 1 (setup) differs from the golden record at `views > bob > changed > families.bob.deniers`" in message
    assert "golden: 3\n  now:    4" in message


@pytest.mark.parametrize("name", sorted(p.name for p in GOLDEN.glob("*.json")))
def test_a_golden_record_rebuilds_to_its_winner(name):
    """The stored record alone is enough to follow the game: its changes, applied from the
    starting state, end in a game over with one winner, and stay small."""
    record = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    state = record[0]["start"]
    for entry in record:
        for action in entry["at_once"]:
            state = rebuild(state, action["state"])
        state = rebuild(state, entry.get("state", {}))
    # Fief keeps `phase` and `winners` at the top of its state; Kard és Korona `step` and `result`.
    phase, winners = state.get("phase", state.get("step")), state.get("winners", state.get("result.winners"))
    assert phase == "over" and len(winners) == 1, (phase, winners)
    assert (GOLDEN / name).stat().st_size < 1024 * 1024
