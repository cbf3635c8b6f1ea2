"""Opportunity cards (E 10.0-10.5, 11.2): played at once by mail, or spent by the part whose moment they interrupt."""
