"""The table around the rules, as the game's log records it: who holds each seat (`seats`),
the lobby's events and their fold (`lobby`), the seeds of the deal (`seeds`), games that end
without a result (`endings`), what a turn clock's expiry did (`timeouts`) and the
players' preset reactions (`talk`). Pure like the
rules: the service decides these events (service/table/), an offline verifier folds them."""
