"""Surprise cards (G.4): played at once or held for a trigger."""
