"""The Battle Phase (6): battles, sieges, plunder."""
