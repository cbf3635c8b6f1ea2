"""Fief: England's data (games/fief_england/: board, geography, cards, edition draft), checked
before any code reads it (issue 11): every fact the rulebook states about the board holds, every
item says where it comes from (a rulebook line, or a reconstruction with its reasoning), the
board is consistent (roads, compass directions, ports, region sizes, districts, one connected
map), the card counts add up, every retainer effect uses the documented vocabulary, and every
number of the edition record cites its section and agrees with the cards and the board.

The checks are functions returning the list of problems, so each kind of mistake is also shown
to be caught on a broken copy of the data."""
from __future__ import annotations

import copy
import re
from collections import Counter, deque
from pathlib import Path

import pytest
import yaml

from pbem.paths import games_dir

FOLDER = games_dir() / "fief_england"
DOCS = Path(__file__).resolve().parent.parent / "docs" / "fief-england.md"
NUMERALS = ["I", "II", "III", "IV", "V", "VI"]
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
RANK_BY_SIZE = {2: "Barony", 3: "County", 4: "Duchy"}


def load(name: str) -> dict:
    return yaml.safe_load((FOLDER / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def board() -> dict:
    return load("board.yaml")


@pytest.fixture(scope="module")
def cards() -> dict:
    return load("cards.yaml")


@pytest.fixture(scope="module")
def edition() -> dict:
    return load("edition.yaml")


# ----------------------------------------------------------------------------- board helpers

def text(value) -> bool:
    return isinstance(value, str) and value.strip() != ""


def provenance(item: dict, what: str, key: str = "", reason: str = "reasoning") -> list[str]:
    """`source` (or KEY_source), or `reconstructed: true` with a reasoning - exactly one."""
    source, rebuilt = item.get(f"{key}source"), item.get(f"{key}reconstructed")
    if text(source) and rebuilt is None:
        return []
    if rebuilt is True and source is None and text(item.get(reason)):
        return []
    return [f"{what}: needs either `{key}source:` or `{key}reconstructed: true` with `{reason}:`"]


def region_of(board: dict) -> dict[str, str]:
    return {c["name"]: c["region"] for c in board["cities"]}


def number_of(board: dict, name: str) -> str:
    return next(r["number"] for r in board["regions"] if r["name"] == name)


def road_graph(board: dict) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {c["name"]: set() for c in board["cities"]}
    for road in board["roads"]:
        a, b = road["between"]
        graph.setdefault(a, set()).add(b)      # an unknown city is reported by check_consistency
        graph.setdefault(b, set()).add(a)
    return graph


def distances(graph: dict[str, set[str]], start: str) -> dict[str, int]:
    seen, queue = {start: 0}, deque([start])
    while queue:
        here = queue.popleft()
        for there in sorted(graph[here]):
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return seen


def sea_graph(board: dict) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {s["number"]: set() for s in board["seas"]}
    for pair in board["sea_adjacency"]:
        a, b = pair["between"]
        graph[a].add(b)
        graph[b].add(a)
    return graph


def exits(board: dict) -> dict[tuple[str, str], str]:
    """(city, compass point) -> the city that road leads to."""
    return {(city, road["directions"][city]): next(c for c in road["between"] if c != city)
            for road in board["roads"] for city in road["between"]}


# ------------------------------------------------------------------------- the board's checks

def check_provenance(board: dict) -> list[str]:
    problems = []
    for region in board["regions"]:
        problems += provenance(region, f"region {region['number']}")
        if region.get("name_reconstructed") and not text(region.get("name_reasoning")):
            problems.append(f"region {region['number']}: `name_reconstructed` needs `name_reasoning:`")
    for city in board["cities"]:
        problems += provenance(city, f"city {city['name']}")
        if not text(city.get("named")):
            problems.append(f"city {city['name']}: `named:` must give the rulebook line naming it")
    for sea in board["seas"]:
        problems += provenance(sea, f"sea {sea['number']}")
    for pair in board["sea_adjacency"]:
        problems += provenance(pair, f"seas {pair['between']}")
    for district in board["ecclesiastic_districts"]:
        problems += provenance(district, f"district {district['id']}")
    for road in board["roads"]:
        what = f"road {road['between']}"
        problems += provenance(road, what)
        stated, rebuilt = road.get("directions_source"), road.get("directions_reconstructed")
        if not ((text(stated) and rebuilt is None) or (rebuilt is True and stated is None)):
            problems.append(f"{what}: needs `directions_source:` or `directions_reconstructed: true`")
    if not text(board.get("direction_reasoning")):
        problems.append("`direction_reasoning:` must explain the reconstructed directions")
    problems += provenance(board["excalibur_start"], "excalibur_start")
    problems += provenance(board["bandit_paths"], "bandit_paths")
    for fact in board["facts"]:
        if not text(fact.get("source")):
            problems.append(f"fact {fact}: every fact cites its rulebook line (`source:`)")
    return problems


def check_consistency(board: dict) -> list[str]:
    problems = []
    numbers = [r["number"] for r in board["regions"]]
    if numbers != NUMERALS:
        problems.append(f"regions must be numbered I-VI in order, not {numbers}")
    regions = {r["number"]: r for r in board["regions"]}
    cities = region_of(board)
    if len(cities) != len(board["cities"]):
        problems.append("two cities share a name")
    for name, number in cities.items():
        if number not in regions:
            problems.append(f"city {name}: unknown region {number!r}")
    by_region = Counter(cities.values())
    ports = {c["name"]: c["region"] for c in board["cities"] if c.get("port")}
    for number, region in regions.items():
        size = by_region[number]
        if size != region["size"]:
            problems.append(f"region {number}: size {region['size']} but {size} cities are in it")
        rank = RANK_BY_SIZE.get(size)
        if rank is None or not region["title"].startswith(rank):
            problems.append(f"region {number}: {size} cities make a {rank} (4.3), the title says {region['title']!r}")
        in_region = [p for p, n in ports.items() if n == number]
        if in_region != [region["port"]]:
            problems.append(f"region {number}: exactly one port, {region['port']!r}, expected; found {in_region}")
    if sorted(s["region"] for s in board["seas"]) != sorted(numbers) or any(
            s["number"] != s["region"] for s in board["seas"]):
        problems.append("each region has one sea with its number")
    # Ecclesiastic Districts: whole regions, every region once, the cathedral city inside.
    covered = [n for d in board["ecclesiastic_districts"] for n in d["regions"]]
    if sorted(covered) != sorted(numbers):
        problems.append(f"the districts must cover every region exactly once, they cover {sorted(covered)}")
    cathedrals = {c["name"] for c in board["cities"] if c.get("cathedral")}
    for district in board["ecclesiastic_districts"]:
        if cities.get(district["cathedral_city"]) not in district["regions"]:
            problems.append(f"district {district['id']}: its cathedral city is not in its regions")
    if cathedrals != {d["cathedral_city"] for d in board["ecclesiastic_districts"]}:
        problems.append(f"the cathedral cities {sorted(cathedrals)} must be the districts' cathedral cities")
    # Roads: known cities, N/E/S/W, opposite both ways, one road per compass point per city.
    seen_pairs, used = set(), Counter()
    for road in board["roads"]:
        a, b = road["between"]
        if a not in cities or b not in cities or a == b:
            problems.append(f"road {road['between']}: must join two different known cities")
            continue
        if frozenset((a, b)) in seen_pairs:
            problems.append(f"road {road['between']}: listed twice")
        seen_pairs.add(frozenset((a, b)))
        directions = road["directions"]
        if set(directions) != {a, b} or not set(directions.values()) <= set(OPPOSITE):
            problems.append(f"road {road['between']}: directions must name both cities with N, E, S or W")
            continue
        if OPPOSITE[directions[a]] != directions[b]:
            problems.append(f"road {road['between']}: leaves {a} by {directions[a]} so must leave {b} by "
                            f"{OPPOSITE[directions[a]]}, not {directions[b]}")
        used[(a, directions[a])] += 1
        used[(b, directions[b])] += 1
    for (city, point), count in sorted(used.items()):
        if count > 1:
            problems.append(f"{city}: {count} roads leave by {point}; a compass draw (6.3) must pick one road")
    reached = distances(road_graph(board), board["cities"][0]["name"])
    if set(cities) - set(reached):
        problems.append(f"the roads do not join every city: {sorted(set(cities) - set(reached))} unreachable")
    reached_seas = distances(sea_graph(board), "I")
    if set(reached_seas) != set(numbers):
        problems.append("the seas are not all joined")
    paths = board["bandit_paths"]
    if not set(paths["cities"]) <= set(cities) or paths["forest"] in cities:
        problems.append("bandit paths join known cities through a forest that is not a city")
    if board["excalibur_start"]["city"] not in cities:
        problems.append("excalibur_start: unknown city")
    return problems


def check_fact(board: dict, fact: dict) -> list[str]:
    kind = fact["fact"]
    cities = region_of(board)
    names = {r["name"]: r["number"] for r in board["regions"]}
    regions = {r["number"]: r for r in board["regions"]}
    ports = {c["name"] for c in board["cities"] if c.get("port")}

    def members(number: str) -> set[str]:
        return {c for c, n in cities.items() if n == number}

    if kind == "region_count":
        ok = len(regions) == fact["count"]
    elif kind == "region_size_range":
        ok = all(fact["min"] <= len(members(n)) <= fact["max"] for n in regions)
    elif kind == "region_name":
        ok = regions.get(fact["region"], {}).get("name") == fact["name"]
    elif kind == "region_size":
        ok = fact["name"] in names and len(members(names[fact["name"]])) == fact["size"]
    elif kind == "region_cities":
        ok = fact["name"] in names and members(names[fact["name"]]) == set(fact["cities"])
    elif kind == "city_region_name":
        ok = fact["name"] in names and cities.get(fact["city"]) == names[fact["name"]]
    elif kind == "city_in_region_names":
        ok = cities.get(fact["city"]) in {names.get(n) for n in fact["names"]}
    elif kind == "ports":
        ok = ports == set(fact["cities"]) and len(ports) == len(regions)
    elif kind == "port":
        ok = fact["city"] in ports and cities.get(fact["city"]) == fact["region"]
    elif kind == "district":
        district = next((d for d in board["ecclesiastic_districts"] if d["id"] == fact["id"]), None)
        ok = district is not None and district["name"] == fact["name"] \
            and district["cathedral_city"] == fact["cathedral_city"] \
            and sorted(district["regions"]) == sorted(names.get(n, "?") for n in fact["regions_named"])
    elif kind == "road":
        ok = fact["between"][1] in road_graph(board).get(fact["between"][0], set())
    elif kind == "road_direction":
        ok = exits(board).get((fact["from"], fact["direction"])) == fact["to"]
    elif kind == "no_road":
        ok = (fact["city"], fact["direction"]) not in exits(board)
    elif kind == "road_distance":
        ok = distances(road_graph(board), fact["from"]).get(fact["to"]) == fact["moves"]
    elif kind == "naval_moves":
        ok = {fact["from"], fact["to"]} <= ports and distances(
            sea_graph(board), cities[fact["from"]]).get(cities[fact["to"]]) == fact["moves"]
    elif kind == "sea_adjacent":
        a, b = fact["between"]
        ok = b in sea_graph(board).get(a, set())
    elif kind == "bandit_path_cities":
        ok = set(board["bandit_paths"]["cities"]) == set(fact["cities"])
    else:
        return [f"fact {fact}: unknown kind {kind!r} (board.yaml lists the kinds)"]
    return [] if ok else [f"the board breaks a stated fact: {fact}"]


def check_facts(board: dict) -> list[str]:
    return [problem for fact in board["facts"] for problem in check_fact(board, fact)]


# -------------------------------------------------------------------------------- the board

def test_every_item_of_the_board_says_where_it_comes_from(board: dict) -> None:
    assert check_provenance(board) == []


def test_the_board_is_consistent(board: dict) -> None:
    assert check_consistency(board) == []
    assert len(board["cities"]) == 18


def test_the_board_holds_every_fact_the_rulebook_states(board: dict) -> None:
    kinds = {fact["fact"] for fact in board["facts"]}
    assert {"region_cities", "ports", "district", "road_direction", "road_distance", "naval_moves"} <= kinds
    assert check_facts(board) == []


def test_the_marches_are_berwick_and_durham(board: dict) -> None:
    """The brief's example fact, and Ex 6-2's compass draws at King's Lynn (l.410)."""
    assert sorted(c for c, n in region_of(board).items() if n == number_of(board, "Marches")) == ["Berwick", "Durham"]
    out = exits(board)
    assert [out.get(("King's Lynn", p)) for p in "NESW"] == ["Lincoln", "Norwich", None, "Coventry"]


def city(board: dict, name: str) -> dict:
    return next(c for c in board["cities"] if c["name"] == name)


def road(board: dict, a: str, b: str) -> dict:
    return next(r for r in board["roads"] if set(r["between"]) == {a, b})


def district(board: dict, ident: str) -> dict:
    return next(d for d in board["ecclesiastic_districts"] if d["id"] == ident)


def region(board: dict, number: str) -> dict:
    return next(r for r in board["regions"] if r["number"] == number)


@pytest.mark.parametrize("break_it, expected", [
    (lambda b: city(b, "Exeter").update(region="II"), "region I: size 3 but 2 cities are in it"),
    (lambda b: road(b, "Oxford", "London")["directions"].update(London="E"), "so must leave London by W, not E"),
    (lambda b: b["roads"].append({"between": ["London", "Winchester"], "directions": {"London": "S", "Winchester": "N"},
                                  "reconstructed": True, "reasoning": "x", "directions_reconstructed": True}),
     "London: 2 roads leave by S"),
    (lambda b: b["roads"].append({"between": ["London", "Camelot"], "directions": {"London": "E", "Camelot": "W"},
                                  "reconstructed": True, "reasoning": "x", "directions_reconstructed": True}),
     "must join two different known cities"),
    (lambda b: city(b, "Plymouth").update(port=False), "region I: exactly one port"),
    (lambda b: district(b, "norwich").update(regions=["V", "VI"]), "cover every region exactly once"),
    (lambda b: b["roads"].__setitem__(slice(None), [r for r in b["roads"] if "Durham" not in r["between"]]),
     "['Berwick', 'Durham'] unreachable"),
    (lambda b: region(b, "II").update(title="County of Wales"), "2 cities make a Barony"),
])
def test_a_broken_board_is_caught_with_the_problem_named(board: dict, break_it, expected: str) -> None:
    broken = copy.deepcopy(board)
    break_it(broken)
    assert any(expected in p for p in check_consistency(broken)), check_consistency(broken)


@pytest.mark.parametrize("break_it, expected", [
    (lambda b: city(b, "Durham").update(region="IV"), "'Berwick', 'Durham'"),            # Durham moved to the North
    (lambda b: b["roads"].append({"between": ["York", "Lincoln"], "directions": {"York": "W", "Lincoln": "E"}}),
     "'road_distance'"),                                                                 # Ex 13-1's 3 Moves
    (lambda b: road(b, "King's Lynn", "Norwich")["directions"].update({"King's Lynn": "S", "Norwich": "N"}),
     "'no_road'"),
    (lambda b: b["sea_adjacency"].remove(next(p for p in b["sea_adjacency"] if p["between"] == ["II", "III"])),
     "'naval_moves', 'from': 'Berwick'"),          # Ex 5-5 around Scotland
    (lambda b: b["facts"].append({"fact": "city_count", "count": 18, "source": "x"}), "unknown kind 'city_count'"),
])
def test_a_board_that_breaks_a_stated_fact_is_caught(board: dict, break_it, expected: str) -> None:
    broken = copy.deepcopy(board)
    break_it(broken)
    assert any(expected in p for p in check_facts(broken)), check_facts(broken)


def test_an_item_without_provenance_is_caught(board: dict) -> None:
    broken = copy.deepcopy(board)
    del city(broken, "Bristol")["reasoning"]                   # reconstructed, without its reasoning
    road(broken, "Oxford", "London").pop("directions_reconstructed")
    problems = check_provenance(broken)
    assert "city Bristol: needs either `source:` or `reconstructed: true` with `reasoning:`" in problems
    assert any("road ['Oxford', 'London']: needs `directions_source:`" in p for p in problems)


def test_geography_places_exactly_the_board_s_cities(board: dict) -> None:
    geography = load("geography.yaml")
    assert geography["variant"] == board["variant"] == "fief_england"
    assert set(geography["towns"]) == set(region_of(board))
    assert set(geography["other_nodes"]) == {board["bandit_paths"]["forest"]}
    frame = geography["frame"]
    for name, point in {**geography["towns"], **geography["other_nodes"]}.items():
        assert frame["lon_min"] <= point["lon"] <= frame["lon_max"], name
        assert frame["lat_min"] <= point["lat"] <= frame["lat_max"], name


# -------------------------------------------------------------------------------- the cards

CHARACTER_KINDS = ("nobles", "abbess", "bishop", "archbishop", "mercenary", "burgher")
FORTUNE = {"bountiful_harvest", "good_weather", "tax", "rebellion", "passage", "assassination", "justice", "ambush"}
DISASTER = {"plague", "storms", "famine", "invaders"}
USES = {"per_round", "once", "always"}
# The documented vocabulary (cards.yaml `retainers.vocabulary`, docs/fief-england.md): each
# effect's parameters and the values each may take.
ROLLS = {"plague", "bandits", "carrier_pigeon", "church_intervention", "quell_rebellion", "excalibur"}
DANGERS = {"plague", "rebellion", "justice", "ambush", "assassination", "bandits"}
POSITIVE = "positive"
VOCABULARY = {
    "swap_hand_card": {},
    "extra_moves": {"moves": POSITIVE},
    "melee_hits": {"hits": POSITIVE},
    "strength_points": {"points": POSITIVE},
    "income": {"shillings": POSITIVE},
    "reroll": {"roll": ROLLS},
    "immune": {"to": DANGERS},
    "votes": {"votes": POSITIVE, "in": {"election", "parliament", "both"}},
}


def check_effect(effect: dict) -> list[str]:
    name = effect.get("effect")
    if name not in VOCABULARY:
        return [f"effect {name!r} is not in the vocabulary ({', '.join(VOCABULARY)})"]
    params = {k: v for k, v in effect.items() if k != "effect"}
    if set(params) != set(VOCABULARY[name]):
        return [f"effect {name}: parameters {sorted(params)}, expected {sorted(VOCABULARY[name])}"]
    problems = []
    for key, allowed in VOCABULARY[name].items():
        value = params[key]
        ok = (isinstance(value, int) and not isinstance(value, bool) and value > 0) if allowed == POSITIVE \
            else value in allowed
        if not ok:
            problems.append(f"effect {name}: {key}={value!r} is not allowed")
    return problems


def check_cards(cards: dict) -> list[str]:
    problems = []
    deck = cards["character_deck"]
    if sum(len(deck[kind]) for kind in CHARACTER_KINDS) != deck["total"]:
        problems.append(f"character deck: {deck['total']} cards stated, "
                        f"{sum(len(deck[k]) for k in CHARACTER_KINDS)} listed")
    names = [n["name"] for n in deck["nobles"]]
    if len(set(names)) != len(names):
        problems.append("two nobles share a name")
    for noble in deck["nobles"]:
        if not isinstance(noble.get("female"), bool):
            problems.append(f"noble {noble['name']}: `female:` must be true or false")
        if not (text(noble.get("source")) or noble.get("reconstructed") is True):
            problems.append(f"noble {noble['name']}: needs `source:` or `reconstructed: true`")
    genders = Counter(n["female"] for n in deck["nobles"])
    if min(genders[True], genders[False]) < 7:
        problems.append("setup sets 3 nobles of each gender aside and deals 4: each gender needs 7 cards")
    districts = [c["district"] for c in deck["bishop"] + deck["archbishop"] if c["district"] is not None]
    if not set(districts) <= {"exeter", "york", "norwich", "canterbury"} or len(set(districts)) != len(districts):
        problems.append(f"bishop/archbishop cards: districts {districts} must be known and distinct")
    for group, kinds in (("fortune", FORTUNE), ("disaster", DISASTER)):
        listed = cards[group]["cards"]
        if set(listed) != kinds:
            problems.append(f"{group}: card types {sorted(listed)}, expected {sorted(kinds)}")
        if sum(c["count"] for c in listed.values()) != cards[group]["total"]:
            problems.append(f"{group}: the counts do not add up to {cards[group]['total']}")
    retainers = cards["retainers"]
    if set(retainers["vocabulary"]) != set(VOCABULARY):
        problems.append(f"retainer vocabulary {sorted(retainers['vocabulary'])} differs from the documented one")
    if [r["id"] for r in retainers["cards"]] != list(range(1, retainers["total"] + 1)):
        problems.append(f"retainers: ids must run 1..{retainers['total']}")
    for retainer in retainers["cards"]:
        what = f"retainer {retainer['id']} ({retainer['name']})"
        if retainer["entered"] is True:
            if retainer["uses"] not in USES or not retainer["effects"]:
                problems.append(f"{what}: an entered ability needs `uses:` ({', '.join(sorted(USES))}) and effects")
            problems += [f"{what}: {p}" for e in retainer["effects"] for p in check_effect(e)]
        elif retainer["entered"] is False:
            if retainer["effects"] or retainer["uses"] is not None:
                problems.append(f"{what}: not entered, so it has no ability: `uses: null`, `effects: []`")
        else:
            problems.append(f"{what}: `entered:` must be true or false")
    return problems


def test_the_card_counts_add_up_and_every_card_has_a_known_type(cards: dict) -> None:
    assert check_cards(cards) == []
    assert cards["character_deck"]["total"] == 31 and cards["fortune"]["total"] == 16
    assert cards["disaster"]["total"] == 9 and cards["retainers"]["total"] == 23


def test_mata_has_the_ability_the_rulebook_gives_her(cards: dict) -> None:
    """2.12 (l.204): once per Round, swap a card of your choice for a random one of another hand.
    The other retainers have no ability until a game master enters it (check_cards)."""
    mata = next(r for r in cards["retainers"]["cards"] if r["name"] == "Mata")
    assert (mata["entered"], mata["uses"], mata["effects"]) == (True, "per_round", [{"effect": "swap_hand_card"}])


def test_every_vocabulary_effect_is_documented(cards: dict) -> None:
    docs = DOCS.read_text(encoding="utf-8")
    for name in cards["retainers"]["vocabulary"]:
        assert f"`{name}`" in docs, f"{name} is not described in docs/fief-england.md"


def blank(cards: dict) -> dict:
    """A retainer whose ability is not entered (a game master may have entered some)."""
    return next(r for r in cards["retainers"]["cards"] if not r["entered"])


@pytest.mark.parametrize("break_it, expected", [
    (lambda c: c["character_deck"]["nobles"].pop(), "character deck: 31 cards stated, 30 listed"),
    (lambda c: c["fortune"]["cards"].update(pestilence={"count": 1}), "fortune: card types"),
    (lambda c: c["disaster"]["cards"]["plague"].update(count=3), "disaster: the counts do not add up to 9"),
    (lambda c: blank(c).update(entered=True, uses="per_round", effects=[{"effect": "fly", "miles": 3}]),
     "effect 'fly' is not in the vocabulary"),
    (lambda c: blank(c).update(entered=True, uses="once", effects=[{"effect": "extra_moves", "moves": 0}]),
     "effect extra_moves: moves=0 is not allowed"),
    (lambda c: blank(c).update(effects=[{"effect": "income", "shillings": 1}]),
     "not entered, so it has no ability"),
    (lambda c: c["character_deck"]["bishop"][0].update(district="rome"), "must be known and distinct"),
])
def test_broken_card_data_is_caught_with_the_problem_named(cards: dict, break_it, expected: str) -> None:
    broken = copy.deepcopy(cards)
    break_it(broken)
    assert any(expected in p for p in check_cards(broken)), check_cards(broken)


# --------------------------------------------------------------------------- the edition draft

CITATION = re.compile(r"#.*(\b\d+\.\d+\b|Components|Game Setup|FAQ|reconstructed)")
NUMBER = re.compile(r":\s*(\[?-?\d|\{\s*\w+:\s*\d|\{\d)")


def uncited_numbers(source: str) -> list[str]:
    """Every line that sets a number must carry a comment citing its section (or reconstruction)."""
    return [line for line in source.splitlines()
            if not line.lstrip().startswith("#") and NUMBER.search(line.split("#")[0]) and not CITATION.search(line)]


def check_edition(edition: dict, cards: dict, board: dict) -> list[str]:
    problems = []
    deck, listed = edition["deck"], cards["character_deck"]
    expected = {"characters": listed["total"], "lords": len(listed["nobles"]),
                "women": sum(n["female"] for n in listed["nobles"]), "retainers": cards["retainers"]["total"]}
    for key, count in expected.items():
        if deck.get(key) != count:
            problems.append(f"edition deck.{key} = {deck.get(key)}, cards.yaml has {count}")
    others = {kind: len(listed[kind]) for kind in CHARACTER_KINDS if kind != "nobles"}
    if deck["other_characters"] != others:
        problems.append(f"edition deck.other_characters {deck['other_characters']} differs from cards.yaml {others}")
    for group in ("fortune", "disaster"):
        counts = {k: v["count"] for k, v in cards[group]["cards"].items()}
        if deck[group] != counts:
            problems.append(f"edition deck.{group} {deck[group]} differs from cards.yaml {counts}")
    supply = edition["supply"]
    if supply["relics"] != len(cards["relics"]) or supply["treasures"] != cards["treasures"]["per_family"]:
        problems.append("edition supply.relics / supply.treasures differ from cards.yaml")
    if supply["mills"] < len(board["cities"]) * edition["limits"]["mills_per_town"]:
        problems.append("fewer mills than cities can hold")
    players = edition["players"]
    for key in ("alliance_players", "marriage_players"):
        if not all(players["min"] <= n <= players["max"] for n in edition["victory"][key]):
            problems.append(f"victory.{key} outside {players['min']}-{players['max']} players")
    if set(players["families_per_player"]) != set(range(players["min"], players["max"] + 1)):
        problems.append("players.families_per_player must name every player count")
    victory = edition["victory"]
    if not 1 <= victory["from_round"] <= victory["last_round"]:
        problems.append("victory.from_round must come before victory.last_round")
    # 4.3 (l.308-310): a duchy costs 8, a county 6, a barony 4.
    for region in board["regions"]:
        price = edition["prices"]["title_per_town"] * region["size"]
        if price != {2: 4, 3: 6, 4: 8}[region["size"]]:
            problems.append(f"region {region['number']}: title price {price} breaks 4.3")
    families = max(n * f for n, f in players["families_per_player"].items())
    start, men = edition["start"], expected["lords"] - expected["women"]
    for gender, count in (("male", men), ("female", expected["women"])):
        if start["nobles_set_aside"][gender] + start["nobles"][gender] * families > count:
            problems.append(f"the setup needs more {gender} nobles than the deck's {count}")
    if "invaders" not in edition["round"] or edition["round"][-1] != "end_of_round":
        problems.append("the round must include the Invaders phase and end with end_of_round")
    return problems


def test_every_number_of_the_edition_cites_its_section() -> None:
    source = (FOLDER / "edition.yaml").read_text(encoding="utf-8")
    assert uncited_numbers(source) == []
    assert uncited_numbers("  mills: 18\n  bombard: {price: 3}   # 4.0 (l.293)\n  dice: [1, 2]\n") == [
        "  mills: 18", "  dice: [1, 2]"]


def test_the_edition_agrees_with_the_cards_and_the_board(edition: dict, cards: dict, board: dict) -> None:
    assert check_edition(edition, cards, board) == []
    assert edition["money"]["public"] is False                       # FAQ (l.857)
    assert edition["victory"]["alliance_players"] == [2, 4]          # 8.3 (l.616)
    assert (edition["victory"]["from_round"], edition["victory"]["last_round"]) == (5, 7)
    assert edition["cards"]["two_player"] == {"hand_limit": 5, "draws": 4, "character_draws": 2}
    assert {k: v["pool"] for k, v in edition["units"].items()} == {
        "man_at_arms": 12, "knight": 8, "archer": 4, "bombard": 3, "trebuchet": 2}
    assert (edition["supply"]["carrier_pigeons"], edition["supply"]["treasures"]) == (3, 2)


@pytest.mark.parametrize("break_it, expected", [
    (lambda e: e["deck"]["fortune"].update(tax=4), "edition deck.fortune"),
    (lambda e: e["deck"].update(lords=18), "edition deck.lords = 18, cards.yaml has 20"),
    (lambda e: e["deck"]["other_characters"].update(burgher=1), "edition deck.other_characters"),
    (lambda e: e["victory"].update(alliance_players=[4, 6]), "victory.alliance_players outside 2-4 players"),
    (lambda e: e["prices"].update(title_per_town=3), "title price 9 breaks 4.3"),
])
def test_an_edition_that_disagrees_is_caught(edition: dict, cards: dict, board: dict, break_it, expected: str) -> None:
    broken = copy.deepcopy(edition)
    break_it(broken)
    assert any(expected in p for p in check_edition(broken, cards, board)), check_edition(broken, cards, board)
