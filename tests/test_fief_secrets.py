"""Secrets of Fief: France the property test (test_leaks.py) does not reach: every kind of
standing policy a mail may carry (not only safe passage and surprise triggers), the unit types
a plague strikes under fog of war (I.2) in the events of the Cards Phase, and a disaster card
discarded face down (2.3). Each test compares what another player is told in two positions
that differ only in the secret, so it would notice a leak."""
from __future__ import annotations


from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position
from pbem.judge.render import render

from fief_support import check, resolve
from test_fief_scenarios import FixedRng

PLAYERS = ["ann", "bob", "cid"]

# Every policy a mail may carry (policies.py, battle_orders.BATTLE_POLICIES, surprise triggers).
ALL_POLICIES = """orders: []
policies:
  safe_passage: {allow: [bob], refuse: [cid], others: refuse}
  besieged_may_leave: {allow: [cid], others: refuse}
  new_cardinal: {allow: [bob], others: refuse}
  plague_losses: [knight, archer, man_at_arms, bombard]
  calm_uprisings: also_as_cardinal
  coalition:
    join: [cid]
    accept: {bob: [Tours]}
  battle_plan:
    losses: [knights, men_at_arms]
    surrender: {outnumbered: 3}
    captives_to: cid
  lower_ransom: {accept_from: 4}
  surprise:
    - ambush: Charles
      in: Tours
    - at_battle_start: Rennes
      card: underground
    - uprising_at_battle_start: Nantes
      targets: [bob]
    - at_phase_start: battle
      play: assassination
      on: Charles
      sponsor: Henry
"""


def purchase_position() -> dict:
    return build_position({
        "players": PLAYERS, "phase": "purchase",
        "hands": {"ann": ["ambush", "underground", "uprising", "assassination"]},
        "lords": {"Henry": {"family": "ann", "at": "Tours"}, "Charles": {"family": "bob", "at": "Tours"},
                  "Eric": {"family": "cid", "at": "Lyon"}},
        "units": {"Tours": {"ann": {"knight": 2}, "bob": {"man_at_arms": 2}}, "Lyon": {"cid": {"archer": 1}}},
        "towns": {"Tours": {"controller": "bob"}},
    }, "fief_france").to_json()


def seen_by(events: list, player: str) -> list:
    return [e.to_json() for e in events if e.audience.sees(player)]


def report(state: dict, player: str) -> str:
    return render(RULES.report_template(), view=RULES.view(state, player), me=player)


def test_every_kind_of_standing_policy_stays_with_its_owner() -> None:
    state = purchase_position()
    mail = check(state, "ann", ALL_POLICIES)
    assert mail.ok, [str(e) for e in mail.errors]
    quiet = check(state, "ann", "orders: []\n")
    with_policies, told = resolve(state, {"ann": mail.orders, "bob": quiet.orders, "cid": quiet.orders})
    without, told_quiet = resolve(state, {"ann": quiet.orders, "bob": quiet.orders, "cid": quiet.orders})
    stored = with_policies["families"]["ann"]["policies"]
    assert set(stored) == {"safe_passage", "besieged_may_leave", "new_cardinal", "plague_losses", "calm_uprisings",
                           "coalition", "battle_plan", "lower_ransom", "surprise"}
    assert with_policies != without                                   # the secret is really there
    assert RULES.view(with_policies, "ann")["policies"] == stored     # and its owner sees it
    for other in ("bob", "cid"):
        assert RULES.view(with_policies, other) == RULES.view(without, other), other
        assert report(with_policies, other) == report(without, other), other
        assert (RULES.order_template(RULES.view(with_policies, other), other)
                == RULES.order_template(RULES.view(without, other), other)), other
        assert seen_by(told, other) == seen_by(told_quiet, other), other


def plague_position(olivier_units: dict) -> dict:
    return build_position({
        "players": ["olivier", "marie"], "phase": "cards", "options": {"fog_of_war": True},
        "lords": {"Arthur": {"family": "olivier", "at": "Lyon"}, "Charles": {"family": "marie", "at": "Paris"}},
        "units": {"Lyon": {"olivier": olivier_units}, "Paris": {"marie": {"man_at_arms": 3}}},
        "disasters_track": ["plague"],
    }, "fief_france").to_json()


def test_under_fog_of_war_the_plague_of_the_cards_phase_tells_the_others_how_many_not_which() -> None:
    """G.2.1.2 with I.2: two troops of 5 pawns of other types each lose 2; Marie is told the
    same either way, Olivier the kinds he lost."""
    results = []
    for units in ({"man_at_arms": 2, "knight": 2, "bombard": 1}, {"archer": 3, "knight": 2}):
        state = plague_position(units)
        orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in RULES.phase(state).deciders}
        results.append(resolve(state, orders, FixedRng({"d6": [5, 6]})))   # Avignon (5); Arthur survives
    (first, told_first), (second, told_second) = results
    assert seen_by(told_first, "marie") == seen_by(told_second, "marie")
    assert RULES.view(first, "marie") == RULES.view(second, "marie")
    mine = [e.text for e in told_first if e.kind == "plague_troop" and e.audience.sees("olivier")]
    assert mine == ["Plague in bishopric 5: olivier's army of 5 unit pawns loses 2 (man-at-arms, man-at-arms) "
                    "(G.2.1.2)."]
    assert seen_by(told_first, "olivier") != seen_by(told_second, "olivier")


def test_a_disaster_discarded_face_down_is_named_to_nobody() -> None:
    """2.3: the track is full, so the plague drawn is discarded face down, 'without looking at
    it': no event names it, not even to the drawer, and the discard pile shows its back."""
    def drawn(card: str) -> tuple[dict, list]:
        state = build_position({"players": PLAYERS, "phase": "cards", "disasters_track": ["famine"] * 3,
                                "piles": {"events": ["tax", card]},
                                "lords": {"Henry": {"family": "ann", "at": "Tours"}}}, "fief_france").to_json()
        orders = {p: RULES.default_orders(RULES.view(state, p), p) for p in RULES.phase(state).deciders}
        orders["ann"] = check(state, "ann", "orders:\n  - draw: events\n").orders
        return resolve(state, orders, FixedRng({"d6": [1, 2, 3]}))   # the 3 famines strike bishoprics 1-3
    plague, told_plague = drawn("plague")
    weather, told_weather = drawn("bad_weather")
    assert plague["events_discard"][0] == "plague" and 0 in plague["events_discard_face_down"]
    for player in PLAYERS:
        assert seen_by(told_plague, player) == seen_by(told_weather, player), player
        assert RULES.view(plague, player) == RULES.view(weather, player), player
    assert RULES.view(plague, "bob")["piles"]["events_discard_top"] == "face_down"
    assert plague["families"]["ann"]["hand"] == ["tax"]
