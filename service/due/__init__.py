"""Due work: what the game waits for (a bot's move, an expiring clock) and who carries it out.

`decisions.take_due_decision` is the one job body; RQ workers (`workers/`) and the in-process
scheduler (the embedded default) both run it. Nothing here imports the modules that use it.
"""
