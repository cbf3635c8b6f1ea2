"""England's royal family and the Order of the Garter (E 9.0, 9.1, 13.1, 13.3, 4.8; rulings in
docs/fief-england.md, "The royal family and the Garter"): the royal guard (guard.py), the Queen,
the Prince Consort, the widow, the Prince of Wales and succession (succession.py), the Garter
(garter.py) and what every player sees of them (view.py)."""
