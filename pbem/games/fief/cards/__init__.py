"""The Cards Phase (2) and the cards (B, G)."""
