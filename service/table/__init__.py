"""The table around the rules, pure like the domain: who sits where (`seats`, the lobby's
events and commands), what a turn clock's expiry did (timeouts), and one game as the pipeline
folds it (`Game`). Its events live in the game's own log beside the domain's."""
