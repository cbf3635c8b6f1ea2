"""PASSAGE played during Movement (E 10.2; a BURGHER's Secret Routes, 11.2): England's card on
a step of a move, through the core's ``MoveCard`` hook (pbem/games/fief/movement/underground.py,
France's underground card, G.4.2.2): the move order names it the same way,

    passage: Winchester                 # the step reaching Winchester: always
    passage: if_needed                  # any step by road that STORMS, a refusal or a siege stop
    passage: {Winchester: always, others: if_needed, by: burgher}   # the BURGHER's (a Treasure)

and the core decides at each step whether to play it. 10.2's three uses in Movement:

- "Escape from a Besieged Stronghold or Fortified City ... a first Move that normally would not
  be allowed": the besiegers' leave is not asked;
- "Move in STORMS ... one Move in a Region with STORMS ... into or out of the Region";
- "Avoid a Battle: ... pass through an Opponent's occupied City without asking permission or
  using a Cavalcade ... or ... move out of the City along the same Road the Opponent entered
  from" - and, for the fortification 10.2's note names ("locals helping you into an Opponent's
  Fortification"), entering a Stronghold, Fortified City or Abbey without its owner's leave (5.0).

"If any of these moves are from a Port City, a Naval Move (5.4) may be made": the card plays on
a naval move too, named by the port it lands at (`passage: London`), out of STORMS, out of a
besieged port, past an army that arrived there (R23) or into the landing port's fortress; it
does not let sail an army that did not begin the round in the port.

One PASSAGE makes one step, whatever of these stopped it (R120). The card is spent through the
cards part's ``use_passage`` (the PASSAGE from the hand, or the BURGHER's Passage action and a
Treasure marker, 11.3); the step is the core's underground step: the army is placed directly in
the city, crossing nobody, entering its fortress or Abbey.
"""
from __future__ import annotations

from typing import Any, Mapping

from pbem.games.fief.edition import edition_of, load_edition
from pbem.games.fief.movement.army import Army
from pbem.games.fief.movement.underground import MoveCard
from pbem.games.fief_england.opportunity.cards import use_passage
from pbem.rules.api import Event

KEY = "passage"
CARD, BURGHER = "card", "burgher"


def held(view: Mapping[str, Any], player: str, by: str) -> tuple[int, str, str]:
    """The PASSAGE plays ``player`` can make from ``by``: the cards in hand, or (11.2, 11.3) the
    Treasure markers left with a BURGHER card on the family board."""
    hand = list(view.get("hand") or [])
    if by == CARD:
        return (hand.count(KEY), "you hold no PASSAGE card (10.2)",
                "remove `passage:`, or write `by: burgher` in it to use your BURGHER's Secret Routes; your hand: "
                + (", ".join(hand) or "empty"))
    card = str(((view.get("church") or {}).get("family_card") or {}).get(player) or "")
    if not card.startswith("burgher"):
        return 0, "you have no BURGHER card on your family board (11.2)", "remove `by: burgher`"
    treasures = int(load_edition(view["game"]).extra["supply.treasures"])   # 11.3: 2 a family
    left = treasures - len((view.get("treasures_used") or {}).get(player, []))
    return (max(0, left), "both of your Treasure markers already lie on played cards this round (11.3)",
            "remove `passage:`; the markers return at the end of the round")


def _use(run: Any, army: Army, cur: str, target: str, first: bool, why: str) -> tuple[str, str]:
    """Which of 10.2's Movement uses this step makes, and how the report says it."""
    weather = edition_of(run.state).hooks.weather
    if why.startswith("STORMS") or weather is not None and weather.blocks(run.state, run.board, cur, target):
        return "storms", f"moves through the STORMS from {cur} to {target}"
    town = run.state.towns[cur]
    if first and town.besiegers and army.family not in town.besiegers:
        return "escape_siege", f"escapes from the besieged {cur} to {target}"
    if first:
        return "avoid_battle", f"leaves {cur} for {target} crossing nobody"
    return "avoid_battle", f"passes through {cur} to {target} without asking leave"


def play(run: Any, army: Army, cur: str, target: str, first: bool, why: str, by: str) -> bool:
    """``MoveCard.play``: spend the PASSAGE (10.2) or the BURGHER's Passage action (11.2) and
    tell it; False, the player told why, when none can be spent now (an earlier play used it)."""
    use, how = _use(run, army, cur, target, first, why)
    spent, events = use_passage(run.state, army.family, use, by)
    if not spent:
        run.teller.add(events)
        run.teller.private("passage_missing", [army.family],
                           f"{army.leader}'s PASSAGE for the step to {target} is not played ({why}); the step "
                           "follows the normal movement rules.",
                           {"lord": army.leader, "family": army.family, "to": target})
        return False
    run.teller.add(events)
    run.teller.add([Event("passage_move", f"{army.family}'s {army.leader} {how}, placed directly in the city: one "
                          "Move (10.2).", data={"player": army.family, "lord": army.leader, "from": cur,
                                                 "to": target, "use": use, "by": by})])
    run.teller.private("trigger_fired", [army.family], f"Your PASSAGE was played on {army.leader}'s step to "
                       f"{target}: {why}.", {"player": army.family, "card": KEY, "lord": army.leader, "to": target,
                                             "why": why})
    return True


PASSAGE = MoveCard(KEY, "PASSAGE card", "10.2", held, play, sources=(CARD, BURGHER), naval=True,
                   no_step="name a city the path reaches")
