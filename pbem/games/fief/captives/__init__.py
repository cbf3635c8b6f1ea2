"""Captive lords (6.3): ransoms, releases and transfers. Lords taken captive in a battle:
battle/taken.py."""
