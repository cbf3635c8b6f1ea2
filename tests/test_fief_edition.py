"""The edition record (pbem/games/fief/edition.py): France's numbers read from
games/fief_france/edition.yaml, and each kind of bad data refused with the file, the key and
the fix named."""
from __future__ import annotations

import copy
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from pbem.games.fief.battle.forces import base_dice, build_sides, combat_points
from pbem.games.fief.battle.plan import BattleSetup
from pbem.games.fief.board import load_board
from pbem.games.fief.cards.deck import CardError, load_cards_file
from pbem.games.fief.edition import (_EDITIONS, OTHER_STEPS, PHASES, Edition, EditionError, edition_of,
                                     load_edition, load_edition_file)
from pbem.games.fief.hear_ye.elimination import eliminate_lord
from pbem.games.fief.hooks import bishop_collects
from pbem.games.fief.round import ROUND
from pbem.games.fief.positions import build_position
from pbem.games.fief.state import FiefState
from pbem.games.fief_france.rules import RULES
from pbem.judge.render import render
from pbem.paths import games_dir
from pbem.rules.api import Event
from pbem.rules.rng import Rng

from fief_support import errors, resolve, send

FILE = games_dir() / "fief_france" / "edition.yaml"
RAW = yaml.safe_load(FILE.read_text(encoding="utf-8"))


def test_france_reads_the_rulebook_numbers() -> None:
    e = load_edition("fief_france")
    assert (e.title, e.min_players, e.max_players) == ("Fief: France", 3, 6)
    assert e.money_public and e.starting_money == 5                                   # A.6
    assert {k: (u.price, u.combat_points, u.pool) for k, u in e.units.items()} == {   # 4.3, A.1
        "man_at_arms": (1, 1, 13), "archer": (2, 1, 4), "knight": (3, 3, 8), "bombard": (4, 0, 1)}
    assert e.unit_types == ("man_at_arms", "archer", "knight", "bombard")
    assert e.start_units == {"knight": 1, "man_at_arms": 3}                            # A.5
    assert (e.strongholds, e.mills, e.siege_engines, e.diplomacy_pawns) == (12, 15, 2, 3)
    assert (e.mills_per_town, e.lords_per_family, e.new_units_per_town) == (2, 4, 4)
    assert (e.captive_markers, e.fief_titles_per_lord, e.steps_per_round) == (6, 2, 2)
    assert e.prices == {"stronghold": 10, "mill": 3, "title_per_town": 2, "cardinal_title": 5,
                        "ransom_base": 2, "ransom_per_title": 2}
    assert e.ransom(2) == 6                                                            # 4.1 example
    assert e.income == {"town": 1, "mill": 2, "tallage_per_town": 2, "queen": 2, "plunder_per_mill": 2}
    assert (e.hand_limit, e.draws, e.disaster_track) == (3, 2, 3)
    assert e.deck.lords + sum(e.deck.other_characters.values()) == 22               # B
    assert sum(e.deck.fortune.values()) == 25 and sum(e.deck.disaster.values()) == 10  # B
    assert (e.victory.lone, e.victory.alliance, e.victory.alliance_players) == (3, 4, (4, 5, 6))
    assert e.round[0] == "hear_ye" and e.not_in_first_round == ("hear_ye",)
    assert [o.name for o in e.options] == ["fog_of_war", "mandatory_placement", "adjusted_shooting",
                                           "public_diplomacy", "beginners"]


def test_a_state_finds_its_edition_once() -> None:
    state = FiefState(variant="fief_france", options={}, players=["a", "b", "c"])
    assert edition_of(state) is load_edition("fief_france")   # cached: read once per process


def test_every_edition_number_cites_the_rulebook() -> None:
    """Each line of the YAML holding a number says where the rulebook gives it: a comment on the
    line, a section inside its text ("I.2: ..."), or a comment on the key it sits under."""
    uncited = []
    parents: list[tuple[int, bool]] = []     # (indentation, cited) of the keys above this line
    for n, line in enumerate(FILE.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        while parents and parents[-1][0] >= indent:
            parents.pop()
        body = line.split("#")[0]
        cited = "#" in line or re.search(r"\b(?:[A-I]|\d+)(?:\.\d+)+:", body) is not None
        if any(ch.isdigit() for ch in body) and not cited and not any(c for _, c in parents):
            uncited.append(n)
        parents.append((indent, cited))
    assert not uncited, f"lines without a rulebook section: {uncited}"


# -- bad data ------------------------------------------------------------------------------------
def broken(tmp_path: Path, change: Callable[[dict], Any], *expected: str) -> str:
    data = copy.deepcopy(RAW)
    change(data)
    path = tmp_path / "edition.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(EditionError) as err:
        load_edition_file(path, "fief_france")
    text = str(err.value)
    assert str(path) in text
    for part in expected:
        assert part in text, text
    return text


def test_missing_file_names_it(tmp_path: Path) -> None:
    with pytest.raises(EditionError, match="cannot read the edition record.*games/fief_test/edition.yaml"):
        load_edition_file(tmp_path / "nowhere.yaml", "fief_test")


def test_bad_yaml_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "edition.yaml"
    path.write_text("title: [unclosed\n", encoding="utf-8")
    with pytest.raises(EditionError, match="not valid YAML"):
        load_edition_file(path, "fief_france")


def test_not_a_mapping(tmp_path: Path) -> None:
    path = tmp_path / "edition.yaml"
    path.write_text("- a list\n", encoding="utf-8")
    with pytest.raises(EditionError, match="must be a mapping, not a list"):
        load_edition_file(path, "fief_france")


def test_missing_key(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["prices"].pop("mill"), "`prices.mill`", "missing", "add `mill:`")


def test_unknown_key_suggests(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["prices"].update(stronhold=10), "`prices.stronhold`", "unknown key",
           "did you mean `stronghold`?")


def test_text_for_a_number(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["income"].update(queen="two"), "`income.queen`",
           "must be a whole number, not the text 'two'")


def test_true_is_no_number(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["units"]["knight"].update(pool=True), "`units.knight.pool`",
           "must be a whole number, not `true`")


def test_a_number_too_small(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["money"].update(starting=-1), "`money.starting`", "at least 0")
    broken(tmp_path, lambda d: d["limits"].update(lords_per_family=0), "`limits.lords_per_family`", "at least 1")


def test_a_flag_must_be_true_or_false(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["money"].update(public="public"), "`money.public`", "true or false")


def test_players_min_above_max(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["players"].update(min=7), "`players`", "min 7 is more than max 6")


def test_start_units_of_an_unknown_type(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["start"]["units"].update(knigth=1), "`start.units.knigth`",
           "did you mean `knight`?")


def test_start_units_beyond_the_pool(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["start"]["units"].update(knight=9), "`start.units.knight`",
           "9 is more than the pool of 8")


def test_victory_player_counts_within_the_players(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["victory"].update(alliance_players=[2, 4]), "`victory.alliance_players`",
           "2 players is outside `players` (3 to 6)")


def test_round_names_an_unknown_phase(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d.update(round=["hear_ye", "incom"]), "`round`", "'incom' is not a phase",
           "did you mean `income`?")


def test_round_names_a_phase_twice(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d.update(round=["income", "income"]), "`round`", "twice")


def test_skipped_phase_must_be_in_the_round(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["round"].remove("hear_ye"), "`not_in_first_round`", "'hear_ye' is not a phase")


def test_victory_player_counts_are_a_list(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["victory"].update(alliance_players=4), "`victory.alliance_players`",
           "list of player counts")


def test_more_women_than_lords(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["deck"].update(women=19), "`deck.women`", "at most `lords`")


def test_a_malformed_option(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d["options"][0].pop("text"), "`options[1].text`", "missing")
    broken(tmp_path, lambda d: d["options"].append(dict(d["options"][0])), "`options`", "twice")
    broken(tmp_path, lambda d: d["options"].append({"name": "board", "default": False, "text": "x"}),
           "`options`", "`board`")


def test_hooks_that_cannot_be_imported(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d.update(hooks="pbem.games.no_such_edition.hooks"), "`hooks`",
           "cannot import pbem.games.no_such_edition.hooks", "HOOKS = Hooks(...)")


def test_hooks_module_without_hooks(tmp_path: Path) -> None:
    broken(tmp_path, lambda d: d.update(hooks="pbem.games.fief.state"), "`hooks`", "defines no `HOOKS`")


# -- the rules read the edition --------------------------------------------------------------------
PLAYERS = ["anne", "bruno", "carl"]


@pytest.fixture
def edited(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Edition]:
    """France's edition with some values replaced, for every rule reading it (state or view)."""
    def change(**values: Any) -> Edition:
        edition = replace(load_edition("fief_france"), **values)
        monkeypatch.setitem(_EDITIONS, "fief_france", edition)
        return edition
    return change


def test_setup_gives_the_editions_money_pawns_and_round(edited) -> None:
    edited(starting_money=9, diplomacy_pawns=1, not_in_first_round=(),
           start_units={"archer": 2})
    state = RULES.setup({"mandatory_placement": True}, PLAYERS, Rng("e"))
    assert {f["deniers"] for f in state["families"].values()} == {9}
    assert {f["diplomacy_pawns"] for f in state["families"].values()} == {1}
    assert state["phase"] == "hear_ye"      # no phase skipped in the 1st round
    assert sorted(p["kind"] for p in state["pawns"].values()) == ["archer"] * 6


def test_hidden_money_stays_out_of_other_players_views(edited) -> None:
    edited(money_public=False)
    state = build_position({"players": PLAYERS, "deniers": {"anne": 7, "bruno": 3, "carl": 4}}, "fief_france").to_json()
    view = RULES.view(state, "bruno")
    assert view["families"]["bruno"]["deniers"] == 3
    assert "deniers" not in view["families"]["anne"] and "deniers" not in view["families"]["carl"]
    assert "7" not in repr(view["families"]["anne"])
    assert RULES.view(state, None)["families"]["anne"]["deniers"] == 7   # the game master sees all


def test_hidden_money_is_told_to_its_owner_only(edited) -> None:
    """With money secret, a family's income (and the treasury it leaves) is told to that family
    only, and the report shows the others' money as unknown."""
    edited(money_public=False)
    position = {"players": PLAYERS, "phase": "income", "deniers": {"anne": 17, "bruno": 3, "carl": 4},
                "lords": {"Quentin": {"family": "anne", "at": "Nantes"}},
                "units": {"Nantes": {"anne": {"man_at_arms": 1}}}}
    state, events = resolve(build_position(position, "fief_france").to_json(), {})
    income = [e for e in events if e.kind == "income"]
    assert income and all(e.audience.sees(e.data["player"]) and not e.audience.sees(other)
                          for e in income for other in PLAYERS if other != e.data["player"])
    text = render(RULES.report_template(), view=RULES.view(state, "bruno"), me="bruno")
    anne = next(line for line in text.splitlines() if line.strip().startswith("anne"))
    assert "? deniers" in anne and "18" not in anne


def test_hidden_money_stays_out_of_purchase_failures(edited) -> None:
    """With money secret, a purchase or a lower ransom offer failing for want of deniers (the
    message names the treasury) is told to the buyer only; France's stays public."""
    position = {"players": PLAYERS, "phase": "purchase", "deniers": {"anne": 7, "bruno": 0},
                "lords": {"Quentin": {"family": "anne", "at": "Nantes"},
                          "Rémi": {"family": "bruno", "at": "Nantes", "captive_of": "carl"}},
                "units": {"Nantes": {"anne": {"man_at_arms": 1}}}}
    orders = {"anne": {"orders": [{"build": "stronghold", "town": "Nantes"}]},
              "bruno": {"orders": [{"offer": 1, "for": ["Rémi"]}]}}

    def failures() -> list[Event]:
        _, events = resolve(build_position(position, "fief_france").to_json(), orders)
        found = [e for e in events if e.kind in ("purchase_failed", "ransom_offer_refused")]
        assert len(found) == 2 and all(e.data["reason"] == "deniers" for e in found)
        return found

    assert all(e.audience.sees("carl") for e in failures())          # France: public (A.6)
    edited(money_public=False)
    for e in failures():
        buyer = e.data["player"]
        assert e.audience.sees(buyer) and not any(e.audience.sees(p) for p in PLAYERS if p != buyer)


def test_hidden_money_stays_out_of_a_refused_gift(edited) -> None:
    """A gift above the treasury is refused in public in France (A.6); with money secret, the
    refusal (which names the treasury) is told to the giver only."""
    state = build_position({"players": PLAYERS, "phase": "purchase", "deniers": {"anne": 4}}, "fief_france").to_json()
    action = {"diplomacy": {"give": [{"to": "bruno", "deniers": 5}], "messages": [], "exchanges": []}}

    def refusal() -> Event:
        found = [e for e in RULES.act(state, "anne", action, Rng("x")).events if e.kind == "diplomacy_refused"]
        assert len(found) == 1 and "only 4 left" in found[0].text
        return found[0]

    assert refusal().audience.sees("carl")
    edited(money_public=False)
    assert refusal().audience.sees("anne") and not refusal().audience.sees("bruno")


def test_public_money_is_in_every_view() -> None:
    state = build_position({"players": PLAYERS, "deniers": {"anne": 7}}, "fief_france").to_json()
    assert RULES.view(state, "bruno")["families"]["anne"]["deniers"] == 7   # A.6


def test_purchase_prices_and_limits_come_from_the_edition(edited) -> None:
    position = {"players": PLAYERS, "phase": "purchase", "deniers": {"anne": 7},
                "lords": {"Quentin": {"family": "anne", "at": "Nantes"}},
                "units": {"Nantes": {"anne": {"man_at_arms": 1}}}}
    state = build_position(position, "fief_france").to_json()
    assert "costs 10 deniers" in errors(state, "anne", "orders:\n  - build: stronghold\n    in: Nantes\n")
    edited(prices={**load_edition("fief_france").prices, "stronghold": 7})
    state = build_position(position, "fief_france").to_json()
    assert send(state, "anne", "orders:\n  - build: stronghold\n    in: Nantes\n").ok


def test_victory_points_needed_come_from_the_edition(edited) -> None:
    position = {"players": PLAYERS, "phase": "end_of_round",
                "lords": {"Quentin": {"family": "anne", "at": "Nantes", "titles": ["bretagne", "poitou"]}}}
    state, events = resolve(build_position(position, "fief_france").to_json(), {})
    assert state["phase"] != "over"          # 2 VP: France wants 3 (7.1)
    edited(victory=replace(load_edition("fief_france").victory, lone=2))
    state, events = resolve(build_position(position, "fief_france").to_json(), {})
    assert state["phase"] == "over" and state["winners"] == ["anne"]


def test_income_comes_from_the_edition(edited) -> None:
    edited(income={**load_edition("fief_france").income, "town": 3})
    position = {"players": PLAYERS, "phase": "income", "deniers": {"anne": 0},
                "lords": {"Quentin": {"family": "anne", "at": "Nantes"}},
                "units": {"Nantes": {"anne": {"man_at_arms": 1}}}}
    state, _ = resolve(build_position(position, "fief_france").to_json(), {})
    assert state["families"]["anne"]["deniers"] == 3


def test_the_core_knows_every_phase_an_edition_may_list() -> None:
    assert tuple(s.name for s in ROUND) == PHASES


def test_steps_per_round_come_from_the_edition(edited) -> None:
    position = {"players": PLAYERS, "phase": "movement",
                "lords": {"Quentin": {"family": "anne", "at": "Nantes"}},
                "units": {"Nantes": {"anne": {"man_at_arms": 1}}}}
    mail = "orders:\n  - move: Quentin\n    path: [Rennes, Cherbourg]\n"
    state = build_position(position, "fief_france").to_json()
    assert send(state, "anne", mail).ok                       # 5.1.1: 2 steps
    edited(steps_per_round=1)
    assert "Quentin has 1 steps" in errors(state, "anne", mail)


def test_an_editions_own_ballots_run_through_the_core(edited) -> None:
    """An edition with one ballot of its own (like England's Sovereign): the core runs both mails,
    the edition says who stands, who votes and what the title brings."""
    france = load_edition("fief_france")

    def crown(state, ballot, lord, why):
        lord.political = "king"
        return [Event("elected", f"{lord.name} is the sovereign ({why}).")]

    own = replace(france.hooks.elections, possible=lambda s, b: ["sovereign"], eligible=lambda lord, b: None,
                  ballot_named=lambda view, word: word if word == "sovereign" else None,
                  ballot_names="write a sovereign",
                  not_held=lambda s, b: None, elect=crown,
                  weights=lambda s, b, ballot, now: ({p: 1 for p in s.players}, {}))
    edited(hooks=replace(france.hooks, elections=own))
    position = {"players": PLAYERS, "phase": "hear_ye", "round": 2,
                "lords": {"Quentin": {"family": "anne", "at": "Nantes"},
                          "Arthur": {"family": "bruno", "at": "Tours"}}}
    state = build_position(position, "fief_france").to_json()
    assert RULES.view(state, "carl")["hear_ye"]["possible"] == ["sovereign"]
    mail = send(state, "anne", "orders:\n  - candidate: Quentin\n    for: Sovereign\n")
    assert mail.ok and mail.orders["candidates"] == {"sovereign": "Quentin"}
    assert "write a sovereign" in errors(state, "anne", "orders:\n  - candidate: Quentin\n    for: pope\n")
    state, events = resolve(state, {"anne": mail.orders, "bruno": {"candidates": {"sovereign": "Arthur"}}})
    assert state["phase"] == "hear_ye_votes"
    assert RULES.phase(state).deciders == ("anne", "bruno", "carl")   # each family has a vote here
    votes = {p: {"votes": {"sovereign": {"for": "Arthur"}}} for p in ("bruno", "carl")}
    state, events = resolve(state, votes)
    assert state["lords"]["Arthur"]["political"] == "king"
    assert any(e.text == "Arthur is the sovereign (2 of 2 votes)." for e in events)


def test_succession_and_lord_cards_are_the_editions(edited) -> None:
    """France's crown prince (G.1.1) and succession (D.3.3) are its hooks: an edition without them
    makes no crown prince of a lord card, and crowns no one when the king dies."""
    position = {"players": PLAYERS, "phase": "cards", "hands": {"anne": ["Henry"]},
                "lords": {"Charles": {"family": "bruno", "at": "Paris", "titles": ["king"]},
                          "Blanche": {"family": "anne", "at": "Tours", "titles": ["queen"]}}}
    play = {"anne": {"play": [{"card": "Henry", "town": None, "crown_prince": True}]}}

    def crown_prince_then_king_dies() -> tuple[str | None, str | None]:
        state = {**build_position(position, "fief_france").to_json(), "phase": "cards_play"}
        state, _ = resolve(state, play)
        after = FiefState.from_json(state)
        prince = after.lords["Henry"].political
        eliminate_lord(after, load_board("fief_france"), "Charles")
        return prince, after.lords["Henry"].political

    assert crown_prince_then_king_dies() == ("crown_prince", "king")      # G.1.1, D.3.3
    edited(hooks=replace(load_edition("fief_france").hooks, after_elimination=lambda s, lord: [],
                         lord_played=lambda s, p, name, play: []))
    assert crown_prince_then_king_dies() == (None, None)


def test_combat_points_come_from_the_edition(edited) -> None:
    position = {"players": PLAYERS, "lords": {"Quentin": {"family": "anne", "at": "Nantes"}},
                "units": {"Nantes": {"anne": {"knight": 2, "man_at_arms": 1}}}}
    state = build_position(position, "fief_france")
    assert combat_points(state, "knight") == 3 and combat_points(state, "kings_knight") == 3   # 6.2.3.1, 1.5.5
    france = load_edition("fief_france")
    edited(units={**france.units, "knight": replace(france.units["knight"], combat_points=2)})
    assert combat_points(state, "knight") == 2 and combat_points(state, "man_at_arms") == 1


def test_a_titles_steps_and_dice_are_the_editions(edited) -> None:
    """G.4.1.1: France's D'Arc title (its `title_bonus` hook) gives her army 3 steps and her side a
    4th die; an edition without the hook gives a lord with that title neither."""
    position = {"players": PLAYERS, "phase": "movement",
                "lords": {"Mireille": {"family": "anne", "at": "Tours", "female": True, "titles": ["darc"]}},
                "units": {"Tours": {"anne": {"knight": 2}}}}
    mail = "orders:\n  - move: Mireille\n    with: {knight: 2}\n    path: [Poitiers, La Rochelle, Bordeaux]\n"
    battle = {"players": PLAYERS, "lords": {"Mireille": {"family": "anne", "at": "Lyon", "female": True,
                                                         "titles": ["darc"]},
                                            "Bo": {"family": "bruno", "at": "Lyon"}},
              "towns": {"Lyon": {"controller": "bruno"}}}

    def steps_and_dice() -> tuple[int, int, int]:
        state = build_position(position, "fief_france").to_json()
        template = RULES.order_template(RULES.view(state, "anne"), "anne")
        check = send(state, "anne", mail)
        moved = 0
        if check.ok:
            after, _ = resolve(state, {"anne": check.orders})
            moved = after["lords"]["Mireille"]["steps"]
        fight = build_position(battle, "fief_france")
        side = build_sides(fight, BattleSetup("Lyon", "anne", "bruno", ("anne",), ("bruno",)))[0]
        return moved, base_dice(fight, side, 13), int("up to 3 towns" in template)

    assert steps_and_dice() == (3, 4, 1)
    edited(hooks=replace(load_edition("fief_france").hooks, title_bonus={}))
    assert steps_and_dice() == (0, 3, 0)
    assert "Mireille has 2 steps (5.1.1); this path needs 3" in errors(
        build_position(position, "fief_france").to_json(), "anne", mail)


# -- an edition's own phases (E; England's Invaders phase) ----------------------------------------
def own_phase_record(tmp_path: Path, round_: list[str], hooks: str = "fief_own_phase") -> Edition:
    data = {**copy.deepcopy(RAW), "hooks": hooks, "round": round_}
    path = tmp_path / "edition.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return load_edition_file(path, "fief_france")


def test_round_may_name_the_editions_own_phases_only(tmp_path: Path) -> None:
    with_muster = ["hear_ye", "muster", "cards", "cards_play", "income", "purchase", "movement", "battle",
                   "end_of_round"]
    assert own_phase_record(tmp_path, with_muster).round == tuple(with_muster)
    # France's hooks have no `muster` phase: its record may not name one.
    broken(tmp_path, lambda d: d.update(round=with_muster), "`round`", "'muster' is not a phase")
    # A typo is suggested among the core's phases and the edition's own.
    with pytest.raises(EditionError, match="did you mean `muster`"):
        own_phase_record(tmp_path, ["hear_ye", "mustr", "income"])


def test_an_editions_own_phase_may_not_take_a_core_steps_name(tmp_path: Path, monkeypatch) -> None:
    import fief_own_phase
    from pbem.games.fief.round import BY_PHASE

    assert set(BY_PHASE) | {"over"} == set(PHASES) | set(OTHER_STEPS)
    for name in ("income", "hear_ye_votes", "setup"):
        monkeypatch.setattr(fief_own_phase, "HOOKS", replace(fief_own_phase.HOOKS, phases=(
            replace(fief_own_phase.MUSTER, name=name),)))
        with pytest.raises(EditionError, match=f"own phase '{name}' is already a phase"):
            own_phase_record(tmp_path, ["hear_ye", "income"])


def test_an_editions_own_phase_runs_through_the_judge(tmp_path: Path, edited) -> None:
    """The test edition's `muster` phase (its `phases` hook) opens each round: the judge asks every
    player for its mail, resolves it by the hook's step and goes on with the core's phases."""
    from fief_own_phase import HOOKS
    from judge_support import Judge
    from pbem.judge.engine import current_phase, load_game

    edited(hooks=HOOKS, round=("hear_ye", "muster") + load_edition("fief_france").round[1:])

    def phase_now() -> str:
        store = judge.store()
        try:
            return current_phase(load_game(store, "m")).id
        finally:
            store.close()

    judge = Judge(tmp_path / "home")
    judge.new_game(name="m", players=tuple(PLAYERS), game_type="fief_france")
    judge.tick()
    for p, town in zip(PLAYERS, ("Tours", "Poitiers", "Lyon"), strict=True):
        judge.orders("m", p, "setup/starting-towns", f"orders:\n  - start: [{town}]\n")
    judge.tick()
    assert phase_now() == "round-1/muster"                    # not in `not_in_first_round`: it opens round 1
    before = len(judge.sent())
    for p in PLAYERS:
        judge.orders("m", p, "round-1/muster", "orders: []\n")
    judge.tick()
    assert phase_now() == "round-1/cards-draw"                # then the core's Cards Phase
    reports = [str(m.get_body(("plain",)).get_content()) for m in judge.sent()[before:]]
    assert any("Round 1: the families muster (the test edition's own phase)." in r for r in reports)
    assert "there is nothing to order in the muster phase" in errors(
        {**build_position({"players": PLAYERS}, "fief_france").to_json(), "phase": "muster"}, "anne",
        "orders:\n  - buy: mill\n")


def test_a_lord_cards_own_keys_are_the_editions(edited) -> None:
    """G.1.1: `crown_prince: yes` on a lord card's order is France's (its `lord_card_keys` hook):
    an edition without the key refuses it as unknown, and its order form and echo leave it out."""
    position = {"players": PLAYERS, "phase": "cards", "hands": {"anne": ["Henry"]},
                "lords": {"Blanche": {"family": "anne", "at": "Tours"}}}
    state = {**build_position(position, "fief_france").to_json(), "phase": "cards_play"}
    view = RULES.view(state, "anne")
    mail = "orders:\n  - play: Henry\n    crown_prince: yes\n"
    check = send(state, "anne", mail)
    assert check.orders["play"] == [{"card": "Henry", "town": None, "crown_prince": True}]
    assert "crown_prince: yes" in RULES.echo_orders(view, "anne", check.orders)
    assert "#    crown_prince: no" in RULES.order_template(view, "anne")
    edited(hooks=replace(load_edition("fief_france").hooks, lord_card_keys=()))
    assert "`crown_prince`" in errors(state, "anne", mail)
    plain = send(state, "anne", "orders:\n  - play: Henry\n    in: Tours\n")
    assert plain.orders["play"] == [{"card": "Henry", "town": "Tours"}]
    echoed = RULES.echo_orders(view, "anne", plain.orders)
    assert "crown_prince" not in echoed and "play: Henry" in echoed
    assert send(state, "anne", echoed).orders == plain.orders
    assert "crown_prince" not in RULES.order_template(view, "anne")


def test_naval_steps_are_the_editions(edited, tmp_path: Path) -> None:
    """5.3: France's naval steps to and from the off-shore area (the board's one sea) are its
    `naval` hook: an edition without it reaches no sea, offers none in the order form, and
    refuses disaster cards without the dice icon (they strike the sea, 2.5)."""
    position = {"players": PLAYERS, "phase": "movement",
                "lords": {"Quentin": {"family": "anne", "at": "Nantes"}},
                "units": {"Nantes": {"anne": {"man_at_arms": 1}}}}
    state = build_position(position, "fief_france").to_json()
    mail = "orders:\n  - move: Quentin\n    path: [offshore]\n"
    assert load_board("fief_france").seas == ("offshore",)
    check = send(state, "anne", mail)
    after, _ = resolve(state, {"anne": check.orders})
    assert after["lords"]["Quentin"]["location"] == "offshore"                 # 5.3
    assert "`offshore` (harbor)" in RULES.order_template(RULES.view(state, "anne"), "anne")
    data = yaml.safe_load((games_dir() / "fief_france" / "cards.yaml").read_text(encoding="utf-8"))
    data["disaster"][0]["dice_icon"] = False
    cards = tmp_path / "cards.yaml"
    cards.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert load_cards_file(cards, "fief_france").offshore == {"plague": 1}

    edited(hooks=replace(load_edition("fief_france").hooks, naval=None))
    assert "there is no town called 'offshore'" in errors(state, "anne", mail)
    template = RULES.order_template(RULES.view(state, "anne"), "anne")
    assert "offshore" not in template and "Naval" not in template
    with pytest.raises(CardError, match="without the dice icon strike the sea.*no naval step"):
        load_cards_file(cards, "fief_france")


def test_the_tithes_collectors_are_the_editions(edited) -> None:
    """G.3.3.2: France's tithe goes to the bishop, else a cardinal, else the pope (its
    `tithe_rank` hook); an edition without cardinals and pope (the core's default) gives a tithe
    to the bishop of the bishopric only."""
    from pbem.games.fief.income.phase import tithe_collectors

    position = {"players": PLAYERS, "phase": "income",
                "lords": {"Baudoin": {"family": "anne", "at": "Calais", "titles": ["bishop 3", "cardinal"]},
                          "Arthur": {"family": "bruno", "at": "Toulouse", "titles": ["bishop 1", "cardinal", "pope"]}},
                "effects": [{"card": "tithe", "target": "3", "player": "anne", "lord": "Baudoin"},
                            {"card": "tithe", "target": "1", "player": "anne", "lord": "Baudoin"},
                            {"card": "tithe", "target": "all", "player": "bruno", "lord": "Arthur"}]}
    state = build_position(position, "fief_france")
    board = load_board("fief_france")
    assert tithe_collectors(state, board)[0] == {3: "anne", 1: "anne"}   # bishop; a cardinal before the pope
    edited(hooks=replace(load_edition("fief_france").hooks, tithe_rank=bishop_collects))
    assert tithe_collectors(state, board)[0] == {3: "anne"}              # the bishop only


def test_cardinals_calm_uprisings_only_by_the_editions_hook(edited) -> None:
    """G.4.2.1, D.2.2: France's cardinals calm an uprising for 3 deniers (its `uprising_calmer`
    hook); without the hook only the bishop of the bishopric does (D.2.1)."""
    from pbem.games.fief.surprise.uprising import _calmer

    lords = {"Henry": {"family": "anne", "at": "Lyon", "titles": ["bishop 2"]},
             "Charles": {"family": "bruno", "at": "Paris", "titles": ["bishop 4", "cardinal"]}}
    state = build_position({"players": PLAYERS, "deniers": {"bruno": 5}, "lords": lords,
                            "policies": {"anne": {"calm_uprisings": "as_bishop"},
                                         "bruno": {"calm_uprisings": "also_as_cardinal"}}}, "fief_france")
    raisers = frozenset({"carl"})
    henry, charles = state.lords["Henry"], state.lords["Charles"]
    assert _calmer(state, 2, raisers) == (henry, 0, "bishop")
    assert _calmer(state, 3, raisers) == (charles, 3, "cardinal")     # D.2.2: no bishop of 3 in play
    edited(hooks=replace(load_edition("fief_france").hooks, uprising_calmer=None))
    assert _calmer(state, 2, raisers) == (henry, 0, "bishop")
    assert _calmer(state, 3, raisers) is None


def test_character_cards_are_the_editions(edited) -> None:
    """G.4.1: France's D'Arc and cardinal cards (its `characters` hook) are played at once on a
    lord; an edition without them never plays such a card (the mail is refused, the order form
    offers none) and its D'Arc-less lord stays untitled."""
    position = {"players": PLAYERS, "phase": "cards", "hands": {"anne": ["darc", "cardinal"]},
                "lords": {"Mireille": {"family": "anne", "at": "Tours", "female": True},
                          "Charles": {"family": "bruno", "at": "Paris", "titles": ["bishop 4"]}}}
    state = {**build_position(position, "fief_france").to_json(), "phase": "cards_play"}
    mail = "orders:\n  - play: D'Arc\n    on: Mireille\n  - play: Cardinal\n    on: Charles\n"
    check = send(state, "anne", mail)
    after, events = resolve(state, {"anne": check.orders})
    assert after["lords"]["Mireille"]["political"] == "darc" and after["lords"]["Charles"]["cardinal"]
    assert after["frieze"] == {"Mireille": "darc", "Charles": "cardinal"}             # G.4.1
    template = RULES.order_template(RULES.view(state, "anne"), "anne")
    assert "#  - play: darc" in template and "#  - play: cardinal" in template
    assert "(G.4): D'Arc / Cardinal `on: LORD`, assassination" in template

    edited(hooks=replace(load_edition("fief_france").hooks, characters={}))
    assert "darc" in errors(state, "anne", mail).lower()
    template = RULES.order_template(RULES.view(state, "anne"), "anne")
    assert "#  - play: darc" not in template and "#  - play: cardinal" not in template
    assert "(G.4): assassination `on: LORD`" in template


def test_the_royal_guard_is_the_editions(edited) -> None:
    """1.5.5: France's royal guard (its `royal_guard` hook) turns 2 men-at-arms of the new queen's
    army into queen's retinue sergeants, worth 1 CP, moving only with her; an edition without
    the hook gives no guard."""
    from pbem.games.fief.movement.army import guard_follows
    from pbem.games.fief.state import Pawn
    from pbem.games.fief_france.royal import crown_queen

    position = {"players": PLAYERS, "lords": {"Blanche": {"family": "anne", "at": "Tours"}},
                "units": {"Tours": {"anne": {"man_at_arms": 3}}}}

    def kinds_after_crowning() -> list[str]:
        state = build_position(position, "fief_france")
        crown_queen(state, state.lords["Blanche"])
        return sorted(p.kind for p in state.pawns.values())

    assert kinds_after_crowning() == ["man_at_arms", "queens_sergeant", "queens_sergeant"]
    state = build_position(position, "fief_france")
    assert combat_points(state, "queens_sergeant") == 1
    sergeant = Pawn("g1", "queens_sergeant", "anne", "Tours")
    assert not guard_follows(state, sergeant, ["Blanche"])                      # not queen yet
    state.lords["Blanche"].political = "queen"
    assert guard_follows(state, sergeant, ["Blanche"])
    edited(hooks=replace(load_edition("fief_france").hooks, royal_guard={}))
    assert kinds_after_crowning() == ["man_at_arms"] * 3


def test_what_a_marriage_does_to_titles_is_the_editions(edited) -> None:
    """1.1.2, 1.5.4, D.3.2, G.4.1.1: in France the king's spouse becomes queen, an annulment takes
    her title and the D'Arc lord cannot marry (the `married`, `unmarried` and `marriage_blocker`
    hooks); an edition without them marries the same lords and changes no title."""
    from pbem.games.fief.hear_ye.royal import marriages
    from pbem.games.fief_france.hear_ye import annulments

    position = {"players": PLAYERS,
                "lords": {"Charles": {"family": "anne", "at": "Paris", "titles": ["king"]},
                          "Blanche": {"family": "bruno", "at": "Tours", "female": True},
                          "Jeanne": {"family": "carl", "at": "Lyon", "female": True, "titles": ["darc"]},
                          "Urbain": {"family": "carl", "at": "Lyon", "titles": ["bishop 2", "pope"]}}}
    wed = {"anne": {"marry": {"lord": "Charles", "to": "Blanche"}},
           "bruno": {"marry": {"lord": "Blanche", "to": "Charles"}}}

    def titles_after() -> tuple[str | None, str | None, str | None]:
        state = build_position(position, "fief_france")
        marriages(state, wed)
        queen = state.lords["Blanche"].political
        state.lords["Blanche"].political = "queen"     # as France's marriage made her
        annulments(state, {"bruno": {"annul": "Blanche"}, "carl": {"annulments": "grant"}})
        darc = build_position(position, "fief_france")
        darc.lords["Charles"].political = None
        events = marriages(darc, {"anne": {"marry": {"lord": "Charles", "to": "Jeanne"}},
                                  "carl": {"marry": {"lord": "Jeanne", "to": "Charles"}}})
        return queen, state.lords["Blanche"].political, events[0].kind

    assert titles_after() == ("queen", None, "marriage_refused")
    edited(hooks=replace(load_edition("fief_france").hooks, married=None, unmarried=None, marriage_blocker=None))
    assert titles_after() == (None, "queen", "marriage")


def test_an_edition_names_its_own_rules_version_and_new_games_record_it() -> None:
    from pbem.games.fief_england.rules import RULES as ENGLAND
    from pbem.games.fief.state import RULES_VERSION
    from pbem.rules.api import rules_version
    # England's own rules are fixed apart from France's (docs/fief-england.md, "Rules versions")
    assert rules_version(ENGLAND) == 3 and rules_version(RULES) == RULES_VERSION == 2
    assert build_position({"players": ["ann", "bob"]}, "fief_england").rules_version == 3
    assert build_position({"players": ["ann", "bob", "cid"]}, "fief_france").rules_version == 2
    stored = build_position({"players": ["ann", "bob"], "options": {"rules_version": 2}}, "fief_england")
    assert stored.rules_version == 2          # a game stored earlier keeps its version
