"""REBELLION (E 10.1, 9.3, 11.2, 11.3): on a city taxed by Tallage or Tithe, Royal-Taxed by
Parliament or under FAMINE - never on a city under a TAX card one played oneself. Each
Rebellion (a REBELLION card, a BURGHER's Rebellion action, the PARLIAMENT card on its Rebellion
side) adds 1 battle die and +1 hit; a Stronghold cancels one, a Fortified City two, unless a
PASSAGE (card or BURGHER action) ignores them; a cleric in the city may quell what is left; the
dice are rolled once (R5), hits taken from the troops there; if every troop falls (or there
were none, R34) every noble there dies, captives included - except in an Abbey (2.13) - and the
city's Mill, Abbey and Stronghold are destroyed (R29: a Fortified City stays).

By mail (R41) the Rebellion is raised by one player's at-once order with every card and action
they add; other players add theirs through the standing policy `join_rebellions`
(``supporters``). Invaders in the city are struck too (6.13, 10.1 "REBELLIONs can target
Invaders"): as one more family, first when they hold the city or the raiser's play says
`invaders_first: yes`, else after the players' troops (R122); the Invaders part takes their
losses (``invaders.rebellion.rebellion_hits``) and "all Troops defeated" counts theirs.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from pbem.games.fief.board import Board
from pbem.games.fief.edition import edition_of
from pbem.games.fief.hear_ye.elimination import eliminate_lord
from pbem.games.fief.movement.events import Teller
from pbem.games.fief.policies import loss_order
from pbem.games.fief.state import FiefState
from pbem.games.fief_england import crown
from pbem.games.fief_england.church import abbeys
from pbem.games.fief_england.church.protection import shielded
from pbem.games.fief_england.invaders.armies import in_city, numbers, record as invaders_record
from pbem.games.fief_england.invaders.rebellion import invader_troops, rebellion_hits
from pbem.games.fief_england.reading import abbey_in, cleric, parliament_rebellion
from pbem.games.fief_england.regions import record, region_name, region_of
from pbem.games.fief_england.troops import hits_to_defeat, troops_text
from pbem.rules.api import Event, OrderError
from pbem.rules.rng import Rng

CANCELS = {"stronghold": 1, "city": 2}   # 10.1: a Stronghold cancels one, a Fortified City two
QUELL_POLICY = "quell_rebellions"   # standing: never (default) | pay | pray | pay_else_pray
QUELL_CHOICES = ("never", "pay", "pray", "pay_else_pray")
JOIN_POLICY = "join_rebellions"     # standing: {against: [players] | all, cards: N}


@dataclass
class Rising:
    """One Rebellion being raised: its city and what each player adds."""

    city: str
    raiser: str
    sources: list[tuple[str, str]] = field(default_factory=list)   # (player, "rebellion"|"burgher"|"parliament")
    passage: str | None = None   # who ignores the fortress's cancellations (a PASSAGE card or BURGHER action)
    invaders_first: bool = False   # the raiser targets the Invaders in the city first (10.1, R122)


def taxers(state: FiefState, board: Board, city: str) -> set[str]:
    """2.8: the players whose TAX card (Tallage on the city's Region, Tithe on its district)
    affects ``city``."""
    region = region_of(board, city)
    district = str(board.towns[city].bishopric)
    out = set()
    for e in state.board_effects:
        if (e.card == "tallage" and e.target == region) or (e.card == "tithe" and e.target in (district, region)):
            out.add(e.player or "")
    return out


def grounds_problem(state: FiefState, board: Board, player: str, city: str) -> str | None:
    """10.1: why ``player`` may not raise or join a Rebellion in ``city`` (None: they may)."""
    mine = player in taxers(state, board, city)
    if mine:
        return f"{city} lies under a TAX card you played: you can never raise a REBELLION there (10.1)"
    region = region_of(board, city)
    famine = any(e.card == "famine" and e.target == region for e in state.board_effects)
    if famine or taxers(state, board, city) or parliament_rebellion(state):
        return None
    return (f"{city} is neither taxed (Tallage or Tithe, 2.8), nor under the Royal Tax's Rebellion (9.3), nor in a "
            f"FAMINE Region ({region_name(board, region or '')}) (10.1)")


def choose_losses(kinds: list[str], hits: int, order: tuple[str, ...], worth: dict[str, int]) -> list[int]:
    """7.5: the troops (indexes into ``kinds``) removed by ``hits``: "as many SPs as possible up
    to the number of Hits", the owner's `plague_losses` order breaking ties (its first kinds
    go first)."""
    rank = {k: i for i, k in enumerate(order)}
    by_kind: dict[str, list[int]] = {}
    for i, k in enumerate(kinds):
        by_kind.setdefault(k, []).append(i)
    names = sorted(by_kind, key=lambda k: rank.get(k, len(rank)))
    best: tuple | None = None
    for counts in itertools.product(*(range(len(by_kind[k]) + 1) for k in names)):
        cost = sum(n * worth[k] for n, k in zip(counts, names, strict=True))
        if cost > hits:
            continue
        key = (cost, counts)   # most hits used; then the preferred kinds first
        if best is None or key > best[0]:
            best = (key, counts)
    if best is None:
        return []
    return [i for n, k in zip(best[1], names, strict=True) for i in by_kind[k][:n]]


def quellers(state: FiefState, city: str) -> list[str]:
    return sorted(l.name for l in state.lords.values()
                  if l.location == city and not l.captive_of and cleric(state, l)
                  and state.families[l.family].policies.get(QUELL_POLICY, "never") != "never")


def _quell(state: FiefState, board: Board, rng: Rng, city: str, count: int) -> tuple[int, list[Event]]:
    """10.1: each willing cleric in the city (their family's `quell_rebellions` policy), in
    name order, pays 3 shillings per Rebellion to stop them all, or rolls a d6 per Rebellion
    (1-4 stops it, 5-6 the cleric is stoned to death). Returns the Rebellions left."""
    events: list[Event] = []
    for name in quellers(state, city):
        if count <= 0:
            break
        lord = state.lords.get(name)
        if lord is None:
            continue
        family = state.families[lord.family]
        how = family.policies.get(QUELL_POLICY)
        price = record(state, "prices.quell_rebellion") * count   # 10.1 (l.692): "3 Shillings per Rebellion"
        if how in ("pay", "pay_else_pray") and family.deniers >= price:
            family.deniers -= price
            events.append(Event("rebellion_quelled", f"{name} ({lord.family}) pays {price} shillings and the "
                                f"{count} Rebellion(s) in {city} stop (10.1).",
                                data={"lord": name, "city": city, "paid": price}))
            return 0, events
        if how not in ("pray", "pay_else_pray"):
            continue
        while count > 0:
            roll = rng.d6(f"quell rebellion: {name}")
            if roll in record(state, "dice.quell_rebellion_stops"):   # 10.1: 1-4 stops, 5-6 stoned
                count -= 1
                events.append(Event("rebellion_calmed", f"{name} ({lord.family}) rolls {roll}: one Rebellion in "
                                    f"{city} stops (10.1).", data={"lord": name, "roll": roll, "city": city}))
                continue
            events.append(Event("cleric_stoned", f"{name} ({lord.family}) rolls {roll} and is stoned to death by "
                                f"the rebels of {city} (10.1).", data={"lord": name, "roll": roll, "city": city}))
            events += eliminate_lord(state, board, name)
            break
    return count, events


def raise_rebellion(state: FiefState, board: Board, rng: Rng, rising: Rising) -> list[Event]:
    """10.1: resolve one Rebellion with everything added to it (the cards and treasures were
    spent by the caller)."""
    city, town = rising.city, state.towns[rising.city]
    count = len(rising.sources)
    who = ", ".join(f"{p} ({s.upper()})" for p, s in rising.sources)
    events = [Event("rebellion", f"REBELLION in {city}: {count} Rebellion(s) - {who} (10.1).",
                    data={"city": city, "sources": [list(s) for s in rising.sources]})]
    cancel = CANCELS.get(town.fortress or "", 0)
    if cancel and rising.passage:
        events.append(Event("rebellion_passage", f"{rising.passage}'s PASSAGE: the rebels ignore the "
                            f"{'Stronghold' if town.fortress == 'stronghold' else 'Fortified City'} of {city} "
                            "(10.2).", data={"city": city, "player": rising.passage}))
        cancel = 0
    if cancel:
        fortress = 'Stronghold' if town.fortress == 'stronghold' else 'Fortified City'
        events.append(Event("rebellion_cancelled", f"The {fortress} "
                            f"of {city} cancels {min(cancel, count)} Rebellion(s) (10.1).",
                            data={"city": city, "cancelled": min(cancel, count)}))
    count = max(0, count - cancel)
    if count:
        count, more = _quell(state, board, rng, city, count)
        events += more
    if count == 0:
        return events + [Event("rebellion_over", f"The Rebellion in {city} rolls no die: it is over (10.1).",
                               data={"city": city})]
    faces = [rng.die(record(state, "dice.battle_die"), f"rebellion in {city}") for _ in range(count)]
    hits = sum(faces) + count   # 10.1: 1 battle die +1f bonus hit per Rebellion (R5)
    events.append(Event("rebellion_roll", f"The rebels of {city} roll {count} battle dice: "
                        f"{' + '.join(map(str, faces))} + {count} bonus = {hits} hits (10.1).",
                        data={"city": city, "faces": faces, "hits": hits}))
    return events + _hits(state, board, city, hits, rising.invaders_first)


def _hits(state: FiefState, board: Board, city: str, hits: int, invaders_first: bool = False) -> list[Event]:
    """7.5 by 10.1: the hits strike the troops in the city, family by family from its
    controller in turn order (R91), the Invaders there as one more (6.13, R122); then "No
    Captives" if none is left (R34)."""
    events: list[Event] = []
    worth = hits_to_defeat(state)
    order: list[str | None] = list(state.turn_order())
    owner = state.towns[city].controller
    if owner in order:
        order.remove(owner)
        order.insert(0, owner)
    if invader_troops(state, city):   # None: the Invaders' turn to take hits
        order.insert(0 if invaders_first or owner is None else len(order), None)
    for family in order:
        if family is None:
            if hits > 0:
                used, more = _invaders_hit(state, city, hits)
                hits -= used
                events += more
            continue
        pawns = sorted((p for p in state.pawns.values() if p.location == city and p.family == family
                        and p.kind in worth), key=lambda p: int(p.id.lstrip("p") or 0))
        if not pawns or hits <= 0:
            continue
        order_of = loss_order(state.families[family].policies, edition_of(state))
        lost = [pawns[i] for i in choose_losses([p.kind for p in pawns], hits, order_of, worth)]
        hits -= sum(worth[p.kind] for p in lost)
        for p in lost:
            del state.pawns[p.id]
        teller = Teller(state)   # 4.1, R96: the kinds to the owner, the count to the others
        head = f"{family} loses {len(lost)} of {len(pawns)} troops in {city}"
        teller.public("rebellion_losses", family, f"{head} ({troops_text(state, [p.kind for p in lost])}) (10.1, 7.5).",
                      f"{head} (10.1, 7.5).", {"family": family, "city": city, "lost": [p.kind for p in lost]},
                      {"family": family, "city": city, "lost": len(lost)})
        events += teller.events
    if any(p.location == city and p.kind in worth for p in state.pawns.values()) or invader_troops(state, city):
        return events
    return events + _no_captives(state, board, city)


def _invaders_hit(state: FiefState, city: str, hits: int) -> tuple[int, list[Event]]:
    """6.13: the Invaders part strikes its armies in ``city`` with ``hits``; returns the hits
    their losses took (2 a Foot Soldier, 3 a Leader, 7.5) and its events."""
    n, armies = numbers(), invaders_record(state)["armies"]
    here = in_city(state, city)
    before = [(armies[a]["foot"], armies[a]["leader"]) for a in here]
    events = rebellion_hits(state, city, hits)
    used = sum((foot - armies[a]["foot"]) * n.foot_points + (leader and not armies[a]["leader"]) * n.leader_points
               for a, (foot, leader) in zip(here, before, strict=True))
    return used, events


def _no_captives(state: FiefState, board: Board, city: str) -> list[Event]:
    """10.1 "No Captives", R29, R34: every noble in the city dies, captives included, unless
    in an Abbey (2.13); the Mill, the Abbey and a Stronghold are destroyed."""
    events: list[Event] = []
    nobles = sorted(l.name for l in state.lords.values() if l.location == city)
    if nobles and abbey_in(state, city):
        events.append(Event("rebellion_abbey", f"No troop is left in {city}; the nobles there are in the Abbey "
                            f"and are spared: {', '.join(nobles)} (2.13).", data={"city": city, "nobles": nobles}))
    else:
        for name in nobles:
            shield = shielded(state, name, "rebellion")   # 2.12: a retainer immune to REBELLION
            if shield:
                why, used = shield
                events.append(Event("rebellion_immune", f"No troop is left in {city}; {name} "
                                    f"({state.lords[name].family}) is spared: {why}.",
                                    data={"city": city, "lord": name}))
                events += used
                continue
            events.append(Event("rebellion_slays", f"No troop is left in {city}: the rebels slay {name} "
                                f"({state.lords[name].family}) (10.1).", data={"city": city, "lord": name}))
            events += eliminate_lord(state, board, name)
    town = state.towns[city]
    gone: list[str] = []
    if town.mills:
        town.mills, gone = 0, gone + ["Mill"]
    abbey_lost = (abbeys.destroy(state, city, "a REBELLION, 10.1")   # 2.13: its Abbess may rebuild it
                  if abbeys.abbey_in(state, city) else [])
    if abbey_lost:
        gone.append("Abbey")
    if town.fortress == "stronghold":
        town.fortress, gone = None, gone + ["Stronghold"]
    if gone:
        events.append(Event("rebellion_destroys", f"The rebels destroy the {' and '.join(gone)} of {city} (10.1, R29).",
                            data={"city": city, "destroyed": gone}))
    if "Stronghold" in gone:   # 4.9, R29: the Royal Stronghold too
        events += crown.royal_destroyed(state, board, city, "a REBELLION (10.1)")
    events += abbey_lost
    return events


def policy_checker(key: str):
    """``check_policy`` in the form of the edition's `policies` hook (errors listed, the
    canonical value returned, None after an error)."""
    def check(view, player: str, value, line, errors: list):
        players = [p for p in view.get("players", []) if p != player] + [player]
        got, why = check_policy(key, value, players, player)
        if why:
            errors.append(OrderError(line, why, "docs/orders-fief-england.md, \"Standing orders\""))
            return None
        return got
    return check


def check_policy(key: str, value: object, players: list[str], me: str) -> tuple[object, str | None]:
    """The mail's `policies:` entries of this part (R94): (the canonical value, or why not)."""
    if key == QUELL_POLICY:
        word = str(value).strip().lower()
        if word not in QUELL_CHOICES:
            return None, f"`{QUELL_POLICY}:` is one of {', '.join(QUELL_CHOICES)}, not {value!r}"
        return word, None
    if key != JOIN_POLICY:
        raise ValueError(key)
    form = f"`{JOIN_POLICY}:` is a mapping, e.g. `{{against: [a player], cards: 1}}` or `{{against: all}}`"
    if not isinstance(value, dict) or not set(value) <= {"against", "cards"} or "against" not in value:
        return None, form
    against = value["against"]
    against = str(against) if isinstance(against, str) else against
    if against != "all":
        names = against if isinstance(against, list) else [against]
        unknown = [n for n in names if n not in players or n == me]
        if unknown:
            return None, f"`against:` names players other than you ({', '.join(p for p in players if p != me)}), " \
                         f"not {', '.join(map(str, unknown))}"
        against = [str(n) for n in names]
    cards = value.get("cards", 1)
    cards = int(cards) if isinstance(cards, str) and cards.strip() in ("1", "2") else cards   # as mailed
    if not isinstance(cards, int) or isinstance(cards, bool) or not 1 <= cards <= 2:
        return None, f"`cards:` is 1 or 2 (a REBELLION card each), not {cards!r}"
    return {"against": against, "cards": cards}, None
