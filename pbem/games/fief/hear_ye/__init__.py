"""The Hear Ye, Hear Ye! Phase (1) and the titles (D): elections, titles, the royal family, a lord
leaving play (D.4)."""
