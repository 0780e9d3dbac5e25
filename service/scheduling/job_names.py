"""The names of jobs, which cross from the process that enqueues a job to the one that runs it
as strings: RQ's dotted paths of the functions in `workers/jobs.py` (API processes enqueue
without importing the workers), and the webhook jobs that `workers.jobs.webhook_job` and the
in-process runner hand to `service.webhooks.dispatch.Webhooks.run_job` by name.

Written once, here, low enough in the layers that every enqueuer imports them;
`tests/test_job_names.py` resolves each path and finds a body for each webhook job. A job
already queued keeps the name it was queued with: renaming one strands those jobs during a
rolling deploy.
"""

from __future__ import annotations

# RQ jobs: `workers.jobs.<function>`.
TAKE_DUE_DECISION = "workers.jobs.take_due_decision"
ADVANCE_TOURNAMENT = "workers.jobs.advance_tournament"
END_IDLE_GAME = "workers.jobs.end_idle_game"
WEBHOOK_JOB = "workers.jobs.webhook_job"
NOOP = "workers.jobs.noop"  # the benchmark's yardstick (bench/bots.py)
RQ_JOBS = (TAKE_DUE_DECISION, ADVANCE_TOURNAMENT, END_IDLE_GAME, WEBHOOK_JOB, NOOP)

# Webhook jobs: the first argument of `WEBHOOK_JOB`.
DELIVER_DECISION = "deliver_decision"
EXPIRE_DECISION = "expire_decision"
DELIVER_EVENTS = "deliver_events"
WEBHOOK_JOBS = (DELIVER_DECISION, EXPIRE_DECISION, DELIVER_EVENTS)
