"""Challenges and quick play (matchmaking), as data and pure decisions: who may accept, decline
or cancel a challenge, the seats of the game it becomes, and which waiting seekers are paired.
Its runner (`runner/`) keeps them in the database and opens their games through the pipeline.
"""
