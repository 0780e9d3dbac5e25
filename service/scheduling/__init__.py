"""Bot moves and expiring turn clocks: what a game waits for, and who carries it out.

`decision_job.take_due_decision` is the one job body; RQ workers (`workers/`) and the
in-process scheduler (the embedded default) both run it. Nothing here imports the modules
that use it.
"""
