"""Operations: liveness, readiness (answered, not raised, when not ready) and metrics."""

from __future__ import annotations

from cya_client.areas.base import Area, AsyncArea
from cya_client.models import Health
from cya_client.transport import Call


def health() -> Call[Health]:
    return Call("GET", "/v1/healthz", Health)


def ready() -> Call[Health]:
    return Call("GET", "/v1/readyz", Health, ok=frozenset({200, 503}), retry=False)


def metrics() -> Call[str]:
    return Call("GET", "/v1/metrics", str, headers={"Accept": "text/plain"})


class Ops(Area):
    def health(self) -> Health:
        return self._s.run(health())

    def ready(self) -> Health:
        """`status` is `unavailable` (and `checks` says why) when the server is not ready."""
        return self._s.run(ready())

    def metrics(self) -> str:
        """The Prometheus text."""
        return self._s.run(metrics())


class AsyncOps(AsyncArea):
    async def health(self) -> Health:
        return await self._s.run(health())

    async def ready(self) -> Health:
        return await self._s.run(ready())

    async def metrics(self) -> str:
        return await self._s.run(metrics())
