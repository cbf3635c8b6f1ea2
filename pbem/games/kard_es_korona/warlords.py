"""What becomes of a defeated province lord (II. Royal / Neutral Units; III. Elimination or
Vassal Oath): captured by neutrals and ransomed within three years, or, beaten by a player,
the vassal oath, the escape roll or plain elimination his player ordered in advance."""
from __future__ import annotations

from pbem.games.kard_es_korona.state import OFFICE_NAMES, State, board_of, is_neutral, neutral_owner
from pbem.games.kard_es_korona.movement_orders import DEFAULT_BATTLE
from pbem.rules.api import Event
from pbem.rules.rng import Rng

CAPTIVITY_YEARS = 3     # II: placed on the timescale three years on
ESCAPE_ROLL = 6         # III. Elimination or Vassal Oath


def reroll_allowed(state: State, player: str) -> bool:
    """IV. Judge Royal: he may re-roll a roll of his once (ruling K14: the judge re-rolls a
    failed roll of his for him, always to his advantage)."""
    return state["offices"]["judge_royal"] == player


def _lose_offices(state: State, player: str) -> list[Event]:
    lost = [o for o, holder in state["offices"].items() if holder == player]
    for office in lost:
        state["offices"][office] = None   # III: it returns to the crown until the next election
    return [Event("office_lost", f"{player} loses the office of {OFFICE_NAMES[office]}.") for office in lost]


def lord_defeated(state: State, loser: str, victor: str, county: str, rng: Rng, killed: bool = False) -> list[Event]:
    """``killed``: he lost the warlords' duel, and with his head his territory and wealth (l.260;
    ruling B9): no vassal oath, no escape."""
    state["lords"][loser] = None
    if killed:
        return [Event("killed", f"{loser}'s province lord is killed in the duel in {county} (III, ruling B9).",
                      data={"player": loser})] + eliminate(state, loser, victor)
    if is_neutral(victor):   # II: prisoner of the neutrals, ransomed within three years or dead
        state["captive"][loser] = state["year"] + CAPTIVITY_YEARS
        return [Event("captured", f"{loser}'s province lord is taken prisoner in {county}; he must be ransomed "
                      f"for 20 garas before {state['captive'][loser]} (II).", data={"player": loser})] \
            + _lose_offices(state, loser)
    choice = state["battle_orders"].get(loser, DEFAULT_BATTLE)["if_defeated"]
    if choice == "elimination":   # III: "a player is eliminated at once" (ruling K34)
        return eliminate(state, loser, victor)
    if choice == "escape":
        events = _escape(state, loser, county, rng)
        if state["lords"][loser] is not None:
            return events
        return events + eliminate(state, loser, victor)
    return swear_oath(state, loser, victor)


def _escape(state: State, loser: str, county: str, rng: Rng) -> list[Event]:
    """III: a 6 takes him to a unit of his within one county (the first in board order, K15)."""
    board = board_of(state)
    refuges = [c for c in sorted(board.borders[county]) if state["armies"].get(c, {}).get("owner") == loser]
    if not refuges:
        return [Event("escape", f"{loser}'s province lord has no unit of his within one county to escape to.")]
    roll = rng.d6(f"{loser}'s escape")
    if roll != ESCAPE_ROLL and reroll_allowed(state, loser):
        roll = rng.d6(f"{loser}'s escape, the Judge Royal's re-roll")
    if roll != ESCAPE_ROLL:
        return [Event("escape", f"{loser}'s province lord tries to escape and rolls {roll}: he is caught.")]
    state["lords"][loser] = refuges[0]
    return [Event("escape", f"{loser}'s province lord rolls a 6 and escapes to {refuges[0]}.",
                  data={"player": loser, "county": refuges[0]})]


def swear_oath(state: State, loser: str, victor: str) -> list[Event]:
    """III: the vassal keeps his armies, loses his figure, offices and treasury (war booty)."""
    overlord = state["vassal_of"].get(victor, victor)
    booty = state["treasury"][loser]
    state["treasury"][overlord] += booty
    state["treasury"][loser] = 0
    state["vassal_of"][loser] = overlord
    events = [Event("oath", f"{loser} swears the vassal oath to {overlord}, who takes his treasury of {booty} garas "
                    "as war booty.", data={"player": loser, "overlord": overlord})]
    return events + _lose_offices(state, loser) + _free_vassals(state, loser)


def eliminate(state: State, loser: str, victor: str) -> list[Event]:
    """III: the loser's units become the victor's (ruling K15: all of them), with his territory
    and money; his offices return to the crown; his vassals go free."""
    for here in state["armies"].values():
        if here["owner"] == loser:
            here["owner"] = victor
    for county, owner in list(state["owner"].items()):
        if owner == loser:
            state["owner"][county] = victor
    for battle in state["battles"]:
        for side in ("attacker", "defender"):
            if battle[side] == loser:
                battle[side] = victor
    state["treasury"][victor] += state["treasury"][loser]
    state["treasury"][loser] = 0
    state["eliminated"].append(loser)
    state["captive"].pop(loser, None)
    state["vassal_of"].pop(loser, None)
    return ([Event("eliminated", f"{loser} is eliminated: his units, territory and treasury go to {victor}.",
                   data={"player": loser, "by": victor})]
            + _lose_offices(state, loser) + _free_vassals(state, loser))


def _free_vassals(state: State, fallen: str) -> list[Event]:
    """V: a vassal whose overlord falls is freed; his lord returns in one of his counties."""
    board = board_of(state)
    events = []
    for vassal in [v for v, o in state["vassal_of"].items() if o == fallen]:
        del state["vassal_of"][vassal]
        where = next((c for c in board.counties if state["armies"].get(c, {}).get("owner") == vassal), None)
        state["lords"][vassal] = where
        events.append(Event("freed", f"{vassal} is freed of his oath; his province lord returns"
                            + (f" in {where}." if where else ", but he has no county left."),
                            data={"player": vassal}))
    return events


def ransom_deadlines(state: State) -> list[Event]:
    """II: a captive not ransomed when the timescale reaches his year dies; ruling K11: his
    player is out and his units become neutral units (as a player who stops playing, II)."""
    events = []
    for player, year in list(state["captive"].items()):
        if state["year"] >= year:
            del state["captive"][player]
            _turn_neutral(state, player)
            state["eliminated"].append(player)
            events.append(Event("executed", f"{player}'s province lord was not ransomed by {year} and dies; "
                                f"{player} is out of the game and his units become neutral (II).",
                                data={"player": player}))
            events.extend(_free_vassals(state, player))
    return events


def _turn_neutral(state: State, player: str) -> None:
    """II (l.120): ``player``'s units and counties become neutral, in his province's colour."""
    neutral = neutral_owner(state["home"][player], royal=False)
    for here in state["armies"].values():
        if here["owner"] == player:
            here["owner"] = neutral
    for county, owner in list(state["owner"].items()):
        if owner == player:
            state["owner"][county] = neutral


def players_leave(state: State, gone: list[str]) -> list[Event]:
    """II (l.120): "If one of the players for some reason stops playing, but the others would
    continue without him, his existing units become neutral units and take part in the game
    further in the manner described above" (they do not move, recruit or counterattack, and
    defend to the last). By mail, a player whose position fell into civil disorder (ruling
    K32): his lord leaves the board, his offices return to the crown, his vassals go free, an
    oath he swore ends, and he is out of the game."""
    events: list[Event] = []
    for player in gone:
        if player in state["eliminated"]:
            continue
        _turn_neutral(state, player)
        state["lords"][player] = None
        state["captive"].pop(player, None)
        state["vassal_of"].pop(player, None)
        state["eliminated"].append(player)
        events.append(Event("left", f"{player} has stopped playing: his units become neutral units and stay where "
                            "they stand, and he is out of the game (II).", data={"player": player}))
        events.extend(_lose_offices(state, player) + _free_vassals(state, player))
    return events
