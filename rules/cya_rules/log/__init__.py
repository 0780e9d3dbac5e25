"""A game's log as stored and served: one decoder for every event type (`codec`), who sees an
event in full (`visibility`), the hash chain over the stored bytes (`chain`), the history's
lines (`history`) and the signed receipts' format (`receipts`). Pure: the event store writes
with it, `cya-verify` reads a downloaded history with it."""
