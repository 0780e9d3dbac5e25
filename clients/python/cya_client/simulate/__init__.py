"""Play offline: `cya-bot simulate mybot.py --against greedy,expert --games 1000 --players 4`.

The bot's own `choose(view, legal)` plays the built-in levels in memory, with the rules engine
(`cya-rules`, an optional dependency) and the SDK's own models: the function cannot tell a
simulated game from one on the server. `cli` imports the engine only when it runs, so that
`cya-bot` works without it; `convert`, `games` and `run` need it.
"""
