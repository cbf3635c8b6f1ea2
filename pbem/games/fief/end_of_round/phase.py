"""End of Round Phase (7): disasters leave the board, the king's privilege turns back, the
victory check (7.1 lone, 7.2 alliance, 7.3 tiebreaker), then the first player card passes left.
"""
from __future__ import annotations

from pbem.games.fief.board import Board
from pbem.games.fief.cards.deck import load_cards, offshore_card
from pbem.games.fief.control import controllers
from pbem.games.fief.edition import edition_of
from pbem.games.fief.state import FiefState
from pbem.rules.api import Audience, Event


def victory_points(state: FiefState, family: str) -> int:
    """7: 1 VP per fief title in the family (`victory.fief_title_vp`), and what the edition's other
    titles bring (France: 1 for the king and 1 for the pope unless offshore; the hook
    ``title_points``) and what the family holds itself (England 8.1: the Relic VP marker; the hook
    ``family_points``)."""
    edition = edition_of(state)
    title_points = edition.hooks.title_points
    vp = 0
    for lord in state.lords.values():
        if lord.family != family:
            continue
        vp += edition.victory.fief_title_vp * len(lord.fief_titles) + title_points(state, lord)
    if edition.hooks.family_points is not None:
        vp += edition.hooks.family_points(state, family)
    return vp


def spouse_family(state: FiefState, family: str) -> str | None:
    """The family this one is allied with by marriage (1.1.2), if any."""
    for lord in state.lords.values():
        if lord.family == family and lord.spouse and lord.spouse in state.lords:
            other = state.lords[lord.spouse].family
            if other != family:
                return other
    return None


def winners(state: FiefState, board: Board) -> tuple[tuple[str, ...], str] | None:
    edition = edition_of(state)
    victory = edition.victory
    if state.round < victory.from_round:
        return None
    players = [p for p in state.players if not state.families[p].eliminated]
    vp = {p: victory_points(state, p) for p in players}
    if state.family_players:   # England 13.7: a player's two families
        return _two_families_victory(state, board, players, vp)
    found = _victory(state, board, players, vp)
    if found is None and victory.last_round is not None and state.round >= victory.last_round:
        return _most_points(state, board, players, vp)   # England 8.5: the game ends "no matter what"
    return found


def _victory(state: FiefState, board: Board, players: list[str],
             vp: dict[str, int]) -> tuple[tuple[str, ...], str] | None:
    """7.1-7.3 (England 8.2-8.3): a lone or an alliance victory, the tiebreaker among several."""
    edition = edition_of(state)
    victory = edition.victory
    married_may_win = len(state.players) in victory.married_lone_players   # 7.1: France's 3-player game
    lone = [(p,) for p in players
            if vp[p] >= victory.lone and (married_may_win or spouse_family(state, p) is None)]   # 7.1
    alliances = []
    if len(state.players) in victory.alliance_players:   # 7.2
        seen = set()
        for p in players:
            q = spouse_family(state, p)
            if q and q in vp and frozenset((p, q)) not in seen and vp[p] + vp[q] >= victory.alliance:
                seen.add(frozenset((p, q)))
                alliances.append(tuple(sorted((p, q), key=state.players.index)))
    # 7.3: a lone victory always prevails on an alliance victory
    candidates: list[tuple[str, ...]] = list(lone or alliances)
    if not candidates:
        return None
    kind = "lone" if lone else "alliance"
    best = _tiebreak(state, board, candidates)   # 7.3
    who = tuple(p for c in best for p in c)
    scores = ", ".join(f"{' & '.join(c)} {sum(vp[p] for p in c)} VP" for c in candidates)
    if kind == "lone":
        text = f"Lone victory (7.1) of {' and '.join(who)}"
    else:
        text = f"Alliance victory (7.2) of {' and '.join(who)}"
    if len(candidates) > 1:
        text += f", after the tiebreaker (7.3) among {scores}"
        if len(best) > 1:
            text += "; still tied after every tiebreaker, they share the victory (ruling)"   # ruling 10
    else:
        text += f" with {scores}"
    return who, text + "."


def _two_families_victory(state: FiefState, board: Board, players: list[str],
                          vp: dict[str, int]) -> tuple[tuple[str, ...], str] | None:
    """England 13.7 (l.850, R25, R124): a player counts the VP of both families. From round 5 a
    player wins with the alliance's VP (4) once the two families are allied through marriage (no
    Solo Victory: 13.7 names only this one); unmarried, the player waits. After the last round the
    player with the most VP wins, married or not (8.5: "no matter what"), then the tiebreak (R44)."""
    victory = edition_of(state).victory
    sides = [tuple(f for f in state.families_of(p) if f in vp) for p in state.player_names()]
    sides = [side for side in sides if side]
    score = {side: sum(vp[f] for f in side) for side in sides}
    names = {side: state.player_of(side[0]) for side in sides}
    married = [side for side in sides if len(side) > 1 and spouse_family(state, side[0]) in side
               and score[side] >= victory.alliance]
    last = victory.last_round is not None and state.round >= victory.last_round
    if married:
        leaders, why = married, f"two families allied through marriage and {victory.alliance} VP or more (13.7)"
    elif last:
        top = max(score.values())
        leaders, why = [side for side in sides if score[side] == top], "the most victory points (8.5, R25)"
    else:
        return None
    best = _tiebreak(state, board, leaders) if len(leaders) > 1 else leaders
    who = tuple(f for side in best for f in side)
    text = (f"{' and '.join(names[side] for side in best)} win{'s' if len(best) == 1 else ''} with {why}: "
            + ", ".join(f"{names[side]} {score[side]} VP (the families {' and '.join(side)})" for side in leaders))
    if len(leaders) > 1:
        text += ", after the tiebreak (8.5: the Order of the Garter, the Sovereign, Duchies, Counties, Baronies; R44)"
        if len(best) > 1:
            text += "; still tied, they share the victory (R44)"
    return who, text + "."


def _tiebreak(state: FiefState, board: Board, candidates: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """7.3 (England 8.5, R44): the candidates the edition's tiebreak ranks first."""
    towns_held: dict[str, int] = {}
    for family in controllers(state, board).values():
        if family:
            towns_held[family] = towns_held.get(family, 0) + 1
    keys = {c: edition_of(state).hooks.tiebreak(state, c, towns_held) for c in candidates}
    top = max(keys.values())
    return [c for c in candidates if keys[c] == top]


def _most_points(state: FiefState, board: Board, players: list[str],
                 vp: dict[str, int]) -> tuple[tuple[str, ...], str]:
    """England 8.5: after the last round the player or alliance with the most VP wins (a married
    pair counted together where alliances count, 8.3), then the tiebreak (R44); still tied, they
    share the victory (R44)."""
    victory = edition_of(state).victory
    sides: list[tuple[str, ...]] = []
    for p in players:
        q = spouse_family(state, p) if len(state.players) in victory.alliance_players else None
        side = tuple(sorted((p, q), key=state.players.index)) if q in vp else (p,)
        if side not in sides:
            sides.append(side)
    score = {side: sum(vp[p] for p in side) for side in sides}
    top = max(score.values())
    leaders = [side for side in sides if score[side] == top]
    best = _tiebreak(state, board, leaders) if len(leaders) > 1 else leaders
    who = tuple(p for side in best for p in side)
    text = (f"The last round ({victory.last_round}) is over: {' and '.join(who)} win{'s' if len(who) == 1 else ''} "
            f"with the most victory points, {top} (8.5)")
    if len(leaders) > 1:
        text += (", after the tiebreak among " + ", ".join(" & ".join(side) for side in leaders)
                 + " (8.5: the Order of the Garter, the Sovereign, Duchies, Counties, Baronies; R44)")
        if len(best) > 1:
            text += "; still tied, they share the victory (R44)"
    return who, text + "."


def resolve_end_of_round(state: FiefState, board: Board) -> list[Event]:
    own = edition_of(state).hooks.end_of_round
    events: list[Event] = own(state, board) if own is not None else []   # England 8.0
    kept = []
    disasters = load_cards(state.variant).disaster   # France: plague, bad weather, famine (G.2)
    stays = edition_of(state).hooks.stays_on_board   # England: an INVASION held at sea (R12)
    for effect in state.board_effects:
        if effect.card in disasters and not (stays is not None and stays(state, effect)):
            # on the offshore area: a card without the dice icon (2.5)
            state.events_discard.append(offshore_card(effect.card) if effect.target in board.seas else effect.card)
        else:
            kept.append(effect)
    if len(kept) != len(state.board_effects):
        events.append(Event("disasters_discarded", f"{len(state.board_effects) - len(kept)} disaster card(s) "
                            "leave the board (7).", data={}))
    state.board_effects = kept
    state.king_offer_used = False           # 7: the privilege is available again
    for lord in state.lords.values():      # 5.1.1: 2 steps (the D'Arc 3) "per round"
        lord.steps = 0
    for pawn in state.pawns.values():      # 5.1.1: "every unit pawn ... 2 steps per round"
        pawn.steps = 0
    state.plague_struck = []                # G.2.1.3: "during that round" only
    for offer in state.exchange_offers:     # F (ruling 23): an unanswered exchange offer lapses with the round
        events.append(Event("diplomacy_offer_lapsed", f"The card exchange {offer['from']} offered "
                            f"{offer['with']} lapses with the round (F).", Audience.only(offer["from"], offer["with"]),
                            {"from": offer["from"], "with": offer["with"]}))
    state.exchange_offers = []
    edition = edition_of(state)
    scores = {p: victory_points(state, p) for p in state.players}
    events.append(Event("victory_points", "Victory points: " + ", ".join(f"{p} {v}" for p, v in scores.items())
                        + f" ({edition.cite('7')}).", data={"vp": scores}))
    result = winners(state, board)
    if result:
        # the winners are players (13.7: a player's two families win as one player)
        state.winners, state.result_text = list(dict.fromkeys(state.player_of(f) for f in result[0])), result[1]
        state.phase = "over"
        events.append(Event("game_won", result[1], data={"winners": list(state.winners)}))
        return events
    passing = state.player_of(state.players[state.first_player])
    state.first_player = (state.first_player + 1) % len(state.players)   # 7: to the player on the left
    while state.player_of(state.players[state.first_player]) == passing:   # 13.7: to the opponent
        state.first_player = (state.first_player + 1) % len(state.players)
    nxt = state.players[state.first_player]
    why = "13.7" if state.family_players else edition.cite("7")
    events.append(Event("first_player", f"No winner this round; {state.player_of(nxt)} takes the first player "
                        f"card ({why}).", data={"player": nxt}))
    state.round += 1
    state.phase = edition.opening(state.round)   # E: the next round
    return events
