"""The read models: every row the store keeps beside the log, computed from a folded game
(`rows`), and every read of them the service runs (`seat_views`, `games`, `due`); `rebuild`
recomputes them all from the log."""
