"""Captive lords (6.3)."""
