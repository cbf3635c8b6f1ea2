"""What the Fief: France rulebook states about its board, checked whenever board data is loaded
(pbem/games/fief/board.py, through the edition's hooks). Line numbers are lines of
shared/rules/fief-france.txt.
"""
from __future__ import annotations

from pbem.games.fief.facts import BoardFacts

FRANCE = BoardFacts(
    town_count=24,  # A (line 138)
    fiefs={
        "bourgogne": ("Duchy of Bourgogne", "duchy"),
        "aquitaine": ("Duchy of Aquitaine", "duchy"),
        "normandie": ("County of Normandie", "county"),
        "poitou": ("County of Poitou", "county"),
        "flandres_paris": ("County of Flandres and Paris", "county"),
        "languedoc": ("County of Languedoc", "county"),
        "dauphine": ("Barony of Dauphiné", "barony"),
        "bretagne": ("Barony of Bretagne", "barony"),
    },
    bishoprics={1: ("Toulouse", "Toulouse"), 2: ("Lisieux", "Lisieux"), 3: ("Calais", "Calais"),
                4: ("Reims", "Reims"), 5: ("Avignon", "Avignon")},
    harbors=("Calais", "Cherbourg", "Nantes", "La Rochelle", "Bordeaux", "Montpellier"),
    named_towns=frozenset({
        "Rennes", "Nantes", "Lisieux", "Tours", "Rouen", "Cherbourg", "Calais", "Liège", "Reims",
        "Dijon", "Orléans", "Lyon", "Clermont", "Poitiers", "La Rochelle", "Limoges", "Bordeaux",
        "Pau", "Toulouse", "Montpellier", "Avignon"}),
    fief_members=(
        ("bretagne", frozenset({"Rennes", "Nantes"}), True, "4.4 example, line 737"),
    ),
    bishopric_members=(
        (2, frozenset({"Lisieux", "Rennes", "Nantes", "Tours"}), False, "1.3.2 example, line 509"),
        # Ruling (docs/fief-france.md): the example's 4-town bishopric of Avignon is exactly the
        # towns its three players control: Lyon, Avignon (3 votes), Pau, Montpellier (2 votes).
        (5, frozenset({"Avignon", "Lyon", "Pau", "Montpellier"}), True, "1.3.2 example, line 511"),
    ),
    bishopric_sizes={5: (4, "1.3.2 example, line 511")},
    roads=(
        ("La Rochelle", "Poitiers", "5.2.1 example, line 791"),
        ("Poitiers", "Limoges", "5.2.1 example, line 791"),
        ("Tours", "Poitiers", "5.2.3 example, line 841"),
    ),
)
