"""Fief: England's Church (E 2.13, 2.14, 3.1, 3.2, 4.8, 12.0-12.4): Bishops and Archbishops from
cards (clergy.py), Abbesses and their Abbeys (abbeys.py), the Relics (relics.py) and the Heresy
marker (heresy.py). Their state lives in ``FiefState.edition_state`` under the keys ``clergy``,
``abbeys``, ``relics`` and ``heresy`` (plain JSON; the core never reads it)."""
