"""Diplomacy (F): messages, agreements and gifts at any time."""
