"""Views are allow-lists: each secret of Fief: France stays with those who may see it
(hands, piles, the face-down disasters track, fog of war unit types, policies, pools), and the
game master sees everything. Reports rendered from a view show no more than the view."""
from __future__ import annotations

import json

from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position
from pbem.judge.render import render

POSITION = {
    "players": ["marie", "marc", "olivier"],
    "phase": "purchase",
    "options": {"fog_of_war": True},
    "deniers": {"marie": 7, "marc": 3},
    "hands": {"marie": ["Thierry", "underground"], "marc": ["assassination"]},
    "lords": {"Quentin": {"family": "marie", "at": "Nantes"},
              "Othon": {"family": "marc", "at": "Tours"}},
    "units": {"Nantes": {"marie": {"knight": 2, "archer": 1}},
              "Tours": {"marc": {"bombard": 1, "man_at_arms": 2}}},
    "disasters_track": ["plague"],
    "piles": {"characters": ["Lambert", "cardinal"], "events": ["justice", "ambush"]},
    "policies": {"marie": {"safe_passage": {"allow": ["marc"], "refuse": [], "others": "refuse"}}},
}


def state() -> dict:
    return build_position(POSITION, "fief_france").to_json()


def text_of(view) -> str:
    return json.dumps(view, ensure_ascii=False)


def values_of(data) -> set:
    """Every text value in a view (keys left out: "cardinal" is also a lord's field name)."""
    if isinstance(data, dict):
        return set().union(*(values_of(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(values_of(v) for v in data)) if data else set()
    return {data} if isinstance(data, str) else set()


def test_hands_are_secret() -> None:
    marc = RULES.view(state(), "marc")
    assert marc["hand"] == ["assassination"]
    assert marc["families"]["marie"]["hand_size"] == 2
    assert "hands" not in marc
    dumped = text_of(marc)
    assert "Thierry" not in dumped and "underground" not in dumped
    assert "assassination" not in text_of(RULES.view(state(), "marie"))


def test_piles_and_disasters_are_face_down() -> None:
    for player in ("marie", "marc", "olivier"):
        view = RULES.view(state(), player)
        seen = values_of(view)
        for secret in ("Lambert", "cardinal", "justice", "ambush", "plague"):
            assert secret not in seen, (player, secret)
        assert view["piles"]["characters"] == 2 and view["piles"]["events"] == 2
        assert view["disasters_track"] == 1


def test_fog_of_war_hides_types_of_others_only() -> None:
    marc = RULES.view(state(), "marc")
    assert marc["towns"]["Nantes"]["forces"]["marie"]["units"] == {"hidden": 3}
    assert marc["towns"]["Tours"]["forces"]["marc"]["units"] == {"bombard": 1, "man_at_arms": 2}
    assert all(p["family"] == "marc" for p in marc["my_pawns"]) and len(marc["my_pawns"]) == 3
    assert "pool" not in marc["families"]["marie"] and "pool" in marc["families"]["marc"]
    assert not any("archer" in k or "knight" in k for k in _unit_keys(marc, "marie"))
    assert "pawns" not in marc


def _unit_keys(view, family) -> set:
    keys = set()
    for place in list(view["towns"].values()) + [view["offshore"]]:
        keys |= set(place["forces"].get(family, {}).get("units", {}))
    keys |= {p["kind"] for p in view["my_pawns"] if p["family"] == family}
    return keys


def test_no_fog_shows_types() -> None:
    data = dict(POSITION, options={})
    view = RULES.view(build_position(data, "fief_france").to_json(), "marc")
    assert view["towns"]["Nantes"]["forces"]["marie"]["units"] == {"archer": 1, "knight": 2}


def test_policies_are_their_owners() -> None:
    assert RULES.view(state(), "marie")["policies"]["safe_passage"]["allow"] == ["marc"]
    assert RULES.view(state(), "marc")["policies"] == {}
    olivier = RULES.view(state(), "olivier")
    assert olivier["policies"] == {} and "policies_by_family" not in olivier
    assert not any("allow" in line for line in olivier["policies_text"])   # only his own defaults


def test_game_master_sees_all() -> None:
    gm = RULES.view(state(), None)
    assert gm["me"] is None
    assert gm["hands"]["marie"] == ["Thierry", "underground"]
    assert gm["disasters_track_cards"] == ["plague"]
    assert gm["towns"]["Nantes"]["forces"]["marie"]["units"] == {"archer": 1, "knight": 2}
    assert len(gm["pawns"]) == 6
    assert gm["policies_by_family"]["marie"]["safe_passage"]["allow"] == ["marc"]


def test_public_facts_are_shown() -> None:
    marc = RULES.view(state(), "marc")
    assert marc["families"]["marie"]["deniers"] == 7          # wealth is public (A.6, 3)
    assert marc["lords"]["Quentin"]["location"] == "Nantes"   # lords on the board are public
    assert marc["phase_id"] == "round-1/purchase"


def test_report_shows_no_more_than_the_view() -> None:
    st = state()
    text = render(RULES.report_template(), view=RULES.view(st, "marc"), me="marc")
    assert "Nantes" in text and "3 units (face down)" in text and "1 bombard, 2 men-at-arms" in text
    for secret in ("Thierry", "underground", "plague", "Lambert"):
        assert secret not in text.replace("plague_losses", ""), secret
    board_part = text.split("THE BOARD")[1]
    assert "knight" not in board_part and "archer" not in board_part
    gm = render(RULES.report_template(), view=RULES.view(st, None), me=None)
    assert "1 archer, 2 knights" in gm


def test_report_shows_the_options_and_the_discard_tops_only() -> None:
    st = state()
    st["options"] = {**st["options"], "adjusted_shooting": True, "public_diplomacy": True}
    st["character_discard"] = ["Lambert", "Quentin"]
    st["events_discard"], st["events_discard_face_down"] = ["justice", "famine"], [1]   # 2.3: face down
    text = render(RULES.report_template(), view=RULES.view(st, "marc"), me="marc")
    assert "Options: fog of war (I.2), adjusted shooting (I.1), public diplomacy (I.3)" in text
    assert "Discard piles (2.1, the top card is public): characters Quentin; events a card face down." in text
    for hidden in ("Lambert", "justice", "famine"):     # under the top, or face down (2.3)
        assert hidden not in text, hidden


def test_check_orders_reads_only_the_view() -> None:
    # A purchase checked against marc's view: he cannot learn marie's unit types from a reply.
    from pbem.orders.yamlsafe import load
    check = RULES.check_orders(RULES.view(state(), "marc"), "marc",
                               load("orders:\n  - buy: archer\n    in: Nantes\n"))
    assert not check.ok
    assert "you cannot place new units in Nantes" in str(check.errors[0])
    assert "knight" not in str(check.errors[0])
