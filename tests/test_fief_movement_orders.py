"""Movement orders (5) as mailed: canonical echo, and every error with its line and fix."""
from __future__ import annotations

import pytest

from pbem.games.fief_france.rules import RULES
from pbem.games.fief.movement.orders import check_movement_orders, movement_template
from pbem.games.fief.positions import build_position
from pbem.orders.yamlsafe import load

POSITION = {
    "players": ["marc", "marie", "enguerand"],
    "phase": "movement",
    "lords": {
        "Eric": {"family": "marc", "at": "La Rochelle"},
        "Othon": {"family": "marc", "at": "La Rochelle"},
        "Mireille": {"family": "marc", "at": "Limoges", "titles": ["darc"]},
        "Arthur": {"family": "marie", "at": "La Rochelle", "captive_of": "marc"},
        "Guenièvre": {"family": "marie", "at": "Tours"},
        "Henry": {"family": "enguerand", "at": "Rouen"},
    },
    "units": {"La Rochelle": {"marc": {"man_at_arms": 2, "archer": 1, "knight": 1}},
              "offshore": {"enguerand": {"knight": 1}}},
}


def view_of(player: str = "marc", position: dict | None = None) -> dict:
    state = build_position(position or POSITION, "fief_france").to_json()
    return RULES.view(state, player)


def check(text: str, player: str = "marc", position: dict | None = None):
    doc = load(text)
    return check_movement_orders(view_of(player, position), player, doc.get("orders"), doc.get("policies"))


def errors_of(text: str, player: str = "marc") -> str:
    canonical, errors = check(text, player)
    assert errors, f"expected errors, got {canonical}"
    return " | ".join(str(e) for e in errors)


def test_canonical_echo_of_a_full_move():
    canonical, errors = check("""\
orders:
  - move: eric
    with: [man-at-arms, 2 knights]
    lords: [othon]
    captives: [Arthur]
    path: [poitiers, limoges]
    leave: {POITIERS: {man at arms: 1}}
    if_refused: Stay
    give_control: {La Rochelle: Marie}
""".replace("2 knights", "knight"))
    assert errors == []
    assert canonical["moves"] == [{
        "lord": "Eric", "with": {"knight": 1, "man_at_arms": 1}, "path": ["Poitiers", "Limoges"],
        "if_refused": "stay", "lords": ["Othon"], "captives": ["Arthur"],
        "leave": {"Poitiers": {"man_at_arms": 1}}, "give_control": {"La Rochelle": ["marie"]}}]
    assert canonical["land"] is None and canonical["policies"] == {}


def test_defaults_and_unit_forms():
    canonical, errors = check("orders:\n  - move: Eric\n    with: all\n    path: Poitiers\n")
    assert errors == []
    assert canonical["moves"][0] == {"lord": "Eric", "with": "all", "path": ["Poitiers"], "if_refused": "back"}
    canonical, errors = check("orders:\n  - move: Eric\n    with: {knight: 1, archer: '1'}\n    path: [Poitiers]\n")
    assert errors == [] and canonical["moves"][0]["with"] == {"archer": 1, "knight": 1}
    canonical, errors = check("orders:\n  - move: Eric\n    with: none\n    path: [Poitiers]\n")
    assert errors == [] and canonical["moves"][0]["with"] == {}


def test_no_orders_is_holding():
    assert check("orders:\n") == ({"moves": [], "land": None, "policies": {}}, [])


@pytest.mark.parametrize("text, fragments", [
    ("orders:\n  - move: Eric\n    path: [Orleans]\n",
     ["line 3", "no road from La Rochelle to Orléans", "La Rochelle connects to Bordeaux, Nantes, Poitiers"]),
    ("orders:\n  - move: Eric\n    path: [Poitiers, Limoge]\n", ["line 3", "no town called 'Limoge'", "Limoges"]),
    ("orders:\n  - move: Eric\n    path: [Poitiers, Limoges, Clermont]\n",
     ["line 3", "Eric has 2 steps (5.1.1); this path needs 3"]),
    ("orders:\n  - move: Erik\n    path: [Poitiers]\n", ["line 2", "'Erik' is not a lord of your family", "Eric"]),
    ("orders:\n  - move: Guenièvre\n    path: [Poitiers]\n", ["not a lord of your family"]),
    ("orders:\n  - move: Eric\n", ["line 2", "has no `path`", "path: [Bordeaux]"]),
    ("orders:\n  - move: Eric\n    with: {knight: 2}\n    path: [Poitiers]\n",
     ["line 2", "takes 2 knights from La Rochelle, but you have only 1 there"]),
    ("orders:\n  - move: Eric\n    with: {knight: 1}\n    path: [Poitiers, Tours]\n"
     "    leave: {Poitiers: {knight: 2}}\n",
     ["line 2", "Eric cannot leave 2 knights in Poitiers: the army has only 1", "leave at most 1"]),
    ("orders:\n  - move: Eric\n    path: [Poitiers, Tours]\n    pick_up: {Poitiers: {archer: 1}}\n",
     ["line 2", "Eric cannot pick up 1 archer in Poitiers: you have only 0 there", "pick up at most 0"]),
    ("orders:\n  - move: Eric\n    with: {knigth: 1}\n    path: [Poitiers]\n",
     ["line 3", "'knigth' is not a unit kind", "knight"]),
    ("orders:\n  - move: Eric\n    with: {knight: two}\n    path: [Poitiers]\n", ["line 3", "must be a whole number"]),
    ("orders:\n  - move: Eric\n    path: [Poitiers]\n    leave: {Poitiers: {knight: 1}}\n",
     ["line 4", "the army ends in Poitiers anyway"]),
    ("orders:\n  - move: Eric\n    path: [Poitiers, Tours]\n    leave: {Nantes: all}\n",
     ["line 4", "Nantes is not on this path"]),
    ("orders:\n  - move: Eric\n    path: [Poitiers, Tours]\n    pick_up: {La Rochelle: all}\n",
     ["where the move starts", "named in `with`"]),
    ("orders:\n  - move: Eric\n    with: {man_at_arms: 1}\n    path: [Poitiers]\n    if_refused: cavalcade\n",
     ["line 5", "knights and lords only (5.2.4)", "if_refused: back"]),
    ("orders:\n  - move: Eric\n    path: [Poitiers]\n    if_refused: fight\n",
     ["line 4", "must be back, stay or cavalcade, not 'fight'"]),
    ("orders:\n  - move: Eric\n    path: [Poitiers]\n    speed: fast\n", ["line 4", "unknown key `speed`"]),
    ("orders:\n  - move: Eric\n    path: [Poitiers]\n  - move: eric\n    path: [Nantes]\n",
     ["line 4", "Eric already moves (line 2)"]),
    ("orders:\n  - move: Eric\n    path: [Poitiers, offshore]\n", ["Poitiers is not a harbor town"]),
    ("orders:\n  - move: Eric\n    path: [offshore, Nantes]\n", ["ends as soon as it enters the offshore area"]),
    ("orders:\n  - move: Eric\n    path: [Poitiers]\n    give_control: {Nantes: marie}\n", ["does not leave Nantes"]),
    ("orders:\n  - move: Eric\n    path: [Poitiers]\n    give_control: {La Rochelle: mary}\n",
     ["no other player 'mary'", "marie"]),
    ("orders:\n  - move: Eric\n    lords: [Mireille]\n    path: [Poitiers]\n",
     ["Mireille is in Limoges, not with Eric"]),
    ("orders:\n  - move: Eric\n    captives: [Guenièvre]\n    path: [Poitiers]\n", ["not a captive of your family"]),
    ("orders:\n  - land: Nantes\n", ["you have no forces offshore"]),
    ("orders:\n  - march: Eric\n", ["`march` is not an order of this phase"]),
    ("orders: Eric\n", ["must be a list of orders"]),
])
def test_errors_name_the_line_and_the_fix(text, fragments):
    message = errors_of(text)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"


def test_later_moves_see_the_units_earlier_moves_bring():
    # Eric and Othon start together in La Rochelle: Othon can take only what Eric left there.
    _, errors = check("orders:\n  - move: Eric\n    with: all\n    path: [Poitiers]\n"
                      "  - move: Othon\n    with: {knight: 1}\n    path: [Nantes]\n")
    assert "after your moves above" in " ".join(str(e) for e in errors)
    _, errors = check("orders:\n  - move: Eric\n    with: {knight: 1}\n    path: [Nantes]\n"
                      "  - move: Othon\n    with: {man_at_arms: 2, archer: 1}\n    path: [Poitiers]\n")
    assert errors == []


def test_darc_has_three_steps_and_her_companions_too():
    _, errors = check("orders:\n  - move: Mireille\n    path: [Poitiers, La Rochelle, Bordeaux]\n")
    assert errors == []
    _, errors = check("orders:\n  - move: Mireille\n    path: [Poitiers, La Rochelle, Bordeaux, Pau]\n")
    assert "Mireille has 3 steps (the D'Arc lord, G.4.1.1); this path needs 4" in str(errors[0])


def test_land_order_for_forces_at_sea():
    canonical, errors = check("orders:\n  - land: la rochelle\n", player="enguerand")
    assert errors == [] and canonical["land"] == "La Rochelle"
    _, errors = check("orders:\n  - land: Tours\n", player="enguerand")
    assert "Tours is not a harbor town" in str(errors[0])


def test_policies_come_with_the_moves():
    canonical, errors = check("orders:\npolicies:\n  safe_passage: {allow: [Marie]}\n")
    assert errors == []
    assert canonical["policies"] == {"safe_passage": {"allow": ["marie"], "refuse": [], "others": "refuse"}}


def test_template_is_valid_and_holds_when_sent_back_unchanged():
    view = view_of("marc")
    text = movement_template(view, "marc")
    assert "Eric is in La Rochelle with 1 archer, 1 knight, 2 men-at-arms" in text
    assert "roads to Bordeaux, Nantes, Poitiers, or `offshore` (harbor)" in text
    assert "up to 3 towns" in text            # Mireille, the D'Arc lord
    doc = load(text)
    canonical, errors = check_movement_orders(view, "marc", doc.get("orders"), doc.get("policies"))
    assert errors == [] and canonical["moves"] == []
    # Uncommenting the example of a lord gives a valid order.
    lines = text.splitlines()
    start = lines.index("  # - move: Eric")
    filled = "\n".join(lines[:start] + [ln.replace("  # ", "  ", 1) for ln in lines[start:start + 5]])
    doc = load(filled)
    canonical, errors = check_movement_orders(view, "marc", doc.get("orders"), None)
    assert errors == [] and canonical["moves"][0]["path"] == ["Bordeaux"]


def test_template_for_a_troop_at_sea():
    text = movement_template(view_of("enguerand"), "enguerand")
    assert "Your troop at sea (1 knight) must land in a harbor" in text
    doc = load(text.replace("  # - land:", "  - land:"))
    canonical, errors = check_movement_orders(view_of("enguerand"), "enguerand", doc.get("orders"), None)
    assert errors == [] and canonical["land"] is not None


def test_the_game_uses_this_template_and_checker_in_the_movement_phase():
    state = build_position(POSITION, "fief_france").to_json()
    view = RULES.view(state, "marc")
    assert RULES.order_template(view, "marc") == movement_template(view, "marc")
    check = RULES.check_orders(view, "marc", load("orders:\n  - move: Eric\n    path: [Nantes]\n"))
    assert check.ok and check.orders["moves"][0]["path"] == ["Nantes"]
    check = RULES.check_orders(view, "marc", load("orders:\n  - move: Eric\n    path: [Lyon]\n"))
    assert not check.ok and "no road from La Rochelle to Lyon" in str(check.errors[0])


def test_template_offers_companions_and_captives():
    text = movement_template(view_of("marc"), "marc")
    assert "#   lords: [Othon] " in text and "#   captives: [Arthur] " in text
    lines = text.splitlines()
    start = lines.index("  # - move: Eric")
    block = [ln.replace("  # ", "  ", 1) for ln in lines[start:start + 7]]
    doc = load("orders:\n" + "\n".join(block) + "\n")
    canonical, errors = check_movement_orders(view_of("marc"), "marc", doc.get("orders"), None)
    assert errors == [] and canonical["moves"][0]["lords"] == ["Othon"]
    assert canonical["moves"][0]["captives"] == ["Arthur"]
