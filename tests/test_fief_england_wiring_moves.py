"""Fief: England's functions wired into its phases (issue 11, part EM), each through the engine
(the rules' order check and resolution, as the judge runs them): PASSAGE in Movement (10.2,
through the core's ``MoveCard`` hook, France's underground card's code), a retainer's extra
Moves (2.12), REBELLION, AMBUSH and ASSASSINATION against the Invaders (6.11-6.13), the
BURGHER's votes in Parliament (9.2, 11.2). The rulebook's examples of these are scenario files
too (tests/scenarios/fief_england/movement-10.2-*, opportunity-6.1*-*, parliament-*, ...).
"""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from pbem.games import rules_for
from pbem.games.fief_england import retainers
from pbem.games.fief_england.card_data import Retainer, england_cards
from pbem.orders.yamlsafe import load

from test_fief_scenarios import run_step, starting_state

GAME = "fief_england"
RULES = rules_for(GAME)


def start(position: dict[str, Any]):
    return starting_state(GAME, RULES, {"round": 2, **position})


def step(state, orders: dict[str, str], expect: dict | None = None, dice: dict | None = None, resolve: bool = True):
    new, _ = run_step(RULES, state, {"orders": orders, "expect": expect or {}, "resolve": resolve}, dice)
    return new


def errors(state, player: str, text: str) -> str:
    check = RULES.check_orders(RULES.view(state, player), player, load(text))
    return " | ".join(str(e) for e in check.errors)


# -- PASSAGE in Movement (10.2) ------------------------------------------------------------------

FORTRESS = {"players": ["kirsten", "dave"], "phase": "movement",
            "lords": {"Anabel": {"family": "kirsten", "at": "Winchester", "female": True},
                      "William": {"family": "dave", "at": "York"}},
            "units": {"Winchester": {"kirsten": {"knight": 2}}, "Canterbury": {"dave": {"man_at_arms": 1}},
                      "York": {"dave": {"knight": 1}}},
            "towns": {"Canterbury": {"controller": "dave", "fortress": "stronghold"}}}
TO_LONDON = "orders:\n  - move: Anabel\n    with: all\n    path: [Canterbury]\n"


def test_without_passage_a_refused_entry_waits_in_the_outskirts():
    s = step(start(FORTRESS), {"kirsten": TO_LONDON}, {"events": [{"kind": "entry_refused"}]})
    assert s["towns"]["Canterbury"]["controller"] == "dave"


def test_passage_if_needed_enters_a_fortress_without_its_owners_leave():
    """10.2: "locals helping you into an Opponent's Fortification" - played only because Dave
    refuses the entry (5.0); the army is placed inside."""
    s = step(start({**FORTRESS, "hands": {"kirsten": ["passage"]}}),
             {"kirsten": TO_LONDON + "    passage: if_needed\n"},
             {"events": [{"kind": "passage", "text": "avoid battle"},
                         {"kind": "trigger_fired", "text": "dave refuses kirsten's army entry",
                          "audience": ["kirsten"]},
                         {"kind": "lord_moved", "text": "Winchester -> Canterbury (passage)"}],
              "no_events": ["entry_refused"]})
    assert s["families"]["kirsten"]["hand"] == []


def test_passage_if_needed_is_not_played_where_the_step_needs_none():
    s = step(start({**FORTRESS, "hands": {"kirsten": ["passage"]},
                    "policies": {"dave": {"safe_passage": {"others": "allow"}}}}),
             {"kirsten": TO_LONDON + "    passage: if_needed\n"}, {"no_events": ["passage", "entry_refused"]})
    assert s["families"]["kirsten"]["hand"] == ["passage"]


def test_an_unplayed_passage_stays_secret_and_a_played_one_is_public():
    """A hand is secret: a PASSAGE ordered `if_needed` and not needed tells no one; played, it is
    public (10.0: a played card is discarded face up), the reason it was needed only to its
    player."""
    from pbem.games.fief.movement.phase import resolve_movement
    from pbem.games.fief.board import load_board
    from pbem.games.fief.positions import build_position
    from pbem.rules.rng import Rng
    board = load_board(GAME)
    order = {"lord": "Anabel", "with": "all", "path": ["Canterbury"], "if_refused": "back",
             "passage": {"others": "if_needed"}}
    quiet = build_position({**FORTRESS, "round": 2, "hands": {"kirsten": ["passage"]},
                            "policies": {"dave": {"safe_passage": {"others": "allow"}}}}, GAME)
    seen = [e for e in resolve_movement(quiet, board, {"kirsten": {"moves": [order]}}, Rng("t"))
            if e.audience.sees("dave")]
    assert not any("passage" in (e.text + e.kind).lower() for e in seen)
    loud = build_position({**FORTRESS, "round": 2, "hands": {"kirsten": ["passage"]}}, GAME)
    events = resolve_movement(loud, board, {"kirsten": {"moves": [order]}}, Rng("t"))
    assert any(e.kind == "passage" and e.audience.sees("dave") for e in events)
    fired = [e for e in events if e.kind == "trigger_fired"]
    assert fired and not fired[0].audience.sees("dave")


def test_passage_by_burgher_needs_the_card_on_the_family_board_and_a_treasure():
    s = start(FORTRESS)
    assert "you have no BURGHER card on your family board (11.2)" in errors(
        s, "kirsten", TO_LONDON + "    passage: {Canterbury: always, by: burgher}\n")
    s = start({**FORTRESS, "edition_state": {"family_card": {"kirsten": "burgher_1"},
                                             "treasures": {"kirsten": ["tax_tallage", "tax_tithe"]}}})
    assert "both of your Treasure markers already lie on played cards" in errors(
        s, "kirsten", TO_LONDON + "    passage: {Canterbury: always, by: burgher}\n")


def test_a_passage_order_is_echoed_as_it_is_read_again():
    from pbem.games.fief.echo.moves import movement_items
    s = start({**FORTRESS, "edition_state": {"family_card": {"kirsten": "burgher_1"}}})
    text = TO_LONDON + "    passage: {Canterbury: always, by: burgher}\n"
    check = RULES.check_orders(RULES.view(s, "kirsten"), "kirsten", load(text))
    assert check.ok, check.errors
    item = movement_items(check.orders)[0]
    assert item["passage"] == {"Canterbury": "always", "by": "burgher"}


def test_france_keeps_its_underground_card_and_refuses_passage():
    france = rules_for("fief_france")
    s = starting_state("fief_france", france, {"players": ["a", "b", "c"], "round": 2, "phase": "movement",
                                                "hands": {"a": ["underground"]},
                                                "lords": {"Baudoin": {"family": "a", "at": "Tours"}}})
    view = france.view(s, "a")
    ok = france.check_orders(view, "a", load("orders:\n  - move: Baudoin\n    path: [Poitiers]\n"
                                             "    underground: Poitiers\n"))
    assert ok.ok, ok.errors
    bad = france.check_orders(view, "a", load("orders:\n  - move: Baudoin\n    path: [Poitiers]\n"
                                              "    passage: Poitiers\n"))
    assert "unknown key `passage`" in " ".join(str(e) for e in bad.errors)


# -- a retainer's extra Moves (2.12, 5.0) ------------------------------------------------------------

@pytest.fixture
def swift(monkeypatch):
    """Retainer 2 entered as a game master would: one more Move a round, Spent when used."""
    cards = england_cards()
    entered = Retainer(2, "Retainer 2", True, "per_round", ({"effect": "extra_moves", "moves": 1},))
    monkeypatch.setattr(retainers, "england_cards",
                        lambda: dataclasses.replace(cards, retainers={**cards.retainers, 2: entered}))


RIDER = {"players": ["kirsten", "dave"], "phase": "movement",
         "lords": {"Anabel": {"family": "kirsten", "at": "Plymouth", "female": True},
                   "William": {"family": "dave", "at": "York"}},
         "units": {"Plymouth": {"kirsten": {"knight": 2}}, "York": {"dave": {"knight": 1}}},
         "edition_state": {"retainers": {"deck": [], "of": {"Anabel": 2}, "spent": []}}}
THREE = "orders:\n  - move: Anabel\n    with: all\n    path: [Exeter, Winchester, Canterbury]\n"


def test_three_moves_are_refused_without_the_retainer():
    s = start({**RIDER, "edition_state": {}})
    assert "Anabel has 2 Moves; this path needs 3" in errors(s, "kirsten", THREE)


def test_a_retainers_extra_move_takes_the_noble_and_her_troops_three_moves(swift):
    s = step(start(RIDER), {"kirsten": THREE},
             {"events": [{"kind": "lord_moved", "text": "Plymouth -> Exeter -> Winchester -> Canterbury",
                          "data": {"outcome": "completed"}},
                         {"kind": "retainer_spent", "text": "Anabel's retainer Retainer 2 is Spent"}],
              "forces": {"Canterbury": {"kirsten": {"knight": 2}}}})
    assert s["edition_state"]["retainers"]["spent"] == [2]


def test_a_spent_retainer_gives_no_extra_move(swift):
    s = start({**RIDER, "edition_state": {"retainers": {"deck": [], "of": {"Anabel": 2}, "spent": [2]}}})
    assert "Anabel has 2 Moves; this path needs 3" in errors(s, "kirsten", THREE)


def test_a_retainer_not_needed_is_not_spent(swift):
    s = step(start(RIDER), {"kirsten": "orders:\n  - move: Anabel\n    with: all\n    path: [Exeter]\n"},
             {"no_events": ["retainer_spent"]})
    assert s["edition_state"]["retainers"]["spent"] == []


# -- the BURGHER's votes in Parliament (9.2, 11.2, 11.3; Ex 9-2 is a scenario) --------------------

SITTING = {"players": ["george", "dave", "kirsten"], "phase": "parliament",
           "lords": {"Henri": {"family": "george", "at": "London", "titles": ["king", "south_east"]},
                     "Philippa": {"family": "dave", "at": "York", "female": True, "titles": ["north"]},
                     "Hugh": {"family": "kirsten", "at": "Exeter", "titles": ["south_west"]}},
           "edition_state": {"family_card": {"dave": "burgher_2"}}}
DAVE_BURGHER = "orders:\n  - vote: for\n    burgher: yes\n"


def test_the_burgher_votes_only_when_parliament_sits_and_no_treasure_is_spent_otherwise():
    s = step(start(SITTING), {"george": "orders:\n  - vote: against\n", "dave": DAVE_BURGHER},
             {"events": [{"kind": "parliament_not_convened"}], "no_events": ["burgher_votes"]})
    assert "treasures" not in s["edition_state"]


def test_the_second_burgher_card_adds_5_votes_and_carries_the_tax():
    s = start(SITTING)
    assert RULES.view(s, "kirsten")["parliament"]["burghers"] == {"dave": 5}   # the card lies face up
    step(s, {"george": "orders:\n  - convene: yes\n  - vote: against\n", "dave": DAVE_BURGHER},
         {"events": [{"kind": "parliament_vote", "text": ["dave 6 (BURGHER 5) FOR", "6 of 8 votes for"]}]})


def test_a_treasure_spent_since_the_mail_leaves_the_burgher_silent():
    s = start(SITTING)
    check = RULES.check_orders(RULES.view(s, "dave"), "dave", load(DAVE_BURGHER))
    assert check.ok, check.errors
    s["edition_state"]["treasures"] = {"dave": ["tax_tallage", "burgher_rebellion"]}   # played at once since
    king = RULES.check_orders(RULES.view(s, "george"), "george", load("orders:\n  - convene: yes\n"))
    out = RULES.resolve(s, {"george": king.orders, "dave": check.orders,
                            "kirsten": RULES.default_orders(RULES.view(s, "kirsten"), "kirsten")}, None)
    lost = [e for e in out.events if e.kind == "burgher_votes_lost"]
    assert lost and "both of your Treasure markers" in lost[0].text and lost[0].audience.sees("dave") \
        and not lost[0].audience.sees("kirsten")
    assert "1 of 3 votes for" in next(e.text for e in out.events if e.kind == "parliament_vote")


def test_no_burgher_no_treasure_refused_in_the_mail():
    s = start({**SITTING, "edition_state": {"family_card": {"dave": "burgher_1"},
                                            "treasures": {"dave": ["tax_tallage", "tax_tithe"]}}})
    assert "both of your Treasure markers already lie on played cards" in errors(s, "dave", DAVE_BURGHER)


@pytest.fixture
def heralds(monkeypatch):
    """Retainer 2 adds 2 votes in Parliament, retainer 3 2 votes in elections only."""
    cards = england_cards()
    herald = Retainer(2, "Retainer 2", True, "per_round", ({"effect": "votes", "votes": 2, "in": "parliament"},))
    crier = Retainer(3, "Retainer 3", True, "per_round", ({"effect": "votes", "votes": 2, "in": "election"},))
    monkeypatch.setattr(retainers, "england_cards",
                        lambda: dataclasses.replace(cards, retainers={**cards.retainers, 2: herald, 3: crier}))


def test_a_retainers_parliament_votes_count_in_parliament_and_an_election_ones_do_not(heralds):
    s = start({**SITTING, "edition_state": {"retainers": {"deck": [], "of": {"Philippa": 2, "Hugh": 3},
                                                          "spent": []}}})
    assert RULES.view(s, "george")["parliament"]["votes"] == {"george": 1, "dave": 3, "kirsten": 1}
    s = step(s, {"george": "orders:\n  - convene: yes\n", "dave": "orders:\n  - vote: for\n"},
             {"events": [{"kind": "parliament_vote", "text": "3 of 5 votes for"},
                         {"kind": "retainer_spent", "text": "Philippa's retainer Retainer 2 is Spent"}]})
    assert s["edition_state"]["retainers"]["spent"] == [2]


# -- REBELLION, AMBUSH and ASSASSINATION against the Invaders (6.11-6.13; scenarios 6.11, 6.13) ---

def invaders(**armies: dict) -> dict:
    rec = {str(i): {"city": None, "leader": True, "foot": 0, "captives": [], "holds": False, "follows": None}
           for i in range(1, 5)}
    for army_id, spec in armies.items():
        rec[army_id.lstrip("a")].update(spec)
    return {"armies": rec, "gone": [], "destroyed": [], "plague": {"round": 0, "armies": []}}


def besieged_york(**more) -> dict:
    """Kirsten's Hugh and 2 men-at-arms in famished York, Invader army 1 (Leader + 2) outside."""
    return {"players": ["kirsten", "dave"], "phase": "movement", "hands": {"dave": ["rebellion"]},
            "lords": {"Hugh": {"family": "kirsten", "at": "York"}, "William": {"family": "dave", "at": "Norwich"}},
            "units": {"York": {"kirsten": {"man_at_arms": 2}}, "Norwich": {"dave": {"knight": 1}}},
            "effects": [{"card": "famine", "target": "IV"}],
            "edition_state": {"invaders": invaders(a1={"city": "York", "foot": 2})}, **more}


def rebel(state, text: str, battle: list[int], expect: dict):
    new, _ = run_step(RULES, state, {"at_once": {"dave": text}, "expect": expect}, {"battle": battle})
    return new


REBEL = "at_once:\n  - play: rebellion\n    in: York\n"


def test_a_rebellion_strikes_the_citys_controller_first_then_the_invaders():
    s = rebel(start(besieged_york()), REBEL, [2], {"events": [
        {"kind": "rebellion_losses", "text": "kirsten loses 2 of 2 troops"},
        {"kind": "invaders_rebellion", "text": "1 hits, 0 Foot Soldiers fall"}],
        "no_events": ["rebellion_slays"]})   # the Invaders are troops left in the city: Hugh lives
    assert s["edition_state"]["invaders"]["armies"]["1"]["foot"] == 2 and "Hugh" in s["lords"]


def test_invaders_first_targets_the_invaders():
    s = rebel(start(besieged_york()), REBEL + "    invaders_first: yes\n", [2], {"events": [
        {"kind": "invaders_rebellion", "text": "3 hits, 1 Foot Soldier fall"},
        {"kind": "rebellion_losses", "text": "kirsten loses 1 of 2 troops"}]})
    assert s["edition_state"]["invaders"]["armies"]["1"]["foot"] == 1


def test_when_every_troop_and_invader_falls_the_nobles_there_die():
    s = start(besieged_york(hands={"dave": ["rebellion", "rebellion"]}))
    s["edition_state"]["invaders"]["armies"]["1"]["foot"] = 1
    s = rebel(s, REBEL + "    cards: 2\n", [3, 3], {"events": [
        {"kind": "rebellion_roll", "text": "= 8 hits"},
        {"kind": "invaders_leader_lost", "text": "falls to the rebels of York"},
        {"kind": "invaders_gone", "text": "Invader army 1 is out of the game for good"},
        {"kind": "rebellion_slays", "text": "the rebels slay Hugh"}]})
    assert "Hugh" not in s["lords"]


def test_an_ambush_on_a_leader_not_in_the_nobles_city_is_refused_at_once():
    s = start({"players": ["kirsten", "dave"], "phase": "movement", "hands": {"dave": ["ambush"]},
               "lords": {"William": {"family": "dave", "at": "Norwich"}, "Hugh": {"family": "kirsten", "at": "York"}},
               "units": {"Norwich": {"dave": {"knight": 1}}},
               "edition_state": {"invaders": invaders(a1={"city": "Norwich", "foot": 5, "holds": True})}})
    check = RULES.check_at_once(RULES.view(s, "dave"), "dave",
                                load("at_once:\n  - play: ambush\n    leader: 1\n    by: William\n"))
    assert "holds the Fortified City of Norwich: its Leader cannot be ambushed" in " ".join(map(str, check.errors))
    check = RULES.check_at_once(RULES.view(s, "dave"), "dave",
                                load("at_once:\n  - play: ambush\n    leader: 5\n    by: William\n"))
    assert "`leader:` must name an Invader army by its number" in " ".join(map(str, check.errors))


# -- 2.7 Ex: GOOD WEATHER cancels STORMS during Movement, by the Movement mail (R41) ----------------

def test_good_weather_and_the_invasion_in_one_movement_mail(tmp_path):
    """2.7 Ex (l.168): the judge does the mail's `at_once:` first and checks its `orders:`
    against the position it leaves (one mail, all or nothing); Lucia then moves into the Region
    the STORMS held when the phase resolves. (The scenario movement-2.7-ex-* plays it too.)"""
    import json

    from judge_support import Judge
    from pbem.judge import engine

    judge = Judge(tmp_path)
    judge.new_game(name="isle", players=("kirsten", "dave", "george"), game_type=GAME)
    position = start({"players": ["kirsten", "dave", "george"], "phase": "movement",
                      "hands": {"kirsten": ["good_weather"]},
                      "lords": {"Lucia": {"family": "kirsten", "at": "Oxford", "female": True},
                                "William": {"family": "dave", "at": "London"},
                                "Henri": {"family": "george", "at": "York"}},
                      "units": {"Oxford": {"kirsten": {"knight": 2}}, "London": {"dave": {"man_at_arms": 1}},
                                "York": {"george": {"knight": 1}}},
                      "effects": [{"card": "storms", "target": "VI"}]})
    store = judge.store()
    game = engine.load_game(store, "isle")
    store.run("UPDATE games SET state=? WHERE id=?", json.dumps(position), game.id)
    phase = engine.current_phase(engine.load_game(store, "isle")).id
    store.close()
    judge.orders("isle", "kirsten", phase, "at_once:\n  - play: good_weather\n    on: VI\n"
                 "orders:\n  - move: Lucia\n    with: all\n    path: [Winchester]\n")
    for other in ("dave", "george"):
        judge.orders("isle", other, phase, "orders: []\n")
    judge.tick()
    store = judge.store()
    after = engine.load_game(store, "isle").state
    store.close()
    assert after["board_effects"] == [] and after["lords"]["Lucia"]["location"] == "Winchester"
    told = " ".join(m.get_body(("plain",)).get_content() for m in judge.sent_to("dave@pbem.test"))
    assert "it cancels the STORMS" in told and "Oxford -> Winchester" in told


# -- PASSAGE on a naval move (10.2: "If any of these moves are from a Port City, a Naval Move (5.4)
#    may be made") --------------------------------------------------------------------------------

SAILORS = {"players": ["kirsten", "dave"], "phase": "movement",
           "lords": {"Anabel": {"family": "kirsten", "at": "Whitby", "female": True},
                     "William": {"family": "dave", "at": "London"}},
           "units": {"Whitby": {"kirsten": {"knight": 2}}, "London": {"dave": {"knight": 1}}},
           "effects": [{"card": "storms", "target": "V"}]}
SAIL = "orders:\n  - move: Anabel\n    with: all\n    path: [Sea V, King's Lynn]\n"


def test_storms_on_the_sea_stop_a_naval_move_without_passage():
    step(start(SAILORS), {"kirsten": SAIL}, {"events": [{"kind": "lord_held", "text": "STORMS on Region V"}],
                                             "forces": {"Whitby": {"kirsten": {"knight": 2}}}})


def test_a_passage_named_by_its_landing_port_sails_through_the_storms():
    s = step(start({**SAILORS, "hands": {"kirsten": ["passage"]}}), {"kirsten": SAIL + "    passage: King's Lynn\n"},
             {"events": [{"kind": "passage", "text": "storms"},
                         {"kind": "lord_moved", "text": "Whitby -> King's Lynn (passage); by Sea V"}],
              "forces": {"King's Lynn": {"kirsten": {"knight": 2}}}})
    assert s["families"]["kirsten"]["hand"] == []


def test_a_besieged_port_is_left_by_sea_only_with_the_besiegers_leave_or_a_passage():
    """5.0: "may not leave a Stronghold or Fortified City that is under Siege except with the
    besieging Player's permission or by playing a PASSAGE Card" - by sea too."""
    siege = {**SAILORS, "effects": [],
             "units": {"Whitby": {"kirsten": {"knight": 2}, "dave": {"man_at_arms": 3}},
                       "London": {"dave": {"knight": 1}}},
             "towns": {"Whitby": {"controller": "kirsten", "fortress": "stronghold", "besieged_by": ["dave"]}}}
    step(start(siege), {"kirsten": SAIL}, {"events": [{"kind": "safe_passage_refused"},
                                                      {"kind": "lord_held", "data": {"outcome": "refused"}}]})
    step(start({**siege, "hands": {"kirsten": ["passage"]}}), {"kirsten": SAIL + "    passage: if_needed\n"},
         {"events": [{"kind": "passage", "text": "escape siege"},
                     {"kind": "passage_move", "text": "escapes from the besieged Whitby to King's Lynn"}],
          "forces": {"King's Lynn": {"kirsten": {"knight": 2}}}})


def test_no_passage_makes_a_naval_move_after_a_road():
    """5.4, Ex 5-6: a PASSAGE does not make the army one that began the round in the port."""
    s = start({**SAILORS, "effects": [], "hands": {"kirsten": ["passage"]},
               "lords": {**SAILORS["lords"], "Anabel": {"family": "kirsten", "at": "York", "female": True}},
               "units": {"York": {"kirsten": {"knight": 2}}, "London": {"dave": {"knight": 1}}}})
    assert "a naval move begins in the port the army began the round in" in errors(
        s, "kirsten", "orders:\n  - move: Anabel\n    with: all\n    path: [Whitby, Sea V, King's Lynn]\n"
                      "    passage: if_needed\n")
