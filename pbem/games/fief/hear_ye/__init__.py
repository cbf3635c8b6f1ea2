"""The Hear Ye, Hear Ye! Phase (1): elections, titles, the royal family."""
