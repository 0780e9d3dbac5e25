"""Challenges and seeks in the database, the pairing transaction, and the games they open
through the pipeline (`Pipeline.create_game`, then `Start`), as the HTTP lobby does."""
