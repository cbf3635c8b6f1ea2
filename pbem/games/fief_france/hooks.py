"""Fief: France's own rules that are code, reached by the Fief core through the edition record
(games/fief_france/edition.yaml names this module; pbem/games/fief/hooks.py, ``Hooks``)."""
from __future__ import annotations

from pbem.games.fief.hooks import Guard, Hooks, LordCardKey, TitleBonus
from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief_france.characters import CHARACTERS
from pbem.games.fief_france.church import tithe_rank, uprising_calmer
from pbem.games.fief_france.elections import ELECTIONS
from pbem.games.fief_france.facts import FRANCE
from pbem.games.fief_france.hear_ye import HEAR_YE_ORDERS
from pbem.games.fief_france.naval import NAVAL, OFFSHORE, disaster_target
from pbem.games.fief_france.royal import (PRIVILEGED, QUEEN_TITLES, justice_immune, lord_played, marriage_blocker,
                                         married, titles_after_elimination, unmarried)


def title_points(state: FiefState, lord: Lord) -> int:
    """7: the king title and the pope title are 1 VP each, unless their lord is offshore."""
    return int(lord.political == "king" and lord.location != OFFSHORE) + int(lord.pope and lord.location != OFFSHORE)


def tiebreak(state: FiefState, families: tuple[str, ...], towns_held: dict[str, int]) -> tuple:
    """7.3: the king title, else the pope, else the regent queen, else the most fief titles,
    else the most bishop titles, else the most towns controlled."""
    lords = [l for l in state.lords.values() if l.family in families]
    return (any(l.political == "king" for l in lords), any(l.pope for l in lords),
            any(l.political == "regent_queen" for l in lords),
            sum(len(l.fief_titles) for l in lords), sum(1 for l in lords if l.bishopric),
            sum(towns_held.get(f, 0) for f in families))


# G.4.1.1: "she may move up to 3 steps instead of 2. The troop, captive lords and other lords who
# accompany her benefit from that bonus"; "she gives 1 additional battle dice in every battle
# she is in, it is the sole case where a player may roll 4 battle dice".
TITLE_BONUS = {"darc": TitleBonus(steps=3, dice=1, title="D'Arc", section="G.4.1.1")}


# 1.5.5: the royal guard, "2 king's retinue knights" / "2 queen's retinue sergeants" given in
# place of 2 knights / men-at-arms of the king's (queen's) army; worth a knight (3 CP) and a
# man-at-arms (1 CP), 6.2.3.1; the regent queen keeps the queen's.
ROYAL_GUARD = {"kings_knight": Guard(("king",), "knight", 3, 2, "king's retinue knight", "king's retinue knights"),
               "queens_sergeant": Guard(("queen", "regent_queen"), "man_at_arms", 1, 2, "queen's retinue sergeant",
                                        "queen's retinue sergeants")}


HOOKS = Hooks(board_facts=FRANCE, title_points=title_points, tiebreak=tiebreak, elections=ELECTIONS,
              lord_played=lord_played, after_elimination=titles_after_elimination, title_bonus=TITLE_BONUS,
              lord_card_keys=(LordCardKey("crown_prince", "G.1.1"),), naval=NAVAL, tithe_rank=tithe_rank,
              uprising_calmer=uprising_calmer, characters=CHARACTERS,
              royal_guard=ROYAL_GUARD, married=married, unmarried=unmarried, marriage_blocker=marriage_blocker,
              justice_immune=justice_immune, privileged=PRIVILEGED, queen_titles=QUEEN_TITLES,
              disaster_target=disaster_target, cardinals=True, hear_ye_orders=HEAR_YE_ORDERS)
