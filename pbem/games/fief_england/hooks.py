"""Fief: England's own rules that are code, reached by the Fief core through the edition record
(games/fief_england/edition.yaml names this module; pbem/games/fief/hooks.py, ``Hooks``).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from pbem.games.fief.board import Board, load_board
from pbem.games.fief.edition import load_edition
from pbem.games.fief.hooks import Hooks
from pbem.games.fief.state import FiefState, Lord
from pbem.games.fief_england.battle.construction import CONSTRUCT, lift_unpaid, sieges_view
from pbem.games.fief_england.battle.rules import BATTLE
from pbem.games.fief_england.board_loader import load_england_board
from pbem.games.fief_england.cards import load_england_cards
from pbem.games.fief_england.cards_round import cards_view, round_end as cards_round_end
from pbem.games.fief_england.disasters import WEATHER, full_track_face_up, resolve_disasters
from pbem.games.fief_england.fortune import INCOME_RULES, income_parts as fortune_income
from pbem.games.fief_england.scorch import SCORCH
from pbem.games.fief_england.opportunity.orders import CARD_PLAYS
from pbem.games.fief_england.opportunity.rebellion import JOIN_POLICY, QUELL_POLICY, policy_checker
from pbem.games.fief_england.opportunity.triggers import standing_triggers   # 2.6, R157
from pbem.games.fief_england import hired, retainers
from pbem.games.fief_england.characters import CHARACTERS
from pbem.games.fief_england.church.death import church_after_death
from pbem.games.fief_england.church.income import mill_share
from pbem.games.fief_england.church import relics
from pbem.games.fief_england.church.relic_powers import skull_spares
from pbem.games.fief_england.church_at_once import VERBS as CHURCH_VERBS
from pbem.games.fief_england.church_hooks import before_draws, captured
from pbem.games.fief_england.church_hooks import end_of_round as church_round_end, income_parts as church_income
from pbem.games.fief_england.church_view import church_view
from pbem.games.fief_england.elections import ELECTIONS
from pbem.games.fief_england.facts import ENGLAND
from pbem.games.fief_england.invaders.attacked import ATTACK_INVADERS, VERB as ATTACK
from pbem.games.fief_england.invaders.income import halved_income
from pbem.games.fief_england.invaders.landing import held_at_sea
from pbem.games.fief_england.lent_passage import INVADERS   # 6, with PASSAGE lent to the Invaders (R146)
from pbem.games.fief_england.invaders.view import invaders_view
from pbem.games.fief_england import crown, excalibur, parliament, pigeons
from pbem.games.fief_england.movement import sherwood
from pbem.games.fief_england.movement.run import MOVEMENT
from pbem.games.fief_england.royal import garter, guard, succession
from pbem.games.fief_england.royal.view import view_part as royal_view_part
from pbem.games.fief_england.setup import SETUP
from pbem.games.fief_england.titles import SOVEREIGN, has_garter
from pbem.rules.api import Event

# The keys of the edition record that England's own modules read (docs/fief-england.md, "Edition
# record"), each with the shape its value must have (edition.py ``_Reader.shaped``).
_WHOLE = int
_ROLLS = [int]
RECORD_KEYS: dict[str, Any] = {
    "hired_units": {"*": {"price": _WHOLE, "combat_points": _WHOLE, "per_card": _WHOLE}},       # 11.1
    "royal_guard": {"*": {"combat_points": _WHOLE, "count": _WHOLE, "melee_hits": _WHOLE}},     # 13.1
    "invaders": {"armies": _WHOLE, "foot_soldiers": _WHOLE, "leader_combat_points": _WHOLE,     # 6.0-6.10
                 "foot_combat_points": _WHOLE, "reinforcements": _WHOLE, "moves": _WHOLE,
                 "ransom_base": _WHOLE, "ransom_per_title": _WHOLE, "danegeld": _WHOLE,
                 "church_intervention_leaves": _ROLLS},
    "bandit_ransom": {"untitled": _WHOLE, "lord": _WHOLE, "clergy": _WHOLE, "clergy_lord": _WHOLE,  # 13.4
                      "sovereign": _WHOLE},
    "dice": {"battle_die": _ROLLS, "battle_dice_by_strength": {"*": _WHOLE},                    # 7.1-7.8 and others
             **{k: _WHOLE for k in ("stronghold_penalty", "fortified_city_penalty", "cavalcade_defence_bonus",
                                    "archer_volley_bonus_from", "archers_vs_stronghold",
                                    "archers_vs_fortified_city", "trebuchet_dice", "second_trebuchet_bonus",
                                    "deadlock_rounds")},
             **{k: _ROLLS for k in ("plague_death", "pigeon_lost", "bandits_capture", "quell_rebellion_stops",
                                    "excalibur_own", "excalibur_arthur")}},
    "moves": {"royal_to_abbey_or_stronghold": _WHOLE, "naval_seas": _WHOLE},                     # 4.9, 5.4
    "no_disasters_in_round": _ROLLS,                                                           # 2.4
    "money.shared_purse_two_player": bool,                                                     # 13.7
    "start.strongholds": _WHOLE, "start.nobles": {"male": _WHOLE, "female": _WHOLE},            # X14, Setup
    "start.nobles_set_aside": {"male": _WHOLE, "female": _WHOLE},                              # Setup (l.31)
    **{f"supply.{k}": _WHOLE for k in ("abbeys", "royal_strongholds", "carrier_pigeons", "treasures", "garter",
                                       "relics")},
    "supply.shillings": {"*": _WHOLE},
    **{f"limits.{k}": _WHOLE for k in ("retainers_per_noble", "marriages_per_player", "invader_armies_on_map")},
    **{f"prices.{k}": _WHOLE for k in ("royal_stronghold", "trebuchet_construction", "quell_rebellion",
                                       "royal_tax", "abbey_rebuild")},
    **{f"income.{k}": _WHOLE for k in ("abbey", "fortune_bonus", "tithe_per_mill", "abbey_visitor",
                                       "abbey_royal_visitor", "abbey_relic", "abbey_excalibur", "abbey_mill_bonus",
                                       "invaders_divisor", "scorched_earth_per_mill", "pillage_abbey")},
    "victory.relic_vp": _WHOLE, "victory.sovereign_vp": _WHOLE,                                # 8.1
    "victory.tiebreak": [("garter", "sovereign", "duke", "count", "baron")],                   # 8.5, R44
}


def title_points(state: FiefState, lord: Lord) -> int:
    """8.1 (R2): the Sovereign is worth `victory.sovereign_vp` (0); fiefdom titles are counted by
    the core (1 each)."""
    sovereign_vp = load_edition(state.variant).extra["victory.sovereign_vp"]
    return sovereign_vp if lord.political in SOVEREIGN else 0


def family_points(state: FiefState, family: str) -> int:
    """8.1: 1 VP for the Relic VP marker (12.0: the player who first gave a relic to the Sovereign)."""
    return relics.relic_vp(state, family)


# 8.5: the record's `victory.tiebreak` words: the fiefdom ranks by their titles' names.
RANKS = {"duke": "duchy", "count": "county", "baron": "barony"}


def tiebreak(state: FiefState, families: tuple[str, ...], towns_held: dict[str, int]) -> tuple:
    """8.5, R44, in the order of the record's `victory.tiebreak` (garter, sovereign, duke, count,
    baron): holding the Order of the Garter, then the King or Sovereign Queen, then the number of
    Duchies, Counties, Baronies (Ex 8-2: "A Duke, with the Order of the Garter, beats the King")."""
    board = load_board(state.variant, state.options.get("board", "board"))
    lords = [l for l in state.lords.values() if l.family in families]
    ranks = [board.fiefs[f].rank for l in lords for f in l.fief_titles]
    keys = {"garter": any(has_garter(state, l) for l in lords),
            "sovereign": any(l.political in SOVEREIGN for l in lords),
            **{word: ranks.count(rank) for word, rank in RANKS.items()}}
    return tuple(keys[word] for word in load_edition(state.variant).extra["victory.tiebreak"])


def lord_played(state: FiefState, player: str, name: str, play: Mapping[str, Any]) -> list[Event]:
    """2.11: a noble card played brings no title with it in England; 2.12: a retainer is drawn for
    the new noble; FAQ l.869: the Queen's new son is the Prince of Wales."""
    return retainers.draw_for(state, name) + succession.new_noble(state, name)


def after_elimination(state: FiefState, gone: Lord) -> list[Event]:
    """4.8, FAQ: "the Noble's card ... removed from the game": a dead noble's card does not go to
    the character discards (the core put it there) and never comes back."""
    if gone.name in state.character_discard:
        state.character_discard.remove(gone.name)
    out = state.edition_state.setdefault("setup", {}).setdefault("out_of_game", [])
    out.append(gone.name)
    # 13.1, 13.3, 9.0: the guard, the Garter, the succession; then 13.2: Excalibur (R21: the Prince
    # of Wales succeeds first, so whoever picks the sword up does not become King over him)
    return [Event("noble_card_removed", f"{gone.name}'s card leaves the game (4.8).",
                  data={"lord": gone.name})] + church_after_death(state, gone) \
        + succession.after_death(state, gone) + excalibur.holder_lost(state, gone, gone.location, None)


def view_parts(state: FiefState, board: Board, player: str | None) -> dict[str, Any]:
    """What England adds to a view: the starting Regions rolled under 13.6 (public: rolled in
    front of everyone) and the viewer's own; the carrier pigeons left and where they fly (2.15);
    Parliament (9.2)."""
    rolled = (state.edition_state.get("setup") or {}).get("regions") or {}
    setup = {"setup": {"regions": dict(rolled), "region": rolled.get(player or "")}} if rolled else {}
    return {**setup, **sherwood.view(state), **invaders_view(state, board, player),   # 13.4; 6.0: public
            **cards_view(state),   # the cards on the Regions and the treasures (2.4, 11.3)
            **pigeons.view(state), **parliament.view(state, board), **crown.royal_view(state),
            **excalibur.view(state),   # 13.2: public
            **sieges_view(state),   # 7.9: the trebuchets under construction (public)
            "church": church_view(state, player),   # the Church, retainers, relics, family-board cards
            **royal_view_part(state)}   # 13.1, 13.3: the royal guard, the Prince of Wales, the Garter (public)


def income_parts(state: FiefState, board: Board) -> tuple[dict[str, list[tuple[str, int]]], list[Event]]:
    """3: England's own incomes, the fortune cards' (the Tallage, 2.8) then the Church's (the
    Abbeys and retainers, 3.1), as the core's `income_parts` hook takes them."""
    parts: dict[str, list[tuple[str, int]]] = {}
    events: list[Event] = []
    for part in (fortune_income, church_income):
        more, told = part(state, board)
        for family, items in more.items():
            parts.setdefault(family, []).extend(items)
        events += told
    return parts, events


def captured_hook(state: FiefState, lord: Lord) -> list[Event]:
    """6.3 (E 7.6): a noble taken captive drops the relics they carried (12.0) and loses their royal
    guard (13.1)."""
    return captured(state, lord) + succession.captured(state, lord)


def end_of_round(state: FiefState, board: Board) -> list[Event]:
    """8.0: England's own End of Round, the cards' (cards on the Regions discarded, Treasures back,
    2.10, 11.3) then the Church's (Spent retainers face up, crossbowmen back on their card)."""
    return cards_round_end(state, board) + church_round_end(state, board)


HOOKS = Hooks(board_facts=ENGLAND, title_points=title_points, tiebreak=tiebreak, elections=ELECTIONS,
              lord_played=lord_played, after_elimination=after_elimination, married=succession.married,   # 9.0
              phases=(INVADERS, parliament.PARLIAMENT), record_keys=RECORD_KEYS,
              board_loader=load_england_board,
              cards_loader=load_england_cards, family_points=family_points, setup=SETUP,
              view_parts=view_parts, disasters=resolve_disasters, full_track_face_up=full_track_face_up,
              empty_towns="fortress", placement="controlled", movement=MOVEMENT,
              battle=replace(BATTLE, verbs={ATTACK: ATTACK_INVADERS}),   # 7.0, 6.8: players attack the Invaders
              purchase_start=sherwood.purchase_start, units_off_map=sherwood.units_off_map,
              purchase_verbs={"construct": CONSTRUCT}, purchase_end=lift_unpaid,   # 7.9
              income_total=halved_income,
              queen_titles=("queen",),   # 3.0 (l.266): "2 Shillings for the Queen's Title" (R59)
              card_plays=CARD_PLAYS, weather=WEATHER, income_rules=INCOME_RULES, income_parts=income_parts,
              at_once_verbs={"scorch": SCORCH,   # 3.4
                             **pigeons.VERBS, **crown.VERBS,   # 2.15: carrier pigeons; 4.5, 4.6, 4.9
                             **CHURCH_VERBS,   # 2.12-2.14, 11.1, 12.0: the Church's, retainers', relics'
                             **excalibur.VERBS,   # 13.2: drawing Excalibur
                             **garter.VERBS},   # 13.3
              fief_towns=crown.fief_towns,   # 4.9, R19
              policies={key: policy_checker(key) for key in (JOIN_POLICY, QUELL_POLICY)},
              characters=CHARACTERS, standing_triggers=standing_triggers,   # 2.6, R157
              end_of_round=end_of_round, stays_on_board=held_at_sea,   # 8.0, R12
              before_draws=before_draws, captured=captured_hook, spared=skull_spares, mill_share=mill_share,
              other_pawns={hired.UNIT: ("crossbowman", "crossbowmen")},
              royal_guard=guard.GUARDS, guard_serves=guard.serves,   # 13.1
              cavalcade_kinds=("knight", guard.KNIGHTS))   # 5.2: "Nobles and Knights"; the King's guard rides too
