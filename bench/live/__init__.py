"""Parts of bench/live_games.py: many games at once, every seat following its game."""
