"""The read models: every row the store keeps beside the log, computed from a folded game
(`rows`), and every read of them the service runs (`seat_views`, `games`, `due`); the ratings
(`ratings`, `leaderboard`); the tournaments' rows beside their logs (`tournaments`). `rebuild`
recomputes the games' from the log. No other package queries these tables."""
