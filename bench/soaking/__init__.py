"""The soak's parts (`bench/soak.py` is the entry point): the service in its two shapes and
the faults (`cluster.py`, `servers.py`), the clients (`players.py`, `followers.py`,
`hooks.py`, `browser.py`), the tables they sit at (`tables.py`), what each read
(`reads.py`) and how it is judged against the finished game's log (`history.py`,
`checks.py`, `judging.py`), the loop lag (`lag.py`) and the figures (`calls.py`,
`report.py`)."""
