"""The judge (DESIGN.md, layer 3): games, players, phases, deadlines, the store, the archive.
It treats every game through pbem.rules.api only and imports no game."""
