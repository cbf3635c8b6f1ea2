"""Uprising cards (G.4.2.1), played at once in the cards-play sub-phase.

Every uprising card played on one town in that step cumulates ("every player may play some
others"): they are resolved together when the first of them comes up in turn order (H.3), and
the player of that first card rolls and chooses the families hit (its `target:` list). The
Fortress penalty cancels as many cards as its value; while the uprising would still roll a
die, the bishop of the town's bishopric may try to calm each card (a d6: 3-6 cancels it; 1-2
fails and the bishop is eliminated), as their family's standing policy `calm_uprisings` says
(default never); an edition's other church titles may calm too (its ``uprising_calmer`` hook;
France: cardinals in turn order, paying 3 deniers and staying, D.2.2).

Uprisings also fire from standing triggers (surprise/uprising_triggers.py): when a tax is
collected (Income), when a famine strikes (after the Cards Phase's step C), before a lord leaves
a town (Movement) and at the start of a battle; all go through ``raise_uprising``. An
underground card may cancel an uprising's Fortress penalty (G.4.2.2, ``underground_for_uprising``).
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from pbem.games.fief.battle.dice import PENALTY, battle_die
from pbem.games.fief.battle.forces import Side
from pbem.games.fief.battle.losses import choose_losses
from pbem.games.fief.board import Board
from pbem.games.fief.hear_ye.elimination import eliminate_lord
from pbem.games.fief.battle.plan_orders import plan_for
from pbem.games.fief.edition import edition_of
from pbem.games.fief.hooks import Calmer
from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief.surprise.standing import spend_trigger, triggers_of
from pbem.rules.api import Audience, Event
from pbem.rules.rng import Rng

CALM_POLICY = "calm_uprisings"
CALM_CHOICES = ("never", "as_bishop", "also_as_cardinal")   # default: never (a failed roll kills a bishop)
# The mapping form of the policy (rules version 2, D.2.2): {"as_bishop": bool, "as_cardinal": bool,
# "except_raised_by": [players]}; each short form is one of these mappings.
CALM_FORMS = {"never": {"as_bishop": False, "as_cardinal": False},
              "as_bishop": {"as_bishop": True, "as_cardinal": False},
              "also_as_cardinal": {"as_bishop": True, "as_cardinal": True}}
GROUNDS = ("famine", "tax")   # G.4.2.1: what an uprising may invoke
IN_UPRISING = "underground_in_uprising"   # the standing trigger of G.4.2.2 (surprise/uprising_triggers.py)


def uprising_grounds(effects: Iterable[tuple[str, str, str | None]], fief: str, bishopric: int,
                     governed: set[int], player: str, causes: Iterable[str] = GROUNDS) -> str | None:
    """G.4.2.1: why ``player`` may not raise an uprising in a town of this fief and bishopric
    (None: a famine on its bishopric, or a tax there the player did not play); ``causes`` limits
    the grounds a trigger waits for (``("tax",)``: only a tax card)."""
    for card, target, who in effects:
        if card == "famine" and target == str(bishopric) and "famine" in causes:
            return None
        taxed = ((card == "tallage" and target == fief) or
                 (card == "tithe" and (target == str(bishopric) or (target == "all" and bishopric in governed))))
        if taxed and who != player and "tax" in causes:
            return None
    if tuple(causes) == ("tax",):
        return "no tax card of another player affects it (G.4.2.1: you may not invoke a tax card you played)"
    if tuple(causes) == ("famine",):
        return "no famine lies on its bishopric (G.4.2.1)"
    return ("no famine lies on its bishopric and no tax card of another player affects it "
            "(G.4.2.1: you may not invoke a tax card you played)")


def state_grounds(state: FiefState, board: Board, player: str, town: str,
                  causes: Iterable[str] = GROUNDS) -> str | None:
    info = board.towns[town]
    governed = {l.bishopric for l in state.lords.values() if l.bishopric}
    effects = [(e.card, e.target, e.player) for e in state.board_effects]
    return uprising_grounds(effects, info.fief, info.bishopric, governed, player, tuple(causes))


class UprisingStep:
    """The uprisings of one cards-play step: the plays already gathered into an earlier one."""

    def __init__(self, orders: Mapping[str, Any]):
        self.orders = orders
        self.done: set[int] = set()

    def play(self, state: FiefState, board: Board, player: str, play: Mapping[str, Any], rng: Rng) -> list[Event]:
        if id(play) in self.done:
            return []
        town = play["town"]
        cards: list[tuple[str, Mapping[str, Any]]] = []
        started = False
        for p in state.turn_order():
            for other in (self.orders.get(p) or {}).get("play") or []:
                started = started or other is play
                if started and other.get("card") == "uprising" and other["town"] == town and id(other) not in self.done:
                    self.done.add(id(other))
                    cards.append((p, other))
        return raise_uprising(state, board, town, cards, rng)


def raise_uprising(state: FiefState, board: Board, town: str, cards: list[tuple[str, Mapping[str, Any]]],
                   rng: Rng, away: frozenset[str] = frozenset()) -> list[Event]:
    """One uprising in ``town`` from the cards ``(player, play)`` in turn order (H.3), played at
    once or by a standing trigger: each card is checked again (still in hand, grounds), the
    first one played rolls and its ``targets`` apply; ``underground: True`` on a play, else a
    standing `underground_in_uprising` trigger, may cancel the Fortress penalty (G.4.2.2).
    ``away``: pawn ids and lord names whose location names the town but who stand on a road
    to it (during the Movement Phase, 5.2.1): not in the town, so the uprising spares them."""
    events: list[Event] = []
    played: list[tuple[str, Mapping[str, Any]]] = []
    for p, play in cards:
        why = ("no longer holds an uprising card" if "uprising" not in state.families[p].hand
               else state_grounds(state, board, p, town))
        if why:
            events.append(Event("card_not_played", f"{p} cannot play an uprising card in {town}: {why}; "
                                "the card stays in hand.", audience=Audience.only(p),
                                data={"player": p, "card": "uprising"}))
            continue
        state.families[p].hand.remove("uprising")
        played.append((p, play))
        events.append(Event("surprise_played", f"{p} plays an uprising card in {town} (G.4.2.1).",
                            data={"player": p, "card": "uprising", "town": town}))
    if not played:
        return events
    roller, lead = played[0]
    fortress = state.towns[town].fortress
    penalty = PENALTY.get(fortress, 0) if fortress else 0
    if underground_for_uprising(state, town, [p for p, play in played if play.get("underground")],
                                penalty, events):
        penalty = 0
    raisers = frozenset(p for p, _ in played)
    events += _resolve(state, board, town, len(played), roller, lead.get("targets") or [], rng, penalty,
                       raisers, away)
    state.events_discard.extend(["uprising"] * len(played))   # G.4.2.1, H.2
    return events


def _resolve(state: FiefState, board: Board, town: str, count: int, roller: str, targets: list[str],
             rng: Rng, penalty: int, raisers: frozenset[str], away: frozenset[str]) -> list[Event]:
    events: list[Event] = []
    standing = count
    for _ in range(count):
        if standing <= penalty:
            break   # it would roll no die: nobody needs to calm it
        calmed, more = _calm_attempt(state, board, town, rng, raisers)
        events += more
        standing -= calmed
    dice = standing - penalty
    if dice <= 0:
        return events + [Event("uprising_canceled", f"The uprising in {town} rolls no battle die "
                               f"({standing} card(s), Fortress penalty {penalty}): it is canceled (G.4.2.1).",
                               data={"town": town})]
    faces = [battle_die(rng, f"uprising in {town}") for _ in range(dice)]
    hits = sum(faces) + dice   # +1 hit per die rolled
    events.append(Event("uprising", f"{roller} rolls {dice} battle die(s) for the uprising in {town}: "
                        f"{faces} + {dice} = {hits} hit(s) (G.4.2.1).",
                        data={"town": town, "roller": roller, "faces": faces, "hits": hits}))
    events += _hit_families(state, town, roller, targets, hits, away)
    return events + _aftermath(state, board, town, away)


def _calm_attempt(state: FiefState, board: Board, town: str, rng: Rng,
                  raisers: frozenset[str]) -> tuple[int, list[Event]]:
    bishopric = board.towns[town].bishopric
    calmer = _calmer(state, bishopric, raisers)
    if calmer is None:
        return 0, []
    lord, paid, title = calmer
    if paid:
        state.families[lord.family].deniers -= paid
    roll = rng.d6(f"{lord.name} calms the uprising in {town}")
    how = f"{title}, paying {edition_of(state).coins(paid)}" if paid else "bishop"
    if roll >= 3:
        return 1, [Event("uprising_calmed", f"{lord.name} ({how}) rolls {roll}: one uprising card in {town} "
                         "is discarded without effect (G.4.2.1).", data={"lord": lord.name, "roll": roll})]
    events = [Event("uprising_not_calmed", f"{lord.name} ({how}) rolls {roll}: the uprising card stands "
                    "(G.4.2.1).", data={"lord": lord.name, "roll": roll})]
    if not paid:
        events += eliminate_lord(state, board, lord.name)
    return 0, events


def calm_policy(policies: Mapping[str, Any]) -> dict[str, Any]:
    """A family's `calm_uprisings` policy as its mapping form (default: never)."""
    value = (policies or {}).get(CALM_POLICY) or "never"
    return dict(CALM_FORMS[value]) if isinstance(value, str) else dict(value)


def _calmer(state: FiefState, bishopric: int, raisers: frozenset[str]) -> Calmer | None:
    """Who tries to calm the next card: the edition's rule (its ``uprising_calmer`` hook; France:
    the bishop, else a cardinal paying 3 deniers, D.2.2), else the bishop of the bishopric
    (G.4.2.1, D.2.1)."""
    hook = edition_of(state).hooks.uprising_calmer
    return hook(state, bishopric, raisers) if hook else bishop_calms(state, bishopric, raisers)


def calmers(state: FiefState, raisers: frozenset[str]) -> list[Lord]:
    """The free lords who may calm an uprising (rules version 2: no family calms an uprising it
    takes part in, nor one raised by a player its `calm_uprisings` policy spares)."""
    free = [l for l in state.lords.values() if not l.captive_of]
    if state.rules_version >= 2:
        free = [l for l in free if l.family not in raisers
                and not raisers & set(calm_policy(state.families[l.family].policies).get("except_raised_by") or ())]
    return free


def bishop_calms(state: FiefState, bishopric: int, raisers: frozenset[str]) -> Calmer | None:
    """G.4.2.1, D.2.1: the bishop of the bishopric, if his family's policy lets him (a failed
    roll eliminates him): (lord, 0 deniers paid, "bishop") or None."""
    bishop = next((l for l in calmers(state, raisers) if l.bishopric == bishopric), None)
    if bishop is not None and calm_policy(state.families[bishop.family].policies)["as_bishop"]:
        return bishop, 0, "bishop"
    return None


def _hit_families(state: FiefState, town: str, roller: str, targets: list[str], hits: int,
                  away: frozenset[str]) -> list[Event]:
    present = [p for p in state.turn_order()
               if any(x.location == town and x.family == p and x.id not in away for x in state.pawns.values())]
    order = [p for p in targets if p in present] + [p for p in present if p not in targets and p != roller]
    order += [roller] if roller in present and roller not in order else []
    events: list[Event] = []
    for fam in order:
        if hits <= 0:
            break
        units = [x.id for x in state.pawns.values() if x.location == town and x.family == fam and x.id not in away]
        side = Side("defender", fam, [fam], units, [])   # only their troop (G.4.2.1)
        losses = choose_losses(state, side, hits, plan_for(state.families[fam].policies, town))
        for pid in losses.pawns:
            del state.pawns[pid]
        taken = hits - losses.wasted
        left_units = [u for u in units if u in state.pawns and state.pawns[u].kind != "bombard"]
        hits = losses.wasted if not left_units else 0   # 6.2.3.4: unabsorbed hits are lost
        events.append(Event("uprising_losses", f"{fam} loses {len(losses.pawns)} unit pawn(s) in {town} to the "
                            f"uprising ({taken} hit(s), 6.2.3.4).", data={"family": fam, "town": town,
                                                                           "pawns": losses.pawns}))
    return events


def _aftermath(state: FiefState, board: Board, town: str, away: frozenset[str]) -> list[Event]:
    """All troops gone: the lords there die (captives too), mills and a stronghold fall."""
    if any(p.location == town and p.kind != "bombard" and p.id not in away for p in state.pawns.values()):
        return []
    events: list[Event] = []
    for pid in [p.id for p in state.pawns.values() if p.location == town and p.id not in away]:
        del state.pawns[pid]   # Rulings: bombards cannot stay alone (4.3)
    for name in sorted(l.name for l in state.lords.values() if l.location == town and l.name not in away):
        if name in state.lords:
            events += eliminate_lord(state, board, name)
    here = state.towns[town]
    lost = [f"{here.mills} mill(s)"] if here.mills else []
    if here.fortress == "stronghold":
        lost.append("the stronghold")
        here.fortress = None
    here.mills = 0
    return events + [Event("uprising_ravage", f"No troop is left in {town}: every lord there is eliminated"
                           + (f" and {' and '.join(lost)} destroyed" if lost else "") + " (G.4.2.1).",
                           data={"town": town})]


def underground_for_uprising(state: FiefState, town: str, askers: list[str], penalty: int,
                             events: list[Event]) -> bool:
    """G.4.2.2: is an underground card played to ignore this uprising's Fortress penalty? The
    uprising's own players who asked for it (`underground: yes`, in turn order), else the
    standing `underground_in_uprising` triggers on the town, in turn order; one card is enough."""
    if penalty <= 0:
        for p in askers:
            events.append(Event("card_not_played", f"{p}'s underground card is not needed: no Fortress penalty in "
                                f"{town}; it stays in hand.", Audience.only(p), {"player": p, "card": "underground"}))
        return False
    for i, p in enumerate(askers):
        if "underground" not in state.families[p].hand:
            events.append(Event("card_not_played", f"{p} no longer holds an underground card for the uprising in "
                                f"{town}.", Audience.only(p), {"player": p, "card": "underground"}))
            continue
        state.families[p].hand.remove("underground")
        state.events_discard.append("underground")   # H.2
        events.append(_played(p, town, penalty))
        # A card that stays in hand stays secret: told to its holder only.
        events += [Event("card_not_played", f"{o}'s underground card is not needed: {p}'s cancels the Fortress "
                         "penalty already; it stays in hand.", Audience.only(o), {"player": o, "card": "underground"})
                   for o in askers[i + 1:]]
        return True
    for p in state.turn_order():
        if state.families[p].eliminated or "underground" not in state.families[p].hand:
            continue
        trigger = next((t for t in triggers_of(state, p, IN_UPRISING) if t["town"] == town), None)
        if trigger is not None:
            events.append(_played(p, town, penalty))
            events.append(spend_trigger(state, p, trigger, "underground", f"underground in the uprising in {town}"))
            return True
    return False


def _played(player: str, town: str, penalty: int) -> Event:
    return Event("surprise_played", f"{player} plays an underground card: the uprising in {town} ignores the "
                 f"Fortress penalty ({penalty}) (G.4.2.2).",
                 data={"player": player, "card": "underground", "town": town})
