"""Verification of a stored game: its hash chain, every shuffle, and the rules replayed."""
