"""Run a bot written as one function: `choose(view, legal) -> command`."""

from cya_client.bot.runner import Choose, GameRecord, GameResult, Plan, Runner

__all__ = ["Choose", "GameRecord", "GameResult", "Plan", "Runner"]
