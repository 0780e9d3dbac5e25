"""One small client class per area of the API, each over the client's one session: a sync
class and an async one (`Async…`) built from the same `Call`s."""
