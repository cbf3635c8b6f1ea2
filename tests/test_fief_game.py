"""Fief: France through the GameRules interface: the seven phases in sequence with named ids,
phases without deciders, policies given in any phase, order templates that check back, and a
whole round from setup through F2's movement rules."""
from __future__ import annotations

from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position
from pbem.orders.yamlsafe import load
from pbem.rules.rng import Rng

from fief_support import resolve, send

PLAYERS = ["ann", "bob", "cid"]


def test_interface_facts() -> None:
    assert RULES.type_name == "fief_france" and RULES.title == "Fief: France"
    assert (RULES.min_players, RULES.max_players) == (3, 6)
    assert RULES.report_template() == "fief/position.txt.j2"
    assert len(RULES.board()["towns"]) == 24


def test_a_whole_round_from_setup_through_movement() -> None:
    state = RULES.setup({}, PLAYERS, Rng("game"))
    orders = {p: send(state, p, f"orders:\n  - start: [{t}]\n").orders
              for p, t in zip(PLAYERS, ["Tours", "Lyon", "Bordeaux"], strict=True)}
    state, _ = resolve(state, orders)
    seen = []
    for _ in range(7):
        phase = RULES.phase(state)
        seen.append(phase.id)
        if phase.id == "round-2/hear-ye":   # takes orders: played in test_fief_hear_ye.py
            break
        if phase.id == "round-1/cards-draw":   # the Cards Phase (C1): the template draws nothing
            orders = {p: send(state, p, RULES.order_template(RULES.view(state, p), p)).orders
                      for p in phase.deciders}
            assert all(o["draw"] == [] and o["discard"] == [] for o in orders.values())
            state, events = resolve(state, orders)
            continue
        if phase.id == "round-1/purchase":
            orders = {p: send(state, p, RULES.order_template(RULES.view(state, p), p)).orders
                      for p in phase.deciders}
            assert all(o["orders"] == [] for o in orders.values())   # the template, unedited, buys nothing
            orders["ann"] = send(state, "ann", "orders:\n  - buy: knight\n    in: Tours\n"
                                 "policies:\n  safe_passage: {allow: [bob], others: refuse}\n").orders
            state, events = resolve(state, orders)
            assert any(e.kind == "units_bought" for e in events)
            assert RULES.view(state, "ann")["policies"]["safe_passage"]["allow"] == ["bob"]
            continue
        if phase.id == "round-1/movement":
            lord = RULES.view(state, "ann")["families"]["ann"]["lords"][0]
            check = send(state, "ann", f"orders:\n  - move: {lord}\n    with: all\n    path: [Poitiers]\n")
            assert check.ok, check.errors
            template = RULES.order_template(RULES.view(state, "bob"), "bob")
            assert send(state, "bob", template).ok
            state, events = resolve(state, {"ann": check.orders})
            assert RULES.view(state, None)["lords"][lord]["location"] == "Poitiers"
            continue
        if phase.id == "round-1/battle":    # the battle rules (issue 4): nobody declares a battle
            orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in phase.deciders}
            state, events = resolve(state, orders)
            continue
        assert phase.deciders == ()
        state, events = resolve(state, {})
        assert events
    seen.append(RULES.phase(state).id)
    assert seen == ["round-1/cards-draw", "round-1/cards-play", "round-1/income", "round-1/purchase",
                    "round-1/movement", "round-1/battle", "round-1/end-of-round", "round-2/hear-ye"]
    assert RULES.result(state) is None


def test_later_phases_say_what_happened() -> None:
    cards = build_position({"players": PLAYERS, "phase": "cards"}, "fief_france").to_json()
    assert RULES.phase(cards).deciders == tuple(PLAYERS)     # 2.2: everyone may draw (C1)
    state, events = resolve(cards, {p: RULES.default_orders(RULES.view(cards, p), p) for p in PLAYERS})
    assert RULES.phase(state).id == "round-1/cards-play" and RULES.phase(state).deciders == ()
    hear = build_position({"players": PLAYERS, "phase": "hear_ye", "round": 2}, "fief_france").to_json()
    assert RULES.phase(hear).deciders == tuple(PLAYERS)   # 1: marriages, the pope, candidates
    state, events = resolve(hear, {})
    assert events[0].kind == "no_election" and state["phase"] == "cards"   # no ballot: no second mail


def test_orders_in_a_phase_without_orders() -> None:
    state = build_position({"players": PLAYERS, "phase": "income"}, "fief_france").to_json()
    check = send(state, "ann", "orders:\n  - buy: knight\n")
    assert not check.ok and "nothing to order in the income phase" in str(check.errors[0])
    check = send(state, "ann", "policies:\n  safe_passage: {others: allow}\n")
    assert check.ok and check.orders["policies"]["safe_passage"]["others"] == "allow"
    bad = send(state, "ann", "policies:\n  safe_pasage: {others: allow}\n")
    assert not bad.ok and "safe_passage" in str(bad.errors[0])


def test_movement_deciders_have_a_free_lord() -> None:
    state = build_position({"players": PLAYERS, "phase": "movement",
                            "lords": {"Henry": {"family": "ann", "at": "Tours"},
                                      "Othon": {"family": "bob", "at": "Tours", "captive_of": "ann"}},
                            "units": {"Tours": {"ann": {"knight": 1}}}}, "fief_france").to_json()
    assert RULES.phase(state).deciders == ("ann",)


def test_game_over_result() -> None:
    state = build_position({"players": PLAYERS, "phase": "end_of_round",
                            "lords": {"Henry": {"family": "bob", "at": "Tours",
                                                "titles": ["bretagne", "poitou"]},
                                      "Othon": {"family": "bob", "at": "Tours", "titles": ["normandie"]}}},
                           "fief_france").to_json()
    state, _ = resolve(state, {})
    result = RULES.result(state)
    assert result is not None and result.winners == ("bob",) and "Lone victory" in result.text
    assert RULES.phase(state).deciders == ()


def test_default_orders() -> None:
    setup = RULES.setup({}, PLAYERS, Rng("d"))
    assert RULES.default_orders(RULES.view(setup, "ann"), "ann") == {"towns": [], "policies": {}}
    purchase = build_position({"players": PLAYERS, "phase": "purchase"}, "fief_france").to_json()
    assert RULES.default_orders(RULES.view(purchase, "ann"), "ann") == {"orders": [], "policies": {}}


def test_default_orders_of_every_phase_match_the_docs() -> None:
    """docs/fief-france.md "Default orders": hold, buy nothing, abstain...; policies unchanged."""
    expected = {
        "hear_ye": {"pope": {}, "annulments": "refuse", "annul": None, "marry": None, "candidates": {}},
        "hear_ye_votes": {"votes": {}},
        "cards": {"discard": [], "draw": [], "if_first": {}},
        "cards_play": {"play": []},
        "income": {"orders": []},
        "purchase": {"orders": []},
        "movement": {"moves": [], "land": None},
        "battle": {"battles": [], "sieges": [], "lifts": [], "plunder": [], "captives": []},
        "end_of_round": {"orders": []},
        "over": {"orders": []},
    }
    for phase, orders in expected.items():
        state = {**build_position({"players": PLAYERS, "phase": "income"}, "fief_france").to_json(), "phase": phase}
        assert RULES.default_orders(RULES.view(state, "ann"), "ann") == {**orders, "policies": {}}, phase


def test_a_game_over_has_nothing_to_order() -> None:
    state = {**build_position({"players": PLAYERS, "phase": "end_of_round"}, "fief_france").to_json(), "phase": "over"}
    check = send(state, "ann", "orders:\n  - buy: knight\n")
    assert not check.ok and "nothing to order in the over phase" in str(check.errors[0])
    assert RULES.order_template(RULES.view(state, "ann"), "ann").startswith("# Nothing to order in this phase.")


def test_an_unknown_policy_is_told_every_policy_name() -> None:
    state = build_position({"players": PLAYERS, "phase": "income"}, "fief_france").to_json()
    text = str(send(state, "ann", "policies:\n  bribes: {others: allow}\n").errors[0])
    assert "unknown policy `bribes`" in text
    assert all(name in text for name in ("safe_passage", "new_cardinal", "plague_losses", "surprise",
                                         "calm_uprisings"))


def play_two_rounds(seed: str) -> list[str]:
    """A scripted game: every state and event must be JSON, and the same seed the same game."""
    import json
    state = RULES.setup({"fog_of_war": True}, PLAYERS, Rng(seed))
    trail = [json.dumps(state, sort_keys=True)]
    while RULES.phase(state).id != "round-3/hear-ye":
        phase = RULES.phase(state)
        orders = {}
        for p in phase.deciders:
            view = RULES.view(state, p)
            if phase.id.endswith("battle"):
                orders[p] = RULES.default_orders(view, p)
                continue
            if phase.id.startswith("setup"):
                text = "orders:\n  - start: [Tours, Lyon, Bordeaux]\n"
            elif phase.id.endswith("purchase"):
                town = next(t for t, v in view["towns"].items() if v["controller"] == p)
                text = f"orders:\n  - buy: man_at_arms\n    count: 2\n    in: {town}\n"
            else:
                text = RULES.order_template(view, p)   # movement: the template as sent back holds
            check = RULES.check_orders(view, p, load(text))
            assert check.ok, (phase.id, p, check.errors)
            orders[p] = check.orders
        result = RULES.resolve(state, orders, Rng.for_phase(seed, phase.id))
        state = result.state
        trail.append(json.dumps(state, sort_keys=True))
        trail.append(json.dumps([e.to_json() for e in result.events], sort_keys=True))
    return trail


def test_a_seeded_game_replays_exactly() -> None:
    first = play_two_rounds("seed-1")
    assert first == play_two_rounds("seed-1")
    assert first[0] != play_two_rounds("seed-2")[0]


def test_the_reply_says_what_is_left() -> None:
    state = build_position({"players": PLAYERS, "phase": "purchase", "deniers": {"ann": 7},
                            "lords": {"Henry": {"family": "ann", "at": "Tours"}},
                            "units": {"Tours": {"ann": {"knight": 1}}}}, "fief_france").to_json()
    check = send(state, "ann", "orders:\n  - buy: knight\n    count: 2\n    in: Tours\n")
    assert check.ok and check.notes == ("after ransoms and these orders you will have 1 denier left",)
    assert send(state, "ann", "orders:\n").notes == ("you buy nothing this phase",)
