"""Webhooks: bots played by POSTing each decision to their endpoint, and event webhooks that
tell client apps about their games. Deliveries are signed per Standard Webhooks
(`standardwebhooks`), run as worker jobs (RQ, or in-process on the embedded default), and go
out through one guarded client (`outbound.py`).

`dispatch.Webhooks` is the one object the rest of the service holds: the pipeline's commit
listener, and the entry point of the delivery jobs.
"""
