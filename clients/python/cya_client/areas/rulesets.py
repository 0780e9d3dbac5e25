"""The rule sets: editions with their cards, presets, options and rules versions."""

from __future__ import annotations

from cya_client.areas.base import Area, AsyncArea
from cya_client.models import Catalogue
from cya_client.transport import Call


def catalogue() -> Call[Catalogue]:
    return Call("GET", "/v1/rulesets", Catalogue)


class Rulesets(Area):
    def catalogue(self) -> Catalogue:
        return self._s.run(catalogue())


class AsyncRulesets(AsyncArea):
    async def catalogue(self) -> Catalogue:
        return await self._s.run(catalogue())
