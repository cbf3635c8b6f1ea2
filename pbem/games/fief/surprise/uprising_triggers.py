"""Standing triggers around uprisings (G.4.2.1, G.4.2.2), kept under `policies: surprise:`.

    policies:
      surprise:
        - uprising_when_taxed: Calais       # the Income Phase collects a tax affecting Calais
          cards: 2                          #   optional: up to 2 of your uprising cards (default 1)
          targets: [bob]                    #   optional: the families hit, in order
          underground: yes                  #   optional: also play an underground card against
                                            #   the Fortress penalty
        - uprising_on_famine: Nantes        # a famine strikes the bishopric of Nantes (step C)
        - uprising_before_move: Tours       # a lord of another family is about to leave Tours
          against: [bob]                    #   optional: only the moves of these families
        - uprising_at_battle_start: Tours   # a battle starts in Tours
        - underground_in_uprising: Nantes   # an uprising in Nantes would suffer a Fortress
                                            #   penalty: your underground card cancels it

G.4.2.1: an uprising "may only be played in a town affected at least by a tax card, or by a
famine card", and "by the time an uprising card is played, every player may play some others to
cumulate their effects". By mail nobody can answer a card as it is played, so each moment the
rulebook implies is a trigger point, set in advance:
- the moment a tax or tithe is collected: the start of the Income Phase (3), while the tax cards
  still lie on the board (they are discarded once the income is received) - a tax played later
  in the cards-play step than your own turn is there too;
- the Cards Phase after a famine: the end of step C (2.5), before anyone plays a card in step D
  (a good harvest could cancel the famine);
- the Movement Phase: "an uprising card may only be played in a town, it must be played before a
  lord starts their movement" (5.2.1): just before a lord of another family leaves the town;
- the start of a battle ("uprising cards may be played at the beginning of a battle").
Every trigger of one kind on one town fires into one uprising (H.3: the first in turn order rolls
and chooses), fully resolved at once (G.4: a surprise effect stops the ongoing action).
G.4.2.2: an underground card "at any time ... ignore any Fortress penalty when resolving an
uprising": one card cancels the whole penalty of that uprising.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Mapping

from pbem.games.fief.board import Board
from pbem.orders.reading import Problems, check_keys, whole_number, yes_no
from pbem.games.fief.state import FiefState
from pbem.games.fief.surprise.standing import lacks_card, spend_trigger, triggers_of
from pbem.games.fief.surprise.orders import uprising_targets
from pbem.games.fief.surprise.uprising import GROUNDS, IN_UPRISING, raise_uprising, state_grounds
from pbem.orders.yamlsafe import line_of
from pbem.rules.api import Event
from pbem.rules.rng import Rng

AT_BATTLE = "uprising_at_battle_start"
WHEN_TAXED = "uprising_when_taxed"
ON_FAMINE = "uprising_on_famine"
BEFORE_MOVE = "uprising_before_move"
# Each uprising trigger: the card lying on the town that it waits for (whoever played it: the
# moment a tax is collected, the famine), and how its firing is told. Each card of the uprising
# must then be allowed to its player on any grounds (G.4.2.1: a famine, another player's tax).
UPRISINGS = {
    WHEN_TAXED: (("tax",), "as the Income Phase collects the taxes, an uprising breaks out in {town}"),
    ON_FAMINE: (("famine",), "as the famine strikes, an uprising breaks out in {town}"),
    BEFORE_MOVE: (GROUNDS, "as {mover}'s lord {lord} is about to leave {town}, an uprising breaks out there"),
    AT_BATTLE: (GROUNDS, "as a battle starts in {town}, an uprising breaks out"),
}
ANYONE = ""   # no player: any tax card counts as the moment a tax is collected
MAX_CARDS = 4   # G.4.2.1: 4 uprising cards in the game


# -- checking (at send time, against the sender's view) -----------------------------------------

def check_uprising_trigger(view: dict, player: str, item: dict, town: str, where: int | None,
                           problems: Problems, kind: str = AT_BATTLE) -> dict | None:
    """An uprising trigger on ``town``: its grounds (a famine, another player's tax) are checked
    when it fires, since the cards played later in the round may bring them."""
    own = ("against",) if kind == BEFORE_MOVE else ()
    check_keys(item, (kind, "targets", "underground", "cards") + own, f"an `{kind}` trigger", problems)
    underground = yes_no(item, "underground", problems)
    if lacks_card(view, "uprising", where, problems):
        return None
    if underground and lacks_card(view, "underground", where, problems,
                                  "you hold no underground card for `underground: yes`"):
        return None
    trigger: dict[str, Any] = {"trigger": kind, "town": town, "targets": uprising_targets(view, item, problems),
                               "underground": bool(underground)}
    if "cards" in item:
        cards = whole_number(item["cards"], line_of(item, "cards") or where, "cards", problems)
        if cards is not None and cards > MAX_CARDS:
            problems.add(line_of(item, "cards") or where, f"there are {MAX_CARDS} uprising cards in the game, "
                         f"not {cards} (G.4.2.1)", "write e.g. `cards: 2`")
        elif cards is not None and cards > 1:
            trigger["cards"] = cards   # up to that many of your uprising cards; left out: 1
    if own:
        against = uprising_targets(view, item, problems, "against")
        if player in against:
            problems.add(line_of(item, "against") or where, "your own moves never raise your uprising",
                         f"remove {player} from `against:`")
        trigger["against"] = against
    return trigger


def check_underground_trigger(view: dict, player: str, item: dict, town: str, where: int | None,
                              problems: Problems) -> dict | None:
    check_keys(item, (IN_UPRISING,), f"an `{IN_UPRISING}` trigger", problems)
    if lacks_card(view, "underground", where, problems):
        return None
    return {"trigger": IN_UPRISING, "town": town}


# -- firing ---------------------------------------------------------------------------------

def fire_uprisings(state: FiefState, board: Board, kind: str, rng: Rng, town: str | None = None,
                   mover: str | None = None, lord: str | None = None,
                   away: frozenset[str] = frozenset()) -> list[Event]:
    """The triggers of one ``kind`` fire (only those on ``town`` if given; ``mover``: the family
    whose lord ``lord`` is about to move). Towns come in the order of their first trigger in
    turn order (H.3; a player's triggers in the order written); every trigger of that kind on
    the town whose player still holds an uprising card and may raise an uprising there joins one
    uprising (G.4.2.1 "cumulate"), played with up to its `cards:` uprising cards. Fired triggers
    are removed; one that cannot fire (no card, no grounds) waits."""
    events: list[Event] = []
    tried: set[str] = set()
    while True:
        here = next((t["town"] for _, t in _armed(state, board, kind, town, mover) if t["town"] not in tried), None)
        if here is None:
            return events
        tried.add(here)
        events += _one_uprising(state, board, kind, here, mover, lord, rng, away)


def _armed(state: FiefState, board: Board, kind: str, town: str | None, mover: str | None):
    """(player, trigger) of this kind that would fire now, in turn order and as written."""
    causes = UPRISINGS[kind][0]
    for player in state.turn_order():
        if state.families[player].eliminated or "uprising" not in state.families[player].hand:
            continue
        for trigger in triggers_of(state, player, kind):
            if town is not None and trigger["town"] != town:
                continue
            if mover is not None and (mover == player or (trigger.get("against") and mover not in trigger["against"])):
                continue
            if (state_grounds(state, board, ANYONE, trigger["town"], causes) is None
                    and state_grounds(state, board, player, trigger["town"]) is None):
                yield player, trigger


def _one_uprising(state: FiefState, board: Board, kind: str, town: str, mover: str | None, lord: str | None,
                  rng: Rng, away: frozenset[str]) -> list[Event]:
    cards: list[tuple[str, Mapping[str, Any]]] = []
    fired: list[Event] = []
    left: dict[str, Counter] = {}
    for player, trigger in list(_armed(state, board, kind, town, mover)):
        hand = left.setdefault(player, Counter(state.families[player].hand))
        if hand["uprising"] <= 0:
            continue   # its cards went to an earlier trigger of this uprising: it waits
        n = min(hand["uprising"], int(trigger.get("cards") or 1))
        hand["uprising"] -= n
        # raise_uprising takes the cards from the hand and discards them; only the trigger goes here.
        fired.append(spend_trigger(state, player, trigger, None, f"an uprising in {town} ({n} card(s))"))
        play = {"targets": trigger.get("targets") or [], "underground": trigger.get("underground", False)}
        cards += [(player, play)] + [(player, {"targets": [], "underground": False})] * (n - 1)
    if not cards:
        return []
    text = UPRISINGS[kind][1].format(town=town, mover=mover, lord=lord)
    events = [Event("trigger_uprising" if kind != AT_BATTLE else "battle_uprising",
                    text[0].upper() + text[1:] + " (G.4.2.1)" + (": it is resolved before the battle."
                                                               if kind == AT_BATTLE else "."),
                    data={"town": town, "trigger": kind})]
    return events + fired + raise_uprising(state, board, town, cards, rng, away)


def fire_before_move(state: FiefState, board: Board, rng: Rng, town: str, mover: str, lord: str,
                     away: Callable[[], frozenset[str]]) -> list[Event]:
    """resolve_movement's ``before_move`` moment (5.2.1): ``mover``'s lord ``lord`` is about to
    leave ``town``; its `uprising_before_move` triggers fire."""
    if not any(t["town"] == town for p in state.players for t in triggers_of(state, p, BEFORE_MOVE)):
        return []   # the usual case, kept cheap: nobody waits for a move out of this town
    return fire_uprisings(state, board, BEFORE_MOVE, rng, town=town, mover=mover, lord=lord, away=away())


def fire_uprising_triggers(state: FiefState, board: Board, town: str, rng: Rng) -> list[Event]:
    """A battle is about to start in ``town``: its `uprising_at_battle_start` triggers fire."""
    return fire_uprisings(state, board, AT_BATTLE, rng, town=town)


def describe_uprising(trigger: dict) -> str:
    """One line for the owner's report: the standing uprising trigger in words."""
    when = {WHEN_TAXED: "when a tax is collected in {town} (Income)",
            ON_FAMINE: "when a famine strikes {town} (Cards Phase)",
            BEFORE_MOVE: "before a lord of {who} leaves {town} (Movement)",
            AT_BATTLE: "at the start of a battle in {town}"}[trigger["trigger"]]
    who = ", ".join(trigger.get("against") or []) or "another family"
    n = trigger.get("cards") or 1
    return (f"surprise: uprising{f' (up to {n} cards)' if n > 1 else ''} "
            + when.format(town=trigger["town"], who=who)
            + (f", hitting {', '.join(trigger['targets'])} first" if trigger.get("targets") else "")
            + (", with an underground card" if trigger.get("underground") else ""))
