"""The Hear Ye, Hear Ye! Phase (1): votes per title and town, the majority rules, the pope's
acts, marriages and annulments, order errors, the crown prince, sealed votes."""
from __future__ import annotations

import json

from pbem.games.fief.board import load_board
from pbem.games.fief.control import controllers
from pbem.games.fief.hear_ye.elections import count
from pbem.games.fief_france.elections import bishop_votes
from pbem.games.fief.hear_ye.elimination import eliminate_lord
from pbem.games.fief_france.rules import RULES
from pbem.games.fief.positions import build_position

from fief_support import resolve, send

BOARD = load_board("fief_france")
PLAYERS = ["maximilien", "marie", "enguerand"]


def position(lords: dict, units: dict | None = None, **more) -> dict:
    return build_position({"players": PLAYERS, "round": 2, "phase": "hear_ye", "lords": lords,
                           "units": units or {}, **more}, "fief_france").to_json()


def mail(state: dict, texts: dict[str, str]) -> dict:
    out = {}
    for p in RULES.phase(state).deciders:
        check = send(state, p, texts[p]) if p in texts else None
        assert check is None or check.ok, check.errors
        out[p] = check.orders if check else RULES.default_orders(RULES.view(state, p), p)
    return out


def test_lisieux_enguerand_gives_5_votes() -> None:
    # 1.3.2 example: Lisieux (chief town, 2) + Rennes, Nantes, Tours (1 each) = 5, plus his
    # ecclesiastical lords: a cardinal's 3 (only his most prestigious title counts).
    units = {t: {"enguerand": {"man_at_arms": 1}} for t in ("Lisieux", "Rennes", "Nantes", "Tours")}
    st = build_position({"players": PLAYERS, "round": 2, "phase": "hear_ye", "units": units,
                         "lords": {"Lambert": {"family": "enguerand", "at": "Lisieux"}}}, "fief_france")
    assert bishop_votes(st, BOARD, 2, controllers(st, BOARD), set()) == {"enguerand": 5}
    st.lords["Lambert"].bishopric, st.lords["Lambert"].cardinal = 4, True
    assert bishop_votes(st, BOARD, 2, controllers(st, BOARD), set()) == {"enguerand": 8}
    assert bishop_votes(st, BOARD, 2, controllers(st, BOARD), {"Lambert"}) == {"enguerand": 5}
    st.lords["Lambert"].captive_of = "marie"   # 1.2: a captive lord never votes
    assert bishop_votes(st, BOARD, 2, controllers(st, BOARD), set()) == {"enguerand": 5}


def test_majority_and_ties() -> None:
    assert count({"François": 4, "Eric": 3}) == ("François", "4 of 7 votes")
    assert count({"François": 3, "Eric": 3})[0] is None          # a tie defers (1.2)
    assert count({"A": 3, "B": 2, "C": 2})[0] is None            # 3 of 7: no majority
    assert count({})[0] is None


KING_LORDS = {"Henry": {"family": "maximilien", "at": "Rouen", "titles": ["normandie"]},
              "Philippe": {"family": "marie", "at": "Bordeaux", "titles": ["aquitaine"]},
              "Othon": {"family": "enguerand", "at": "La Rochelle", "titles": ["poitou"]}}


def king_round(lords: dict, votes: dict[str, str]) -> list:
    state = position(lords)
    state, events = resolve(state, mail(state, {"maximilien": "orders:\n  - candidate: Henry\n    for: king\n"}))
    assert RULES.phase(state).id == "round-2/hear-ye-votes"
    texts = {p: f"orders:\n  - vote: king\n    for: {c}\n" for p, c in votes.items()}
    return resolve(state, mail(state, texts))


def test_king_needs_3_votes_with_bishops_cardinal_or_pope() -> None:
    # 1.5.3: 3 votes of lords with fief titles only: a majority, but no ecclesiastical backing.
    state, events = king_round(KING_LORDS, {p: "Henry" for p in PLAYERS})
    assert any(e.kind == "ballot_deferred" and "1.5.3" in e.text for e in events)
    assert state["lords"]["Henry"]["political"] is None
    # the vote of 1 cardinal is enough
    lords = {**KING_LORDS, "Lambert": {"family": "enguerand", "at": "Reims", "titles": ["bishop 4", "cardinal"]}}
    state, events = king_round(lords, {"maximilien": "Henry", "enguerand": "Henry"})
    assert state["lords"]["Henry"]["political"] == "king", [e.text for e in events]


def test_excommunication_removes_titles_and_candidacy() -> None:
    lords = {"François": {"family": "marie", "at": "Avignon", "titles": ["bishop 5", "pope"]},
             "Lambert": {"family": "enguerand", "at": "Reims", "titles": ["bishop 4", "cardinal"]},
             "Henry": {"family": "maximilien", "at": "Rouen"}}
    state = position(lords)
    assert not send(state, "maximilien", "orders:\n  - excommunicate: Lambert\n").ok   # not the pope
    bad = send(state, "marie", "orders:\n  - excommunicate: François\n")
    assert not bad.ok and "the pope himself" in str(bad.errors[0])
    state, events = resolve(state, mail(state, {"marie": "orders:\n  - excommunicate: Lambert\n"}))
    lambert = state["lords"]["Lambert"]
    assert lambert["excommunicated"] and lambert["bishopric"] is None and not lambert["cardinal"]
    assert any(e.kind == "excommunicated" and "bishop and cardinal" in e.text for e in events)
    state["phase"] = "hear_ye"
    again = send(state, "marie", "orders:\n  - excommunicate: Henry\n")
    assert not again.ok and "lift" in str(again.errors[0]).lower()
    assert send(state, "marie", "orders:\n  - lift: Lambert\n  - excommunicate: Henry\n").ok
    # the pope's elimination lifts the excommunication (D.2.3.1)
    st = build_position({"players": PLAYERS, "round": 2, "phase": "hear_ye", "lords": {
        **lords, "Lambert": {"family": "enguerand", "at": "Reims", "excommunicated": True}}}, "fief_france")
    events = eliminate_lord(st, BOARD, "François")
    assert not st.lords["Lambert"].excommunicated and any(e.kind == "excommunication_lifted" for e in events)


def test_order_errors() -> None:
    units = {t: {"marie": {"man_at_arms": 1}} for t in ("Lyon", "Pau", "Montpellier", "Avignon")}
    state = position({"François": {"family": "marie", "at": "Avignon"},
                      "Isabelle": {"family": "marie", "at": "Pau"},
                      "Henry": {"family": "maximilien", "at": "Rouen"}}, units)
    cases = {
        "orders:\n  - candidate: Isabelle\n    for: bishop 5\n": "male lords",
        "orders:\n  - candidate: François\n    for: bishop 2\n": "no ballot for bishop 2",
        "orders:\n  - candidate: François\n    for: cardinal\n": "is not a ballot",
        "orders:\n  - candidate: Henry\n    for: bishop 5\n": "not a lord of yours",
        "orders:\n  - marry: François\n    to: Isabelle\n": "both spouses are of your family",
        "orders:\n  - marry: François\n": "needs `to:`",
        "orders:\n  - annulments: grant\n": "only the pope's family",
        "orders:\n  - candidate: François\n    for: bishop 5\n  - candidate: François\n    for: Avignon\n":
            "one candidate per ballot",
    }
    for text, fragment in cases.items():
        check = send(state, "marie", text)
        assert not check.ok and fragment in " ".join(str(e) for e in check.errors), (text, check.errors)
    assert send(state, "marie", "orders:\n  - candidate: François\n    for: Avignon\n").ok
    state, _ = resolve(state, mail(state, {"marie": "orders:\n  - candidate: François\n    for: bishop 5\n"}))
    bad = send(state, "marie", "orders:\n  - vote: bishop 5\n    for: Isabelle\n")
    assert not bad.ok and "not a candidate" in str(bad.errors[0])
    assert not send(state, "marie", "orders:\n  - vote: pope\n    for: François\n").ok


def test_annulment_needs_the_popes_grant() -> None:
    lords = {"François": {"family": "marie", "at": "Avignon", "titles": ["bishop 5", "pope"]},
             "Henry": {"family": "maximilien", "at": "Rouen", "spouse": "Blanche"},
             "Blanche": {"family": "enguerand", "at": "Limoges", "spouse": "Henry"}}
    state = position(lords)
    ask = {"maximilien": "orders:\n  - annul: Henry\n"}
    after, events = resolve(state, mail(state, ask))   # default: the pope refuses
    assert after["lords"]["Henry"]["spouse"] == "Blanche" and any(e.kind == "annulment_refused" for e in events)
    after, events = resolve(state, mail(state, {**ask, "marie": "orders:\n  - annulments: grant\n"}))
    assert after["lords"]["Henry"]["spouse"] is None and after["lords"]["Blanche"]["spouse"] is None
    state["crown_prince_couples"] = [["Blanche", "Henry"]]   # D.2.3: never after a crown prince
    after, events = resolve(state, mail(state, {**ask, "marie": "orders:\n  - annulments: grant\n"}))
    assert after["lords"]["Henry"]["spouse"] == "Blanche"


def test_the_crown_prince_inherits_the_king_title() -> None:
    st = build_position({"players": PLAYERS, "round": 2, "phase": "cards", "lords": {
        "Henry": {"family": "maximilien", "at": "Rouen", "titles": ["king"], "spouse": "Blanche"},
        "Blanche": {"family": "enguerand", "at": "Limoges", "titles": ["queen"], "spouse": "Henry"},
        "Quentin": {"family": "enguerand", "at": "Nantes", "titles": ["crown_prince"]}},
        "units": {"Nantes": {"enguerand": {"knight": 2}}}}, "fief_france")
    events = eliminate_lord(st, BOARD, "Henry")
    assert st.lords["Quentin"].political == "king" and st.lords["Blanche"].political is None
    assert sum(1 for p in st.pawns.values() if p.kind == "kings_knight") == 2
    assert any(e.kind == "king" and "D.3.3" in e.text for e in events)


def test_votes_are_sealed_until_the_reveal() -> None:
    """DESIGN.md sealed votes: while the ballot is open, nothing another player may read (view,
    template, the state the judge keeps) depends on the votes sent; they appear only in the
    resolution that reveals them all."""
    units = {t: {"marie": {"man_at_arms": 1}} for t in ("Lyon", "Pau", "Montpellier", "Avignon")}
    state = position({"François": {"family": "marie", "at": "Avignon"},
                      "Eric": {"family": "maximilien", "at": "Rouen"}}, units)
    state, events = resolve(state, mail(state, {"marie": "orders:\n  - candidate: François\n    for: bishop 5\n",
                                               "maximilien": "orders:\n  - candidate: Eric\n    for: bishop 5\n"}))
    seen_before = {p: json.dumps(RULES.view(state, p), sort_keys=True) for p in PLAYERS}
    vote = send(state, "marie", "orders:\n  - vote: bishop 5\n    for: François\n    decoy: Eric\n")
    assert vote.ok
    for p in PLAYERS:
        view = RULES.view(state, p)
        assert json.dumps(view, sort_keys=True) == seen_before[p]
        assert "decoy on" not in RULES.order_template(view, p)
    assert "decoy" not in json.dumps(state) and "François" not in json.dumps(state["families"])
    after, events = resolve(state, mail(state, {"marie": "orders:\n  - vote: bishop 5\n    for: François\n"
                                                         "    decoy: Eric\n"}))
    reveal = next(e for e in events if e.kind == "ballot_revealed")
    assert "decoy on Eric" in reveal.text and reveal.audience.kind == "all"


def test_random_elections_always_resolve() -> None:
    """Whatever the candidacies and markers, both mails resolve and the phase moves on."""
    import random
    rnd = random.Random(5)
    names = ["Eric", "François", "Henry", "Lambert", "Charles", "Isabelle", "Philippe"]
    towns = list(BOARD.towns)
    for _ in range(60):
        lords = {}
        spots = rnd.sample(towns, 5)
        for n, at in zip(rnd.sample(names, 5), spots, strict=True):
            titles = rnd.choice([[], ["bishop 4"], ["bishop 4", "cardinal"], ["normandie"], ["bishop 1", "cardinal"]])
            if any(t.startswith("bishop") and any(t in l["titles"] for l in lords.values()) for t in titles):
                titles = []
            if "normandie" in titles and any("normandie" in l["titles"] for l in lords.values()):
                titles = []
            lords[n] = {"family": rnd.choice(PLAYERS), "at": at, "titles": titles}
        free = [t for t in towns if t not in spots]
        units = {t: {rnd.choice(PLAYERS): {"man_at_arms": 1}} for t in rnd.sample(free, 14)}
        state = position(lords, units)
        texts = {}
        for p in PLAYERS:
            view = RULES.view(state, p)
            mine = view["families"][p]["lords"]
            lines = [f"  - candidate: {rnd.choice(mine)}\n    for: {b}\n"
                     for b in view["hear_ye"]["possible"] if mine and rnd.random() < 0.7]
            check = send(state, p, "orders:\n" + "".join(lines)) if lines else None
            texts[p] = check.orders if check and check.ok else RULES.default_orders(view, p)
        state, _ = resolve(state, texts)
        if RULES.phase(state).id == "round-2/hear-ye-votes":
            votes = {}
            for p in PLAYERS:
                view = RULES.view(state, p)
                lines = [f"  - vote: {b['id']}\n    for: {rnd.choice(b['candidates'])}\n"
                         f"    decoy: {rnd.choice(b['candidates'])}\n" for b in view["hear_ye"]["ballots"]]
                check = send(state, p, "orders:\n" + "".join(lines))
                assert check.ok, check.errors
                votes[p] = check.orders
            state, events = resolve(state, votes)
            assert sum(1 for e in events if e.kind == "ballot_revealed") <= len(lines)
        assert state["phase"] == "cards" and state["hear_ye"] == {}


def test_justice_immunity_and_the_regent_queen() -> None:
    from pbem.games.fief_france.royal import justice_immune
    st = build_position({"players": PLAYERS, "round": 2, "phase": "hear_ye", "lords": {
        "Henry": {"family": "maximilien", "at": "Rouen", "titles": ["king"], "spouse": "Blanche"},
        "Blanche": {"family": "enguerand", "at": "Limoges", "titles": ["queen"], "spouse": "Henry"},
        "François": {"family": "marie", "at": "Avignon", "titles": ["bishop 5", "pope"]},
        "Lambert": {"family": "marie", "at": "Reims", "titles": ["bishop 4", "cardinal"]}}}, "fief_france")
    assert [n for n, l in st.lords.items() if justice_immune(vars(l))] == ["Henry", "Blanche", "François"]
    eliminate_lord(st, BOARD, "Henry")   # no crown prince: the widow is regent queen
    assert st.lords["Blanche"].political == "regent_queen" and st.lords["Blanche"].spouse is None
    assert justice_immune(vars(st.lords["Blanche"]))
    # 1.1.2: the regent queen's new spouse does not become king through the marriage
    st.lords["Othon"] = type(st.lords["Lambert"])(name="Othon", family="maximilien", female=False,
                                                   location="Rouen", fief_titles=["normandie"])
    st.fief_titles["normandie"] = "Othon"
    state = st.to_json()
    state, events = resolve(state, mail(state, {
        "maximilien": "orders:\n  - marry: Othon\n    to: Blanche\n  - candidate: Othon\n    for: king\n",
        "enguerand": "orders:\n  - marry: Blanche\n    to: Othon\n"}))
    assert state["lords"]["Othon"]["spouse"] == "Blanche" and state["lords"]["Othon"]["political"] is None
    # 1.5.3: elected king, he ends the regency; his wife becomes queen again (1.5.4)
    texts = {p: "orders:\n  - vote: king\n    for: Othon\n" for p in PLAYERS}
    state, events = resolve(state, mail(state, texts))
    assert state["lords"]["Othon"]["political"] == "king", [e.text for e in events]
    assert state["lords"]["Blanche"]["political"] == "queen"
    assert any(e.kind == "queen_title_lost" for e in events)


def test_new_pope_excommunication_order_errors() -> None:
    lords = {"François": {"family": "marie", "at": "Avignon", "titles": ["bishop 5"]},
             "Eric": {"family": "maximilien", "at": "Lyon", "titles": ["bishop 1", "cardinal"]},
             "Lambert": {"family": "enguerand", "at": "Reims", "titles": ["bishop 4", "cardinal"]}}
    state = position(lords)
    state, _ = resolve(state, mail(state, {"marie": "orders:\n  - candidate: François\n    for: pope\n"}))
    assert "if_pope: François" in RULES.order_template(RULES.view(state, "marie"), "marie")
    cases = {"orders:\n  - excommunicate: Eric\n": "needs `if_pope:`",
             "orders:\n  - excommunicate: François\n    if_pope: François\n": "cannot be excommunicated",
             "orders:\n  - excommunicate: Eric\n    if_pope: Eric\n": "needs `if_pope:`"}
    for text, fragment in cases.items():
        check = send(state, "marie", text)
        assert not check.ok and fragment in " ".join(str(e) for e in check.errors), (text, check.errors)
    # not elected (a tie): nothing happens
    texts = {"marie": "orders:\n  - excommunicate: Eric\n    if_pope: François\n",
             "maximilien": "orders:\n  - vote: pope\n    decoy: François\n"}
    after, events = resolve(state, mail(state, texts))
    assert not after["lords"]["Eric"]["excommunicated"] and not any(e.kind == "excommunicated" for e in events)


def test_king_and_pope_vp_only_on_the_board() -> None:
    from pbem.games.fief.end_of_round.phase import victory_points
    st = build_position({"players": PLAYERS, "round": 2, "phase": "hear_ye", "lords": {
        "Henry": {"family": "maximilien", "at": "Rouen", "titles": ["king"]},
        "François": {"family": "marie", "at": "Avignon", "titles": ["bishop 5", "pope"]}}}, "fief_france")
    assert (victory_points(st, "maximilien"), victory_points(st, "marie")) == (1, 1)   # D, 7
    st.lords["Henry"].location = st.lords["François"].location = "offshore"
    assert (victory_points(st, "maximilien"), victory_points(st, "marie")) == (0, 0)


def test_marriages_need_both_orders_and_one_per_family() -> None:
    lords = {"Henry": {"family": "maximilien", "at": "Rouen"},
             "Isabelle": {"family": "marie", "at": "Pau"},
             "Blanche": {"family": "enguerand", "at": "Limoges"}}
    state = position(lords)
    # only one side orders it: no marriage
    after, events = resolve(state, mail(state, {"maximilien": "orders:\n  - marry: Henry\n    to: Isabelle\n"}))
    assert after["lords"]["Henry"]["spouse"] is None and any(e.kind == "marriage_not_agreed" for e in events)
    # Henry asked by two families: only the pair both ordered marries
    after, events = resolve(state, mail(state, {"maximilien": "orders:\n  - marry: Henry\n    to: Blanche\n",
                                                "marie": "orders:\n  - marry: Isabelle\n    to: Henry\n",
                                                "enguerand": "orders:\n  - marry: Blanche\n    to: Henry\n"}))
    assert after["lords"]["Henry"]["spouse"] == "Blanche" and after["lords"]["Isabelle"]["spouse"] is None
    # a second marriage for a family is refused in the orders (1.1.2)
    after["phase"] = "hear_ye"
    bad = send(after, "maximilien", "orders:\n  - marry: Henry\n    to: Isabelle\n")
    assert not bad.ok and "already married" in str(bad.errors[0])


def test_the_votes_mail_goes_only_to_families_with_a_vote_or_a_candidate() -> None:
    """1.2: enguerand controls no town of bishopric 5 and holds no title: no vote, no
    candidate, nothing to order in the votes mail; maximilien has a candidate but no vote (his
    lord, once elected, could vote for the king later in the phase)."""
    units = {t: {"marie": {"man_at_arms": 1}} for t in ("Lyon", "Pau", "Montpellier", "Avignon")}
    state = position({"François": {"family": "marie", "at": "Avignon"},
                      "Eric": {"family": "maximilien", "at": "Rouen"},
                      "Lambert": {"family": "enguerand", "at": "Lisieux"}}, units)
    state, _ = resolve(state, mail(state, {"marie": "orders:\n  - candidate: François\n    for: bishop 5\n",
                                           "maximilien": "orders:\n  - candidate: Eric\n    for: bishop 5\n"}))
    phase = RULES.phase(state)
    assert phase.id == "round-2/hear-ye-votes"
    assert set(phase.deciders) == {"marie", "maximilien"}
    after, events = resolve(state, mail(state, {"marie": "orders:\n  - vote: bishop 5\n    for: François\n"}))
    assert [e.kind for e in events] == ["ballot_revealed", "elected"] and "François" in events[1].text


def test_an_excommunicated_cardinal_sends_his_card_to_the_discard_pile() -> None:
    """Ruling 31: the cardinal card on the frieze goes to the characters discard pile when
    its cardinal loses the title by excommunication (D.2.3.1), as on his elimination."""
    lords = {"François": {"family": "marie", "at": "Avignon", "titles": ["bishop 5", "pope"]},
             "Lambert": {"family": "enguerand", "at": "Reims", "titles": ["bishop 4", "cardinal"]},
             "Henry": {"family": "maximilien", "at": "Rouen"}}
    state = position(lords)
    state["frieze"] = {"Lambert": "cardinal"}
    state, _ = resolve(state, mail(state, {"marie": "orders:\n  - excommunicate: Lambert\n"}))
    assert state["frieze"] == {} and state["character_discard"][-1] == "cardinal"
