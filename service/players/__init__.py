"""Players: identities and their API keys."""
