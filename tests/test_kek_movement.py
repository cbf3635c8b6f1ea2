"""Kard és Korona: movement by mail (III. Movement; II. Natural Obstacles; VI. Tie-Down).

Two neighbours, Pannónia and Felvidék, on the basic map:

    Pannónia: Sopron (castle; lord, 2 cavalry, 3 infantry, 2 archers), Vas (castle; 2 infantry,
              2 archers), Győr (1 cavalry)
    Felvidék: Pozsony (castle; lord, 1 cavalry, 3 infantry, 2 archers), Trencsén (castle; 2 infantry,
              2 archers), Nyitra (2 cavalry)

Győr - Nyitra and Sopron/Győr - Pozsony cross the Duna; Veszprém is a mountain.
"""
from __future__ import annotations

from kek_support import RULES, check, new_game, resolve_once, step, texts_of

PAN = ("place:\n  Sopron: {cavalry: 2, infantry: 3, archers: 2}\n  Vas: {infantry: 2, archers: 2}\n"
       "  Győr: {cavalry: 1}\nlord: Sopron\n")
FEL = ("place:\n  Pozsony: {cavalry: 1, infantry: 3, archers: 2}\n  Trencsén: {infantry: 2, archers: 2}\n"
       "  Nyitra: {cavalry: 2}\nlord: Pozsony\n")


def _game(starting: str = "pan", version: str = "basic") -> tuple[dict, str, str]:
    state = new_game(["Anna", "Bela"], provinces="PAN+FEL", version=version)
    pan = next(p for p, h in state["home"].items() if h == "PAN")
    fel = next(p for p, h in state["home"].items() if h == "FEL")
    state, _ = step(state, {pan: PAN, fel: FEL})
    state["starting"] = pan if starting == "pan" else fel
    assert RULES.phase(state).id == "1301/movement"
    return state, pan, fel


def test_steps_are_played_one_a_player_in_turn_order() -> None:
    state, pan, fel = _game(starting="pan")
    state, events = step(state, {pan: "steps:\n  - to: Fejér\n    from: {Győr: {cavalry: 1}}\n",
                                 fel: "steps:\n  - to: Győr\n    from: {Nyitra: {cavalry: 2}}\n"})
    moves = [e.text for e in events if e.kind == "move"]
    assert moves == [f"{pan} moves 1 cavalry into Fejér.", f"{fel} moves 2 cavalry into Győr, taking it."]
    assert state["owner"]["Győr"] == fel and not state["battles"]


def test_the_same_lists_in_the_other_turn_order_give_a_battle() -> None:
    state, pan, fel = _game(starting="fel")
    state, events = resolve_once(state, {pan: "steps:\n  - to: Fejér\n    from: {Győr: {cavalry: 1}}\n",
                                         fel: "steps:\n  - to: Győr\n    from: {Nyitra: {cavalry: 2}}\n"})
    assert [b["county"] for b in state["battles"]] == ["Győr"]          # Bela stepped in first: a battle
    failed = [e for e in events if e.kind == "step_failed"]
    assert [e.audience.players for e in failed] == [(pan,)]          # a failed plan is told to its player only
    told = [e.text for e in failed if e.audience.players == (pan,)]
    assert told and "are attacked and may not move away" in told[0]   # III. Battle


def test_the_first_to_pass_starts_the_next_year() -> None:
    state, pan, fel = _game(starting="pan")
    state["deck"] = [f"card_{i}" for i in range(8, 17)]
    state, events = step(state, {pan: "steps:\n  - to: Fejér\n    from: {Győr: {cavalry: 1}}\n", fel: "steps: []\n"})
    assert any(e.kind == "first_pass" and e.data["player"] == fel for e in events)
    assert state["year"] == 1302 and state["starting"] == fel


def test_movement_points_obstacles_and_rivers() -> None:
    state, pan, fel = _game()
    mountain = check(state, pan, "steps:\n  - to: Veszprém\n    from: {Sopron: {infantry: 1}}\n")
    assert "cannot reach Veszprém from Sopron: 2 movement points, the way costs 3" in str(mountain.errors[0])
    assert check(state, pan, "steps:\n  - to: Veszprém\n    from: {Sopron: {cavalry: 1}}\n").ok
    river = check(state, pan, "steps:\n  - to: Nyitra\n    from: {Sopron: {infantry: 1}}\n")
    assert "the way costs 3" in str(river.errors[0])                       # Győr, then across the Duna
    assert check(state, pan, "steps:\n  - to: Pozsony\n    from: {Sopron: {infantry: 3}}\n").ok   # Duna: 2


def test_a_unit_moves_once_a_year_and_the_steps_are_counted() -> None:
    state, pan, fel = _game()
    twice = check(state, pan, "steps:\n  - to: Győr\n    from: {Sopron: {infantry: 1}}\n"
                  "  - to: Fejér\n    from: {Győr: {cavalry: 1, infantry: 1}}\n")
    assert "you have 1 cavalry in Győr at the start of the year" in str(twice.errors[0])
    five = "steps:\n" + "".join("  - to: Győr\n    from: {Vas: {infantry: 1}}\n" for _ in range(5))
    assert "you may take 4 steps this year, not 5" in str(check(state, pan, five).errors[0])   # 2 castles + 2


def test_the_lord_needs_an_escort() -> None:
    state, pan, fel = _game()
    alone = "steps:\n  - to: Győr\n    from: {Sopron: {cavalry: 2, infantry: 3, archers: 2}}\n"
    state2, events = step(state, {pan: alone})
    told = [e.text for e in events if e.kind == "step_failed" and e.audience.players == (pan,)]
    assert told and "would be left alone in Sopron" in told[0]
    to_empty = "steps:\n  - to: Fejér\n    lord: yes\n"
    state2, events = step(state, {pan: to_empty})
    told = [e.text for e in events if e.kind == "step_failed" and e.audience.players == (pan,)]
    assert told and "may not arrive alone in Fejér" in told[0]
    with_lord = "steps:\n  - to: Győr\n    lord: yes\n"                  # to his own cavalry
    state2, events = step(state, {pan: with_lord})
    assert state2["lords"][pan] == "Győr"


def test_no_reinforcements_and_no_third_party_in_a_battle() -> None:
    state, pan, fel = _game(starting="fel")
    state, events = resolve_once(state, {
        fel: "steps:\n  - to: Győr\n    from: {Nyitra: {cavalry: 2}}\n"
             "  - to: Győr\n    from: {Pozsony: {infantry: 1}}\n",
        pan: "steps:\n  - to: Győr\n    from: {Sopron: {infantry: 1}}\n"})
    for player in (fel, pan):   # ruling K16: neither side brings in more units
        told = [e.text for e in events if e.kind == "step_failed" and e.audience.players == (player,)]
        assert told and "a battle is already due there" in told[0]
    assert [(b["county"], b["units"]["cavalry"]) for b in state["battles"]] == [("Győr", 2)]


def test_taking_the_last_castle_needed_wins_at_once() -> None:
    state, pan, fel = _game(starting="pan")
    for castle in ("Pest", "Esztergom", "Zágráb", "Valkó", "Fehér", "Hunyad", "Abaúj"):
        state["armies"].pop(castle, None)
        state["owner"][castle] = pan                                     # 2 + 7 = 9 castles (V.IV)
    state["owner"]["Pest"] = "royal"
    state, events = step(state, {pan: "steps:\n  - to: Pest\n    from: {Győr: {cavalry: 1}}\n"
                                      "  - to: Fejér\n    from: {Sopron: {cavalry: 1}}\n"})
    assert RULES.result(state).winners == (pan,)
    assert "holds 9 castles and wins" in texts_of(events)[-1]
    assert "Fejér" not in state["armies"]                                # the year stops there



def _advanced(pan_armies: dict, fel_armies: dict, fel_lord: str) -> tuple[dict, str, str]:
    """An advanced game with only these armies of Pannónia and Felvidék (and the neutrals)."""
    state = new_game(["Anna", "Bela"], provinces="PAN+FEL", version="advanced")
    pan = next(p for p, h in state["home"].items() if h == "PAN")
    fel = next(p for p, h in state["home"].items() if h == "FEL")
    state, _ = step(state)
    state["armies"] = {c: a for c, a in state["armies"].items() if a["owner"] not in (pan, fel)}
    for owner, armies in ((pan, pan_armies), (fel, fel_armies)):
        for county, units in armies.items():
            state["armies"][county] = {"owner": owner, "units": {"cavalry": 0, "infantry": 0, "archers": 0, **units}}
            state["owner"][county] = owner
    state["lords"] = {pan: "Komárom", fel: fel_lord}
    state["starting"] = pan
    return state, pan, fel


def test_advanced_tie_down_lets_the_rest_pass_through() -> None:
    armies = {"Komárom": {"infantry": 2, "cavalry": 2, "archers": 1}}
    state, pan, fel = _advanced(armies, {"Nyitra": {"infantry": 1}, "Trencsén": {"infantry": 1},
                                         "Pozsony": {"infantry": 2}}, "Pozsony")
    plan = {pan: "steps:\n  - to: Nyitra\n    from: {Komárom: {infantry: 2}}\n"
                 "  - to: Trencsén\n    from: {Komárom: {cavalry: 2}}\n"}
    state2, events = resolve_once(state, plan)
    assert [b["county"] for b in state2["battles"]] == ["Nyitra", "Trencsén"]    # VI. Tie-Down
    state["armies"]["Nyitra"]["units"]["infantry"] = 2     # not twice as many attackers: Nyitra blocks the way
    assert [b["county"] for b in resolve_once(state, plan)[0]["battles"]] == ["Nyitra"]


def test_advanced_reverse_tie_down_frees_the_excess() -> None:
    state, pan, fel = _advanced({"Komárom": {"infantry": 1, "archers": 1}}, {"Nyitra": {"infantry": 5},
                                                                              "Pozsony": {"infantry": 2}}, "Pozsony")
    state["starting"] = pan
    state2, events = resolve_once(state, {pan: "steps:\n  - to: Nyitra\n    from: {Komárom: {infantry: 1}}\n",
                                          fel: "steps:\n  - to: Bars\n    from: {Nyitra: {infantry: 3}}\n"})
    assert state2["armies"]["Bars"]["units"]["infantry"] == 3                   # 5 - 2x1 are free (VI)
    state3, events = resolve_once(state, {pan: "steps:\n  - to: Nyitra\n    from: {Komárom: {infantry: 1}}\n",
                                          fel: "steps:\n  - to: Bars\n    from: {Nyitra: {infantry: 4}}\n"})
    told = [e.text for e in events if e.kind == "step_failed" and e.audience.players == (fel,)]
    assert told and "only 3 are free of the tie-down" in told[0]
    state4, events = resolve_once(state, {pan: "steps:\n  - to: Nyitra\n    from: {Komárom: {infantry: 1}}\n",
                                          fel: "steps:\n  - to: Bars\n    from: {Nyitra: {infantry: 2}}\n"
                                               "  - to: Bars\n    from: {Nyitra: {infantry: 2}}\n"})
    assert state4["armies"]["Bars"]["units"]["infantry"] == 2                   # the second step finds 1 free


def test_advanced_an_attacked_lord_stops_his_player() -> None:
    state, pan, fel = _advanced({"Komárom": {"infantry": 2, "cavalry": 1}},
                                {"Nyitra": {"infantry": 2}, "Pozsony": {"infantry": 2}, "Trencsén": {"archers": 1}},
                                "Nyitra")
    state2, events = resolve_once(state, {pan: "steps:\n  - to: Nyitra\n    from: {Komárom: {infantry: 2}}\n",
                                          fel: "steps:\n  - to: Trencsén\n    from: {Pozsony: {infantry: 1}}\n"})
    assert any(e.kind == "tie_down" and fel in e.text for e in events)
    assert state2["armies"]["Pozsony"]["units"]["infantry"] == 2               # he could not move (VI)
    assert state2["first_pass"] == fel


def test_an_overlord_vetoes_his_vassals_battles() -> None:
    state, pan, fel = _game(starting="fel")
    state["vassal_of"] = {fel: pan}
    refused = check(state, pan, "veto: [Nobody]\n")
    assert "Nobody is not your vassal" in str(refused.errors[0])
    state2, events = resolve_once(state, {pan: f"veto: [{fel}]\n",
                                          fel: "steps:\n  - to: Esztergom\n    from: {Nyitra: {cavalry: 2}}\n"})
    told = [e.text for e in events if e.kind == "step_failed" and e.audience.players == (fel,)]
    assert told and "vetoes your battles" in told[0]
    state2, events = resolve_once(state, {fel: "steps:\n  - to: Győr\n    from: {Nyitra: {cavalry: 2}}\n"})
    told = [e.text for e in events if e.kind == "step_failed" and e.audience.players == (fel,)]
    assert told and "may not attack his overlord" in told[0]


def test_advanced_a_step_may_not_leave_a_castle_breaking_the_half_rule() -> None:
    state, pan, fel = _advanced({"Győr": {"infantry": 4, "archers": 3}, "Komárom": {"infantry": 1}},
                                {"Pozsony": {"infantry": 2}}, "Pozsony")
    state2, events = resolve_once(state, {pan: "steps:\n  - to: Veszprém\n    from: {Győr: {infantry: 1}}\n"})
    assert state2["armies"]["Veszprém"]["units"]["infantry"] == 1              # 3 and 3 stay: fine
    state2, events = resolve_once(state, {pan: "steps:\n  - to: Veszprém\n    from: {Győr: {archers: 1}}\n"})
    told = [e.text for e in events if e.kind == "step_failed" and e.audience.players == (pan,)]
    assert told and "the garrison left in Győr would break the half rule" in told[0]   # 4 infantry of 6 (K5)


def test_advanced_retreat_is_ordered_in_advance() -> None:
    """VI. Retreat / Flight: the player says when his army retreats and where to (the battle
    package's `retreat:` and `retreat_to:`); the game gives the side the first legal county."""
    from pbem.games.kard_es_korona.battles import _side
    state, pan, fel = _advanced({"Komárom": {"infantry": 2}}, {"Pozsony": {"infantry": 2}}, "Pozsony")
    text = "battle: {retreat: {units_at_most: 2}, retreat_to: [Nyitra, Komárom]}\n"
    orders = check(state, pan, text)
    assert orders.ok and orders.orders["battle"]["retreat"] == {"units_at_most": 2}
    state2, _ = resolve_once(state, {pan: text})
    side = _side(state2, pan, {"cavalry": 0, "infantry": 2, "archers": 0}, False, "Pozsony", ("Komárom",))
    assert side.plan["retreat"] == {"units_at_most": 2} and side.retreat_to == "Komárom"   # Nyitra is not legal
    basic, pan_b, _ = _game()
    refused = check(basic, pan_b, "battle: {retreat: always}\n")
    assert "retreat and pursuit are the advanced game's (VI)" in str(refused.errors[0])


def test_the_battle_plan_reads_back_and_defaults_leave_ruling_b2() -> None:
    """One reader for `battle:` (the battle package's, with the game's if_defeated and
    after_victory): a whole plan is echoed and read back the same; a player who gives no
    priorities sends none, so the battle package's situational default (ruling B2) applies."""
    state, pan, fel = _advanced({"Komárom": {"infantry": 2}}, {"Pozsony": {"infantry": 2}}, "Pozsony")
    text = ("battle:\n  priorities: [knights, archers]\n  lord_leads: infantry\n  losses: [archers]\n"
            "  retreat: {after_round: 2, outnumbered: 3}\n  retreat_to: [Komárom]\n  pursue: no\n  reroll: never\n"
            "  order: [Pozsony]\n  counties: {Pozsony: {retreat: never, priorities: [infantry]}}\n"
            "  if_defeated: escape\n")
    orders = check(state, pan, text)
    assert orders.ok, [str(e) for e in orders.errors]
    assert orders.orders["battle"] == {
        "priorities": ["cavalry", "archers"], "lord_leads": ["infantry"], "losses": ["archers"],
        "retreat": {"after_round": 2, "outnumbered": 3}, "retreat_to": ["Komárom"], "pursue": False, "reroll": None,
        "order": ["Pozsony"], "counties": {"Pozsony": {"retreat": "never", "priorities": ["infantry"]}},
        "if_defeated": "escape", "after_victory": None}
    again = check(state, pan, RULES.echo_orders(RULES.view(state, pan), pan, orders.orders))
    assert again.ok and again.orders == orders.orders
    quiet = check(state, pan, "steps: []\n")
    assert quiet.orders["battle"] == {"if_defeated": "oath", "after_victory": None}
    assert "\nbattle:" not in RULES.order_template(RULES.view(state, pan), pan)   # the template sends no plan
    wrong = check(state, pan, "battle: {priorities: [cavalery]}\n")
    assert "'cavalery' is not a weapon type" in str(wrong.errors[0])
