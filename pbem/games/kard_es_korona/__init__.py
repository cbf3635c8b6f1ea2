"""Kard és Korona: the second rules family on the judge (issue 12)."""
