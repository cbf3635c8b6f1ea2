"""The Purchase Phase (4)."""
