"""The Income Phase (3)."""
