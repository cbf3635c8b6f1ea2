"""The End of Round Phase (7) and lords leaving play (D.4)."""
