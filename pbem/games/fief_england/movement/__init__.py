"""Fief: England's Movement Phase (E 5.0-5.5, 13.4): what England adds to the core's movement
(pbem/games/fief/movement/): naval moves through its six seas, Sherwood's bandit paths, the
permission to enter a fortified place, the Royal Family's moves and England's cavalcade.
"""
