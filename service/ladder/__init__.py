"""The ladder: the bot levels measured against each other on seeded, duplicate-seated deals,
with win rates and their 95% intervals, OpenSkill ratings, and the targets of issue 29."""
