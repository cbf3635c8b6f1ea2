"""The Battle Phase (6) around the engine: orders checked against the view with lines and
fixes, the canonical echo, defaults and template, coalitions from standing policies (6.1),
declarations in turn order each fully resolved, and a declaration an earlier battle made
impossible failing with a typed event."""
from __future__ import annotations

import copy

from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position
from pbem.orders.yamlsafe import load
from pbem.rules.rng import Rng

from test_fief_scenarios import FixedRng

BASE = {
    "players": ["ann", "bob", "cid"],
    "phase": "battle",
    "lords": {"Eric": {"family": "ann", "at": "Tours"}, "Gauvain": {"family": "bob", "at": "Tours"},
              "Blanche": {"family": "cid", "at": "Tours"}, "Henry": {"family": "bob", "at": "Poitiers"}},
    "units": {"Tours": {"ann": {"knight": 2}, "bob": {"man_at_arms": 2}, "cid": {"knight": 1}},
              "Poitiers": {"bob": {"man_at_arms": 1}}},
    "towns": {"Tours": {"controller": "bob", "mills": 1}},
}


def state_of(**changes) -> dict:
    data = copy.deepcopy(BASE)
    data.update(changes)
    return build_position(data, "fief_france").to_json()


def check(state: dict, player: str, text: str):
    return RULES.check_orders(RULES.view(state, player), player, load(text))


def errors(result) -> str:
    return " | ".join(str(e) for e in result.errors)


def test_the_battle_phase_takes_orders_from_every_player() -> None:
    state = state_of()
    assert RULES.phase(state).deciders == ("ann", "bob", "cid")
    assert RULES.phase(state).id == "round-1/battle"


def test_canonical_echo_of_every_order_and_policy() -> None:
    got = check(state_of(), "ann", """orders:
  - attack: BOB
    in: tours
  - plunder: Tours
    mills: 1
policies:
  coalition:
    join: [cid]
    accept: {cid: [Tours, poitiers]}
  battle_plan:
    losses: [knights, men_at_arms]
    surrender: {outnumbered: 3}
    captives_to: Cid
    towns: {Tours: {surrender: never}}
  safe_passage: allow
""")
    assert got.ok, errors(got)
    assert got.orders["battles"] == [{"target": "bob", "town": "Tours"}]
    assert got.orders["plunder"] == [{"town": "Tours", "mills": 1}]
    pol = got.orders["policies"]
    assert pol["coalition"] == {"join": {"cid": "anywhere"}, "accept": {"cid": ["Poitiers", "Tours"]}}
    assert pol["battle_plan"] == {"losses": ["knight", "man_at_arms"], "surrender": {"outnumbered": 3},
                                  "captives_to": "cid", "towns": {"Tours": {"surrender": "never"}}}
    assert pol["safe_passage"]["others"] == "allow"


def test_order_errors_name_the_line_and_the_fix() -> None:
    got = check(state_of(), "ann", """orders:
  - attack: ann
    in: Tours
  - attack: bob
    in: Poitiers
  - attack: bob
  - attack: cid
    in: Tours
  - attack: bob
    in: Tours
  - siege: Tours
  - plunder: Paris
  - lift: Tours
  - fight: bob
""")
    text = errors(got)
    for fragment in ["line 2: `attack`: no other player 'ann'", "you cannot attack yourself",
                     "line 4: you have no free lord in Poitiers", "a troop cannot declare a battle",
                     "line 6: an `attack` order needs `in: TOWN`",
                     "line 9: you already declare a battle in Tours (line 7)",
                     "line 11: Tours has no fortress to besiege", "line 12: Paris has no mill to plunder",
                     "line 13: you do not besiege Tours", "`fight` is not an order of this phase"]:
        assert fragment in text, (fragment, text)


def test_policy_errors_name_the_line_and_the_fix() -> None:
    got = check(state_of(), "ann", """policies:
  coalition:
    join: {dan: anywhere}
    welcome: [bob]
  battle_plan:
    losses: [bombard]
    surrender: {outnumberd: 2}
    stop: {when: {after_round: 0}}
    besiege_if_stopped: perhaps
    lords_first: [Gauvain]
    towns: {Atlantis: {}}
    retreat: yes
""")
    text = errors(got)
    for fragment in ["line 3: `coalition.join`: no other player 'dan'", "line 4: unknown key `welcome`",
                     "line 6: 'bombard' is not a kind a leader chooses to lose",
                     "line 7: unknown condition `outnumberd`", "did you mean `outnumbered`",
                     "line 8: after_round must be at least 1",
                     "line 9: `besiege_if_stopped` is yes or no",
                     "line 10: `lords_first`: 'Gauvain' is not one of your lords",
                     "line 11: there is no town called 'Atlantis'", "line 12: unknown battle plan field `retreat`"]:
        assert fragment in text, (fragment, text)


def test_battle_policies_may_come_with_a_movement_mail() -> None:
    state = state_of(phase="movement")
    got = check(state, "ann", "policies:\n  coalition: {accept: [cid]}\n  safe_passage: allow\n")
    assert got.ok, errors(got)
    assert got.orders["policies"]["coalition"] == {"join": {}, "accept": {"cid": "anywhere"}}
    bad = check(state, "ann", "policies:\n  battle_plan: {surrender: sometimes}\n")
    assert "line 2: `surrender` is never, always, or a mapping" in errors(bad)


def test_default_orders_and_the_template_check_back() -> None:
    state = state_of()
    for player in ("ann", "bob", "cid"):
        view = RULES.view(state, player)
        template = RULES.order_template(view, player)
        got = RULES.check_orders(view, player, load(template))
        assert got.ok, errors(got)
        assert got.orders == {**RULES.default_orders(view, player), "policies": {}}
    assert "# - attack: bob\n  #   in: Tours" in RULES.order_template(RULES.view(state, "ann"), "ann")
    assert "# - plunder: Tours" in RULES.order_template(RULES.view(state, "bob"), "bob")
    result = RULES.resolve(state, {p: RULES.default_orders(RULES.view(state, p), p) for p in ("ann", "bob", "cid")},
                           Rng("t"))
    assert [e.kind for e in result.events] == ["no_battle"]
    assert RULES.phase(result.state).id == "round-1/end-of-round"


def _orders(state: dict, texts: dict) -> dict:
    out = {}
    for player in ("ann", "bob", "cid"):
        got = check(state, player, texts.get(player, "orders: []\n"))
        assert got.ok, errors(got)
        out[player] = got.orders
    return out


def test_coalition_join_needs_the_leaders_acceptance() -> None:
    # cid wants to join ann; ann accepts cid only in Poitiers: cid stays out of the battle.
    policies = {"cid": {"coalition": {"join": {"ann": "anywhere"}}},
                "ann": {"coalition": {"accept": {"cid": ["Poitiers"]}}}}
    state = state_of(policies=policies)
    orders = _orders(state, {"ann": "orders:\n  - attack: bob\n    in: Tours\n"})
    result = RULES.resolve(state, orders, Rng("coalition"))
    kinds = [e for e in result.events if e.kind.startswith("coalition")]
    assert [(e.kind, e.data["family"], e.data["leader"]) for e in kinds] == [("coalition_refused", "cid", "ann")]
    start = next(e for e in result.events if e.kind == "battle_start")
    assert start.data["attacker_side"] == ["ann"] and start.data["defender_side"] == ["bob"]


def test_coalition_joined_fights_on_the_leaders_side() -> None:
    policies = {"cid": {"coalition": {"join": {"bob": ["Tours"], "ann": "anywhere"}}},
                "bob": {"coalition": {"accept": {"cid": "anywhere"}}}}
    state = state_of(policies=policies)
    orders = _orders(state, {"ann": "orders:\n  - attack: bob\n    in: Tours\n"})
    result = RULES.resolve(state, orders, Rng("coalition"))
    joined = [e for e in result.events if e.kind == "coalition_joined"]
    assert [(e.data["family"], e.data["leader"]) for e in joined] == [("cid", "bob")]
    start = next(e for e in result.events if e.kind == "battle_start")
    assert start.data["defender_side"] == ["bob", "cid"]


def test_a_battle_made_impossible_by_an_earlier_one_is_not_fought() -> None:
    # ann (first in turn order) wipes out bob's forces in Tours; cid's later battle against bob
    # there has no enemy left.
    data = copy.deepcopy(BASE)
    data["units"]["Tours"] = {"ann": {"knight": 3}, "bob": {"man_at_arms": 1}, "cid": {"knight": 1}}
    data["lords"]["Gauvain"]["at"] = "Poitiers"
    state = build_position(data, "fief_france").to_json()
    orders = _orders(state, {"ann": "orders:\n  - attack: bob\n    in: Tours\n",
                             "cid": "orders:\n  - attack: bob\n    in: Tours\n"})
    result = RULES.resolve(state, orders, FixedRng({"battle": [1, 0, 0]}))
    failed = [e for e in result.events if e.kind == "battle_not_fought"]
    assert len(failed) == 1 and failed[0].data["player"] == "cid"
    assert "bob has no forces left in Tours" in failed[0].text
    assert sum(1 for e in result.events if e.kind == "battle_start") == 1


def test_the_template_offers_the_battle_triggers_of_the_cards_in_hand() -> None:
    state = state_of(hands={"ann": ["ambush", "underground", "uprising"]})
    view = RULES.view(state, "ann")
    template = RULES.order_template(view, "ann")
    assert "#     - ambush: Gauvain" in template and "#     - at_battle_start: Tours" in template
    assert "#     - uprising_at_battle_start: Tours" in template
    assert RULES.check_orders(view, "ann", load(template)).ok
    start = template.index("# policies:")
    edited = template[:start] + "\n".join(line[2:] for line in template[start:].splitlines())
    got = RULES.check_orders(view, "ann", load(edited))   # the whole policies block, as offered
    assert got.ok, errors(got)
    assert got.orders["policies"]["battle_plan"]["captives_to"] == "bob"
    assert [t["trigger"] for t in got.orders["policies"]["surprise"]] == [
        "ambush", "at_battle_start", "uprising_at_battle_start"]
    assert "surprise:" not in RULES.order_template(RULES.view(state, "bob"), "bob")


def test_templates_offer_captive_orders_and_lower_ransoms() -> None:
    data = copy.deepcopy(BASE)
    data["lords"]["Arthur"] = {"family": "cid", "at": "Tours", "captive_of": "ann"}
    state = build_position(data, "fief_france").to_json()
    view = RULES.view(state, "ann")
    template = RULES.order_template(view, "ann")
    assert "# - release: Arthur" in template and "# - transfer: Arthur" in template
    assert RULES.check_orders(view, "ann", load(template)).ok
    edited = template.replace("  # - release: Arthur", "  - release: Arthur")
    assert RULES.check_orders(view, "ann", load(edited)).orders["captives"] == [{"release": True, "lord": "Arthur"}]
    data["phase"] = "purchase"
    state = build_position(data, "fief_france").to_json()
    view = RULES.view(state, "cid")
    template = RULES.order_template(view, "cid")
    assert "#   - offer: 1\n#     for: [Arthur]" in template
    assert RULES.check_orders(view, "cid", load(template)).ok


def test_the_report_lists_the_battle_policies_to_their_owner_only() -> None:
    policies = {"ann": {"coalition": {"join": {"cid": "anywhere"}, "accept": {"bob": ["Tours"]}},
                        "battle_plan": {"surrender": "never"}, "lower_ransom": {"accept_from": 4}}}
    state = state_of(policies=policies)
    text = RULES.view(state, "ann")["policies_text"]
    assert "coalition join: cid anywhere" in text and "coalition accept: bob in Tours" in text
    assert "battle_plan: surrender: never" in text
    assert "lower_ransom: accept offers of at least 4 deniers per captive" in text
    other = RULES.view(state, "bob")
    assert "coalition join: join no one" in other["policies_text"] and other["policies"] == {}
    assert "lower_ransom: refuse" in other["policies_text"]


def test_a_lower_ransom_offer_is_acknowledged_with_its_two_outcomes() -> None:
    data = copy.deepcopy(BASE)
    data.update(phase="purchase", deniers={"cid": 8})
    data["lords"]["Arthur"] = {"family": "cid", "at": "Tours", "captive_of": "ann", "titles": ["cardinal"]}
    state = build_position(data, "fief_france").to_json()
    got = check(state, "cid", "orders:\n  - offer: 2\n    for: Arthur\n")
    assert got.ok, errors(got)
    assert got.orders["orders"] == [{"offer": 2, "for": ["Arthur"]}]
    assert got.notes[0] == "after ransoms and these orders you will have 4 deniers left"
    assert "supposes your lower ransom offer refused" in got.notes[1]


# -- G.2.2 bad weather and 5.1 armies (issue 9, rules version 2) ---------------------------------

def test_bad_weather_arriving_after_the_mail_fails_the_battle_at_resolution() -> None:
    """G.2.2: the mail was checked before the card lay on the bishopric of Lisieux (2); the
    battle in Tours fails with its reason, and no battle-start trigger fires (ruling 36): cid's
    uprising and ann's underground stay in hand, their triggers kept."""
    triggers = {"cid": {"surprise": [{"trigger": "uprising_at_battle_start", "town": "Tours",
                                      "targets": ["bob"], "underground": False}]},
                "ann": {"surprise": [{"trigger": "at_battle_start", "town": "Tours"}]}}
    state = state_of(policies=triggers, hands={"cid": ["uprising"], "ann": ["underground"]},
                     effects=[{"card": "famine", "target": "2"}],
                     towns={"Tours": {"controller": "bob", "mills": 1, "fortress": "stronghold"}})
    orders = _orders(state, {"ann": "orders:\n  - attack: bob\n    in: Tours\n"})
    state["board_effects"].append({"card": "bad_weather", "target": "2", "player": None, "lord": None})
    result = RULES.resolve(state, orders, Rng("weather"))
    assert [e.kind for e in result.events if e.kind.startswith(("battle", "surprise", "uprising"))] == \
        ["battle_not_fought"]
    assert "bad weather lies on the bishopric of Lisieux (2): no battle is allowed there (G.2.2)" in \
        result.events[0].text
    after = result.state
    assert after["families"]["cid"]["hand"] == ["uprising"] and after["families"]["ann"]["hand"] == ["underground"]
    assert after["families"]["cid"]["policies"] == triggers["cid"]
    assert after["pawns"] == state["pawns"]


def test_bad_weather_elsewhere_leaves_the_battle_alone() -> None:
    state = state_of(effects=[{"card": "bad_weather", "target": "1"}])   # Poitiers's bishopric, not Tours's
    orders = _orders(state, {"ann": "orders:\n  - attack: bob\n    in: Tours\n"})
    assert "bob" in RULES.order_template(RULES.view(state, "ann"), "ann")
    result = RULES.resolve(state, orders, Rng("weather"))
    assert any(e.kind == "battle_start" for e in result.events)


def test_the_template_offers_no_attack_where_the_rules_forbid_it() -> None:
    weather = state_of(effects=[{"card": "bad_weather", "target": "2"}])
    assert "attack:" not in RULES.order_template(RULES.view(weather, "ann"), "ann")
    data = copy.deepcopy(BASE)
    data["units"]["Tours"]["ann"] = {"bombard": 1}      # a lord with a bombard only: no army (5.1)
    lone = build_position(data, "fief_france").to_json()
    assert "attack:" not in RULES.order_template(RULES.view(lone, "ann"), "ann")
    data["options"] = {"rules_version": 1}              # a game stored before issue 9
    old = build_position(data, "fief_france").to_json()
    assert "# - attack: bob" in RULES.order_template(RULES.view(old, "ann"), "ann")
    got = check(old, "ann", "orders:\n  - attack: bob\n    in: Tours\n")
    assert got.ok, errors(got)


def test_the_rules_version_is_in_every_view() -> None:
    state = state_of()
    assert all(RULES.view(state, p)["options"]["rules_version"] == 2 for p in (None, "ann", "bob"))


def test_an_ambush_trigger_waits_while_no_captive_marker_is_left() -> None:
    """B: 6 captive markers, all on captives' cards: ann's ambush would make no captive (ruling
    36), so her trigger does not fire and the card stays in hand for a later battle."""
    data = copy.deepcopy(BASE)
    data["lords"].update({n: {"family": fam, "at": "Lyon", "captive_of": "cid"}
                          for n, fam in (("Arthur", "ann"), ("Quentin", "ann"), ("Mireille", "ann"),
                                         ("Charles", "bob"), ("Isabelle", "bob"))})
    data["lords"]["Guenièvre"] = {"family": "cid", "at": "Lyon"}
    data["lords"]["Aliénor"] = {"family": "cid", "at": "Poitiers", "captive_of": "bob"}
    data["policies"] = {"ann": {"surprise": [{"trigger": "ambush", "town": "Tours", "lord": "Gauvain", "round": 0}]}}
    data["hands"] = {"ann": ["ambush"]}
    state = build_position(data, "fief_france").to_json()
    orders = _orders(state, {"ann": "orders:\n  - attack: bob\n    in: Tours\n"})
    result = RULES.resolve(state, orders, Rng("ambush"))
    assert not [e for e in result.events if e.kind in ("surprise_played", "ambush_failed", "lord_captured")]
    assert result.state["families"]["ann"]["hand"] == ["ambush"]
    assert result.state["families"]["ann"]["policies"] == data["policies"]["ann"]
    data["options"] = {"rules_version": 1}          # no cap before issue 9: the ambush is played
    state = build_position(data, "fief_france").to_json()
    result = RULES.resolve(state, _orders(state, {"ann": "orders:\n  - attack: bob\n    in: Tours\n"}), Rng("ambush"))
    assert any(e.kind == "lord_captured" and e.data["lord"] == "Gauvain" for e in result.events)
