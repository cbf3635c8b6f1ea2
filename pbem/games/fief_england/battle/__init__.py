"""Fief: England's battle (E 7.0-7.10): every battle round opens with projectiles (trebuchets,
bombards, archers and crossbowmen) and then melee. ``numbers`` reads the edition record's
battle numbers, ``rounds`` is the round as pure functions over plain forces (used for the
players' battles and the Invaders' alike), ``steps`` runs it in the core's battle engine."""
