"""The End of Round Phase (7): victory. A lord leaving play (D.4) is hear_ye/elimination.py."""
